import { useState } from 'react';
import { Alert, Box, Button } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { useTranslate } from 'react-admin';
import { downloadFrom } from '../../engine/react/download';

/**
 * Saves a money document's kept PDF (GET /api/{resource}/{id}/pdf…): an invoice in the layout the agency chose, a
 * credit note. Named by the document's number, so a list of them reads as which one each button saves.
 */
export function PdfButton({
  path,
  number,
  variant = 'contained',
}: {
  path: string;
  number: string;
  variant?: 'contained' | 'text';
}) {
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <Box>
      <Button
        variant={variant}
        size={variant === 'text' ? 'small' : 'medium'}
        startIcon={<PictureAsPdfIcon />}
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
        {translate('app.client_invoices.download', { number })}
      </Button>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
