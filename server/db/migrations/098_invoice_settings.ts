// Issue 32: what the nursing agencies' concession reads (a job role's concession, a site's care type, the agency's
// election), a client's billing details (PO numbers, split by site, its invoice mode, billing address), a shift's PO
// number, the agency's invoice settings (one row per agency, keyed by it), and the overdue reminders sent, one per
// invoice and step whoever sends it.
export default /* sql */ `
alter table job_roles add column vat_concession text not null default 'none'
  check (vat_concession in ('nurse', 'supervised_auxiliary', 'auxiliary', 'none'));
alter table sites add column care_type text
  check (care_type in ('hospital', 'hospice', 'care_home_nursing', 'care_home', 'other'));
alter table clients
  add column billing_address jsonb,
  add column po_required boolean not null default false,
  add column split_by_site boolean not null default false,
  add column split_by_po boolean not null default false,
  add column invoice_mode text check (invoice_mode in ('Weekly', 'daily', 'monthly', 'shift_staff', 'staff_weekly'));
alter table shifts add column po_number text;
create table invoice_settings (
  merchant_id integer primary key references merchants(id) on delete cascade,
  id integer generated always as (merchant_id) stored,
  nursing_concession_from date,
  default_payment_terms_days integer not null default 30 check (default_payment_terms_days between 0 and 365),
  vat_number text,
  bank_account_name text,
  bank_sort_code text,
  bank_account_number text,
  footer text,
  default_template text not null default 'template1' check (default_template in ('template1', 'template2')),
  reminder_days text not null default '7, 14, 30',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create table invoice_reminders (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  invoice_id integer not null,
  -- Days after the due date (negative: the reminder before it).
  step integer not null check (step between -60 and 365),
  due_date date not null,
  recipient text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  -- One reminder per invoice and step, whichever process or run sends it.
  unique (merchant_id, invoice_id, step),
  foreign key (merchant_id, invoice_id) references invoices (merchant_id, id)
);
`;
