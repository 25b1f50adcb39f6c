// Shifts: the agency's bookings. The database itself makes double booking impossible (an exclusion constraint
// over a staff member's assigned and closed shifts), so two concurrent assigns cannot both succeed.
export default /* sql */ `
create extension if not exists btree_gist;

-- A shift's site must be one of its client's sites: the composite key below points at this.
alter table sites add constraint sites_client_agency_id unique (merchant_id, client_id, id);

create table shifts (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer not null,
  site_id integer not null,
  job_role_id integer not null,
  template_id integer,
  start_at timestamptz not null,
  end_at timestamptz not null,
  break_minutes integer check (break_minutes between 0 and 240),
  sleep_in boolean not null default false,
  notes text,
  status text not null default 'open' check (status in ('open', 'assigned', 'closed', 'cancelled')),
  candidate_id integer,
  paid_minutes integer,
  charge bigint,
  pay bigint,
  on_costs bigint,
  margin bigint,
  price_lines jsonb,
  rate_card_id integer,
  requested_by_client boolean not null default false,
  cancelled_at timestamptz,
  cancelled_by text,
  cancel_reason text,
  cancellation_minutes integer,
  cancellation_charge bigint,
  deleted_at timestamptz,
  deleted_by text,
  deleted_reason text,
  override_reason text,
  booking_checks jsonb,
  created_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id),
  foreign key (merchant_id, client_id, site_id) references sites (merchant_id, client_id, id),
  foreign key (merchant_id, job_role_id) references job_roles (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  foreign key (merchant_id, template_id) references shift_templates (merchant_id, id),
  constraint shifts_times check (end_at > start_at and end_at <= start_at + interval '24 hours'),
  constraint shifts_assigned_has_staff check (status not in ('assigned', 'closed') or candidate_id is not null),
  -- No staff member is ever booked on two shifts at once: '[)' ranges, so 08:00 end and 08:00 start do not clash.
  constraint shifts_no_double_booking exclude using gist (merchant_id with =, candidate_id with =, tstzrange(start_at, end_at) with &&)
    where (candidate_id is not null and status in ('assigned', 'closed') and deleted_at is null)
);

-- The lists (tabs by state, filters, sorted by start) and the schedule's window.
create index shifts_start_at on shifts (merchant_id, start_at, id);
create index shifts_status on shifts (merchant_id, status, start_at) where deleted_at is null;
create index shifts_deleted on shifts (merchant_id, start_at) where deleted_at is not null or status = 'cancelled';
create index shifts_client_id on shifts (merchant_id, client_id, start_at);
create index shifts_site_id on shifts (merchant_id, site_id, start_at);
create index shifts_job_role_id on shifts (merchant_id, job_role_id, start_at);
-- A staff member's shifts around a date: the booking checks, the suggested staff and the schedule's staff filter.
create index shifts_candidate_id on shifts (merchant_id, candidate_id, start_at) where candidate_id is not null;
create index shifts_created on shifts (merchant_id, created_at);
`;
