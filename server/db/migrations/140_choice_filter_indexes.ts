// Issue 34, lists at a million rows: the engine generated a choice's index on lower(field), which a list's filter
// (`field = $1`, choices compared exactly) cannot use, so every filter on a choice scanned the agency's whole table.
// A choice is now sorted on its plain column too (server/engine/query.ts, sortExpression), so one plain index serves
// both: each lower() index of a choice is replaced by one on the column (server/engine/ddl.ts generates the same).
// The timesheet lines' status already has it (migration 137, written by hand for the dashboard's "Disputed lines"):
// its lower() index goes, and 137's takes the generated name.
// A text field a list both filters (exactly) and sorts (case-insensitively) needs both: a site's business unit.
export default /* sql */ `
drop index sites_region;
create index sites_region on sites (merchant_id, region) where deleted_at is null;
drop index candidate_documents_status;
create index candidate_documents_status on candidate_documents (merchant_id, status) where deleted_at is null;
drop index availability_status;
create index availability_status on availability (merchant_id, status);
drop index holiday_overrides_kind;
create index holiday_overrides_kind on holiday_overrides (merchant_id, kind);
drop index shift_requests_status;
create index shift_requests_status on shift_requests (merchant_id, status) where deleted_at is null;
drop index support_requests_status;
create index support_requests_status on support_requests (merchant_id, status) where deleted_at is null;
drop index timesheets_kind;
create index timesheets_kind on timesheets (merchant_id, kind);
drop index timesheets_status;
create index timesheets_status on timesheets (merchant_id, status);
drop index payments_state;
create index payments_state on payments (merchant_id, state);
drop index invoices_state;
create index invoices_state on invoices (merchant_id, state);
drop index invoice_runs_mode;
create index invoice_runs_mode on invoice_runs (merchant_id, mode);
drop index invoice_export_batches_package;
create index invoice_export_batches_package on invoice_export_batches (merchant_id, package);
drop index pay_runs_frequency;
create index pay_runs_frequency on pay_runs (merchant_id, frequency);
drop index pay_runs_state;
create index pay_runs_state on pay_runs (merchant_id, state);
drop index payslips_state;
create index payslips_state on payslips (merchant_id, state);
drop index staff_deductions_method;
create index staff_deductions_method on staff_deductions (merchant_id, method);
drop index payroll_adjustments_kind;
create index payroll_adjustments_kind on payroll_adjustments (merchant_id, kind);
drop index staff_holidays_state;
create index staff_holidays_state on staff_holidays (merchant_id, state);
drop index vacancies_status;
create index vacancies_status on vacancies (merchant_id, status) where deleted_at is null;
drop index job_applications_right_to_work;
create index job_applications_right_to_work on job_applications (merchant_id, right_to_work);
drop index job_applications_stage;
create index job_applications_stage on job_applications (merchant_id, stage);
drop index timesheet_lines_status;
alter index timesheet_lines_status_filter rename to timesheet_lines_status;
create index sites_business_unit_filter on sites (merchant_id, business_unit) where deleted_at is null;
`;
