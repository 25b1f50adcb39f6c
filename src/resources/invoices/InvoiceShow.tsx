import type { ReactNode } from 'react';
import {
  Box,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { Link } from 'react-router';
import {
  Button,
  DataTable,
  FunctionField,
  ReferenceManyField,
  Show,
  TopToolbar,
  useCanAccess,
  useGetList,
  useGetMany,
  useNotify,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import EditIcon from '@mui/icons-material/Edit';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ArticleIcon from '@mui/icons-material/Article';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { RecordActions } from '../../engine/react/actions';
import { ChildList, RecordCards, TableScroll } from '../../engine/react/children';
import { FieldFor } from '../../engine/react/fields';
import { HistoryPanel } from '../../engine/react/history';
import { ShowFields } from '../../engine/react/show';
import { formatPounds } from '../../../core/engine/money';
import { lockedReason } from '../../../core/engine/lifecycle';
import { creditNotes, invoiceLines, invoices, PAYMENT_METHODS } from '../../../core/resources/invoices/resource';
import { downloadInvoicePdf, selectedTemplate, templatePath, TEMPLATE_IDS } from './templates';
import { RecordPaymentButton } from './PaymentDialog';
import { DownloadButton } from './DownloadButton';
import { UblButton } from './UblButton';

/** The draft's editor at the spec's address, in the remembered layout. */
export const editPath = (id: string | number) => `/edit/${id}/${selectedTemplate()}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ px: 2, pb: 2, minWidth: 0 }} aria-label={title}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A line's VAT: its rate, or "Exempt" on an exempt line (VAT Regulations 1995 reg 14 asks for the word). */
export function LineVat(_: { label?: string; source?: string }) {
  const translate = useTranslate();
  return (
    <FunctionField
      render={(r: RaRecord) =>
        r.vat_treatment === 'exempt' ? (
          <Chip size="small" label={translate('app.invoices.exempt')} />
        ) : (
          `${Number(r.vat_rate ?? 0) / 100}%`
        )
      }
    />
  );
}

/** Net and VAT by rate: standard-rated and exempt apart, as the invoice's rollups keep them. */
function VatTotals({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const rows = [
    { name: translate('app.invoices.standard'), net: record.standard_net, vat: record.vat },
    { name: translate('app.invoices.exempt'), net: record.exempt_net, vat: 0 },
  ].filter((r) => Number(r.net) !== 0);
  return (
    <TableScroll>
      <Table size="small" aria-label={translate('app.invoices.vat_totals')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.invoices.rate')}</TableCell>
            <TableCell align="right">{translate('app.invoices.net')}</TableCell>
            <TableCell align="right">{translate('app.invoices.vat')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.name}>
              <TableCell>{r.name}</TableCell>
              <TableCell align="right">{formatPounds(Number(r.net))}</TableCell>
              <TableCell align="right">{formatPounds(Number(r.vat))}</TableCell>
            </TableRow>
          ))}
          {(
            [
              ['total', record.total],
              ['credited', record.credited],
              ['paid', record.paid],
              ['balance', record.balance],
            ] as const
          ).map(([k, v]) => (
            <TableRow key={k}>
              <TableCell component="th" scope="row" colSpan={2} sx={{ fontWeight: 500 }}>
                {translate(`app.invoices.${k}`)}
              </TableCell>
              <TableCell align="right" sx={{ fontWeight: 500 }} data-amount={k}>
                {formatPounds(Number(v ?? 0))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableScroll>
  );
}

const choiceName = (choices: { id: string; name: string }[], id: unknown) =>
  choices.find((c) => c.id === id)?.name ?? String(id ?? '');

/** The payments put against the invoice, each with its share of it (a payment may be split over several). */
function Payments({ id }: { id: RaRecord['id'] }) {
  const translate = useTranslate();
  const { data: shares = [] } = useGetList('payment_allocations', {
    filter: { invoice_id: id },
    sort: { field: 'id', order: 'ASC' },
    pagination: { page: 1, perPage: 100 },
  });
  const { data: payments = [] } = useGetMany('payments', {
    ids: [...new Set(shares.map((s) => s.payment_id))],
  });
  if (!shares.length) return <Typography variant="body2">{translate('app.invoices.no_payments')}</Typography>;
  const byId = new Map(payments.map((p) => [p.id, p]));
  return (
    <TableScroll>
      <Table size="small" aria-label={translate('app.invoices.payments')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.payments.fields.paid_on', { _: 'Paid on' })}</TableCell>
            <TableCell>{translate('resources.payments.fields.reference', { _: 'Reference' })}</TableCell>
            <TableCell>{translate('resources.payments.fields.method', { _: 'Method' })}</TableCell>
            <TableCell align="right">{translate('resources.payments.fields.amount', { _: 'Amount' })}</TableCell>
            <TableCell align="right">{translate('app.invoices.paid')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shares.map((s) => {
            const p = byId.get(s.payment_id);
            return (
              <TableRow key={s.id}>
                <TableCell>
                  <Link to={`/payments/${s.payment_id}/show`}>{p?.paid_on ?? `#${s.payment_id}`}</Link>
                  {/* A reversal is a share of its own, negated: the payment says it was reversed. */}
                  {Number(s.amount) < 0 && ` (${translate('app.invoices.reversed')})`}
                </TableCell>
                <TableCell>{p?.reference ?? ''}</TableCell>
                <TableCell>{choiceName(PAYMENT_METHODS, p?.method)}</TableCell>
                <TableCell align="right">{p ? formatPounds(Number(p.amount)) : ''}</TableCell>
                <TableCell align="right">{formatPounds(Number(s.amount))}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableScroll>
  );
}

