// Issue 34, the dashboard's Needs doing: the indexes its lists' new filters need. The open, not yet started shifts a
// client asked for (the shift list's "requested by the client" filter), and the timesheets sent for signature before a
// day (the Awaiting signature tab), each found without reading the agency's whole table.
export default /* sql */ `
create index shifts_requested_by_client on shifts (merchant_id, requested_by_client, start_at)
  where deleted_at is null;
create index timesheets_submitted_at on timesheets (merchant_id, submitted_at);
`;
