import { useState } from 'react';
import { Alert, Box, Button } from '@mui/material';
import CodeIcon from '@mui/icons-material/Code';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { useTranslate } from 'react-admin';
import { downloadFrom } from '../../engine/react/download';

/**
 * Saves a money document's file: its kept PDF (GET /api/{resource}/{id}/pdf…, an invoice in the layout the agency
 * chose) or its e-invoice (GET /api/{resource}/{id}/ubl, EN 16931 UBL). Named by the document's number and the
 * format, so a list of them reads as which file each button saves; a failure is said under the button.
 */
export function DownloadButton({
  path,
  number,
  format = 'pdf',
  variant = 'contained',
}: {
  path: string;
  number: string;
  format?: 'pdf' | 'ubl';
  variant?: 'contained' | 'outlined' | 'text';
}) {
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <Box>
      <Button
        variant={variant}
        size={variant === 'text' ? 'small' : 'medium'}
        startIcon={format === 'pdf' ? <PictureAsPdfIcon /> : <CodeIcon />}
        disabled={busy}
        aria-busy={busy}
        onClick={async () => {
          setBusy(true);
          setError('');
          try {
            await downloadFrom(path);
          } catch (e) {
            setError(e instanceof Error ? e.message : String(e));
          } finally {
            setBusy(false);
          }
        }}
      >
        {translate(format === 'pdf' ? 'app.client_invoices.download' : 'app.client_invoices.download_ubl', {
          number,
        })}
      </Button>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
