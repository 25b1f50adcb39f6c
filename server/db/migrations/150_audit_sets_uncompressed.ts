// Issue 31: a set's arrays of ids (10,000 entries each for a set-based write of 10,000 records) are kept as they are,
// not compressed: PostgreSQL's default compression (pglz) of the four arrays was about half of the set's insert
// (measured 15 → 6 ms for 10,000 entries), paid by every set-based write and createMany. An entry costs 20 bytes
// uncompressed, beside the ~200 of a record's own audit row (docs/decisions.md "Issue 31 — the set-based
// transition's 2×").
export default /* sql */ `
alter table audit_sets
  alter column ids set storage external,
  alter column record_ids set storage external,
  alter column subject_ids set storage external,
  alter column which set storage external;
`;
