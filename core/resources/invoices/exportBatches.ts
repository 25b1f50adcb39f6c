import type { ResourceDeclaration } from '../../engine/types';

/** The accounting packages an export writes for (core/domain/invoicing/exports.ts). */
export const EXPORT_PACKAGES = [
  { id: 'xero', name: 'Xero' },
  { id: 'quickbooks', name: 'QuickBooks Online' },
];

/**
 * One accounting export of issued invoices and credit notes (issue 32, exports): who, when, for which package, the
 * filters asked for, and which documents went into its files, so the next export leaves them out unless asked to
 * include them (GET /api/invoices/export/xero|quickbooks, server/exports/invoices.ts). Made only by those routes,
 * through the engine; never changed or deleted (a batch is the record that a document has been exported).
 */
export const invoiceExportBatches: ResourceDeclaration = {
  name: 'invoice_export_batches',
  unitScope: 'client_id',
  table: 'invoice_export_batches',
  label: { one: 'Invoice export', many: 'Invoice exports' },
  recordRepresentation: 'Export %{id}',
  defaultSort: { field: 'id', order: 'DESC' },
  delete: 'hard',
  access: { admin: ['list', 'show'], consultant: ['list', 'show'] },
  // Earlier exports, beside the invoices (the accounting export's dialog leads here); each downloads again.
  routes: { list: '/invoice/exports', show: '/invoice/exports/:id' },
  fields: [
    {
      source: 'package',
      type: 'choice',
      label: 'For',
      choices: EXPORT_PACKAGES,
      required: true,
      createOnly: true,
      filter: true,
    },
    { source: 'period_from', type: 'date', label: 'Issued from', createOnly: true },
    { source: 'period_to', type: 'date', label: 'Issued to', createOnly: true },
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      createOnly: true,
      onDelete: 'keep',
    },
    { source: 'include_exported', type: 'boolean', label: 'Included documents exported before', createOnly: true },
    {
      source: 'invoice_ids',
      type: 'references',
      reference: 'invoices',
      label: 'Invoices',
      createOnly: true,
      // Every invoice of the export, however many (the files hold 500 each).
      max: 1_000_000,
      views: ['show'],
    },
    {
      source: 'credit_note_ids',
      type: 'references',
      reference: 'credit_notes',
      label: 'Credit notes',
      createOnly: true,
      max: 1_000_000,
      views: ['show'],
    },
    { source: 'document_count', type: 'number', integer: true, label: 'Documents', createOnly: true },
    { source: 'file_count', type: 'number', integer: true, label: 'Files', createOnly: true },
    // Documents of the period left out: exported before (unless included), or not importable by the package.
    { source: 'excluded_count', type: 'number', integer: true, label: 'Left out (exported before)', createOnly: true },
    { source: 'skipped', type: 'json', label: 'Not importable', createOnly: true, views: ['show'] },
    { source: 'exported_by', type: 'text', label: 'Exported by', createOnly: true },
    { source: 'created_at', type: 'datetime', label: 'Exported', readOnly: true, sortable: true },
  ],
};
