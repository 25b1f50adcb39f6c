import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  CircularProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { ApiFailure, request, requestAll } from '../../providers/request';
import { DownloadButton } from './DownloadButton';
import { formatPounds, formatVatRate } from '../../../core/engine/money';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime';
import { ISSUED_STATES } from '../../../core/resources/invoices/resource';

/*
 * The client panel's invoices (issue 32): /client/invoice, the client's issued invoices and credit notes with what it
 * owes and what is overdue; /client/invoice/{id}, one invoice with its lines, the payments and credit notes against
 * it, its PDF as kept at issue and its e-invoice (UBL), and each credit note's. Everything is read through the
 * engine's client scope: another client's invoice, a draft or a voided one answers 404 and the screen says it was
 * not found. Lines carry no pay or margin: invoice
 * lines have none, and the agency-only fields (the timesheet line billed, the run) are not readable by a client.
 */

export interface ClientInvoiceRow {
  id: number;
  number: string;
  state: string;
  issue_date: string | null;
  due_date: string | null;
  time_of_supply: string | null;
  po_number: string | null;
  template: string;
  net: number;
  vat: number;
  total: number;
  paid: number;
  credited: number;
  balance: number;
  overdue: boolean;
}

interface LineRow {
  id: number;
  work_date: string;
  description: string;
  quantity: number | string;
  unit_price: number;
  vat_treatment: 'standard' | 'exempt';
  vat_rate: number | null;
  net: number;
  vat: number;
  total: number;
}

interface CreditNoteRow {
  id: number;
  number: string;
  invoice_id: number;
  issue_date: string;
  reason: string;
  net: number;
  vat: number;
  total: number;
}

interface AllocationRow {
  id: number;
  amount: number;
  paid_on: string | null;
  reference: string | null;
  method: string | null;
}

const day = (d: string | null | undefined) => (d ? formatDisplayDate(d) : '—');
const money = (pence: number | null | undefined) => formatPounds(Number(pence ?? 0));
const failure = (e: unknown) => (e instanceof ApiFailure ? e : new ApiFailure(String(e), 0, {}));
const PER_PAGE = 20;

/** The invoice's state in words, and "Overdue" beside it when it is. */
function InvoiceState({ row }: { row: Pick<ClientInvoiceRow, 'state' | 'overdue'> }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Chip size="small" label={translate(`app.client_invoices.state.${row.state}`)} />
      {row.overdue && <Chip size="small" color="error" label={translate('app.client_invoices.overdue')} />}
    </Stack>
  );
}

/**
 * A list as a table on a wide screen and as one card per row on a phone (390 px), so every figure is on the screen
 * without a sideways scroll. `cells` are the columns; the first names the row on its card.
 */
