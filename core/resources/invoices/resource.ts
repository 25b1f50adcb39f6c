import type { Action, ResourceDeclaration, Role } from '../../engine/types';
import type { InvoiceMode } from '../../domain/invoicing/grouping';

/*
 * Client invoices (issue 32) on the engine for money documents (issue 31): an invoice and its lines are a declared
 * document with lines, numbered at issue, locked once issued, totalled by rollups and printed by the record-document
 * route, kept as issued. Nothing here is hand-written SQL: the server's behaviours (server/behaviours/invoices.ts)
 * only fill what the domain rules (core/domain/invoicing) decide.
 *
 * Engine routes (these declarations), besides CRUD:
 *   POST /api/invoices/:id/actions/issue     draft → issued: the next number of the agency's invoice series, the
 *                                            issue date, due date and time of supply, and the chosen template kept
 *   POST /api/invoices/:id/actions/void      { reason } draft → void (an issued invoice is corrected by a credit note)
 *   GET  /api/invoices/:id/pdf?template=template1|template2   the PDF, as kept at issue once issued
 *
 * Who reads what (docs/decisions.md, "Issue 32 — invoices on the engine"): the agency's admins do everything; its
 * consultants read invoices (they answer clients' questions) but neither issue, void, nor change them; a client's
 * users read their own client's issued invoices (never a draft or a voided one, never pay or margin); staff none.
 */

/** draft → issued → sent → part-paid → paid; void only from draft (core/domain/invoicing/settlement.ts). */
export const INVOICE_STATES = [
  { id: 'draft', name: 'Draft' },
  { id: 'issued', name: 'Issued' },
  { id: 'sent', name: 'Sent' },
  { id: 'part_paid', name: 'Part-paid' },
  { id: 'paid', name: 'Paid' },
  { id: 'void', name: 'Void' },
];
/** Every state an invoice has once issued: never edited again, corrected only by credit notes. */
export const ISSUED_STATES = ['issued', 'sent', 'part_paid', 'paid'];

/** The five ways a run groups what it bills (core/domain/invoicing/grouping.ts), by their route names. */
export const INVOICE_MODE_CHOICES: { id: InvoiceMode; name: string }[] = [
  { id: 'Weekly', name: 'Per client per week' },
  { id: 'daily', name: 'Per client per day' },
  { id: 'monthly', name: 'Per client per month' },
  { id: 'shift_staff', name: 'Per shift and staff member' },
  { id: 'staff_weekly', name: 'Per staff member per week' },
];

export const VAT_TREATMENTS = [
  { id: 'standard', name: 'Standard rate' },
  { id: 'exempt', name: 'Exempt (nursing agencies’ concession)' },
];

/** The spec's two printable layouts; the first is given when none is asked for (TemplateOne by default). */
export const INVOICE_TEMPLATES = [
  { id: 'template1', name: 'Template 1' },
  { id: 'template2', name: 'Template 2' },
];

export const CREDIT_KINDS = [
  { id: 'full', name: 'The whole invoice' },
  { id: 'lines', name: 'Chosen lines' },
  { id: 'amount', name: 'An amount' },
];

const AGENCY: Role[] = ['admin', 'consultant'];
const read: Action[] = ['list', 'show'];

