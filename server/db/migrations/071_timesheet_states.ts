// Issue 29.11 and 30.20: a timesheet whose every line the agency verified is "Fully verified" (nothing is left for
// the client to sign), and a lock says only what the product sets: closed by the agency. Invoicing and payroll add
// their own `locked_by` when they exist; locks made before them (the demo's) were the agency's own.
export default /* sql */ `
alter table timesheets drop constraint if exists timesheets_status_check;
alter table timesheets add constraint timesheets_status_check
  check (status in ('draft', 'submitted', 'signed', 'verified', 'disputed', 'amended', 'locked'));
alter table timesheets drop constraint if exists timesheets_locked_by_check;
update timesheets set locked_by = 'agency' where locked_by is not null;
alter table timesheets add constraint timesheets_locked_by_check check (locked_by in ('agency'));
`;
