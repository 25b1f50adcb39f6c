// Issue 31.2: each number once per agency, held by the database (server/engine/ddl.ts emits the same index for every
// numbered declaration): a duplicate is refused whatever writes it.
export default /* sql */ `
create unique index timesheets_number_numbered on timesheets (merchant_id, number);
`;
