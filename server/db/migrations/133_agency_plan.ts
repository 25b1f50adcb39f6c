// Issue 35, subscription: the agency's plan, one of the installation's plans (server/subscription/plans.ts) by id, on
// its settings row. Null: never chosen, so the configuration's default plan, which an operator may change for every
// such agency at once. No check of the ids here: the plans are configuration, not the database's.
export default /* sql */ `
alter table agency_settings add column plan text check (plan ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
`;
