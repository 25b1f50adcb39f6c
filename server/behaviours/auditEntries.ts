import { HttpError } from '../http.js';
import type { PageRead, ResourceBehaviour, SourceBuilders } from '../engine/context.js';

/**
 * The trail's record and subject filters (a record's history tab, a parent's with its children's): records written
 * together share one row of `audit_sets`, which the view `audit_log` expands into one entry a record (migration 120).
 * Filtered on the expanded entries alone, every set of the agency would be expanded first; the sets that hold the
 * record are found by their GIN-indexed arrays (`@>`) instead, and only they are expanded. A single-record row has
 * `set_id` 0, so it passes on its own index as before. Same words as any number filter for a value not a number.
 */
const byIdIn =
  (field: 'record_id' | 'subject_id', array: 'record_ids' | 'subject_ids') =>
  (value: string, bind: (value: unknown) => string) => {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || Math.abs(id) > 2 ** 31 - 1)
      throw new HttpError(400, `Filter ${field} must be a number.`, { [field]: 'Must be a number' });
    return `(${field} = ${bind(id)}::int and set_id = any(array(select 0::bigint union all select id from audit_sets where ${array} @> array[${bind(id)}::int])))`;
  };

/** The single-record rows with the view's columns (migration 120), `set_id` 0. */
const ROWS = `(select id, merchant_id, resource, record_id, subject_resource, subject_id, event, action, changes, input,
         user_id, user_name, login_type, created_at, updated_at, version, 0::bigint as set_id from audit_rows)`;

/** The columns of a set's row that are every one of its entries' (the view gives each entry the set's). */
const SET_COLUMNS = `s.merchant_id, s.resource, s.subject_resource, s.event, s.action, s.input, s.user_id, s.user_name,
         s.login_type, s.created_at, s.created_at as updated_at, 1 as version, s.id as set_id`;

/**
 * The sets themselves, with their entries' columns that a whole set shares, how many entries each holds, and as `id`
 * the id an export's keyset compares (`(created_at, id) < (key, id)` going down): the set's smallest entry id going
 * down, its largest going up, so that a set passes the keyset when any of its entries may (migration 121).
 */
const setRows = (order: 'asc' | 'desc') =>
  `(select ${SET_COLUMNS}, s.entries, ${order === 'desc' ? 'lower(s.id_range)' : 'upper(s.id_range) - 1'} as id from audit_sets s)`;

/**
 * The sets' entries as the view expands them, but for their changes: `k` says which of the set's changes is the
 * entry's. Read whole, a set's changes (`jsonb[]`, stored out of line once large) would be taken apart again for each
 * of its entries; the page takes them once a set, for the entries it shows.
 */
const SET_ENTRIES = `(select u.id, u.record_id, u.subject_id, u.k, ${SET_COLUMNS}
    from audit_sets s cross join lateral unnest(s.ids, s.record_ids, s.subject_ids, s.which) as u(id, record_id, subject_id, k))`;

/** The view's columns, in its order, over a relation `e` of entries and `changes` their changes. */
const entryColumns = (e: string, changes: string) =>
  `${e}.id, ${e}.merchant_id, ${e}.resource, ${e}.record_id, ${e}.subject_resource, ${e}.subject_id, ${e}.event,
   ${e}.action, ${changes} as changes, ${e}.input, ${e}.user_id, ${e}.user_name, ${e}.login_type, ${e}.created_at,
   ${e}.updated_at, ${e}.version, ${e}.set_id`;

/** Columns a condition on holds for all of a set's entries or none: what the sets' own rows carry. */
const SET_LEVEL = new Set([
  'merchant_id',
  'resource',
  'subject_resource',
  'event',
  'action',
  'input',
  'user_id',
  'user_name',
  'login_type',
  'created_at',
  'updated_at',
  'version',
]);
const setLevel = (filtered: ReadonlySet<string>) => [...filtered].every((f) => SET_LEVEL.has(f));

/**
 * The trail's reads without a record or subject filter (docs/decisions.md, "Review — the audit trail's unfiltered
 * reads"). Through the view, the agency-wide page sorted every entry of every set, its count and a show by id
 * expanded them all. Each builder answers a relation with the view's columns holding the rows the read answers; the
 * engine applies the read's condition, order, paging, select list and read policy over it as over the view:
 * - a page in time order (the list, an export's page): the first `rows` single-record rows matching, by their index,
 *   beside the first `rows` entries of the sets matching, and the first `rows` of both hold the trail's. Which sets
 *   those can come from is worked out from the sets' rows alone (their times and lengths, no array read): walking
 *   the matching sets in the page's order, a set is needed while fewer than `rows` entries come before it, and so is
 *   every set of the same time as the last one needed (a time's entries go by id across its sets). Only those are
 *   expanded, and each set on the page gives its changes once. An export's page after a keyset counts the sets of
 *   the keyset's time as empty (some of their entries are before it): a few more sets expanded, never one missed.
 *   A read sorted by id, or filtered by record, subject or id (which the filters above serve), reads the view;
 * - the count: the rows matching, counted, plus the sets' lengths, when every condition is one a set's entries share
 *   (else the view);
 * - a show by id: the single-record row of that id, or the entry of the set whose id range holds it (a GiST index).
 */
const source: SourceBuilders = {
  page({ where, filtered, sort, order, rows, after }: PageRead) {
    if (sort !== 'created_at' || !setLevel(filtered)) return undefined;
    const by = `order by created_at ${order}, id ${order} limit ${rows}`;
    const counted = after ? `case when created_at = ${after.key} then 0 else entries end` : 'entries';
    const before = `sum(${counted}) over (order by created_at ${order}, set_id ${order} rows unbounded preceding) - ${counted}`;
    const needed = `(select ${order === 'desc' ? 'min' : 'max'}(created_at) from (select created_at, ${before} as before_it
        from ${setRows(order)} as s where ${where}) as w where before_it < ${rows})`;
    return `(select * from (select * from ${ROWS} as r where ${where} ${by}) as r
      union all
      select * from (
        with e as (select * from ${SET_ENTRIES} as e
                    where ${where} and created_at ${order === 'desc' ? '>=' : '<='} ${needed} ${by}),
             c as materialized (
               select s.id, o.k, o.v from audit_sets s cross join lateral unnest(s.changes) with ordinality as o(v, k)
                where s.id = any(array(select distinct set_id from e)))
        select ${entryColumns('e', 'c.v')} from e left join c on c.id = e.set_id and c.k = e.k) as s)`;
  },
  count({ where, filtered }) {
    if (!setLevel(filtered)) return undefined;
    return `(select count(*) from ${ROWS} as r where ${where})
      + (select coalesce(sum(entries), 0) from ${setRows('desc')} as s where ${where})`;
  },
  record(id, bind) {
    const x = `${bind(id)}::bigint`;
    return `(select * from ${ROWS} as r where id = ${x}
      union all
      select u.id, s.merchant_id, s.resource, u.record_id, s.subject_resource, u.subject_id, s.event, s.action,
             s.changes[u.k], s.input, s.user_id, s.user_name, s.login_type, s.created_at, s.created_at, 1, s.id
        from audit_sets s cross join lateral unnest(s.ids, s.record_ids, s.subject_ids, s.which) as u(id, record_id, subject_id, k)
       where s.id_range @> ${x} and u.id = ${x})`;
  },
};

export const auditEntriesBehaviour: ResourceBehaviour = {
  computedFilters: { record_id: byIdIn('record_id', 'record_ids'), subject_id: byIdIn('subject_id', 'subject_ids') },
  source,
};