export const invoices: ResourceDeclaration = {
  name: 'invoices',
  table: 'invoices',
  label: { one: 'Invoice', many: 'Invoices' },
  recordRepresentation: '%{label}',
  defaultSort: { field: 'id', order: 'DESC' },
  search: ['number', 'po_number'],
  // Never deleted: a draft not wanted is voided with a reason (its lines released for another run), so a run's
  // history stays whole; a numbered invoice is kept for six years.
  delete: 'hard',
  clientScope: 'client_id',
  access: {
    admin: ['list', 'show', 'create', 'edit', 'export'],
    consultant: [...read, 'export'],
    manager: read,
    viewer: read,
  },
  routes: { list: '/invoice/client-invoice', show: '/invoice/client-invoice/client-InvoiceView/:id' },
  tabs: [
    { id: 'draft', label: 'Draft', filter: { state: 'draft' }, path: '/invoice/client-invoice/draft' },
    { id: 'issued', label: 'Issued', filter: { state: 'issued' }, path: '/invoice/client-invoice/issued' },
    { id: 'sent', label: 'Sent', filter: { state: 'sent' }, path: '/invoice/client-invoice/sent' },
    { id: 'part_paid', label: 'Part-paid', filter: { state: 'part_paid' }, path: '/invoice/client-invoice/part-paid' },
    { id: 'paid', label: 'Paid', filter: { state: 'paid' }, path: '/invoice/client-invoice/paid' },
    { id: 'overdue', label: 'Overdue', filter: { overdue: true }, path: '/invoice/client-invoice/overdue' },
  ],
  // The shown rows' totals under the list: every matching invoice, not the page (summed by the server).
  listTotals: ['net', 'vat', 'total', 'balance'],
  numbering: { field: 'number', series: 'INV', prefix: 'INV-', pad: 5, at: 'issue' },
  documents: [
    { template: 'template1', label: 'Invoice (template 1)', keptFrom: 'issue' },
    { template: 'template2', label: 'Invoice (template 2)', keptFrom: 'issue' },
  ],
  // GET /api/invoices/{id}/pdf without ?template= serves the invoice's own layout (the one Send attaches).
  documentChosenBy: 'template',
  // A new invoice, by hand or by a run, starts in the agency's default layout (its invoice settings).
  agencyDefaults: ['template'],
  lifecycle: {
    field: 'state',
    // Issued is final: payments and credit notes move it on through their own transitions, nothing edits it.
    final: ISSUED_STATES,
    transitions: [
      { action: 'issue', from: ['draft'], to: 'issued' },
      { action: 'void', from: ['draft'], to: 'void' },
      // E-mailed to the client's billing address; sending again (a lost e-mail) keeps the state it is in.
      { action: 'send', from: ['issued'], to: 'sent' },
      // A credit note settles what it takes off: the state stays or moves to paid (settledState chooses).
      { action: 'credit', from: ISSUED_STATES, to: ISSUED_STATES },
      // A payment put against it, or its reversal: run by the payment (no role has it), the state settledState gives.
      { action: 'settle', from: ISSUED_STATES, to: ISSUED_STATES },
    ],
  },
  actions: [
    {
      // An invoice run (server/services/invoicing.ts): preview: true answers the invoices it would draft, with their
      // lines and totals, and takes nothing; otherwise { run_id, invoices: [id…], lines: n }.
      name: 'generate',
      label: 'Generate invoices',
      icon: 'playlist_add',
      roles: ['admin'],
      collection: true,
      success: 'Invoices generated',
      input: [
        {
          source: 'mode',
          type: 'choice',
          label: 'One invoice',
          required: true,
          choices: INVOICE_MODE_CHOICES,
        },
        { source: 'from', type: 'date', label: 'From', required: true },
        { source: 'to', type: 'date', label: 'To', required: true },
        { source: 'client_ids', type: 'references', reference: 'clients', label: 'Clients (all when empty)' },
        { source: 'preview', type: 'boolean', label: 'Only show what it would draft' },
        { source: 'background', type: 'boolean', label: 'Run as a job with progress, however small' },
      ],
    },
    {
      name: 'issue',
      label: 'Issue',
      icon: 'task_alt',
      roles: ['admin'],
      bulk: true,
      confirm: 'Issue %{name}? It takes the next invoice number and can then only be corrected by a credit note.',
      success: 'Invoice issued |||| %{smart_count} invoices issued',
      guard: (r) => (Number(r.line_count) > 0 ? null : 'This invoice has no lines to issue.'),
    },
    {
      name: 'void',
      label: 'Void',
      icon: 'block',
      danger: true,
      roles: ['admin'],
      success: 'Invoice voided',
      input: [{ source: 'reason', type: 'longtext', label: 'Why it is voided', required: true, maxLength: 2000 }],
      patch: (_r, input) => ({ void_reason: input.reason }),
    },
    {
      // A credit note against the invoice (numbered CN- in its own series): in full, chosen lines, or an amount ex
      // VAT shared over its rates (creditNote in core/domain/invoicing/totals.ts). Re-bill releases the credited
      // lines' timesheet lines and late cancellations for another invoice.
      name: 'credit',
      label: 'Credit note',
      icon: 'undo',
      roles: ['admin'],
      success: 'Credit note made',
      input: [
        { source: 'kind', type: 'choice', label: 'Credit', required: true, choices: CREDIT_KINDS },
        {
          source: 'line_ids',
          type: 'references',
          reference: 'invoice_lines',
          label: 'Lines to credit',
          // This invoice's own lines to choose from.
          options: { parent: 'invoice_id' },
        },
        { source: 'amount', type: 'money', label: 'Amount to credit (ex VAT)', min: 0 },
        { source: 'reason', type: 'longtext', label: 'Why it is credited', required: true, maxLength: 2000 },
        { source: 'rebill', type: 'boolean', label: 'Bill the credited work again on another invoice' },
      ],
    },
    {
      name: 'send',
      label: 'Send to the client',
      icon: 'send',
      roles: ['admin'],
      bulk: true,
      confirm: 'E-mail %{name} to the client’s billing address?',
      success: 'Invoice sent |||| %{smart_count} invoices sent',
    },
    {
      name: 'settle',
      label: 'Settled by a payment',
      roles: [],
      success: 'Payment recorded',
      input: [{ source: 'paid', type: 'money', label: 'Paid', required: true }],
    },
  ],
  fields: [
    { source: 'number', type: 'text', label: 'Number', readOnly: true, sortable: true },
    // The number once issued, else "Draft 12": how references and titles name it.
    { source: 'label', type: 'text', label: 'Invoice', computed: true, readOnly: true, views: [] },
    {
      source: 'state',
      type: 'choice',
      label: 'State',
      choices: INVOICE_STATES,
      required: true,
      defaultValue: 'draft',
      filter: true,
    },
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      required: true,
      createOnly: true,
      filter: true,
      sortable: true,
    },
    // A filter for the client dashboard of one site (issue 34): the invoices made for that site.
    {
      source: 'site_id',
      type: 'reference',
      reference: 'sites',
      label: 'Site',
      createOnly: true,
      views: ['show'],
      filter: true,
    },
    // The period, the VAT and the overdue flag (a tab of its own) are a column choice away: the list stays within a
    // laptop's width.
    {
      source: 'period_start',
      type: 'date',
      label: 'From',
      createOnly: true,
      sortable: true,
      filter: true,
      listHidden: true,
    },
    { source: 'period_end', type: 'date', label: 'To', createOnly: true, listHidden: true },
    {
      source: 'mode',
      type: 'choice',
      label: 'Grouped',
      choices: INVOICE_MODE_CHOICES,
      createOnly: true,
      views: ['show'],
    },
    // A filter for the Invoice Report's period (issue 34): the invoices issued from one day to another.
    { source: 'issue_date', type: 'date', label: 'Issued', readOnly: true, sortable: true, filter: true },
    // The tax point of its latest line (VAT Notice 700 s 14), set at issue; each line keeps its own.
    { source: 'time_of_supply', type: 'date', label: 'Time of supply', readOnly: true, views: ['show'] },
    { source: 'due_date', type: 'date', label: 'Due', readOnly: true, sortable: true },
    // When it was e-mailed to the client: a payment reversed takes it back to sent, not issued.
    { source: 'sent_at', type: 'datetime', label: 'Sent', readOnly: true, views: ['show'] },
    {
      source: 'po_number',
      type: 'text',
      label: 'PO number',
      maxLength: 100,
      editableIn: ['draft'],
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'template',
      type: 'choice',
      label: 'Layout',
      choices: INVOICE_TEMPLATES,
      defaultValue: 'template1',
      required: true,
      editableIn: ['draft'],
      views: ['show', 'edit', 'create'],
    },
    {
      source: 'notes',
      type: 'longtext',
      label: 'Notes',
      maxLength: 2000,
      editableIn: ['draft'],
      views: ['show', 'edit', 'create'],
    },
    // Kept from the lines in every write (parent.lines.rollups of invoice_lines).
    {
      source: 'line_count',
      type: 'number',
      integer: true,
      label: 'Lines',
      readOnly: true,
      defaultValue: 0,
      views: ['show'],
    },
    { source: 'exempt_net', type: 'money', label: 'Exempt (net)', readOnly: true, defaultValue: 0, views: ['show'] },
    {
      source: 'standard_net',
      type: 'money',
      label: 'Standard-rated (net)',
      readOnly: true,
      defaultValue: 0,
      views: ['show'],
    },
    { source: 'net', type: 'money', label: 'Net', readOnly: true, defaultValue: 0, sortable: true },
    { source: 'vat', type: 'money', label: 'VAT', readOnly: true, defaultValue: 0, listHidden: true },
    { source: 'total', type: 'money', label: 'Total', readOnly: true, defaultValue: 0, sortable: true },
    // Kept by payments and credit notes (negative: what credit notes took off), never by hand.
    { source: 'paid', type: 'money', label: 'Paid', readOnly: true, defaultValue: 0, views: ['show'] },
    { source: 'credited', type: 'money', label: 'Credited', readOnly: true, defaultValue: 0, views: ['show'] },
    // What is left to pay (settlement.ts, balanceOf) and whether that is late by the agency's own date (isOverdue).
    { source: 'balance', type: 'money', label: 'Balance', computed: true, readOnly: true },
    {
      source: 'overdue',
      type: 'boolean',
      label: 'Overdue',
      computed: true,
      readOnly: true,
      filter: true,
      listHidden: true,
    },
    {
      source: 'run_id',
      type: 'reference',
      reference: 'invoice_runs',
      label: 'Run',
      readOnly: true,
      // The run's page lists the invoices it made.
      filter: true,
      onDelete: 'keep',
      readableBy: AGENCY,
      views: ['show'],
    },
    {
      source: 'void_reason',
      type: 'longtext',
      label: 'Voided because',
      readOnly: true,
      readableBy: AGENCY,
      views: ['show'],
    },
    { source: 'issued_by', type: 'text', label: 'Issued by', readOnly: true, readableBy: AGENCY, views: ['show'] },
    { source: 'created_at', type: 'datetime', label: 'Drafted', readOnly: true, readableBy: AGENCY, views: ['show'] },
  ],
};

