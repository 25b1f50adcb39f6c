import { useId, useState } from 'react';
import { Button, useCanAccess, useListContext, useNotify, useRecordContext } from 'react-admin';
import { Link } from 'react-router';
import {
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  Typography,
} from '@mui/material';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import DownloadIcon from '@mui/icons-material/GetApp';
import HistoryIcon from '@mui/icons-material/History';
import { ApiFailure, requestFile } from '../../providers/request';
import { saveFile } from '../../engine/react/download';
import { DatePickerProvider } from '../../engine/react/DatePickerInput';
import { PlainDatePicker } from '../../engine/react/PlainDatePicker';

const PACKAGES = [
  { id: 'xero', name: 'Xero (CSV)' },
  { id: 'quickbooks', name: 'QuickBooks Online (CSV)' },
] as const;

/** What an export did, from its answer's headers (server/exports/invoices.ts), in words. */
export function exportSummary(headers: Headers): string {
  const n = (h: string) => Number(headers.get(h) ?? 0);
  const documents = n('x-export-documents');
  const parts = [
    `${documents} document${documents === 1 ? '' : 's'} exported (export ${headers.get('x-export-batch')}).`,
  ];
  if (n('x-export-excluded'))
    parts.push(`${n('x-export-excluded')} exported before ${n('x-export-excluded') === 1 ? 'was' : 'were'} left out.`);
  if (n('x-export-skipped'))
    parts.push(`${n('x-export-skipped')} credit note(s) to enter by hand: QuickBooks does not import them.`);
  return parts.join(' ');
}

/** The list of earlier exports (invoice_export_batches' declared list). */
export const EARLIER_EXPORTS = '/invoice/exports';

const dateOf = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * The invoice list's accounting export (issue 32): issued invoices and credit notes as Xero's or QuickBooks Online's
 * import file, of the client the list is filtered to (else all), issued in the period chosen with the product's date
 * picker (the list's own "Issued" filter by default; an empty day leaves that end open). Each export is recorded, and
 * what an earlier export held is left out unless "Include documents exported before" is ticked; the summary says
 * what was left out. The server checks the period and its refusals show under the day they are about.
 */
export function AccountingExportButton() {
  const { filterValues } = useListContext();
  const { canAccess } = useCanAccess({ resource: 'invoices', action: 'export' });
  const [open, setOpen] = useState(false);
  if (!canAccess) return null;
  return (
    <>
      <Button label="Accounting export" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <AccountBalanceIcon />
      </Button>
      {open && <ExportDialog filterValues={filterValues ?? {}} onClose={() => setOpen(false)} />}
    </>
  );
}

function ExportDialog({ filterValues, onClose }: { filterValues: Record<string, unknown>; onClose: () => void }) {
  const notify = useNotify();
  const titleId = useId();
  const [from, setFrom] = useState(dateOf(filterValues.issue_date_gte));
  const [to, setTo] = useState(dateOf(filterValues.issue_date_lte));
  const [includeExported, setIncludeExported] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const run = async (pkg: string) => {
    setBusy(true);
    setErrors({});
    try {
      const q = new URLSearchParams();
      if (from) q.set('from', from);
      if (to) q.set('to', to);
      if (filterValues.client_id) q.set('client_id', String(filterValues.client_id));
      if (includeExported) q.set('include_exported', 'true');
      const { blob, name, headers } = await requestFile(`/invoices/export/${pkg}?${q}`);
      saveFile(blob, name);
      notify(exportSummary(headers), { type: 'success' });
      onClose();
    } catch (e) {
      if (e instanceof ApiFailure && e.body?.errors) setErrors(e.body.errors as Record<string, string>);
      notify(e instanceof Error ? e.message : String(e), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Accounting export</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {filterValues.client_id
            ? 'The issued invoices and credit notes of the client the list shows, issued in the period.'
            : 'The issued invoices and credit notes of every client, issued in the period.'}{' '}
          Leave a day empty to leave that end of the period open.
        </Typography>
        <DatePickerProvider>
          <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', mb: 1 }}>
            <PlainDatePicker
              label="Issued from"
              value={from}
              onChange={setFrom}
              helperText={errors.from}
              error={!!errors.from}
            />
            <PlainDatePicker label="Issued to" value={to} onChange={setTo} helperText={errors.to} error={!!errors.to} />
          </Stack>
        </DatePickerProvider>
        <FormControlLabel
          control={<Checkbox checked={includeExported} onChange={(e) => setIncludeExported(e.target.checked)} />}
          label="Include documents exported before"
        />
        <Typography variant="body2" sx={{ mt: 1 }}>
          {/* What each export held, and its file again, are on a list of their own. */}
          <Link to={EARLIER_EXPORTS}>Earlier exports</Link>
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button label="Cancel" onClick={onClose} />
        {PACKAGES.map((p) => (
          <Button
            key={p.id}
            label={p.name}
            variant="contained"
            onClick={() => run(p.id)}
            disabled={busy}
            aria-busy={busy}
          />
        ))}
      </DialogActions>
    </Dialog>
  );
}

/**
 * An earlier export's files again, on its page and on its row of the earlier exports' list: its documents in the same
 * package's layout (GET /api/invoices/export/{package}?batch={id}), the same file byte for byte, recording no new
 * export. For those who may export; others may see what was exported. In a row it is named by its export, so a list
 * of them reads as which export each button downloads.
 */
export function DownloadAgainButton({ inRow = false }: { inRow?: boolean }) {
  const record = useRecordContext();
  const notify = useNotify();
  const { canAccess } = useCanAccess({ resource: 'invoices', action: 'export' });
  const [busy, setBusy] = useState(false);
  if (!record || !canAccess) return null;
  const again = async () => {
    setBusy(true);
    try {
      const { blob, name } = await requestFile(`/invoices/export/${record.package}?batch=${record.id}`);
      saveFile(blob, name);
    } catch (e) {
      notify(e instanceof Error ? e.message : String(e), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      label="Download again"
      onClick={again}
      disabled={busy}
      aria-busy={busy}
      {...(inRow ? { 'aria-label': `Download again: export ${String(record.id)}` } : {})}
    >
      <DownloadIcon />
    </Button>
  );
}

/**
 * The invoice list's way to the earlier exports, for whoever may see them (consultants too, who cannot export and so
 * never open the export's dialog).
 */
export function EarlierExportsButton() {
  const { canAccess } = useCanAccess({ resource: 'invoice_export_batches', action: 'list' });
  if (!canAccess) return null;
  return (
    <Button component={Link} to={EARLIER_EXPORTS} label="Earlier exports">
      <HistoryIcon />
    </Button>
  );
}
