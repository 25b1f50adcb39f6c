// Issue 32: client invoices on the engine for money documents. Drafts have no number (numbering at issue, one
// unique number per agency); the totals are the lines' rollups. A timesheet line and a late-cancellation charge are
// each billed once among the lines a credit note has not released for re-billing: the partial unique indexes hold
// it against two runs that race, whatever writes them.
export default /* sql */ `
create table invoice_runs (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  mode text not null check (mode in ('Weekly', 'daily', 'monthly', 'shift_staff', 'staff_weekly')),
  period_start date not null,
  period_end date not null,
  client_ids integer[] not null default '{}',
  started_by text,
  invoice_count integer,
  line_count integer,
  total bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id)
);
create trigger invoice_runs_client_ids_agency before insert or update of client_ids on invoice_runs for each row execute function check_agency_array_refs('client_ids', 'clients');
create index invoice_runs_mode on invoice_runs (merchant_id, lower(mode));
create index invoice_runs_period_start on invoice_runs (merchant_id, period_start);
create index invoice_runs_created_at on invoice_runs (merchant_id, created_at);
create table invoices (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  number text,
  state text not null check (state in ('draft', 'issued', 'sent', 'part_paid', 'paid', 'void')),
  client_id integer not null,
  site_id integer,
  period_start date,
  period_end date,
  mode text check (mode in ('Weekly', 'daily', 'monthly', 'shift_staff', 'staff_weekly')),
  issue_date date,
  time_of_supply date,
  due_date date,
  po_number text,
  template text not null check (template in ('template1', 'template2')),
  notes text,
  line_count integer,
  exempt_net bigint,
  standard_net bigint,
  net bigint,
  vat bigint,
  total bigint,
  paid bigint,
  credited bigint,
  run_id integer,
  void_reason text,
  issued_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  search_text text generated always as (lower(coalesce(number, '') || ' ' || coalesce(po_number, ''))) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id),
  foreign key (merchant_id, site_id) references sites (merchant_id, id),
  foreign key (merchant_id, run_id) references invoice_runs (merchant_id, id)
);
create index invoices_number on invoices (merchant_id, lower(number));
create index invoices_state on invoices (merchant_id, lower(state));
create index invoices_client_id on invoices (merchant_id, client_id);
create index invoices_period_start on invoices (merchant_id, period_start);
create index invoices_issue_date on invoices (merchant_id, issue_date);
create index invoices_due_date on invoices (merchant_id, due_date);
create index invoices_net on invoices (merchant_id, net);
create index invoices_total on invoices (merchant_id, total);
create unique index invoices_number_numbered on invoices (merchant_id, number);
create index invoices_search on invoices using gin (search_text gin_trgm_ops);
create table invoice_lines (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  invoice_id integer not null,
  timesheet_line_id integer,
  cancelled_shift_id integer,
  description text not null,
  work_date date not null,
  quantity numeric not null,
  unit_price bigint not null,
  net bigint,
  vat_treatment text not null check (vat_treatment in ('standard', 'exempt')),
  vat_reason text,
  vat_rate integer,
  vat bigint,
  total bigint,
  time_of_supply date,
  released_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, invoice_id) references invoices (merchant_id, id),
  foreign key (merchant_id, timesheet_line_id) references timesheet_lines (merchant_id, id),
  foreign key (merchant_id, cancelled_shift_id) references shifts (merchant_id, id)
);
create index invoice_lines_invoice_id on invoice_lines (merchant_id, invoice_id);
create index invoice_lines_work_date on invoice_lines (merchant_id, work_date);
create index invoice_lines_created on invoice_lines (merchant_id, created_at);
create unique index invoice_lines_timesheet_line_once on invoice_lines (merchant_id, timesheet_line_id)
  where timesheet_line_id is not null and released_at is null;
create unique index invoice_lines_cancellation_once on invoice_lines (merchant_id, cancelled_shift_id)
  where cancelled_shift_id is not null and released_at is null;
`;