export const invoiceLines: ResourceDeclaration = {
  name: 'invoice_lines',
  table: 'invoice_lines',
  label: { one: 'Invoice line', many: 'Invoice lines' },
  recordRepresentation: '%{description}',
  defaultSort: { field: 'work_date', order: 'ASC' },
  delete: 'hard',
  parent: {
    resource: 'invoices',
    field: 'invoice_id',
    onDelete: 'refuse',
    tab: 'lines',
    // Changed only while the invoice is a draft; its totals are their sums, exempt and standard apart.
    lines: {
      editableIn: ['draft'],
      rollups: {
        line_count: { count: 'all' },
        net: { sum: 'net' },
        vat: { sum: 'vat' },
        total: { sum: 'total' },
        exempt_net: { sum: 'net', where: { vat_treatment: ['exempt'] } },
        standard_net: { sum: 'net', where: { vat_treatment: ['standard'] } },
      },
    },
  },
  clientScope: 'invoice_id.client_id',
  access: {
    admin: ['list', 'show', 'create', 'edit', 'delete', 'export'],
    consultant: read,
    manager: read,
    viewer: read,
  },
  fields: [
    {
      source: 'invoice_id',
      type: 'reference',
      reference: 'invoices',
      label: 'Invoice',
      required: true,
      createOnly: true,
      filter: true,
    },
    // What the line bills: a timesheet line, or a shift's late-cancellation charge. Each is billed once among the
    // lines not released by a credit note (a partial unique index, migration 090, holds it against racing runs).
    {
      source: 'timesheet_line_id',
      type: 'reference',
      reference: 'timesheet_lines',
      label: 'Timesheet line',
      createOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    {
      source: 'cancelled_shift_id',
      type: 'reference',
      reference: 'shifts',
      label: 'Late cancellation',
      createOnly: true,
      onDelete: 'refuse',
      readableBy: AGENCY,
      views: ['show'],
    },
    { source: 'description', type: 'text', label: 'Description', required: true, maxLength: 300 },
    { source: 'work_date', type: 'date', label: 'Date', required: true, createOnly: true, sortable: true },
    { source: 'quantity', type: 'number', label: 'Hours', required: true, min: 0, max: 10000, createOnly: true },
    { source: 'unit_price', type: 'money', label: 'Unit price (ex VAT)', required: true, createOnly: true },
    { source: 'net', type: 'money', label: 'Net', readOnly: true },
    {
      source: 'vat_treatment',
      type: 'choice',
      label: 'VAT',
      choices: VAT_TREATMENTS,
      required: true,
      defaultValue: 'standard',
    },
    // Why the treatment is what it is (the rule's words, or the agency's when it changed a draft's line).
    { source: 'vat_reason', type: 'text', label: 'VAT treatment because', maxLength: 500, views: ['show', 'edit'] },
    {
      source: 'vat_rate',
      type: 'number',
      integer: true,
      label: 'VAT rate (basis points)',
      readOnly: true,
      views: ['show'],
    },
    { source: 'vat', type: 'money', label: 'VAT', readOnly: true },
    { source: 'total', type: 'money', label: 'Total', readOnly: true },
    { source: 'time_of_supply', type: 'date', label: 'Time of supply', readOnly: true, views: ['show'] },
    // Set by a credit note that re-bills the line: its timesheet line may then be invoiced again.
    {
      source: 'released_at',
      type: 'datetime',
      label: 'Released for re-billing',
      readOnly: true,
      readableBy: AGENCY,
      views: ['show'],
    },
  ],
};

export const invoiceRuns: ResourceDeclaration = {
  name: 'invoice_runs',
  unitScope: { none: 'a run spans clients: a unit-limited role’s run bills only its units’ clients (invoicing.ts)' },
  table: 'invoice_runs',
  label: { one: 'Invoice run', many: 'Invoice runs' },
  recordRepresentation: 'Run %{id}',
  defaultSort: { field: 'id', order: 'DESC' },
  delete: 'hard',
  access: { admin: read, consultant: read },
  routes: { list: '/invoice/GenerateView', show: '/invoice/GenerateView/generateView/:id' },
  actions: [
    {
      // A run's job goes on by itself once its worker's lease runs out (a killed process); this takes it up now, and
      // a run that failed for good (its attempts used) is tried again. Billing again is harmless: each step bills
      // only what is not yet billed (server/services/invoicing.ts, invoiceRun).
      name: 'resume',
      label: 'Resume',
      icon: 'play_arrow',
      roles: ['admin'],
      success: 'Run resumed',
      guard: (r) => (r.finished_at ? 'This run has finished.' : null),
    },
  ],
  fields: [
    {
      source: 'mode',
      type: 'choice',
      label: 'Mode',
      choices: INVOICE_MODE_CHOICES,
      required: true,
      createOnly: true,
      filter: true,
    },
    { source: 'period_start', type: 'date', label: 'From', required: true, createOnly: true, sortable: true },
    { source: 'period_end', type: 'date', label: 'To', required: true, createOnly: true },
    {
      source: 'client_ids',
      type: 'references',
      reference: 'clients',
      label: 'Clients (all when empty)',
      createOnly: true,
      // The runs' list fits a laptop (1366 px): the clients and the line count are offered by the column chooser.
      listHidden: true,
    },
    { source: 'started_by', type: 'text', label: 'Started by', readOnly: true },
    // Running until its last client is billed; failed when its job used its attempts (resume tries again).
    {
      source: 'state',
      type: 'choice',
      label: 'State',
      computed: true,
      readOnly: true,
      choices: [
        { id: 'running', name: 'Running' },
        { id: 'done', name: 'Done' },
        { id: 'failed', name: 'Failed' },
      ],
    },
    // The clients with something to bill when the run started, in the order it bills them, one at a time.
    {
      source: 'clients',
      type: 'references',
      reference: 'clients',
      label: 'Clients billed',
      readOnly: true,
      views: ['show'],
    },
    { source: 'clients_done', type: 'number', integer: true, label: 'Clients done', readOnly: true },
    { source: 'clients_total', type: 'number', integer: true, label: 'Of', computed: true, readOnly: true },
    { source: 'job_id', type: 'number', integer: true, label: 'Job', readOnly: true, views: [] },
    { source: 'finished_at', type: 'datetime', label: 'Finished', readOnly: true, views: ['show'] },
    { source: 'invoice_count', type: 'number', integer: true, label: 'Invoices', readOnly: true },
    { source: 'line_count', type: 'number', integer: true, label: 'Lines', readOnly: true, listHidden: true },
    { source: 'total', type: 'money', label: 'Total', readOnly: true },
    { source: 'created_at', type: 'datetime', label: 'Started', readOnly: true, sortable: true },
  ],
};

/** A credit note: made only by an invoice's Credit action, never edited or deleted; amounts negative. */
export const creditNotes: ResourceDeclaration = {
  name: 'credit_notes',
  table: 'credit_notes',
  label: { one: 'Credit note', many: 'Credit notes' },
  recordRepresentation: '%{number}',
  defaultSort: { field: 'id', order: 'DESC' },
  search: ['number'],
  delete: 'hard',
  clientScope: 'client_id',
  access: { admin: [...read, 'export'], consultant: read, manager: read, viewer: read },
  numbering: { field: 'number', series: 'CN', prefix: 'CN-', pad: 5 },
  // Issued as it is made (never a draft): kept at the end of the invoice's credit action, once its lines exist.
  documents: [{ template: 'credit_note', label: 'Credit note', keptFrom: 'create' }],
  fields: [
    { source: 'number', type: 'text', label: 'Number', readOnly: true, sortable: true },
    {
      source: 'invoice_id',
      type: 'reference',
      reference: 'invoices',
      label: 'Invoice',
      required: true,
      createOnly: true,
      filter: true,
    },
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      required: true,
      createOnly: true,
      filter: true,
    },
    { source: 'kind', type: 'choice', label: 'Credit', choices: CREDIT_KINDS, required: true, createOnly: true },
    { source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 2000, createOnly: true },
    { source: 'rebill', type: 'boolean', label: 'Re-billed', createOnly: true, readableBy: AGENCY, views: ['show'] },
    { source: 'issue_date', type: 'date', label: 'Issued', required: true, createOnly: true, sortable: true },
    { source: 'net', type: 'money', label: 'Net', required: true, createOnly: true },
    { source: 'vat', type: 'money', label: 'VAT', required: true, createOnly: true },
    { source: 'total', type: 'money', label: 'Total', required: true, createOnly: true },
  ],
};