function RowsOrCards<T extends { id: number }>({
  rows,
  label,
  columns,
}: {
  rows: T[];
  label: string;
  columns: { header: string; cell: (r: T) => ReactNode; align?: 'right' }[];
}) {
  const phone = useMediaQuery(useTheme().breakpoints.down('md'));
  if (phone)
    return (
      <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={label}>
        {rows.map((r) => (
          <Card component="li" key={r.id} variant="outlined" sx={{ p: 1.5 }}>
            <Box sx={{ fontWeight: 'bold', mb: 0.5 }}>{columns[0].cell(r)}</Box>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2 }}>
              {columns.slice(1).map((c) => (
                <Box key={c.header} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {c.header}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: c.align ?? 'left' }}>
                    {c.cell(r)}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Card variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.header} align={c.align}>
                {c.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id}>
              {columns.map((c) => (
                <TableCell key={c.header} align={c.align}>
                  {c.cell(r)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

/** Figures side by side as a description list: the balance, what is overdue, an invoice's totals. */
function Figures({ label, items }: { label: string; items: { term: string; value: ReactNode; strong?: boolean }[] }) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{
        m: 0,
        mb: 2,
        display: 'grid',
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(150px, 1fr))' },
        gap: 1,
      }}
    >
      {items.map((i) => (
        <Card key={i.term} variant="outlined" sx={{ p: 1.5 }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {i.term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: i.strong ? 'bold' : undefined }}>
            {i.value}
          </Typography>
        </Card>
      ))}
    </Box>
  );
}

const invoiceLink = (r: { id: number; number: string }) => (
  <Link component={RouterLink} to={`/client/invoice/${r.id}`}>
    {r.number}
  </Link>
);

/** /client/invoice: what the client owes and what is overdue, its invoices page by page, and its credit notes. */
export function ClientInvoices() {
  const translate = useTranslate();
  const t = (k: string, o?: object) => translate(`app.client_invoices.${k}`, o);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ data: ClientInvoiceRow[]; total: number } | null>(null);
  const [open, setOpen] = useState<ClientInvoiceRow[] | null>(null);
  const [notes, setNotes] = useState<{ data: CreditNoteRow[]; numbers: Map<number, string> } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    request<{ data: ClientInvoiceRow[]; total_count: number }>(
      `/invoices?sort=issue_date&order=DESC&per_page=${PER_PAGE}&page=${page}`,
    )
      .then((r) => setList({ data: r.data, total: r.total_count }))
      .catch((e) => setError(failure(e).message));
  }, [page]);
  useEffect(() => {
    // What is owed: the open invoices only (issued, sent or part-paid), a handful however long the history.
    requestAll<ClientInvoiceRow>(`/invoices?state=${ISSUED_STATES.filter((s) => s !== 'paid').join(',')}`)
      .then((r) => setOpen(r.data))
      .catch((e) => setError(failure(e).message));
    requestAll<CreditNoteRow>('/credit_notes?sort=issue_date&order=DESC')
      .then((r) =>
        setNotes({
          data: r.data,
          numbers: new Map((r.references?.invoices ?? []).map((i) => [i.id, String(i.label ?? i.name ?? i.id)])),
        }),
      )
      .catch((e) => setError(failure(e).message));
  }, []);
  const balance = (open ?? []).reduce((sum, i) => sum + Number(i.balance), 0);
  const late = (open ?? []).filter((i) => i.overdue);
  const overdue = late.reduce((sum, i) => sum + Number(i.balance), 0);
  const pages = list ? Math.max(1, Math.ceil(list.total / PER_PAGE)) : 1;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.client_invoices" />
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {open ? (
        <Figures
          label={t('summary')}
          items={[
            { term: t('balance'), value: money(balance), strong: true },
            { term: t('overdue_amount'), value: money(overdue), strong: overdue > 0 },
            { term: t('open_count'), value: open.length },
            { term: t('overdue_count'), value: late.length },
          ]}
        />
      ) : (
        !error && <CircularProgress aria-label={translate('ra.page.loading')} />
      )}
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('invoices')}
      </Typography>
      {list &&
        (list.data.length === 0 ? (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {t('none')}
          </Typography>
        ) : (
          <Box sx={{ mb: 3 }}>
            <RowsOrCards
              rows={list.data}
              label={t('invoices')}
              columns={[
                { header: t('number'), cell: invoiceLink },
                { header: t('issued'), cell: (r) => day(r.issue_date) },
                { header: t('due'), cell: (r) => day(r.due_date) },
                { header: t('state_label'), cell: (r) => <InvoiceState row={r} /> },
                { header: t('total'), cell: (r) => money(r.total), align: 'right' },
                { header: t('balance_due'), cell: (r) => money(r.balance), align: 'right' },
              ]}
            />
            {pages > 1 && (
              <Stack
                direction="row"
                spacing={1}
                sx={{ mt: 1, alignItems: 'center' }}
                component="nav"
                aria-label={t('pages')}
              >
                <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  {t('previous')}
                </Button>
                <Typography variant="body2">{t('page', { page, pages })}</Typography>
                <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  {t('next')}
                </Button>
              </Stack>
            )}
          </Box>
        ))}
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('credit_notes')}
      </Typography>
      {notes &&
        (notes.data.length === 0 ? (
          <Typography color="text.secondary">{t('no_credit_notes')}</Typography>
        ) : (
          <RowsOrCards
            rows={notes.data}
            label={t('credit_notes')}
            columns={[
              { header: t('number'), cell: (r) => r.number },
              { header: t('issued'), cell: (r) => day(r.issue_date) },
              {
                header: t('corrects'),
                cell: (r) =>
                  invoiceLink({ id: r.invoice_id, number: notes.numbers.get(r.invoice_id) ?? `#${r.invoice_id}` }),
              },
              { header: t('reason'), cell: (r) => r.reason },
              { header: t('total'), cell: (r) => money(r.total), align: 'right' },
            ]}
          />
        ))}
    </Box>
  );
}

