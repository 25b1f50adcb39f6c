// Issue 30.18: the agency's profile (PUT /api/merchants/:id) was last-write-wins. Its version, like every declared
// record's, lets a save made from a stale screen be refused (409) instead of undoing another admin's change.
export default /* sql */ `
alter table merchants add column version integer not null default 1;
`;