export const creditNoteLines: ResourceDeclaration = {
  name: 'credit_note_lines',
  table: 'credit_note_lines',
  label: { one: 'Credit note line', many: 'Credit note lines' },
  recordRepresentation: '%{description}',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  parent: { resource: 'credit_notes', field: 'credit_note_id', onDelete: 'refuse', tab: 'lines' },
  clientScope: 'credit_note_id.client_id',
  access: { admin: read, consultant: read, manager: read, viewer: read },
  fields: [
    {
      source: 'credit_note_id',
      type: 'reference',
      reference: 'credit_notes',
      label: 'Credit note',
      required: true,
      createOnly: true,
      filter: true,
    },
    // The invoice line it credits; none for an amount.
    {
      source: 'invoice_line_id',
      type: 'reference',
      reference: 'invoice_lines',
      label: 'Credits line',
      createOnly: true,
      onDelete: 'refuse',
      views: ['show'],
    },
    { source: 'description', type: 'text', label: 'Description', required: true, maxLength: 300, createOnly: true },
    {
      source: 'vat_treatment',
      type: 'choice',
      label: 'VAT',
      choices: VAT_TREATMENTS,
      required: true,
      createOnly: true,
    },
    {
      source: 'vat_rate',
      type: 'number',
      integer: true,
      label: 'VAT rate (basis points)',
      required: true,
      createOnly: true,
      views: ['show'],
    },
    { source: 'net', type: 'money', label: 'Net', required: true, createOnly: true },
    { source: 'vat', type: 'money', label: 'VAT', required: true, createOnly: true },
  ],
};

