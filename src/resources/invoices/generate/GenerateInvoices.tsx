import { Fragment, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  LinearProgress,
  Link,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { Title, useGetList, useTranslate } from 'react-admin';
import { DatePickerProvider } from '../../../engine/react/DatePickerInput';
import { JobProgress } from '../../../engine/react/JobProgress';
import { PlainDatePicker } from '../../../engine/react/PlainDatePicker';
import { ApiFailure, request } from '../../../providers/request';
import { formatPounds } from '../../../../core/engine/money';
import { addDaysToDate, startOfWeekMonday } from '../../../../core/domain/time/agencyTime';
import { INVOICE_MODES, type InvoiceMode } from '../../../../core/domain/invoicing/grouping';

/** The run's answer with `preview: true` (server/services/invoicing.ts, generateInvoices). */
interface PreviewLine {
  timesheet_line_id: number | null;
  cancelled_shift_id: number | null;
  description: string;
  work_date: string;
  quantity: number;
  net: number;
  vat_treatment: string;
}
interface PreviewInvoice {
  client_id: number;
  po_number: string | null;
  from: string;
  to: string;
  lines: PreviewLine[];
  net: number;
  vat: number;
  total: number;
}
interface Preview {
  invoices: PreviewInvoice[];
  lacking_po: { kind: string; id: number; client_id: number; date: string; description: string; net: number }[];
}

/** The modes whose invoices run Monday to Sunday: their From is the Monday of the chosen day's week. */
const WEEKLY: InvoiceMode[] = ['Weekly', 'staff_weekly'];
export const GENERATE_PATH = '/invoice/Generate-invoice';
export const runPath = (id: number) => `/invoice/GenerateView/generateView/${id}`;
const money = (pence: number) => formatPounds(pence);

/**
 * /invoice/Generate-invoice/{mode}: one tab per mode. Choose the clients (none chosen is all) and the period, preview
 * the invoices the run would draft with their lines and totals (and the lines held back for want of a PO number),
 * then generate them: the run is a job whose progress shows here and on the run's own page, which can be left and
 * come back to.
 */
export function GenerateInvoices() {
  const translate = useTranslate();
  // The mode is the address's last part (the spec's five addresses are routes of their own, without a parameter).
  const last = useLocation().pathname.split('/').pop();
  const mode: InvoiceMode = INVOICE_MODES.find((m) => m === last) ?? 'Weekly';
  const weekly = WEEKLY.includes(mode);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [clientIds, setClientIds] = useState<number[]>([]);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [run, setRun] = useState<{ run_id: number; job_id: number } | null>(null);
  const [finished, setFinished] = useState(false);
  const { data: clients = [] } = useGetList('clients', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  const clientName = (id: number) => clients.find((c) => c.id === id)?.name ?? `#${id}`;

  const changed = () => {
    setPreview(null);
    setRun(null);
    setFinished(false);
  };
  // A week's run starts on the Monday of the day chosen. The field keeps what was typed (changing it under the
  // caret would fight the typing); the Monday is said under it and is what the run is asked for.
  const mondayOf = (date: string | null) => (date && weekly ? startOfWeekMonday(date) : date);
  const start = mondayOf(from);
  const chooseFrom = (date: string | null) => {
    setFrom(date);
    const monday = mondayOf(date);
    // A week's run is a week unless the user says otherwise.
    if (monday && weekly && (!to || to < monday)) setTo(addDaysToDate(monday, 6));
    changed();
  };
  const checked = () => {
    const wrong: Record<string, string> = {};
    if (!from) wrong.from = translate('app.invoice_generation.from_missing');
    if (!to) wrong.to = translate('app.invoice_generation.to_missing');
    if (start && to && to < start) wrong.to = translate('app.invoice_generation.to_before_from');
    setErrors(wrong);
    return Object.keys(wrong).length === 0;
  };
  const ask = async <T,>(extra: Record<string, unknown>): Promise<T | null> => {
    if (!checked()) return null;
    setBusy(true);
    setProblem('');
    try {
      const body = { mode, from: start, to, client_ids: clientIds.length ? clientIds : null, ...extra };
      return (await request<{ data: T }>('/invoices/actions/generate', { method: 'POST', json: body })).data;
    } catch (e) {
      if (e instanceof ApiFailure && e.body?.errors) setErrors(e.body.errors as Record<string, string>);
      setProblem(e instanceof Error ? e.message : String(e));
      return null;
    } finally {
      setBusy(false);
    }
  };
  const showPreview = async () => {
    changed();
    const answer = await ask<Preview>({ preview: true });
    if (answer) setPreview(answer);
  };
  const generate = async () => {
    const answer = await ask<{ run_id: number | null; job_id?: number }>({ background: true });
    if (answer?.run_id && answer.job_id) setRun({ run_id: answer.run_id, job_id: answer.job_id });
    else if (answer) setProblem(translate('app.invoice_generation.nothing'));
  };
  const lines = preview?.invoices.reduce((n, i) => n + i.lines.length, 0) ?? 0;
  const sum = (k: 'net' | 'vat' | 'total') => preview?.invoices.reduce((n, i) => n + i[k], 0) ?? 0;

  return (
    <Box sx={{ mt: 1, maxWidth: '100%' }}>
      <Title title={`app.screens.generate_invoice_${mode.toLowerCase()}`} />
      <Tabs
        value={mode}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={translate('app.invoice_generation.modes')}
        sx={{ mb: 1 }}
      >
        {INVOICE_MODES.map((m) => (
          <Tab
            key={m}
            value={m}
            label={translate(`app.invoice_generation.mode.${m}`)}
            component={RouterLink}
            to={`${GENERATE_PATH}/${m}`}
          />
        ))}
      </Tabs>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(`app.invoice_generation.help.${mode}`)}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} useFlexGap sx={{ mb: 1, alignItems: 'flex-start' }}>
        <Autocomplete
          multiple
          size="small"
          sx={{ width: { xs: '100%', md: 360 } }}
          options={clients.map((c) => Number(c.id))}
          getOptionLabel={(id) => clientName(id)}
          value={clientIds}
          onChange={(_, v) => {
            setClientIds(v);
            changed();
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={translate('app.invoice_generation.clients')}
              helperText={errors.client_ids ?? translate('app.invoice_generation.clients_help')}
              error={Boolean(errors.client_ids)}
            />
          )}
        />
        <DatePickerProvider>
          <PlainDatePicker
            label={translate('app.invoice_generation.from')}
            value={from}
            onChange={chooseFrom}
            helperText={
              errors.from ??
              (weekly
                ? start
                  ? translate('app.invoice_generation.from_monday', { date: start })
                  : translate('app.invoice_generation.monday')
                : undefined)
            }
          />
          <PlainDatePicker
            label={translate('app.invoice_generation.to')}
            value={to}
            onChange={(d) => {
              setTo(d);
              changed();
            }}
            helperText={errors.to}
          />
        </DatePickerProvider>
        <Button variant="outlined" onClick={() => void showPreview()} disabled={busy}>
          {translate('app.invoice_generation.preview')}
        </Button>
        <Button variant="contained" onClick={() => void generate()} disabled={busy || !preview || !!run || lines === 0}>
          {translate('app.invoice_generation.generate')}
        </Button>
      </Stack>
      <Box aria-live="polite" sx={{ mb: 1 }}>
        {busy && <LinearProgress aria-label={translate('app.invoice_generation.working')} />}
        {problem && <Alert severity="error">{problem}</Alert>}
      </Box>
      {run && (
        <Card variant="outlined" sx={{ p: 1.5, mb: 1 }}>
          <Typography variant="subtitle2" component="h2">
            {translate(finished ? 'app.invoice_generation.done' : 'app.invoice_generation.running')}
          </Typography>
          <JobProgress
            id={run.job_id}
            label={translate('app.invoice_generation.progress')}
            onDone={() => setFinished(true)}
          />
          <Link component={RouterLink} to={runPath(run.run_id)}>
            {translate('app.invoice_generation.open_run', { id: run.run_id })}
          </Link>
        </Card>
      )}
      {preview && (
        <PreviewTable preview={preview} clientName={clientName} lines={lines} sum={sum} translate={translate} />
      )}
    </Box>
  );
}

