// The audit trail's reads without a record or subject filter (docs/decisions.md, "Review — the audit trail's
// unfiltered reads"; server/behaviours/auditEntries.ts). Each set keeps how many entries it holds (`entries`) and the
// range of its entries' ids (`id_range`, the smallest to the largest whatever their order), both derived by the
// database from `ids` when the set is written: the agency-wide page finds the sets it needs from their lengths and
// times without reading their arrays, the count sums the lengths, and a show by id finds the set holding its entry by
// the range (a GiST index) instead of expanding every set of the agency.
export default /* sql */ `
create function audit_ids_range(ids bigint[]) returns int8range language sql immutable parallel safe as $$ select int8range(min(x), max(x), '[]') from unnest(ids) as x $$;
alter table audit_sets add column entries integer generated always as (cardinality(ids)) stored;
alter table audit_sets add column id_range int8range generated always as (audit_ids_range(ids)) stored;
create index audit_sets_ids on audit_sets using gist (id_range);
`;
