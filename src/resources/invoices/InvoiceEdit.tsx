import { useEffect } from 'react';
import { Box, Typography } from '@mui/material';
import { useParams } from 'react-router';
import { useGetOne, useTranslate } from 'react-admin';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { EngineEdit } from '../../engine/react/form';
import { ChildList } from '../../engine/react/children';
import { lockedReason } from '../../../core/engine/lifecycle';
import { invoiceLines } from '../../../core/resources/invoices/resource';
import { LineVat } from './InvoiceShow';
import { rememberTemplate, type TemplateId } from './templates';

/**
 * /edit/{id}/{templateType} (and /invoice/edit/…): a draft's PO number, notes and layout (the generated form, whose
 * fields are editable in draft only), and its lines' descriptions and VAT treatment with the reason kept (each
 * line's own edit). An issued invoice opens read-only and says why (the engine's locked form and lockedReason).
 */
export function InvoiceEdit(options: ViewOptions) {
  const { id, templateType } = useParams();
  const translate = useTranslate();
  const { data: invoice } = useGetOne('invoices', { id: id! });
  // The address names a layout: it is the one the PDF button and the next visit use.
  useEffect(() => {
    if (templateType === 'template1' || templateType === 'template2') rememberTemplate(templateType as TemplateId);
  }, [templateType]);
  // The engine's form says why a locked invoice is read-only; its lines can take no new line either.
  const locked = invoice ? lockedReason(options.decl, invoice) : null;
  return (
    <Box sx={{ minWidth: 0 }}>
      <EngineEdit {...options} />
      {invoice && (
        <Box component="section" aria-label={translate('app.invoices.edit_lines')} sx={{ mt: 2, minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {translate('app.invoices.edit_lines')}
          </Typography>
          <ChildList
            decl={invoiceLines}
            parentId={invoice.id}
            columns={['description', 'work_date', 'quantity', 'unit_price', 'vat_treatment', 'vat_reason', 'net']}
            cells={{ vat_treatment: <LineVat /> }}
            createDisabledReason={locked}
          />
        </Box>
      )}
    </Box>
  );
}
