import { textOf, type ResourceDeclaration } from '../../engine/types';
import { parseReminderDays } from '../../domain/invoicing/reminders';

// The agency's invoice settings (/appsetting/invoicesetting) and the overdue reminders sent (issue 32). Both are one
// agency's own rows served by hand-written routes (server/routes/invoiceSettings.ts), written by the engine all the
// same: validated by these declarations, versioned and audited. The prefixes and next numbers shown beside them are
// the agency's number series (number_series), moved forward only by the same rule as PUT /api/number_series. The
// agency's address and VAT number, which invoices print too, are its agency settings (settings/agency.ts).

/** The agency's one row of invoice settings, whose id is the agency's (migration 098). No row: the defaults. */
export const invoiceSettings: ResourceDeclaration = {
  name: 'invoice_settings',
  table: 'invoice_settings',
  label: { one: 'Invoice settings', many: 'Invoice settings' },
  recordRepresentation: 'Invoice settings',
  defaultSort: { field: 'id', order: 'ASC' },
  delete: 'hard',
  served: false,
  access: { admin: ['list', 'show', 'create', 'edit'], consultant: ['list', 'show'] },
  rules: (r): Record<string, string> => {
    const problems: Record<string, string> = {};
    const days = parseReminderDays(textOf(r.reminder_days));
    if (!days.ok) problems.reminder_days = days.message;
    // Bank details are printed together on every invoice: half of them would send a payment nowhere.
    const bank = ['bank_account_name', 'bank_sort_code', 'bank_account_number'] as const;
    const given = bank.filter((f) => textOf(r[f]).trim() !== '');
    if (given.length && given.length < bank.length)
      for (const f of bank)
        if (!given.includes(f)) problems[f] = 'Give the account name, sort code and account number together.';
    return problems;
  },
  fields: [
    // Never backdated: the server refuses a date before the agency's today (server/behaviours/invoiceSettings.ts),
    // checked when it changes, so a date that has since passed can stay.
    {
      source: 'nursing_concession_from',
      type: 'date',
      label: 'Nursing agencies’ VAT concession from',
      date: { clearable: true },
      helperText: 'Empty: not elected. Work done from this day on is exempt where VAT Notice 701/57 allows.',
    },
    {
      source: 'default_payment_terms_days',
      type: 'number',
      label: 'Default payment terms (days)',
      integer: true,
      min: 0,
      max: 365,
      required: true,
      defaultValue: 30,
      helperText: 'For clients without payment terms of their own.',
    },
    { source: 'bank_account_name', type: 'text', label: 'Bank account name', maxLength: 70 },
    {
      source: 'bank_sort_code',
      type: 'text',
      label: 'Sort code',
      maxLength: 8,
      pattern: { regex: '^[0-9]{2}-?[0-9]{2}-?[0-9]{2}$', message: 'engine.validation.sortCode' },
    },
    {
      source: 'bank_account_number',
      type: 'text',
      label: 'Account number',
      maxLength: 8,
      pattern: { regex: '^[0-9]{8}$', message: 'engine.validation.accountNumber' },
    },
    { source: 'footer', type: 'longtext', label: 'Invoice footer', maxLength: 1000 },
    {
      source: 'default_template',
      type: 'choice',
      label: 'Default template',
      required: true,
      defaultValue: 'template1',
      choices: [
        { id: 'template1', name: 'Template 1' },
        { id: 'template2', name: 'Template 2' },
      ],
    },
    {
      source: 'reminder_days',
      type: 'text',
      label: 'Overdue reminders (days after due)',
      maxLength: 60,
      defaultValue: '7, 14, 30',
      helperText: 'Sent while payment reminders are on (Notification settings, ActivatePayment). Empty: none.',
    },
  ],
};

/** One overdue reminder e-mailed for an invoice at one step of the schedule: written once, never changed. */
export const invoiceReminders: ResourceDeclaration = {
  name: 'invoice_reminders',
  unitScope: 'invoice_id.client_id',
  table: 'invoice_reminders',
  label: { one: 'Overdue reminder', many: 'Overdue reminders' },
  recordRepresentation: 'Reminder at %{step} days after due',
  defaultSort: { field: 'id', order: 'DESC' },
  delete: 'hard',
  served: false,
  // Its entry is filed under the invoice, whose history then lists the reminder.
  filedUnder: { resource: 'invoices', field: 'invoice_id' },
  // Written by the reminders job only (as the system); read with the invoice's history.
  access: { admin: ['list', 'show'], consultant: ['list', 'show'] },
  fields: [
    { source: 'invoice_id', type: 'reference', reference: 'invoices', label: 'Invoice', required: true },
    // Days after the due date; the reminder before it (ActivatePayment's days before due) is negative.
    { source: 'step', type: 'number', label: 'Days after due', integer: true, required: true, min: -60, max: 365 },
    { source: 'due_date', type: 'date', label: 'Due', required: true },
    { source: 'recipient', type: 'email', label: 'Sent to', required: true },
    { source: 'created_at', type: 'datetime', label: 'Queued', readOnly: true },
  ],
};

export const invoiceSettingsResources = [invoiceSettings, invoiceReminders];
