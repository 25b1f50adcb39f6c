// Issue 31.4: audit_log_event (merchant, event, created_at) served no query. A list filtered by event sorts by
// created_at and id, which it cannot give, so the planner reads audit_log_created and filters instead, with or without
// it; yet every entry written paid for it (a sixth of a set-based transition's audit insert). docs/decisions.md,
// "Issue 31.4".
export default /* sql */ `
drop index audit_log_event;
`;
