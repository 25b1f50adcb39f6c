// Gapless numbers per agency and series (number_series, migration 020), for resources that declare `numbering`.
import type { Queryable, Row } from '../db/index.js';
import { HttpError } from '../http.js';
import { ident, type Compiled } from './compile.js';
import type { RecordValues } from '../../core/engine/types.js';

/**
 * The highest next number an admin may set (issue 30.13): nine digits, far beyond any agency's count, and over a
 * billion numbers short of the column's limit (2,147,483,647), so a series moved to its top still has room to give.
 */
export const NEXT_NUMBER_MAX = 999_999_999;
/** The column's limit: a series whose next numbers would pass it has run out. */
const COLUMN_MAX = 2_147_483_647;

/** A number as the record shows it: the series' prefix and the number padded to the declared width. */
export const formatNumber = (n: number, prefix = '', pad = 0) => `${prefix}${String(n).padStart(pad, '0')}`;

/**
 * Takes the series' next `count` numbers in the caller's transaction (one for a create, one per record for
 * createMany). The upsert locks the series' row until the transaction ends: concurrent writes queue on it, each
 * taking a contiguous run in commit order, and a write that rolls back (refused by a hook, a failed insert) gives its
 * numbers back with its own update undone. Hence contiguous and gapless.
 */
export async function takeNumbers(
  db: Queryable,
  c: Compiled,
  merchantId: number,
  count: number,
  series: { series: string; prefix?: string } = c.decl.numbering!,
): Promise<string[]> {
  const n = c.decl.numbering!;
  // A series at the column's limit is left as it is (no row comes back) and refused in words, never overflowed.
  const [row] = await db.query<{ first: number; prefix: string }>(
    `insert into number_series (merchant_id, series, prefix, next_number) values ($1, $2, $3, 1 + $4::int)
     on conflict (merchant_id, series) do update set next_number = number_series.next_number + $4::int, updated_at = now()
       where number_series.next_number <= $5::bigint - $4::int
     returning next_number - $4::int as first, prefix`,
    [merchantId, series.series, series.prefix ?? '', count, COLUMN_MAX],
  );
  if (!row)
    throw new HttpError(
      409,
      `No more ${c.decl.label.many.toLowerCase()} can be numbered: the ${series.series} series has given its last number.`,
    );
  // The series' own prefix: the declaration's when its row was made, the agency's since it chose one (issue 32's
  // invoice settings); numbers already given keep the prefix they were given with.
  return Array.from({ length: count }, (_, i) => formatNumber(Number(row.first) + i, row.prefix, n.pad));
}

/** Whether this write numbers the record: its create (`at: 'create'`, the default), or the declared transition. */
export function numbersAt(c: Compiled, stored: Row | undefined, action: string | undefined): boolean {
  const n = c.decl.numbering;
  if (!n) return false;
  const at = n.at ?? 'create';
  return stored ? at === action && (stored[n.field] ?? null) === null : at === 'create';
}

/**
 * Numbers the records in their series (the declared one, or each record's own by `seriesOf`), in the order given:
 * one statement per series.
 */
export async function numberRecords(db: Queryable, c: Compiled, merchantId: number, records: RecordValues[]) {
  const n = c.decl.numbering!;
  if (n.whenEmpty) return numberEmpty(db, c, merchantId, records);
  const bySeries = new Map<string, { prefix?: string; records: RecordValues[] }>();
  for (const r of records) {
    const s = n.seriesOf?.(r) ?? n;
    const group = bySeries.get(s.series) ?? { prefix: s.prefix, records: [] };
    group.records.push(r);
    bySeries.set(s.series, group);
  }
  for (const [series, group] of bySeries) {
    const numbers = await takeNumbers(db, c, merchantId, group.records.length, { series, prefix: group.prefix });
    group.records.forEach((r, i) => (r[n.field] = numbers[i]));
  }
}

/**
 * `whenEmpty` numbering (a field also typed by hand, and unique): only the records left without a value are
 * numbered, and a number a live record already holds is passed over (the typed value took its place).
 */
async function numberEmpty(db: Queryable, c: Compiled, merchantId: number, records: RecordValues[]) {
  const n = c.decl.numbering!;
  for (const r of records) {
    if (r[n.field] !== null && r[n.field] !== undefined && r[n.field] !== '') continue;
    for (;;) {
      const [next] = await takeNumbers(db, c, merchantId, 1, { series: n.series, prefix: n.prefix });
      const taken = await db.query(
        `select 1 from ${c.table} where merchant_id = $1${c.live} and lower(${ident(n.field)}) = lower($2) limit 1`,
        [merchantId, next],
      );
      if (taken.length === 0) {
        r[n.field] = next;
        break;
      }
    }
  }
}
