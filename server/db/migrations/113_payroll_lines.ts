// Issue 33 (pay lines): what a pay run pays besides the hours worked, and what it locks.
// - employment_types.holiday_pay: rolled up (12.07% as its own line) or accrued (hours banked, paid when taken).
// - candidates: the company an umbrella or limited-company worker is paid through (paid gross against it).
// - client_rules.late_cancel_pay_hours and shifts.cancellation_pay: what the worker is paid for a charged late
//   cancellation, priced when the shift is cancelled (as its charge is) and paid once.
// - staff_holidays: holiday an accruing staff member takes, paid once by a pay run from their balance.
// - payslips: the company paid, and the holiday hours accrued and taken (the balance is their sum).
// - timesheet_lines.paid_in_run: the finalised run that paid the line, which then refuses every change.
export default /* sql */ `
alter table employment_types
  add column holiday_pay text not null default 'rolled_up' check (holiday_pay in ('rolled_up', 'accrued'));
alter table candidates
  add column company_name text,
  add column company_number text,
  add column company_vat_number text;
alter table client_rules add column late_cancel_pay_hours numeric check (late_cancel_pay_hours >= 0);
alter table shifts
  add column cancellation_pay bigint check (cancellation_pay is null or cancellation_pay >= 0),
  add column cancellation_pay_hours numeric;
create table staff_holidays (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  starts_on date not null,
  ends_on date not null,
  hours numeric not null check (hours > 0),
  note text,
  state text not null default 'booked' check (state in ('booked', 'paid', 'cancelled')),
  recorded_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  check (ends_on >= starts_on)
);
create index staff_holidays_candidate_id on staff_holidays (merchant_id, candidate_id);
create index staff_holidays_starts_on on staff_holidays (merchant_id, starts_on);
create index staff_holidays_state on staff_holidays (merchant_id, lower(state));
alter table payslips
  add column paid_to text,
  add column holiday_hours_accrued numeric not null default 0,
  add column holiday_hours_taken numeric not null default 0;
alter table payslip_lines
  add column cancelled_shift_id integer,
  add column staff_holiday_id integer,
  add foreign key (merchant_id, cancelled_shift_id) references shifts (merchant_id, id),
  add foreign key (merchant_id, staff_holiday_id) references staff_holidays (merchant_id, id);
create unique index payslip_lines_cancelled_shift_once on payslip_lines (merchant_id, cancelled_shift_id)
  where cancelled_shift_id is not null and released_at is null;
create unique index payslip_lines_staff_holiday_once on payslip_lines (merchant_id, staff_holiday_id)
  where staff_holiday_id is not null and released_at is null;
alter table timesheet_lines
  add column paid_in_run integer,
  add foreign key (merchant_id, paid_in_run) references pay_runs (merchant_id, id);
`;
