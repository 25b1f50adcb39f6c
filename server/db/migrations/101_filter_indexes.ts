// Two declared filters had no index serving them (tests/api/schema.test.ts): an invoice run's invoices (the run's page
// lists them; issue 32), and the trail filtered by event. Migration 095 dropped audit_log_event because it could not
// give the list's order (created_at desc, id desc), so a filter by a rare event read the whole agency's trail through
// audit_log_created; this one carries the order, so that filter reads only its own entries. docs/decisions.md,
// "Issue 31.4 — the audit cost of a set-based transition".
export default /* sql */ `
create index invoices_run on invoices (merchant_id, run_id) where run_id is not null;
create index audit_log_event on audit_log (merchant_id, event, created_at desc, id desc);
`;
