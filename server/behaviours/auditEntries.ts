import { HttpError } from '../http.js';
import type { ResourceBehaviour } from '../engine/context.js';

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

export const auditEntriesBehaviour: ResourceBehaviour = {
  computedFilters: { record_id: byIdIn('record_id', 'record_ids'), subject_id: byIdIn('subject_id', 'subject_ids') },
};
