import { Box, Paper, Stack, Typography } from '@mui/material';
import { NumberInput, TextInput, Title, useTranslate } from 'react-admin';
import { FormInputs } from '../../engine/react/form';
import {
  AgencyRowForm,
  AgencyRowLoad,
  ReadOnlyNotice,
  useAgencyRow,
  useSaveAgencyRow,
  useSettingsReadOnly,
} from '../../engine/react/agencyRow';
import { invoiceSettings } from '../../../core/resources/invoices/settings';
import type { InvoiceSettings } from '../../../core/contracts/invoiceSettings';

const SERIES_FIELDS = ['invoice_prefix', 'invoice_next_number', 'credit_note_prefix', 'credit_note_next_number'];

/**
 * /appsetting/invoicesetting (issue 32): the agency's invoice settings, their fields the declaration's
 * (core/resources/invoices/settings.ts), and its invoice and credit-note numbering beside them. One save: the server
 * checks everything and answers each refusal next to its field (a next number lowered, a backdated election).
 */
export function InvoiceSettingsScreen() {
  const translate = useTranslate();
  // Only an admin saves (the API refuses anyone else): others read them, told so.
  const readOnly = useSettingsReadOnly();
  const query = useAgencyRow<InvoiceSettings>('invoice_settings');
  const title = translate('app.screens.setting_invoice');
  const record = query.data?.data;
  // A series is sent only when changed here: an invoice issued meanwhile has moved it on, and the number this form
  // read would then be refused as going back.
  const submit = useSaveAgencyRow<InvoiceSettings>('invoice_settings', 'Invoice settings saved', {
    prepare: (values) =>
      Object.fromEntries(
        Object.entries(values).filter(
          ([k, v]) => !SERIES_FIELDS.includes(k) || v !== (record as Record<string, unknown> | undefined)?.[k],
        ),
      ),
  });
  return (
    <Box sx={{ maxWidth: 720 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {readOnly && <ReadOnlyNotice />}
      <AgencyRowLoad query={query} failed="The invoice settings could not be loaded.">
        {(row) => (
          <AgencyRowForm record={{ ...row, id: 'invoice_settings' }} onSubmit={submit} readOnly={readOnly}>
            <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                Numbering
              </Typography>
              <Typography variant="body2" sx={{ mb: 2 }}>
                A number, once given, is never given again: the next number can only move forward. A new prefix applies
                to the numbers given from now on.
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
          </AgencyRowForm>
        )}
      </AgencyRowLoad>
    </Box>
  );
}
