// Issue 16: the notification settings are written through the engine, which names a record by `id` and keeps its
// `created_at`. The payment reminders are one row per agency, keyed by the agency: their id is the agency's id, as
// the audit entries written before this migration already file them.
export default /* sql */ `
alter table notification_payment_settings
  add column id integer generated always as (merchant_id) stored,
  add column created_at timestamptz not null default now();
`;