/** A credit note's number, opening its page. */
function CreditNoteNumber() {
  const record = useRecordContext();
  return record ? <Link to={`/credit_notes/${record.id}/show`}>{record.number}</Link> : null;
}

/** A credit note's PDF, as kept when it was made. */
function CreditNotePdf() {
  const record = useRecordContext();
  return record ? (
    <DownloadButton path={`/credit_notes/${record.id}/pdf`} number={String(record.number)} variant="text" />
  ) : null;
}

const CREDIT_NOTE_COLUMNS = ['number', 'issue_date', 'kind', 'reason', 'net', 'vat', 'total'].map((source) =>
  creditNotes.fields.find((f) => f.source === source)!,
);

/**
 * The credit notes against the invoice, with the declaration's columns: a table on a wide screen, a card each on a
 * phone (the download of a table's last column would sit past the screen's edge).
 */
function CreditNotes({ id }: { id: RaRecord['id'] }) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const cells = { number: <CreditNoteNumber /> };
  return (
    <ReferenceManyField
      record={{ id }}
      reference="credit_notes"
      target="invoice_id"
      sort={{ field: 'id', order: 'ASC' }}
      perPage={100}
      empty={<Typography variant="body2">{translate('app.invoices.no_credit_notes')}</Typography>}
    >
      {phone ? (
        <RecordCards decl={creditNotes} fields={CREDIT_NOTE_COLUMNS} cells={cells} actions={<CreditNotePdf />} />
      ) : (
        <TableScroll>
          <DataTable bulkActionButtons={false} rowClick={false} aria-label={translate('app.invoices.credit_notes')}>
            {CREDIT_NOTE_COLUMNS.map((f) => (
              <DataTable.Col key={f.source} source={f.source} label={f.label}>
                {cells[f.source as keyof typeof cells] ?? <FieldFor of={f} />}
              </DataTable.Col>
            ))}
            <DataTable.Col label={translate('app.client_invoices.pdf')}>
              <CreditNotePdf />
            </DataTable.Col>
          </DataTable>
        </TableScroll>
      )}
    </ReferenceManyField>
  );
}

/**
 * The PDF of the layout the browser remembers (selectedTemplate), links to view either layout, and once the invoice is
 * issued (numbered) its e-invoice (GET /api/invoices/{id}/ubl: EN 16931 UBL, Peppol BIS Billing 3.0).
 */
function InvoiceDocuments() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  if (!record) return null;
  const chosen = selectedTemplate();
  const failed = (e: unknown) => notify(e instanceof Error ? e.message : String(e), { type: 'error' });
  return (
    <>
      <Button
        label={translate('app.invoices.pdf', { name: translate(`app.invoices.${chosen}`) })}
        onClick={() => downloadInvoicePdf(record.id).catch(failed)}
      >
        <PictureAsPdfIcon />
      </Button>
      <UblButton resource="invoices" />
      {TEMPLATE_IDS.map((t) => (
        <Button key={t} component={Link} to={templatePath(record.id, t)} label={`app.invoices.${t}`}>
          <ArticleIcon />
        </Button>
      ))}
    </>
  );
}

/** A draft's editor; an issued invoice's editor says why it cannot be changed, so it is offered for drafts only. */
function EditDraftButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'invoices', action: 'edit' });
  if (!record || record.state !== 'draft' || !canAccess) return null;
  return (
    <Button component={Link} to={editPath(record.id)} label="app.invoices.edit">
      <EditIcon />
    </Button>
  );
}

function InvoiceBody() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Stack spacing={1} sx={{ minWidth: 0 }}>
      <Section title={translate('app.invoices.lines')}>
        <ChildList
          decl={invoiceLines}
          parentId={record.id}
          rowActions="menu"
          columns={['description', 'work_date', 'quantity', 'unit_price', 'vat_treatment', 'net', 'vat']}
          cells={{ vat_treatment: <LineVat /> }}
          // Lines change only while the invoice is a draft: the add button says why not.
          createDisabledReason={lockedReason(invoices, record)}
        />
      </Section>
      <Section title={translate('app.invoices.vat_totals')}>
        <VatTotals record={record} />
      </Section>
      <Section title={translate('app.invoices.payments')}>
        <Payments id={record.id} />
      </Section>
      <Section title={translate('app.invoices.credit_notes')}>
        <CreditNotes id={record.id} />
      </Section>
    </Stack>
  );
}

/**
 * /invoice/client-invoice/client-InvoiceView/{id}: the invoice's details, its lines, totals by VAT rate, payments,
 * credit notes and history; its declared actions (issue, send, void, credit note), a payment, its PDF and layouts.
 */
export function InvoiceShow({ decl, fieldOverrides }: ViewOptions) {
  const translate = useTranslate();
  return (
    <Show
      resource={decl.name}
      actions={
        <TopToolbar sx={{ flexWrap: 'wrap' }}>
          <RecordActions decl={decl} />
          <RecordPaymentButton />
          <InvoiceDocuments />
          <EditDraftButton />
        </TopToolbar>
      }
    >
      <Section title={translate('app.invoices.details')}>
        <ShowFields decl={decl} fieldOverrides={fieldOverrides} />
      </Section>
      <InvoiceBody />
      <InvoiceHistory />
    </Show>
  );
}

function InvoiceHistory() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box sx={{ px: 2, pb: 2 }}>
      <HistoryPanel target={{ resource: 'invoices', id: record.id }} />
    </Box>
  );
}