/** /client/invoice/{id}: one invoice, its lines, what was paid and credited against it, and its kept PDF. */
export function ClientInvoice() {
  const translate = useTranslate();
  const t = (k: string, o?: object) => translate(`app.client_invoices.${k}`, o);
  const { id } = useParams();
  const [state, setState] = useState<{
    invoice: ClientInvoiceRow;
    lines: LineRow[];
    payments: AllocationRow[];
    notes: CreditNoteRow[];
  } | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  useEffect(() => {
    const n = Number(id);
    setState(null);
    setError(null);
    // Not a number is no invoice: said as a 404 would be, without asking.
    if (!Number.isInteger(n) || n <= 0) return setError(new ApiFailure('Not found', 404, {}));
    Promise.all([
      request<{ data: ClientInvoiceRow }>(`/invoices/${n}`),
      requestAll<LineRow>(`/invoice_lines?invoice_id=${n}&sort=work_date&order=ASC`),
      requestAll<AllocationRow>(`/payment_allocations?invoice_id=${n}&sort=id&order=ASC`),
      requestAll<CreditNoteRow>(`/credit_notes?invoice_id=${n}&sort=issue_date&order=ASC`),
    ])
      .then(([inv, lines, payments, notes]) =>
        setState({ invoice: inv.data, lines: lines.data, payments: payments.data, notes: notes.data }),
      )
      .catch((e) => setError(failure(e)));
  }, [id]);
  const back = (
    <Button component={RouterLink} to="/client/invoice" sx={{ mb: 1 }}>
      {t('back')}
    </Button>
  );
  if (error)
    return (
      <Box sx={{ mt: 1 }}>
        <Title title="app.screens.client_invoice_one" />
        {back}
        <Alert severity={error.status === 404 ? 'warning' : 'error'}>
          {error.status === 404 ? t('not_found') : error.message}
        </Alert>
      </Box>
    );
  if (!state) return <CircularProgress aria-label={translate('ra.page.loading')} />;
  const inv = state.invoice;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.client_invoice_one" />
      {back}
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography component="h2" variant="h6">
          {t('invoice_number', { number: inv.number })}
        </Typography>
        <InvoiceState row={inv} />
        <DownloadButton
          path={`/invoices/${inv.id}/pdf?template=${encodeURIComponent(inv.template)}`}
          number={inv.number}
        />
        {/* The e-invoice is the agency's own document: UBL carries no pay or margin, so the client reads the same. */}
        <DownloadButton path={`/invoices/${inv.id}/ubl`} number={inv.number} format="ubl" variant="outlined" />
      </Stack>
      <Figures
        label={t('details')}
        items={[
          { term: t('issued'), value: day(inv.issue_date) },
          { term: t('time_of_supply'), value: day(inv.time_of_supply) },
          { term: t('due'), value: day(inv.due_date) },
          ...(inv.po_number ? [{ term: t('po_number'), value: inv.po_number }] : []),
          { term: t('net'), value: money(inv.net) },
          { term: t('vat'), value: money(inv.vat) },
          { term: t('total'), value: money(inv.total), strong: true },
          { term: t('credited'), value: money(inv.credited) },
          { term: t('paid'), value: money(inv.paid) },
          { term: t('balance_due'), value: money(inv.balance), strong: true },
        ]}
      />
      <Typography component="h3" variant="subtitle1" sx={{ mb: 1 }}>
        {t('lines')}
      </Typography>
      <Box sx={{ mb: 3 }}>
        <RowsOrCards
          rows={state.lines}
          label={t('lines')}
          columns={[
            { header: t('description'), cell: (l) => l.description },
            { header: t('date'), cell: (l) => day(l.work_date) },
            { header: t('hours'), cell: (l) => String(Number(l.quantity)), align: 'right' },
            { header: t('unit_price'), cell: (l) => money(l.unit_price), align: 'right' },
            {
              header: t('vat_rate'),
              cell: (l) => (l.vat_treatment === 'exempt' ? t('exempt') : formatVatRate(Number(l.vat_rate ?? 0))),
            },
            { header: t('net'), cell: (l) => money(l.net), align: 'right' },
            { header: t('vat'), cell: (l) => money(l.vat), align: 'right' },
            { header: t('total'), cell: (l) => money(l.total), align: 'right' },
          ]}
        />
      </Box>
      <Typography component="h3" variant="subtitle1" sx={{ mb: 1 }}>
        {t('payments')}
      </Typography>
      <Box sx={{ mb: 3 }}>
        {state.payments.length === 0 ? (
          <Typography color="text.secondary">{t('no_payments')}</Typography>
        ) : (
          <RowsOrCards
            rows={state.payments}
            label={t('payments')}
            columns={[
              { header: t('paid_on'), cell: (p) => day(p.paid_on) },
              { header: t('reference'), cell: (p) => p.reference || '—' },
              { header: t('method'), cell: (p) => (p.method ? t(`methods.${p.method}`) : '—') },
              // A reversal is its payment's amount negated: said in words, not by a minus sign alone.
              {
                header: t('amount'),
                cell: (p) => (p.amount < 0 ? t('reversed', { amount: money(-p.amount) }) : money(p.amount)),
                align: 'right',
              },
            ]}
          />
        )}
      </Box>
      <Typography component="h3" variant="subtitle1" sx={{ mb: 1 }}>
        {t('credit_notes')}
      </Typography>
      {state.notes.length === 0 ? (
        <Typography color="text.secondary">{t('no_credit_notes_here')}</Typography>
      ) : (
        <RowsOrCards
          rows={state.notes}
          label={t('credit_notes')}
          columns={[
            { header: t('number'), cell: (r) => r.number },
            { header: t('issued'), cell: (r) => day(r.issue_date) },
            { header: t('reason'), cell: (r) => r.reason },
            { header: t('net'), cell: (r) => money(r.net), align: 'right' },
            { header: t('vat'), cell: (r) => money(r.vat), align: 'right' },
            { header: t('total'), cell: (r) => money(r.total), align: 'right' },
            {
              header: t('files'),
              cell: (r) => (
                <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                  <DownloadButton path={`/credit_notes/${r.id}/pdf`} number={r.number} variant="text" />
                  <DownloadButton path={`/credit_notes/${r.id}/ubl`} number={r.number} format="ubl" variant="text" />
                </Stack>
              ),
            },
          ]}
        />
      )}
    </Box>
  );
}
