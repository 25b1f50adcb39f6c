/** The agency's client settings and its client users' e-mails (server/routes/clientSettings.ts, issue 35). */
import Type, { type Static } from 'typebox';
import { Id, Nullable } from './common.js';

export const ClientSettings = Type.Object({
  invoice_mode: Nullable(Type.String()),
  split_by_po: Type.Boolean(),
  split_by_site: Type.Boolean(),
  po_required: Type.Boolean(),
  timesheet_per: Type.String(),
  signing_methods: Type.Array(Type.String()),
  shift_request_approval: Type.String(),
  client_emails: Type.Array(Type.String()),
  /** What a save sends back, to be refused if someone saved in between (0: nothing saved yet). */
  version: Type.Integer(),
  /** Read only here: a new client's payment terms are the invoice settings' default (/appsetting/invoicesetting). */
  default_payment_terms_days: Type.Integer(),
});
export type ClientSettings = Static<typeof ClientSettings>;
export const ClientSettingsAnswer = Type.Object({ data: ClientSettings, message: Type.Optional(Type.String()) });

/** A client user's e-mail for an event: their own (or an admin's) choice, or null: the agency's default. */
const Choice = Nullable(Type.String());
export const ClientUserEmails = Type.Object({
  id: Id,
  name: Type.String(),
  email: Type.String(),
  role: Nullable(Type.String()),
  client_id: Id,
  client_name: Type.String(),
  emails: Type.Record(Type.String(), Choice),
});
export type ClientUserEmails = Static<typeof ClientUserEmails>;
export const ClientUserEmailsList = Type.Object({ data: Type.Array(ClientUserEmails) });
export const ClientUserEmailsSaved = Type.Object({ data: ClientUserEmails, message: Type.String() });