export const PAYMENT_METHODS = [
  { id: 'bank_transfer', name: 'Bank transfer' },
  { id: 'card', name: 'Card' },
  { id: 'cheque', name: 'Cheque' },
  { id: 'other', name: 'Other' },
];

/**
 * A client's payment, put against its open invoices (as split, or oldest due first: allocatePayment); never deleted,
 * reversed with a reason instead. The agency's own books: client users do not read them.
 */
export const payments: ResourceDeclaration = {
  name: 'payments',
  unitScope: 'client_id',
  table: 'payments',
  label: { one: 'Payment', many: 'Payments' },
  recordRepresentation: '%{reference}',
  defaultSort: { field: 'id', order: 'DESC' },
  search: ['reference'],
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'export'], consultant: read },
  lifecycle: {
    field: 'state',
    final: ['reversed'],
    transitions: [{ action: 'reverse', from: ['recorded'], to: 'reversed' }],
  },
  actions: [
    {
      name: 'reverse',
      label: 'Reverse',
      icon: 'undo',
      danger: true,
      roles: ['admin'],
      success: 'Payment reversed',
      input: [{ source: 'reason', type: 'longtext', label: 'Why it is reversed', required: true, maxLength: 2000 }],
      patch: (_r, input) => ({ reversed_reason: input.reason }),
    },
  ],
  fields: [
    {
      source: 'client_id',
      type: 'reference',
      reference: 'clients',
      label: 'Client',
      required: true,
      createOnly: true,
      filter: true,
    },
    { source: 'paid_on', type: 'date', label: 'Paid on', required: true, createOnly: true, sortable: true },
    { source: 'amount', type: 'money', label: 'Amount', required: true, min: 0.01, createOnly: true },
    { source: 'reference', type: 'text', label: 'Reference', maxLength: 100, createOnly: true },
    {
      source: 'method',
      type: 'choice',
      label: 'Method',
      choices: PAYMENT_METHODS,
      required: true,
      defaultValue: 'bank_transfer',
      createOnly: true,
    },
    // How it is shared: [{ invoice_id, amount }] in pence, or empty for the client's oldest due first.
    { source: 'split', type: 'json', label: 'Split over invoices', createOnly: true, views: ['create'] },
    {
      source: 'state',
      type: 'choice',
      label: 'State',
      choices: [
        { id: 'recorded', name: 'Recorded' },
        { id: 'reversed', name: 'Reversed' },
      ],
      required: true,
      defaultValue: 'recorded',
      filter: true,
    },
    { source: 'reversed_reason', type: 'longtext', label: 'Reversed because', readOnly: true, views: ['show'] },
    { source: 'created_at', type: 'datetime', label: 'Recorded', readOnly: true, views: ['show'] },
  ],
};

