import { useState } from 'react';
import { Button, useCanAccess, useListContext, useNotify } from 'react-admin';
import { Checkbox, FormControlLabel, Menu, MenuItem } from '@mui/material';
import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { requestFile } from '../../providers/request';
import { saveFile } from '../../engine/react/download';

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

/**
 * The invoice list's accounting export (issue 32): issued invoices and credit notes as Xero's or QuickBooks Online's
 * import file, of the client the list is filtered to (else all). Each export is recorded, and what an earlier export
 * held is left out unless "Include documents exported before" is ticked; the summary says what was left out.
 */
export function AccountingExportButton() {
  const { filterValues } = useListContext();
  const { canAccess } = useCanAccess({ resource: 'invoices', action: 'export' });
  const notify = useNotify();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [includeExported, setIncludeExported] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!canAccess) return null;
  const run = async (pkg: string) => {
    setAnchor(null);
    setBusy(true);
    try {
      const q = new URLSearchParams();
      if (filterValues?.client_id) q.set('client_id', String(filterValues.client_id));
      if (includeExported) q.set('include_exported', 'true');
      const { blob, name, headers } = await requestFile(`/invoices/export/${pkg}?${q}`);
      saveFile(blob, name);
      notify(exportSummary(headers), { type: 'success' });
    } catch (e) {
      notify(e instanceof Error ? e.message : String(e), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        label="Accounting export"
        onClick={(e) => setAnchor(e.currentTarget)}
        disabled={busy}
        aria-busy={busy}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
      >
        <AccountBalanceIcon />
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {PACKAGES.map((p) => (
          <MenuItem key={p.id} onClick={() => run(p.id)}>
            {p.name}
          </MenuItem>
        ))}
        <MenuItem onClick={() => setIncludeExported((v) => !v)} role="menuitemcheckbox" aria-checked={includeExported}>
          <FormControlLabel
            control={<Checkbox checked={includeExported} tabIndex={-1} size="small" />}
            label="Include documents exported before"
            sx={{ pointerEvents: 'none' }}
          />
        </MenuItem>
      </Menu>
    </>
  );
}
