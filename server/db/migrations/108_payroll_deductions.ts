// Issue 33: a staff member's deductions (/appsetting/staff-deduction) and one-off pay adjustments, taken by pay runs.
// A payslip line names the deduction it takes or the adjustment it makes (a deduction's running total is the sum of
// its lines on runs not cancelled); a payslip keeps what it took off and the taxable pay PAYE read, whose year to
// date the next run's cumulative tax reads.
export default /* sql */ `
create table staff_deductions (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  description text not null,
  method text not null check (method in ('fixed', 'percent')),
  amount bigint check (amount >= 0),
  percent numeric check (percent >= 0 and percent <= 100),
  before_tax boolean not null default false,
  recurring boolean not null default true,
  start_date date not null,
  end_date date,
  cap bigint check (cap >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id)
);
create index staff_deductions_candidate_id on staff_deductions (merchant_id, candidate_id);
create index staff_deductions_description on staff_deductions (merchant_id, lower(description));
create index staff_deductions_method on staff_deductions (merchant_id, lower(method));
create index staff_deductions_start_date on staff_deductions (merchant_id, start_date);
create index staff_deductions_end_date on staff_deductions (merchant_id, end_date);
create index staff_deductions_created on staff_deductions (merchant_id, created_at);
create table payroll_adjustments (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  kind text not null check (kind in ('addition', 'deduction')),
  amount bigint not null check (amount > 0),
  reason text not null,
  payslip_id integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  foreign key (merchant_id, payslip_id) references payslips (merchant_id, id)
);
create index payroll_adjustments_candidate_id on payroll_adjustments (merchant_id, candidate_id);
create index payroll_adjustments_kind on payroll_adjustments (merchant_id, lower(kind));
create index payroll_adjustments_payslip_id on payroll_adjustments (merchant_id, payslip_id);
create index payroll_adjustments_created_at on payroll_adjustments (merchant_id, created_at);
-- The next run finds a staff member's pending adjustments by this.
create index payroll_adjustments_pending on payroll_adjustments (merchant_id, candidate_id) where payslip_id is null;
alter table payslips
  add column deductions bigint,
  add column taxable_pay bigint;
alter table payslip_lines
  add column staff_deduction_id integer,
  add column payroll_adjustment_id integer,
  add foreign key (merchant_id, staff_deduction_id) references staff_deductions (merchant_id, id),
  add foreign key (merchant_id, payroll_adjustment_id) references payroll_adjustments (merchant_id, id);
create index payslip_lines_staff_deduction_id on payslip_lines (merchant_id, staff_deduction_id)
  where staff_deduction_id is not null;
create index payslip_lines_payroll_adjustment_id on payslip_lines (merchant_id, payroll_adjustment_id)
  where payroll_adjustment_id is not null;
`;