/**
 * Which invoices a payment paid, and how much of each; its reversal writes the same amounts negated. A client's users
 * read those put against their own client's invoices, with the payment's date, reference and method (what their
 * remittance advice says), never the payment record itself: it may cover invoices and notes they do not need.
 */
export const paymentAllocations: ResourceDeclaration = {
  name: 'payment_allocations',
  table: 'payment_allocations',
  label: { one: 'Payment allocation', many: 'Payment allocations' },
  recordRepresentation: 'Allocation %{id}',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  parent: { resource: 'payments', field: 'payment_id', onDelete: 'refuse', tab: 'allocations' },
  clientScope: 'invoice_id.client_id',
  access: { admin: read, consultant: read, manager: read, viewer: read },
  fields: [
    {
      source: 'payment_id',
      type: 'reference',
      reference: 'payments',
      label: 'Payment',
      required: true,
      createOnly: true,
      filter: true,
      readableBy: AGENCY,
    },
    {
      source: 'invoice_id',
      type: 'reference',
      reference: 'invoices',
      label: 'Invoice',
      required: true,
      createOnly: true,
      filter: true,
    },
    { source: 'amount', type: 'money', label: 'Amount', required: true, createOnly: true },
    // The payment's, for the reader of the allocation (server/behaviours/invoices.ts): a reversal is its negated row.
    { source: 'paid_on', type: 'date', label: 'Paid on', computed: true, readOnly: true },
    { source: 'reference', type: 'text', label: 'Reference', computed: true, readOnly: true },
    { source: 'method', type: 'choice', label: 'Method', choices: PAYMENT_METHODS, computed: true, readOnly: true },
    { source: 'created_at', type: 'datetime', label: 'Recorded', readOnly: true },
  ],
};

export const invoiceResources: ResourceDeclaration[] = [
  payments,
  paymentAllocations,
  invoices,
  invoiceLines,
  invoiceRuns,
  creditNotes,
  creditNoteLines,
];
