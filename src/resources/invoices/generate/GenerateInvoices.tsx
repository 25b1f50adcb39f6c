import { Fragment, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import {
  Alert,
  Autocomplete,
  Box,
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
import { RunButtons, RunPeriod, RunStatus, useRunGeneration } from '../../../engine/react/RunGeneration';
import { formatPounds } from '../../../../core/engine/money';
import { addDaysToDate } from '../../../../core/domain/time/agencyTime';
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
  const [clientIds, setClientIds] = useState<number[]>([]);
  const g = useRunGeneration<Preview>({
    ns: 'app.invoice_generation',
    action: '/invoices/actions/generate',
    weekly,
    body: { mode, client_ids: clientIds.length ? clientIds : null },
    // A week's run is a week unless the user says otherwise.
    periodEnd: (monday) => (weekly ? addDaysToDate(monday, 6) : null),
  });
  const { data: clients = [] } = useGetList('clients', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  const clientName = (id: number) => clients.find((c) => c.id === id)?.name ?? `#${id}`;

  const preview = g.preview;
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
            g.changed();
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={translate('app.invoice_generation.clients')}
              helperText={g.errors.client_ids ?? translate('app.invoice_generation.clients_help')}
              error={Boolean(g.errors.client_ids)}
            />
          )}
        />
        <RunPeriod g={g} />
        <RunButtons g={g} create="generate" empty={lines === 0} />
      </Stack>
      <RunStatus g={g} runPath={runPath} />
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
