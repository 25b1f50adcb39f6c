// Issue 33.2: pay runs, their payslips and the payslips' lines on the engine for money documents, and what a pay run
// needs of a staff member (tax code, NI category, student loans, pension). A timesheet line is paid by one unreleased
// payslip line at most: the partial unique index holds it against two runs that race, whatever writes them.
export default /* sql */ `
alter table candidates
  add column tax_code text,
  add column tax_week1 boolean not null default false,
  add column ni_category text check (ni_category in ('A', 'B', 'C', 'H', 'J', 'M', 'V', 'X', 'Z')),
  add column student_loan_plans text[] not null default '{}',
  add column pension_opted_out boolean not null default false,
  add column pension_employee_percent numeric,
  add column pension_employer_percent numeric;
create table pay_runs (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  period_start date not null,
  period_end date not null,
  frequency text not null check (frequency in ('weekly', 'monthly')),
  tax_year text,
  tax_period integer,
  state text not null check (state in ('draft', 'approved', 'finalised', 'cancelled')),
  staff_count integer,
  gross bigint,
  net bigint,
  employer_costs bigint,
  started_by text,
  cancel_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id)
);
create index pay_runs_period_start on pay_runs (merchant_id, period_start);
create index pay_runs_period_end on pay_runs (merchant_id, period_end);
create index pay_runs_frequency on pay_runs (merchant_id, lower(frequency));
create index pay_runs_state on pay_runs (merchant_id, lower(state));
create index pay_runs_gross on pay_runs (merchant_id, gross);
create table payslips (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  pay_run_id integer not null,
  candidate_id integer not null,
  state text not null check (state in ('draft', 'finalised')),
  period_start date,
  period_end date,
  paye boolean not null default false,
  tax_code text,
  week1 boolean not null default false,
  ni_category text,
  gross bigint,
  holiday_pay bigint,
  tax bigint,
  employee_ni bigint,
  employer_ni bigint,
  student_loan bigint,
  pension_employee bigint,
  pension_employer bigint,
  net bigint,
  employer_cost bigint,
  ytd_gross bigint,
  ytd_tax bigint,
  ytd_employee_ni bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, pay_run_id) references pay_runs (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id)
);
create index payslips_pay_run_id on payslips (merchant_id, pay_run_id);
create index payslips_candidate_id on payslips (merchant_id, candidate_id);
create index payslips_state on payslips (merchant_id, lower(state));
create index payslips_period_start on payslips (merchant_id, period_start);
create index payslips_period_end on payslips (merchant_id, period_end);
create index payslips_created on payslips (merchant_id, created_at);
create table payslip_lines (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  payslip_id integer not null,
  kind text not null check (kind in ('pay', 'holiday', 'sleep_in', 'late_cancellation', 'adjustment', 'deduction')),
  description text not null,
  work_date date,
  hours numeric,
  rate integer,
  amount bigint not null,
  timesheet_line_id integer,
  released_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, payslip_id) references payslips (merchant_id, id),
  foreign key (merchant_id, timesheet_line_id) references timesheet_lines (merchant_id, id)
);
create index payslip_lines_payslip_id on payslip_lines (merchant_id, payslip_id);
create index payslip_lines_created on payslip_lines (merchant_id, created_at);
create unique index payslip_lines_timesheet_line_once on payslip_lines (merchant_id, timesheet_line_id)
  where timesheet_line_id is not null and released_at is null;
create index payslips_candidate_year on payslips (merchant_id, candidate_id, pay_run_id);
`;
