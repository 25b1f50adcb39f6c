/** The agency's invoice settings and its invoice and credit-note number series (server/routes/invoiceSettings.ts). */
import Type, { type Static } from 'typebox';
import { Nullable } from './common.js';

export const InvoiceSettings = Type.Object({
  nursing_concession_from: Nullable(Type.String()),
  default_payment_terms_days: Type.Integer(),
  bank_account_name: Nullable(Type.String()),
  bank_sort_code: Nullable(Type.String()),
  bank_account_number: Nullable(Type.String()),
  footer: Nullable(Type.String()),
  default_template: Type.String(),
  reminder_days: Type.String(),
  /** What a save sends back, to be refused if someone saved in between (0: nothing saved yet). */
  version: Type.Integer(),
  invoice_prefix: Type.String(),
  invoice_next_number: Type.Integer(),
  credit_note_prefix: Type.String(),
  credit_note_next_number: Type.Integer(),
});
export type InvoiceSettings = Static<typeof InvoiceSettings>;
export const InvoiceSettingsAnswer = Type.Object({ data: InvoiceSettings, message: Type.Optional(Type.String()) });
