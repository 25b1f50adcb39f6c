import { useId, useState } from 'react';
import { Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import {
  Button,
  Form,
  SaveButton,
  useCanAccess,
  useDataProvider,
  useGetList,
  useGetOne,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import PaymentsIcon from '@mui/icons-material/Payments';
import CloseIcon from '@mui/icons-material/Close';
import type { FieldDeclaration } from '../../../core/engine/types';
import { formatPounds } from '../../../core/engine/money';
import { InputFor } from '../../engine/react/inputs';
import { recordName } from '../../engine/react/actions';
import { invoices, payments } from '../../../core/resources/invoices/resource';
import { useAgency } from '../../layout/useShellData';
import { DEFAULT_ZONE } from '../timesheets/format';
import { agencyToday } from '../../../core/domain/time/agencyTime';

/** States an invoice can be paid in (settlement.ts: issued and not settled yet). */
const PAYABLE = ['issued', 'sent', 'part_paid'];
const field = (source: string) => payments.fields.find((f) => f.source === source)!;
const shareSource = (id: RaRecord['id']) => `share_${id}`;

/** What is left of the payment for this invoice once the shares on the client's other invoices are taken. */
function ThisInvoiceShare({ invoice, others }: { invoice: RaRecord; others: RaRecord[] }) {
  const translate = useTranslate();
  const values = useWatch();
  const amount = Number(values.amount ?? 0);
  const shared = others.reduce((s, o) => s + Number(values[shareSource(o.id)] ?? 0), 0);
  return (
    <Typography variant="body2" sx={{ my: 1 }} role="status">
      {translate('app.invoices.payment.this_invoice', {
        invoice: recordName(invoices, invoice),
        left: formatPounds(Number(invoice.balance)),
        share: formatPounds(amount - shared),
      })}
    </Typography>
  );
}

/**
 * A payment from the invoice's client (POST /api/payments): its date (the product's date picker), amount,
 * reference and method, all of it on this invoice unless shares are put on the client's other open invoices. The
 * server shares it (allocatePayment) and refuses an overpayment in words, shown under the amount.
 */
function PaymentDialog({ invoice, onClose }: { invoice: RaRecord; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider();
  const titleId = useId();
  const zone = useAgency().data?.timeZone ?? DEFAULT_ZONE;
  const { data: client } = useGetOne('clients', { id: invoice.client_id });
  const { data: open = [] } = useGetList('invoices', {
    filter: { client_id: invoice.client_id, state: PAYABLE },
    sort: { field: 'due_date', order: 'ASC' },
    pagination: { page: 1, perPage: 100 },
  });
  const others = open.filter((o) => o.id !== invoice.id && Number(o.balance) > 0);
  const shareField = (o: RaRecord): FieldDeclaration => ({
    source: shareSource(o.id),
    type: 'money',
    label: translate('app.invoices.payment.share', {
      invoice: recordName(invoices, o),
      left: formatPounds(Number(o.balance)),
      due: o.due_date ?? '',
    }),
    min: 0,
  });
  const submit = async (values: Record<string, any>) => {
    const amount = Number(values.amount ?? 0);
    const split = others
      .map((o) => ({ invoice_id: Number(o.id), amount: Number(values[shareSource(o.id)] ?? 0) }))
      .filter((s) => s.amount > 0);
    const shared = split.reduce((s, p) => s + p.amount, 0);
    try {
      await dataProvider.create('payments', {
        data: {
          client_id: invoice.client_id,
          paid_on: values.paid_on,
          amount: values.amount,
          reference: values.reference,
          method: values.method,
          // This invoice takes what the other shares leave (nothing when they take it all).
          split: [
            ...(amount - shared !== 0 ? [{ invoice_id: Number(invoice.id), amount: amount - shared }] : []),
            ...split,
          ],
        },
      });
    } catch (e: any) {
      const errors: Record<string, string> | undefined = e?.body?.errors;
      // The server's refusal stays next to the field it names (an overpayment: the amount).
      if (errors && Object.keys(errors).length) return errors;
      notify(e?.message ?? String(e), { type: 'error' });
      return { amount: e?.message ?? String(e) };
    }
    notify('app.invoices.payment.recorded', { type: 'success' });
    refresh();
    onClose();
  };
  const title = translate('app.invoices.payment.title', { client: client?.name ?? '' });
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Form
        record={{ paid_on: agencyToday(zone), amount: Number(invoice.balance), method: 'bank_transfer' }}
        noValidate
        onSubmit={submit}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <InputFor of={field('paid_on')} />
          <InputFor of={field('amount')} />
          <InputFor of={field('reference')} />
          <InputFor of={field('method')} />
          <ThisInvoiceShare invoice={invoice} others={others} />
          {others.length > 0 && (
            <>
              <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
                {translate('app.invoices.payment.split')}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {translate('app.invoices.payment.split_help')}
              </Typography>
              {others.map((o) => (
                <InputFor key={o.id} of={shareField(o)} helperText={false} />
              ))}
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={onClose}>
            <CloseIcon />
          </Button>
          <SaveButton label="app.invoices.payment.record" icon={<PaymentsIcon />} alwaysEnable />
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** Offered on an issued invoice with something left to pay, to those who may record payments. */
export function RecordPaymentButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'payments', action: 'create' });
  const [open, setOpen] = useState(false);
  if (!record || !canAccess || !PAYABLE.includes(record.state) || Number(record.balance) <= 0) return null;
  return (
    <>
      <Button label="app.invoices.payment.record" onClick={() => setOpen(true)}>
        <PaymentsIcon />
      </Button>
      {open && <PaymentDialog invoice={record} onClose={() => setOpen(false)} />}
    </>
  );
}
