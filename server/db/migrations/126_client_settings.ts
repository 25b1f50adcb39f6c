// Issue 35, client settings: the agency's defaults for new clients (one row per agency, keyed by it, as its invoice
// settings are), which e-mails a client's users get unless one of them chose otherwise (notification_preferences),
// and the two per-client settings no client had yet: how its timesheets may be signed, and whether a staff member's
// request for one of its shifts books them at once. Payment terms, PO numbers, invoice mode and split, and timesheet
// grouping were already the client's (migrations 041, 098); the late-cancellation rule is the rates and rules'.
export default /* sql */ `
create table client_settings (
  merchant_id integer primary key references merchants(id) on delete cascade,
  id integer generated always as (merchant_id) stored,
  invoice_mode text check (invoice_mode in ('Weekly', 'daily', 'monthly', 'shift_staff', 'staff_weekly')),
  split_by_po boolean not null default false,
  split_by_site boolean not null default false,
  po_required boolean not null default false,
  timesheet_per text not null default 'client' check (timesheet_per in ('client', 'site')),
  signing_methods text[] not null default '{panel,link,phone}',
  shift_request_approval text not null default 'agency' check (shift_request_approval in ('agency', 'automatic')),
  client_emails text[] not null
    default '{shift.filled,shift.cancelled,timesheet.submitted,invoice.issued,invoice.payment_due}',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table clients
  add column signing_methods text[] not null default '{panel,link,phone}',
  add column shift_request_approval text not null default 'agency'
    check (shift_request_approval in ('agency', 'automatic'));
`;
