// Rates & rules: rate cards per client (and site) and job role, versioned by effective dates; a staff member's own
// pay rates; each client's pricing rules over the agency's default; bank-holiday overrides per region; shift
// templates; the dated on-cost rates and wage floors margins and warnings read; and the region of every site.
const HHMM = `~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`;
const BANDS = ['weekday_day', 'weekday_night', 'saturday', 'sunday', 'bank_holiday'];
const rateColumns = (prefix: string, notNull: boolean) =>
  BANDS.map((b) => `  ${prefix}_${b} bigint${notNull ? ' not null' : ''} check (${prefix}_${b} >= 0),`).join('\n');

export default /* sql */ `
alter table sites add column region text not null default 'england_wales' check (region in ('england_wales', 'scotland', 'northern_ireland'));
create index sites_region on sites (merchant_id, lower(region)) where deleted_at is null;

create table rate_cards (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer not null,
  site_id integer,
  job_role_id integer not null,
  effective_from date not null,
  effective_to date,
${rateColumns('pay', true)}
${rateColumns('charge', true)}
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  unique (merchant_id, id),
  check (effective_to is null or effective_to > effective_from),
  foreign key (merchant_id, client_id) references clients (merchant_id, id),
  foreign key (merchant_id, site_id) references sites (merchant_id, id),
  foreign key (merchant_id, job_role_id) references job_roles (merchant_id, id)
);
-- The card in force for a shift: one index walk by client and role, newest first.
create index rate_cards_lookup on rate_cards (merchant_id, client_id, job_role_id, effective_from desc) where deleted_at is null;
create unique index rate_cards_one_start on rate_cards (merchant_id, client_id, coalesce(site_id, 0), job_role_id, effective_from) where deleted_at is null;
create index rate_cards_site_id on rate_cards (merchant_id, site_id) where deleted_at is null;
create index rate_cards_job_role_id on rate_cards (merchant_id, job_role_id) where deleted_at is null;
create index rate_cards_effective_from on rate_cards (merchant_id, effective_from) where deleted_at is null;
create index rate_cards_created on rate_cards (merchant_id, created_at) where deleted_at is null;

create table candidate_rates (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  job_role_id integer,
  effective_from date not null,
${rateColumns('pay', false)}
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  foreign key (merchant_id, job_role_id) references job_roles (merchant_id, id)
);
create index candidate_rates_candidate_id on candidate_rates (merchant_id, candidate_id, effective_from desc);
create unique index candidate_rates_one_start on candidate_rates (merchant_id, candidate_id, coalesce(job_role_id, 0), effective_from);
create index candidate_rates_job_role_id on candidate_rates (merchant_id, job_role_id);
create index candidate_rates_created on candidate_rates (merchant_id, created_at);

create table client_rules (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer,
  night_start text not null check (night_start ${HHMM}),
  night_end text not null check (night_end ${HHMM}),
  weekend_start_day text not null check (weekend_start_day in ('sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday')),
  weekend_start_time text not null check (weekend_start_time ${HHMM}),
  weekend_end_day text not null check (weekend_end_day in ('sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday')),
  weekend_end_time text not null check (weekend_end_time ${HHMM}),
  split_at_boundaries boolean not null default true,
  break_rules jsonb not null default '[]'::jsonb,
  minimum_charge_hours numeric not null default 0 check (minimum_charge_hours >= 0),
  sleep_in_pay bigint check (sleep_in_pay >= 0),
  sleep_in_charge bigint check (sleep_in_charge >= 0),
  late_cancel_within_hours numeric check (late_cancel_within_hours >= 0),
  late_cancel_charge_hours numeric check (late_cancel_charge_hours >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id)
);
-- One row per client, and one agency default (client_id null).
create unique index client_rules_client_id_unique on client_rules (merchant_id, coalesce(client_id, 0));
create index client_rules_created on client_rules (merchant_id, created_at);

create table holiday_overrides (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  region text not null check (region in ('england_wales', 'scotland', 'northern_ireland')),
  date date not null,
  name text not null,
  kind text not null check (kind in ('add', 'remove')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id)
);
create unique index holiday_overrides_region_date on holiday_overrides (merchant_id, region, date);
create index holiday_overrides_date on holiday_overrides (merchant_id, date);
create index holiday_overrides_kind on holiday_overrides (merchant_id, lower(kind));
create index holiday_overrides_created on holiday_overrides (merchant_id, created_at);

create table shift_templates (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  start_time text not null check (start_time ${HHMM}),
  end_time text not null check (end_time ${HHMM}),
  break_minutes integer not null default 0 check (break_minutes between 0 and 240),
  sleep_in boolean not null default false,
  colour text check (colour in ('green', 'amber', 'red', 'blue', 'grey', 'purple')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  search_text text generated always as (lower(name)) stored,
  unique (merchant_id, id)
);
create index shift_templates_search on shift_templates using gin (search_text gin_trgm_ops);
create unique index shift_templates_name_unique on shift_templates (merchant_id, lower(name));
create index shift_templates_start_time on shift_templates (merchant_id, lower(start_time));
create index shift_templates_created on shift_templates (merchant_id, created_at);

create table on_cost_rates (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  effective_from date not null,
  employer_ni_percent numeric not null check (employer_ni_percent >= 0 and employer_ni_percent <= 100),
  ni_threshold_weekly bigint check (ni_threshold_weekly >= 0),
  holiday_pay_percent numeric not null check (holiday_pay_percent >= 0 and holiday_pay_percent <= 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id)
);
create unique index on_cost_rates_effective_from_unique on on_cost_rates (merchant_id, effective_from);
create index on_cost_rates_created on on_cost_rates (merchant_id, created_at);

create table wage_floors (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  effective_from date not null,
  min_age integer not null check (min_age between 16 and 100),
  hourly bigint not null check (hourly >= 0),
  name text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id)
);
create unique index wage_floors_effective_from_unique on wage_floors (merchant_id, effective_from, min_age);
create index wage_floors_name on wage_floors (merchant_id, lower(name));
create index wage_floors_created on wage_floors (merchant_id, created_at);
`;