function PreviewTable({
  preview,
  clientName,
  lines,
  sum,
  translate,
}: {
  preview: Preview;
  clientName: (id: number) => string;
  lines: number;
  sum: (k: 'net' | 'vat' | 'total') => number;
  translate: ReturnType<typeof useTranslate>;
}) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 0.5 }}>
        {translate('app.invoice_generation.preview_title', {
          smart_count: preview.invoices.length,
          lines,
          total: money(sum('total')),
        })}
      </Typography>
      {preview.lacking_po.length > 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          <Typography variant="body2">
            {translate('app.invoice_generation.lacking_po', { smart_count: preview.lacking_po.length })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {preview.lacking_po.map((l) => (
              <li key={`${l.kind}-${l.id}`}>{`${clientName(l.client_id)}: ${l.description} (${money(l.net)})`}</li>
            ))}
          </Box>
        </Alert>
      )}
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={translate('app.invoice_generation.preview')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.invoice_generation.line')}</TableCell>
              <TableCell>{translate('app.invoice_generation.date')}</TableCell>
              <TableCell align="right">{translate('app.invoice_generation.hours')}</TableCell>
              <TableCell align="right">{translate('app.invoice_generation.net')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {preview.invoices.map((inv, i) => (
              <Fragment key={i}>
                <TableRow sx={{ bgcolor: 'action.hover' }}>
                  <TableCell component="th" scope="rowgroup" colSpan={2}>
                    <strong>{clientName(inv.client_id)}</strong>
                    {` · ${inv.from} – ${inv.to}${inv.po_number ? ` · PO ${inv.po_number}` : ''}`}
                  </TableCell>
                  <TableCell align="right" colSpan={2}>
                    {translate('app.invoice_generation.invoice_totals', {
                      net: money(inv.net),
                      vat: money(inv.vat),
                      total: money(inv.total),
                    })}
                  </TableCell>
                </TableRow>
                {inv.lines.map((l, k) => (
                  <TableRow key={k}>
                    <TableCell>{l.description}</TableCell>
                    <TableCell>{l.work_date}</TableCell>
                    <TableCell align="right">{String(Number(l.quantity))}</TableCell>
                    <TableCell align="right">{money(l.net)}</TableCell>
                  </TableRow>
                ))}
              </Fragment>
            ))}
            <TableRow>
              <TableCell component="th" scope="row" colSpan={3}>
                {translate('app.invoice_generation.all_totals', { net: money(sum('net')), vat: money(sum('vat')) })}
              </TableCell>
              <TableCell align="right">
                <strong>{money(sum('total'))}</strong>
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
