import { Button, useNotify, useRecordContext } from 'react-admin';
import CodeIcon from '@mui/icons-material/Code';
import { downloadFrom } from '../../engine/react/download';

/**
 * An issued invoice's or credit note's e-invoice (GET /api/invoices|credit_notes/{id}/ubl: EN 16931 UBL 2.1, Peppol
 * BIS Billing 3.0), saved as {number}.xml. Only a numbered document has one: a draft invoice shows no button. One
 * button for both, so the two pages offer it alike.
 */
export function UblButton({ resource }: { resource: 'invoices' | 'credit_notes' }) {
  const record = useRecordContext();
  const notify = useNotify();
  if (!record?.number) return null;
  return (
    <Button
      label="app.invoices.ubl"
      onClick={() =>
        downloadFrom(`/${resource}/${record.id}/ubl`).catch((e: unknown) =>
          notify(e instanceof Error ? e.message : String(e), { type: 'error' }),
        )
      }
    >
      <CodeIcon />
    </Button>
  );
}
