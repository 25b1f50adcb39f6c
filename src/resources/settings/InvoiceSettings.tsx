import { Alert, Box, Paper, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Form,
  NumberInput,
  RecordContextProvider,
  SaveButton,
  TextInput,
  Title,
  useNotify,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { FormInputs } from '../../engine/react/form';
import { api } from '../../providers/http';
import { invoiceSettings } from '../../../core/resources/invoices/settings';
import type { InvoiceSettings } from '../../../core/contracts/invoiceSettings';

const KEY = ['invoice_settings'];
const SERIES_FIELDS = ['invoice_prefix', 'invoice_next_number', 'credit_note_prefix', 'credit_note_next_number'];
const errorsOf = (e: unknown): Record<string, string> =>
  (e as { body?: { errors?: Record<string, string> } })?.body?.errors ?? {};

/**
 * /appsetting/invoicesetting (issue 32): the agency's invoice settings, their fields the declaration's
 * (core/resources/invoices/settings.ts), and its invoice and credit-note numbering beside them. One save: the server
 * checks everything and answers each refusal next to its field (a next number lowered, a backdated election).
 */
export function InvoiceSettingsScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const { permissions, isPending } = usePermissions<{ role?: string }>();
  // Only an admin saves (the API refuses anyone else): others read them, told so.
  const readOnly = isPending || permissions?.role !== 'admin';
  const query = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api<{ data: InvoiceSettings }>('/invoice_settings', { signal }),
    retry: false,
  });
  const title = translate('app.screens.setting_invoice');
  const record = query.data?.data;
  const submit = async (values: Record<string, unknown>) => {
    // A series is sent only when changed here: an invoice issued meanwhile has moved it on, and the number this form
    // read would then be refused as going back.
    const json = Object.fromEntries(
      Object.entries(values).filter(
        ([k, v]) => !SERIES_FIELDS.includes(k) || v !== (record as Record<string, unknown> | undefined)?.[k],
      ),
    );
    try {
      const saved = await api<{ data: InvoiceSettings }>('/invoice_settings', { method: 'PUT', json });
      client.setQueryData(KEY, saved);
      notify('Invoice settings saved', { type: 'success' });
    } catch (err) {
      const errors = errorsOf(err);
      if (!Object.keys(errors).length || errors.version)
        notify((err as Error)?.message || 'Could not save.', { type: 'error' });
      // react-admin shows each next to its field.
      return errors;
    }
  };
  return (
    <Box sx={{ maxWidth: 720 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {readOnly && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Only an admin can change these settings; you can read them.
        </Alert>
      )}
      {query.isError ? (
        <Alert severity="error">The invoice settings could not be loaded.</Alert>
      ) : !record ? (
        <Typography role="status" color="text.secondary">
          {translate('app.loading')}
        </Typography>
      ) : (
        <RecordContextProvider value={{ ...record, id: 'invoice_settings' }}>
          {/* A new key after each save: the form starts again from what the server kept (its version). */}
          <Form key={record.version} record={{ ...record, id: 'invoice_settings' }} onSubmit={submit}>
            <fieldset disabled={readOnly} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
              <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  Numbering
                </Typography>
                <Typography variant="body2" sx={{ mb: 2 }}>
                  A number, once given, is never given again: the next number can only move forward. A new prefix
                  applies to the numbers given from now on.
                </Typography>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
                  <TextInput source="invoice_prefix" label="Invoice prefix" helperText={false} />
                  <NumberInput source="invoice_next_number" label="Next invoice number" min={1} step={1} />
                </Stack>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
                  <TextInput source="credit_note_prefix" label="Credit note prefix" helperText={false} />
                  <NumberInput source="credit_note_next_number" label="Next credit note number" min={1} step={1} />
                </Stack>
              </Paper>
              <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexDirection: 'column' }}>
                <FormInputs decl={invoiceSettings} view="edit" defs={[]} />
              </Paper>
            </fieldset>
            {!readOnly && <SaveButton alwaysEnable />}
          </Form>
        </RecordContextProvider>
      )}
    </Box>
  );
}
