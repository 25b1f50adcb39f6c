// Issue 17: timesheets, their lines and signatures (core/resources/timesheets), and each client's timesheet settings.
// A shift is on one timesheet, ever: the unique index on its line's shift_id holds that against racing generations.
export default /* sql */ `
alter table clients
  add column timesheet_per text not null default 'client' check (timesheet_per in ('client', 'site')),
  add column timesheet_approver_email text,
  add column timesheet_link_days integer default 7,
  add column timesheet_reminder_days integer default 3;
create table timesheets (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  number text,
  client_id integer not null,
  site_id integer,
  kind text not null check (kind in ('weekly', 'custom')),
  period_start date not null,
  period_end date not null,
  status text not null check (status in ('draft', 'submitted', 'signed', 'disputed', 'amended', 'locked')),
  revision integer,
  line_count integer,
  payable_lines integer,
  paid_minutes integer,
  charge bigint,
  pay bigint,
  on_costs bigint,
  margin bigint,
  submitted_at timestamptz,
  signed_at timestamptz,
  disputed_at timestamptz,
  reminded_at timestamptz,
  amendment_note text,
  locked_by text check (locked_by in ('invoice', 'payroll')),
  verified_evidence text,
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  search_text text generated always as (lower(coalesce(number, ''))) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id),
  foreign key (merchant_id, site_id) references sites (merchant_id, id)
);
create index timesheets_number on timesheets (merchant_id, lower(number));
create index timesheets_client_id on timesheets (merchant_id, client_id);
create index timesheets_site_id on timesheets (merchant_id, site_id);
create index timesheets_kind on timesheets (merchant_id, lower(kind));
create index timesheets_period_start on timesheets (merchant_id, period_start);
create index timesheets_status on timesheets (merchant_id, lower(status));
create index timesheets_signed_at on timesheets (merchant_id, signed_at);
create index timesheets_created_at on timesheets (merchant_id, created_at);
create index timesheets_search on timesheets using gin (search_text gin_trgm_ops);
create table timesheet_signatures (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  timesheet_id integer not null,
  signer_name text not null,
  signature text not null,
  signed_via text not null check (signed_via in ('panel', 'link', 'phone')),
  ip_address text,
  signed_at timestamptz not null,
  line_count integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, timesheet_id) references timesheets (merchant_id, id)
);
create index timesheet_signatures_timesheet_id on timesheet_signatures (merchant_id, timesheet_id);
create index timesheet_signatures_signed_at on timesheet_signatures (merchant_id, signed_at);
create table timesheet_lines (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  timesheet_id integer not null,
  shift_id integer,
  candidate_id integer not null,
  site_id integer not null,
  job_role_id integer not null,
  work_date date,
  scheduled_start timestamptz,
  scheduled_end timestamptz,
  scheduled_break integer,
  actual_start timestamptz,
  actual_end timestamptz,
  break_minutes integer,
  paid_minutes integer,
  charge bigint,
  pay bigint,
  on_costs bigint,
  margin bigint,
  price_lines jsonb,
  rate_card_id integer,
  status text not null check (status in ('pending', 'signed', 'disputed', 'verified')),
  dispute_reason text,
  amendment_note text,
  amended_at timestamptz,
  amended_by text,
  times_recorded_at timestamptz,
  signature_id integer,
  signed_at timestamptz,
  verified_reason text,
  verified_evidence text,
  verified_by text,
  verified_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, timesheet_id) references timesheets (merchant_id, id),
  foreign key (merchant_id, shift_id) references shifts (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  foreign key (merchant_id, site_id) references sites (merchant_id, id),
  foreign key (merchant_id, job_role_id) references job_roles (merchant_id, id),
  foreign key (merchant_id, signature_id) references timesheet_signatures (merchant_id, id)
);
create index timesheet_lines_timesheet_id on timesheet_lines (merchant_id, timesheet_id);
create unique index timesheet_lines_shift_id_unique on timesheet_lines (merchant_id, shift_id);
create index timesheet_lines_candidate_id on timesheet_lines (merchant_id, candidate_id);
create index timesheet_lines_site_id on timesheet_lines (merchant_id, site_id);
create index timesheet_lines_work_date on timesheet_lines (merchant_id, work_date);
create index timesheet_lines_scheduled_start on timesheet_lines (merchant_id, scheduled_start);
create index timesheet_lines_status on timesheet_lines (merchant_id, lower(status));
`;
