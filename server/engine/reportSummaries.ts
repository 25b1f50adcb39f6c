// The summaries the database keeps for the reports (issue 34; docs/decisions.md "Issue 34 — the shift reports' daily
// summary", "… monthly summary"): when a report may read one instead of its base rows (and its months for a period's
// whole months), the recount a test compares it with, the fold of its deltas (a periodic job) and its rebuild (npm
// run summaries:rebuild).
import type { Db, Queryable } from '../db/index.js';
import { ident, unitsOf, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { unitPathOf } from '../../core/engine/unitScope.js';
import { addDaysToDate, addMonthsToDate, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime.js';
import type {
  DateBucket,
  ReportCondition,
  ReportDeclaration,
  ReportDimension,
  ReportMeasure,
  ReportPathFilter,
  ReportSummary,
} from '../../core/engine/reports.js';
import { REPORT_SUMMARIES } from '../../core/resources/reports.js';

/** What a report asks, as far as choosing its rows goes (a ReportQuery's parts). */
interface Asked {
  group: ReportDimension[];
  period?: { from: string; to: string };
  filters: Record<string, string>;
  pathFilters: { filter: ReportPathFilter }[];
  /** The sums and counts the answer needs (ratios are worked out from them). */
  aggregates: ReportMeasure[];
}

const sameCondition = (a: ReportCondition, b: ReportCondition) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether a condition reads the same over the summary's rows as over each base row: a condition on a key, or a
 * split's condition (kept as a key of its own, so it holds of a sum exactly when it holds of each row summed).
 */
function covers(s: ReportSummary, w: ReportCondition): boolean {
  if (s.keys.includes(w.field)) return !w.daysPast;
  return s.splits.some((x) => sameCondition(x.condition, w));
}

/** The head of a path (`client_id` of `client_id.business_unit_id`): a key, or a reference followed from one. */
const keyed = (s: ReportSummary, path: string | null | undefined) => !!path && s.keys.includes(path.split('.')[0]);

/**
 * The summary a report may read for this caller and query, if any: the report's period is the summary's day, its
 * conditions are the summary's (or read the same over it), every dimension, filter, measure and the caller's row
 * scope are columns of it. Anything else (the staff report's staff member, a staff or link login's scope, a
 * behaviour's own scope, a computed filter) reads the base rows, so an answer never depends on which was read.
 */
export function summaryFor(report: ReportDeclaration, c: Compiled, ctx: Pick<EngineContext, 'principal'>, q: Asked) {
  if (report.sources?.length || !report.period || !q.period) return undefined;
  const { principal } = ctx;
  return REPORT_SUMMARIES.find((s) => {
    if (s.resource !== report.resource || s.day !== report.period!.field) return false;
    if (!s.where.every((w) => (report.where ?? []).some((x) => sameCondition(w, x)))) return false;
    if (!(report.where ?? []).every((w) => s.where.some((x) => sameCondition(w, x)) || covers(s, w))) return false;
    if (!q.group.every((d) => (d.bucket ? d.field === s.day : keyed(s, d.field)))) return false;
    // A summary by month only serves a period with a whole month, grouped by nothing finer.
    if (s.grain === 'month' && !(q.group.every((d) => !d.bucket || d.bucket === 'month') && wholeMonths(q.period!)))
      return false;
    if (!Object.keys(q.filters).every((k) => s.keys.includes(k) && !c.behaviour.computedFilters?.[k])) return false;
    if (!q.pathFilters.every(({ filter }) => keyed(s, filter.path))) return false;
    for (const m of q.aggregates) {
      if (m.kind === 'sum' && !s.sums.includes(m.field) && !s.linear.includes(m.field)) return false;
      if (m.kind !== 'ratio' && !(m.where ?? []).every((w) => covers(s, w))) return false;
    }
    // The caller's rows: their agency's, and a client user's client's or a unit-limited role's units' by a key.
    if (principal.loginType !== 'agency' && principal.loginType !== 'client') return false;
    if (principal.loginType === 'client' && c.decl.clientScope !== 'agency' && !keyed(s, c.decl.clientScope))
      return false;
    if (unitsOf(principal) && unitPathOf(c.decl) && !keyed(s, unitPathOf(c.decl))) return false;
    if (c.behaviour.scope?.(principal, () => '$0')) return false;
    // A resource whose deleted rows are unlisted scopes to the live ones: the summary must hold only those.
    return !c.live || s.where.some((w) => w.field === 'deleted_at' && w.isNull === true);
  });
}

/** The summary's base resource as the engine's WHERE and expressions read it: the same columns, in its own table. */
export const summaryCompiled = (c: Compiled, s: ReportSummary): Compiled => ({ ...c, table: s.table, live: '' });

/** A summary's tables: by day, and by month when it has one (its `day` the month's first); or by month only. */
export function summaryTables(s: ReportSummary): { table: string; grain: 'day' | 'month' }[] {
  if (s.grain === 'month') return [{ table: s.table, grain: 'month' }];
  return [
    { table: s.table, grain: 'day' as const },
    ...(s.months ? [{ table: s.months, grain: 'month' as const }] : []),
  ];
}

/**
 * The whole calendar months of a period (`from` inclusive, `to` exclusive, each a month's first day), or undefined
 * when it holds none.
 */
export function wholeMonths(period: { from: string; to: string }): { from: string; to: string } | undefined {
  const first = (d: string) => `${d.slice(0, 8)}01`;
  const from = period.from === first(period.from) ? period.from : addMonthsToDate(first(period.from), 1);
  const after = addDaysToDate(period.to, 1);
  const to = after === first(after) ? after : first(period.to);
  return from < to ? { from, to } : undefined;
}

/**
 * The rows a summary's report reads for a period, as one table under the summary's name:
 * - a day summary with months, grouped by nothing finer than a month (`buckets`: the day field's buckets asked): the
 *   period's whole months from the months and its ragged ends from the days;
 * - a summary by month only (which summaryFor gives only for such a query): the whole months from it and the ragged
 *   ends from the base rows `c` themselves, each a row of its own (a count of 1) between the ends' instants on the
 *   agency's clock `timeZone`;
 * - otherwise the day summary itself.
 */
export function summarySource(
  s: ReportSummary,
  c: Compiled,
  query: { period: { from: string; to: string }; buckets: (DateBucket | undefined)[]; timeZone: string },
  bind: (v: unknown) => string,
): string {
  const { period, buckets, timeZone } = query;
  const months = (s.months || s.grain === 'month') && buckets.every((b) => b === 'month') && wholeMonths(period);
  if (!months) {
    if (s.grain === 'month') throw new Error(`${s.table} is by month: a period without a whole month reads the rows`);
    return s.table;
  }
  const columns = summaryColumns(s).map(ident).join(', ');
  const [from, to] = [bind(months.from), bind(months.to)];
  const whole = `select ${columns} from ${ident(s.months ?? s.table)} where day >= ${from}::date and day < ${to}::date`;
  if (s.grain !== 'month')
    return `(${whole} union all select ${columns} from ${s.table} where (day < ${from}::date or day >= ${to}::date)) as ${s.table}`;
  const at = (date: string) => `${bind(zonedDateTimeToInstant(date, '00:00', timeZone).toISOString())}::timestamptz`;
  const field = `b.${ident(s.day)}`;
  const ends = [
    [period.from, months.from],
    [months.to, addDaysToDate(period.to, 1)],
  ]
    .filter(([a, b]) => a < b)
    .map(([a, b]) => `(${field} >= ${at(a)} and ${field} < ${at(b)})`);
  const rows = ends.length
    ? ` union all select ${baseRowsAsSummary(s, bind(timeZone))} from ${c.table} b
         where ${s.where.map((w) => baseCondition(s, w)).join(' and ')} and (${ends.join(' or ')})`
    : '';
  return `(${whole}${rows}) as ${s.table}`;
}

/** A summary's columns in its table's order: the agency, the day, the keys, the splits, the count and the sums. */
const summaryColumns = (s: ReportSummary) => [
  'merchant_id',
  'day',
  ...s.keys,
  ...s.splits.map((x) => x.column),
  'row_count',
  ...s.sums,
];

/** Each base row `b` as a row of the summary (a count of 1), its day on the clock of the zone `zone` (SQL). */
function baseRowsAsSummary(s: ReportSummary, zone: string): string {
  return [
    'b.merchant_id',
    `(b.${ident(s.day)} at time zone ${zone})::date`,
    ...s.keys.map((k) => `b.${ident(k)}`),
    ...s.splits.map((x) => baseCondition(s, x.condition)),
    '1::bigint',
    ...s.sums.map((f) => `coalesce(b.${ident(f)}, 0)::bigint`),
  ].join(', ');
}

/** A condition of a summary's rows or splits over a base row `b`. */
function baseCondition(s: ReportSummary, w: ReportCondition): string {
  if (w.isNull !== undefined) return `b.${ident(w.field)} is ${w.isNull ? '' : 'not '}null`;
  if (w.gt !== undefined) return `coalesce(b.${ident(w.field)} > ${Number(w.gt)}, false)`;
  throw new Error(`${s.table}: a condition of its rows or splits says nothing SQL here can read`);
}

/**
 * The summary recounted from the base rows, from its declaration (not from its migration's triggers): one row per
 * key (by day, or by month) with the count and the sums, as `select` over the summary folded (foldedSql) should
 * answer.
 */
export function summaryRecountSql(s: ReportSummary, c: Compiled, grain: 'day' | 'month' = 'day'): string {
  const cond = (w: ReportCondition) => baseCondition(s, w);
  const keys = s.keys.map((k) => `b.${ident(k)}`);
  const day = `(b.${ident(s.day)} at time zone m.time_zone)::date`;
  return `select b.merchant_id, ${grain === 'day' ? day : `date_trunc('month', ${day})::date`} as day, ${[
    ...keys.map((k, i) => `${k} as ${ident(s.keys[i])}`),
    ...s.splits.map((x) => `${cond(x.condition)} as ${ident(x.column)}`),
  ].join(', ')}, count(*)::bigint as row_count, ${s.sums
    .map((f) => `coalesce(sum(b.${ident(f)}), 0)::bigint as ${ident(f)}`)
    .join(', ')}
    from ${c.table} b join merchants m on m.id = b.merchant_id
   where ${s.where.map(cond).join(' and ')}
   group by ${[1, 2, ...s.keys.map((_, i) => i + 3), ...s.splits.map((_, i) => s.keys.length + 3 + i)].join(', ')}`;
}

/**
 * A summary table's rows (the day summary's, or `table`: its months') with their deltas folded: what a recount should
 * give (the same columns, net-zero keys gone).
 */
export function foldedSql(s: ReportSummary, table = s.table): string {
  const keys = ['merchant_id', 'day', ...s.keys, ...s.splits.map((x) => x.column)].map(ident);
  return `select ${keys.join(', ')}, sum(row_count)::bigint as row_count, ${s.sums
    .map((f) => `sum(${ident(f)})::bigint as ${ident(f)}`)
    .join(', ')}
    from ${ident(table)} group by ${keys.join(', ')}
   having sum(row_count) <> 0 or ${s.sums.map((f) => `sum(${ident(f)}) <> 0`).join(' or ')}`;
}

/**
 * Folds each summary's deltas (the triggers append one row per key and write) into one row per key, a key that
 * nets to nothing dropped. Deleting only the rows it read, a concurrent write or fold loses nothing (as
 * compactNotificationCounts). A periodic job of the shifts area.
 */
export async function compactReportSummaries(db: Queryable) {
  for (const s of REPORT_SUMMARIES)
    for (const { table } of summaryTables(s)) {
      const keys = ['merchant_id', 'day', ...s.keys, ...s.splits.map((x) => x.column)].map(ident);
      const same = keys.map((k) => `t.${k} is not distinct from d.${k}`).join(' and ');
      await db.query(
        `with dup as (select ${keys.join(', ')} from ${table} group by ${keys.join(', ')} having count(*) > 1),
         gone as (delete from ${table} t using dup d where ${same} returning t.*)
         insert into ${table} (${keys.join(', ')}, row_count, ${s.sums.map(ident).join(', ')})
         select ${keys.join(', ')}, sum(row_count), ${s.sums.map((f) => `sum(${ident(f)})`).join(', ')}
           from gone group by ${keys.join(', ')}
         having sum(row_count) <> 0 or ${s.sums.map((f) => `sum(${ident(f)}) <> 0`).join(' or ')}`,
      );
    }
}

/**
 * Counts every summary again from its base rows (one agency's, or every agency's): for data written while the
 * triggers were off (a restore), or to check. Each in one statement (migration 143's shift_days_rebuild).
 */
export async function rebuildReportSummaries(db: Db, merchantId: number | null = null) {
  for (const s of REPORT_SUMMARIES)
    for (const { table } of summaryTables(s))
      await db.query(`select ${ident(`${table}_rebuild`)}($1::int)`, [merchantId]);
}
