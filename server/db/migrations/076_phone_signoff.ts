// Issue 29.1: hours signed on a staff member's phone by one of the client's approvers, with a PIN of their own (hashed
// like a password); each client's tolerance of the booking, beyond which a line goes to the client instead; the
// approver a phone signature records, and the difference flagged on a line.
export default /* sql */ `
alter table clients
  add column timesheet_early_minutes integer default 15,
  add column timesheet_late_minutes integer default 60,
  add column timesheet_short_break_minutes integer default 0;
create table timesheet_approvers (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer not null,
  name text not null,
  job_title text,
  site_id integer,
  pin_hash text,
  pin_set_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  search_text text generated always as (lower(name)) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id),
  foreign key (merchant_id, site_id) references sites (merchant_id, id)
);
create index timesheet_approvers_client_id on timesheet_approvers (merchant_id, client_id) where deleted_at is null;
create index timesheet_approvers_name on timesheet_approvers (merchant_id, lower(name)) where deleted_at is null;
create index timesheet_approvers_site_id on timesheet_approvers (merchant_id, site_id) where deleted_at is null;
create index timesheet_approvers_search on timesheet_approvers using gin (search_text gin_trgm_ops);
alter table timesheet_signatures add column approver_id integer,
  add foreign key (merchant_id, approver_id) references timesheet_approvers (merchant_id, id);
create index timesheet_signatures_approver_id on timesheet_signatures (merchant_id, approver_id);
alter table timesheet_lines add column outside_tolerance text;
`;
