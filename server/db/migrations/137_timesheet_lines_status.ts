// Issue 34, the dashboard at a million timesheet lines: "Disputed lines" counts the lines of one status. The lines'
// generated index on the status is on lower(status) (what a sort by it reads), which the list filter's
// `status = $1` cannot use, so the count scanned every line the agency ever had (a third of a second of CPU at a
// million lines). This one serves the filter, and the lines' list filtered by status.
export default /* sql */ `
create index timesheet_lines_status_filter on timesheet_lines (merchant_id, status);
`;
