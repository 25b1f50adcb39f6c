// Declared reports (issue 34): a report's rows are its base resource's list rows (the same WHERE: agency, row
// scope, read policy, filters, and the period as a range filter), grouped by the asked dimensions and aggregated in
// SQL; totals are the same aggregates over every matching row. Declarations: core/resources/reports.ts.
import type { Row } from '../db/index.js';
import type { ReportRow } from '../../core/contracts/reports.js';
import { HttpError } from '../http.js';
import { fieldExpression, ident, Params, readable, scopeWhere, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { buildWhere } from './query.js';
import { summaryCompiled, summaryFor, summarySource } from './reportSummaries.js';
import { permits } from '../../core/resources/access.js';
import { LIST_LIMITS, type FieldDeclaration } from '../../core/engine/types.js';
import {
  isPeriodPreset,
  MAX_GROUPS,
  NO_VALUE,
  periodOf,
  plainName,
  receivedMeasures,
  type PeriodPreset,
  type ReportCondition,
  type ReportDeclaration,
  type ReportDetail,
  type ReportDimension,
  type ReportMeasure,
  type ReportPathFilter,
} from '../../core/engine/reports.js';

/** Deepest page of groups served. */
const MAX_PAGE = 10_000;

type Ctx = Pick<EngineContext, 'principal' | 'today' | 'timeZone'>;

/** What a caller asked of a report, checked: the grouping, period, filters, sort and page. */
export interface ReportQuery {
  group: ReportDimension[];
  /** The period asked; none for a report as of today (no period declared). */
  period?: { preset: PeriodPreset; from: string; to: string };
  /** The agency's today: what a report without a period is as of, and what days past are counted from. */
  asOf: string;
  filters: Record<string, string>;
  /** The filters through a reference asked, with their value: a record's id, or null for rows with none. */
  pathFilters: { filter: ReportPathFilter; value: number | null }[];
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  perPage: number;
  measures: ReportMeasure[];
}

/**
 * Whether a caller may read a field of the report's base rows: of its resource, and of each of its sources; through
 * a reference, the reference and the field it reaches (a client user reads no client's business unit).
 */
function mayRead(report: ReportDeclaration, c: Compiled, ctx: Ctx, name: string): boolean {
  const resources = report.sources?.length ? report.sources.map((s) => c.lookup(s.resource)) : [c];
  return resources.every((x) => {
    const at = resolvePath(x, name);
    return !!at && readable(ctx.principal, at.field) && at.via.every((v) => readable(ctx.principal, v.reference));
  });
}

/**
 * The dimensions a caller may group by: a field they may read; a reference only to records they may list; a date
 * or a plain value (a rate) as it is.
 */
export function availableDimensions(report: ReportDeclaration, c: Compiled, ctx: Ctx): ReportDimension[] {
  return report.dimensions.filter((d) => {
    const f = resolvePath(c, d.field)?.field;
    if (!f || !mayRead(report, c, ctx, d.field)) return false;
    if (d.bucket || f.type !== 'reference') return true;
    return !!f.reference && permits(ctx.principal, c.lookup(f.reference).decl, 'list');
  });
}

/** The measures a caller receives: each made of fields they may read (pay and margin only for the agency). */
export function availableMeasures(report: ReportDeclaration, c: Compiled, ctx: Ctx): ReportMeasure[] {
  return receivedMeasures(report, (name) => mayRead(report, c, ctx, name));
}

/** The filters a caller may narrow the report by: declared by the report, and a field they may read. */
export function availableFilters(report: ReportDeclaration, c: Compiled, ctx: Ctx): FieldDeclaration[] {
  return report.filters
    .map((name) => c.byField.get(name))
    .filter((f): f is FieldDeclaration => !!f && readable(ctx.principal, f));
}

/**
 * The filters through a reference a caller may use: both fields readable (the reference and what it reaches), and
 * the records it names listable (a consultant filters shifts by unit; a client user has no such filter).
 */
export function availablePathFilters(report: ReportDeclaration, c: Compiled, ctx: Ctx): ReportPathFilter[] {
  return (report.pathFilters ?? []).filter((pf) => {
    const at = resolvePath(c, pf.path);
    return (
      !!at?.field.reference &&
      mayRead(report, c, ctx, pf.path) &&
      permits(ctx.principal, c.lookup(at.field.reference).decl, 'list')
    );
  });
}

const RESERVED = new Set(['group', 'period', 'from', 'to', 'sort', 'order', 'page', 'per_page']);

/** Reads a report's query string, refusing in words what it does not declare or the caller may not use. */
export function parseReportQuery(
  report: ReportDeclaration,
  c: Compiled,
  ctx: Ctx,
  query: Record<string, unknown>,
  options: { paged?: boolean } = {},
): ReportQuery {
  const errors: Record<string, string> = {};
  const str = (k: string) => {
    const v = query[k];
    if (v !== undefined && typeof v !== 'string') errors[k] = 'Give one value';
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const dims = availableDimensions(report, c, ctx);
  const groupIds = str('group')?.split(',') ?? report.defaultGroup.filter((g) => dims.some((d) => d.id === g));
  const group: ReportDimension[] = [];
  for (const id of groupIds) {
    const d = dims.find((x) => x.id === id);
    if (!d) errors.group = `Cannot group by ${id.slice(0, 40)}`;
    else if (group.includes(d)) errors.group = `${d.label} is asked twice`;
    else group.push(d);
  }
  if (group.length > MAX_GROUPS) errors.group = `Group by at most ${MAX_GROUPS}`;
  if (group.length === 0 && dims.length && !errors.group) group.push(dims[0]);
  let period: ReportQuery['period'] | undefined;
  if (!report.period) {
    // As of today: a period asked of it would be silently ignored, so it is refused instead.
    for (const k of ['period', 'from', 'to'])
      if (query[k] !== undefined) errors[k] = 'This report is as of today: it takes no period';
  } else {
    const presetRaw = str('period') ?? report.period.default;
    if (!isPeriodPreset(presetRaw) || (report.period.presets && !report.period.presets.includes(presetRaw)))
      errors.period = 'Unknown period';
    else {
      const dates = periodOf(presetRaw, ctx.today, { from: str('from'), to: str('to') });
      if (!dates) errors.from = 'Give a custom period as from and to, yyyy-MM-dd, from on or before to';
      else period = { preset: presetRaw, ...dates };
    }
  }
  const filterFields = availableFilters(report, c, ctx);
  const pathFields = availablePathFilters(report, c, ctx);
  const filters: Record<string, string> = {};
  const pathFilters: ReportQuery['pathFilters'] = [];
  for (const [k, v] of Object.entries(query)) {
    if (RESERVED.has(k)) continue;
    const pf = pathFields.find((x) => x.id === k);
    if (pf) {
      if (typeof v !== 'string') errors[k] = 'Give one value';
      else if (v === NO_VALUE) pathFilters.push({ filter: pf, value: null });
      else if (/^[1-9][0-9]{0,9}$/.test(v) && Number(v) <= 2 ** 31 - 1)
        pathFilters.push({ filter: pf, value: Number(v) });
      else if (v !== '') errors[k] = `Give a record's id, or ${NO_VALUE}`;
      continue;
    }
    if (!filterFields.some((f) => f.source === k)) errors[k] = 'Unknown filter';
    else if (typeof v !== 'string') errors[k] = 'Give one value';
    else if (v !== '') filters[k] = v;
  }
  const measures = availableMeasures(report, c, ctx);
  // A detail column sorts too (the page is then cut after every group's details are read: runReportWithDetails).
  const details = availableDetails(report, c, ctx, { group });
  const sortable = new Set([...measures.map((m) => m.id), ...group.map((d) => d.id), ...details.map((d) => d.id)]);
  const fallback = sortable.has(report.defaultSort.by)
    ? report.defaultSort
    : group[0]
      ? { by: group[0].id, order: 'asc' as const }
      : { by: measures[0]?.id ?? '', order: 'desc' as const };
  const sort = str('sort') ?? fallback.by;
  if (!sortable.has(sort)) errors.sort = `Cannot sort by ${sort.slice(0, 40)}`;
  const order = (str('order') ?? (str('sort') ? 'asc' : fallback.order)).toLowerCase();
  if (order !== 'asc' && order !== 'desc') errors.order = 'Must be asc or desc';
  const page = Number(str('page') ?? 1);
  const perPage = Number(str('per_page') ?? LIST_LIMITS.defaultPerPage);
  if (options.paged !== false) {
    if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE)
      errors.page = `Must be a whole number from 1 to ${MAX_PAGE}`;
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > LIST_LIMITS.maxPerPage)
      errors.per_page = `Must be a whole number from 1 to ${LIST_LIMITS.maxPerPage}`;
  }
  if (Object.keys(errors).length || (report.period && !period))
    throw new HttpError(400, 'The report parameters are not valid.', errors);
  return {
    group,
    period,
    asOf: ctx.today,
    filters,
    pathFilters,
    sort,
    order: order as 'asc' | 'desc',
    page,
    perPage,
    measures,
  };
}

/** A condition of a measure or of the report's base rows, as SQL over the field's expression `expr`. */
function conditionSql(expr: string, w: ReportCondition, p: Params, today: string): string {
  if (w.isNull !== undefined) return `${expr} is ${w.isNull ? '' : 'not '}null`;
  if (w.in) return `${expr}::text = any(${p.bind([...w.in])}::text[])`;
  if (w.gt !== undefined) return `${expr} > ${p.bind(w.gt)}`;
  if (w.daysPast) {
    // Whole days from the date to the agency's today (date − date is an integer in PostgreSQL); withinDaysPast in
    // core/engine/reports.ts says the same in TypeScript.
    const days = `(${p.bind(today)}::date - ${expr})`;
    const { min, max } = w.daysPast;
    const parts = [
      ...(min === undefined ? [] : [`${days} >= ${p.bind(min)}::int`]),
      ...(max === undefined ? [] : [`${days} <= ${p.bind(max)}::int`]),
    ];
    return parts.length ? `(${parts.join(' and ')})` : `${expr} is not null`;
  }
  throw new Error(`a report condition on ${w.field} says nothing`);
}

/** A report's path resolved against the declarations: the references it goes through, and the field it ends at. */
export interface ResolvedPath {
  /** Each reference followed from the base row, with the compiled resource it leads to (none for the row's field). */
  via: { reference: FieldDeclaration; target: Compiled }[];
  /** The field the path ends at, and the resource that has it (the base's, or the last reference's target). */
  field: FieldDeclaration;
  owner: Compiled;
}

/**
 * A field of a base row (`state`), or one reached through one of its references (`invoice_id.state`: the line's
 * invoice's state); undefined when the declarations have no such field or the head is no reference. One reference
 * at most: the SQL (Reached) joins the referenced record once. The start-up check of the
 * declarations (server/routes/reports.ts) and the SQL both resolve through this, so what is checked is what is read.
 */
export function resolvePath(c: Compiled, path: string): ResolvedPath | undefined {
  const parts = path.split('.');
  const head = c.byField.get(parts[0]);
  if (!head || parts.length > 2) return undefined;
  if (parts.length === 1) return { via: [], field: head, owner: c };
  if (head.type !== 'reference' || !head.reference) return undefined;
  const target = c.lookup(head.reference);
  const field = target.byField.get(parts[1]);
  return field && { via: [{ reference: head, target }], field, owner: target };
}

/**
 * The records a report's rows reach through a reference (`client_id.business_unit_id`, `invoice_id.state`), each
 * joined once to the rows' table: a lateral sub-select of the referenced record within the caller's scope of it (null
 * outside it, so no condition holds). PostgreSQL turns it into a plain join (the clients hashed once); a correlated
 * sub-select in the WHERE or GROUP BY ran once per row instead, a million times over a year at the issue's scale
 * (docs/decisions.md "Issue 34 — the dashboard and reports at a million shifts").
 */
class Reached {
  private aliases = new Map<string, string>();
  private joins: string[] = [];
  constructor(
    private c: Compiled,
    private p: Params,
    private ctx: Ctx,
  ) {}

  /** A path's value over a row (resolvePath): the row's field, or the referenced record's through its join. */
  value(path: string): string {
    const resolved = resolvePath(this.c, path);
    if (!resolved) throw new Error(`${this.c.decl.name}: no report path ${path}`);
    const { via, field, owner } = resolved;
    const { p, ctx } = this;
    if (!via.length) return fieldExpression(this.c, field, p.bind, ctx.today);
    let alias = this.aliases.get(path);
    if (!alias) {
      alias = ident(`reached_${this.aliases.size}`);
      this.aliases.set(path, alias);
      const [{ reference }] = via;
      // Inside the sub-select the target's columns are the nearest (its scope is unqualified); the row's is qualified.
      this.joins.push(
        `left join lateral (select ${fieldExpression(owner, field, p.bind, ctx.today)} as "reached_value" from ${owner.table} where ${owner.table}.id = ${this.c.table}.${ident(reference.source)} and ${scopeWhere(owner, ctx.principal, p.bind)}) as ${alias} on true`,
      );
    }
    return `${alias}."reached_value"`;
  }

  /**
   * The rows' table (or `source`, rows read under its name) with the joins of the paths read so far: asked after
   * every value of the statement.
   */
  from(source = this.c.table): string {
    return [source, ...this.joins].join(' ');
  }
}

/**
 * Where a report's base rows are and how a field reads over them. `where` binds when called, and `from` (the joins of
 * the references read) is asked last, once every field and condition of the statement is written.
 */
interface Base {
  from: () => string;
  where: () => string;
  field: (name: string) => string;
  /** The count of base rows: count(*), or a summary's sum of its rows' counts. */
  count: string;
  /** A summary's day: the period field's day on the agency's clock, a date column of its own. */
  day?: { field: string; column: string };
  /** A summary's groups with rows (its deltas may net a key to nothing until folded). */
  having?: string;
}

/** The aggregate of a sum or count over the base rows (a ratio is worked out from them afterwards). */
function aggregateSql(b: Base, m: ReportMeasure, p: Params, today: string): string {
  if (m.kind === 'ratio') throw new Error('a ratio is no aggregate');
  const filter = m.where?.length
    ? ` filter (where ${m.where.map((w) => conditionSql(b.field(w.field), w, p, today)).join(' and ')})`
    : '';
  if (m.kind === 'count') return b.count === 'count(*)' ? `count(*)${filter}` : `coalesce(${b.count}${filter}, 0)`;
  return `coalesce(sum(${b.field(m.field)})${filter}, 0)`;
}

/** A sum or count as answered: pence sum to whole pence; hours summed exactly, rounded to 2 decimals once. */
function formatted(m: ReportMeasure, sum: string): string {
  if (m.kind === 'count') return sum;
  return m.format === 'money' ? `(${sum})::bigint` : `round((${sum})::numeric, 2)`;
}

/**
 * A measure's value over a row of aggregates `g`: the aggregate itself, or a ratio of two of them. `over` makes it the
 * total of every group instead (each sum and count summed over the groups, in the same statement: every base row is
 * in one group, so that is the sum over every row, and a ratio is worked out from those sums).
 */
function measureOver(m: ReportMeasure, over = ''): string {
  const agg = (id: string) => (over ? `sum(g.${ident(`a_${id}`)}) ${over}` : `g.${ident(`a_${id}`)}`);
  if (m.kind !== 'ratio') return formatted(m, agg(m.id));
  const [num, den] = [agg(m.numerator), agg(m.denominator)];
  return `case when ${den} = 0 then null else round(${num}::numeric / ${den}, 4) end`;
}

/** The sums and counts the measures need (a ratio's parts even when not received on their own: never). */
function aggregates(report: ReportDeclaration, measures: ReportMeasure[]): ReportMeasure[] {
  const ids = new Set(measures.flatMap((m) => (m.kind === 'ratio' ? [m.numerator, m.denominator] : [m.id])));
  return report.measures.filter((m) => m.kind !== 'ratio' && ids.has(m.id));
}

/** A dimension's grouping expression over the base rows. */
function dimensionSql(c: Compiled, b: Base, d: ReportDimension, p: Params, ctx: Ctx): string {
  const f = resolvePath(c, d.field)!.field;
  if (d.bucket && b.day?.field === d.field) return `date_trunc('${d.bucket}', ${b.day.column})::date`;
  const expr = b.field(d.field);
  if (!d.bucket) return expr;
  const local = f.type === 'datetime' ? `(${expr} at time zone ${p.bind(ctx.timeZone)})` : expr;
  return `date_trunc('${d.bucket}', ${local})::date`;
}

/**
 * A referenced record's name as its declaration represents it ('%{first_name} %{last_name}'), in SQL over the
 * target's row, read only within the caller's scope of the target; a part the caller may not read is left out.
 */
function labelSql(c: Compiled, d: ReportDimension, key: string, ctx: Ctx, p: Params): string {
  const f = resolvePath(c, d.field)!.field;
  const target = c.lookup(f.reference!);
  const parts: string[] = [];
  const rep = target.decl.recordRepresentation;
  let at = 0;
  for (const m of rep.matchAll(/%\{(\w+)\}/g)) {
    if (m.index! > at) parts.push(`${p.bind(rep.slice(at, m.index))}::text`);
    const tf = target.byField.get(m[1]);
    if (m[1] === 'id') parts.push(`${target.table}.id::text`);
    else if (tf && !tf.computed && readable(ctx.principal, tf)) parts.push(`${target.table}.${ident(m[1])}::text`);
    at = m.index! + m[0].length;
  }
  if (at < rep.length) parts.push(`${p.bind(rep.slice(at))}::text`);
  const name = `nullif(trim(concat(${parts.join(', ') || "''"})), '')`;
  // The target's row scope is unqualified: inside this subquery its columns are the nearest. A record gone from
  // the caller's scope since (a deleted client) keeps its resource's name and id.
  const named = `coalesce((select ${name} from ${target.table} where ${target.table}.id = ${key} and ${scopeWhere(target, ctx.principal, p.bind)}), ${p.bind(`${target.decl.label.one} `)}::text || ${key}::text)`;
  // The group of rows with no value (shifts of clients in no unit) is named by the declaration.
  return d.emptyLabel ? `case when ${key} is null then ${p.bind(d.emptyLabel)}::text else ${named} end` : named;
}

/** Each path filter's condition: the record reached (within the caller's scope of the one passed through), or none. */
function pathFilterSql(reached: Reached, q: ReportQuery, p: Params): string[] {
  return q.pathFilters.map(({ filter, value }) =>
    value === null ? `${reached.value(filter.path)} is null` : `${reached.value(filter.path)} = ${p.bind(value)}::int`,
  );
}

/**
 * The base rows: the base resource's list rows (the list's own WHERE: scope, read policy, filters, the period) under
 * the report's conditions; or, for a report of several sources, the union of each source's list rows (scope and read
 * policy) under its own conditions and period, each giving the fields the report reads.
 */
function baseOf(
  report: ReportDeclaration,
  c: Compiled,
  ctx: Ctx,
  q: ReportQuery,
  p: Params,
  options: { summaries?: boolean },
): Base {
  const summary =
    options.summaries !== false && summaryFor(report, c, ctx, { ...q, aggregates: aggregates(report, q.measures) });
  if (summary && q.period) {
    // The summary's rows: the same WHERE (scope, read policy, filters) over its columns, its days for the period.
    const sc = summaryCompiled(c, summary);
    const reached = new Reached(sc, p, ctx);
    const { from, to } = q.period;
    // A period's whole months by month when no dimension is finer than a month.
    const buckets = q.group.filter((d) => d.field === summary.day).map((d) => d.bucket);
    const source = summarySource(summary, c, { period: q.period, buckets, timeZone: ctx.timeZone }, p.bind);
    return {
      from: () => reached.from(source),
      where: () =>
        [
          buildWhere(sc, ctx, q.filters, p).where,
          `day >= ${p.bind(from)}::date and day <= ${p.bind(to)}::date`,
          ...(report.where ?? [])
            .filter((w) => !summary.where.some((x) => JSON.stringify(x) === JSON.stringify(w)))
            .map((w) => conditionSql(reached.value(w.field), w, p, ctx.today)),
          ...pathFilterSql(reached, q, p),
        ].join(' and '),
      field: (name) => reached.value(name),
      count: 'sum(row_count)',
      day: { field: summary.day, column: 'day' },
      having: 'sum(row_count) > 0',
    };
  }
  if (!report.sources?.length) {
    const range =
      report.period && q.period
        ? { [`${report.period.field}_gte`]: q.period.from, [`${report.period.field}_lte`]: q.period.to }
        : {};
    const reached = new Reached(c, p, ctx);
    return {
      from: () => reached.from(),
      where: () =>
        [
          buildWhere(c, ctx, { ...q.filters, ...range }, p).where,
          ...(report.where ?? []).map((w) => conditionSql(reached.value(w.field), w, p, ctx.today)),
          ...pathFilterSql(reached, q, p),
        ].join(' and '),
      field: (name) => reached.value(name),
      count: 'count(*)',
    };
  }
  const aggs = aggregates(report, q.measures);
  const fields = [
    ...new Set([
      ...q.group.map((d) => d.field),
      ...aggs.flatMap((m) => (m.kind === 'sum' ? [m.field] : [])),
      ...aggs.flatMap((m) => (m.kind === 'ratio' ? [] : (m.where ?? []).map((w) => w.field))),
    ]),
  ];
  const parts = () =>
    report.sources!.map((s) => {
      const sc = c.lookup(s.resource);
      const reached = new Reached(sc, p, ctx);
      const { where } = buildWhere(sc, ctx, {}, p);
      const conditions = (s.where ?? []).map((w) => conditionSql(reached.value(w.field), w, p, ctx.today));
      if (s.period && q.period) {
        const date = reached.value(s.period);
        conditions.push(`${date} >= ${p.bind(q.period.from)}::date and ${date} <= ${p.bind(q.period.to)}::date`);
      }
      const columns = fields.map((f) => `${fieldExpression(sc, sc.byField.get(f)!, p.bind, ctx.today)} as ${ident(f)}`);
      return `select ${columns.join(', ') || '1 as "__one"'} from ${reached.from()} where ${[where, ...conditions].join(' and ')}`;
    });
  return {
    from: () => `(${parts().join(' union all ')}) as base`,
    where: () => 'true',
    field: (name) => ident(name),
    count: 'count(*)',
  };
}

/**
 * The statement of a report: one row per group (sorted, a page or every group), each carrying the count of groups
 * (`__groups`) and the totals over every group (`__t_<measure>`): one pass over the base rows, where a second
 * statement for the totals read them all again.
 */
export function reportSql(
  report: ReportDeclaration,
  c: Compiled,
  ctx: Ctx,
  q: ReportQuery,
  options: { paged?: boolean; summaries?: boolean } = {},
): { sql: string; params: unknown[] } {
  const aggs = aggregates(report, q.measures);
  const p = new Params();
  const b = baseOf(report, c, ctx, q, p, options);
  const dims = q.group.map((d, i) => `${dimensionSql(c, b, d, p, ctx)} as ${ident(`d${i}`)}`);
  const sums = aggs.map((m) => `${aggregateSql(b, m, p, ctx.today)} as ${ident(`a_${m.id}`)}`);
  // The WHERE first: the joins of the references it reads belong in the FROM.
  const where = b.where();
  const from = b.from();
  const groupBy =
    (q.group.length ? ` group by ${q.group.map((_, i) => i + 1).join(', ')}` : '') +
    (b.having ? ` having ${b.having}` : '');
  const out: string[] = [];
  const sortOf = new Map<string, string>();
  q.group.forEach((d, i) => {
    const key = `g.${ident(`d${i}`)}`;
    if (d.bucket) {
      out.push(`to_char(${key}, 'YYYY-MM-DD') as ${ident(d.id)}`);
      sortOf.set(d.id, key);
    } else if (resolvePath(c, d.field)!.field.type !== 'reference') {
      // A plain value (a rate, a choice): named after the query (plainName), sorted by the value itself.
      out.push(`${key} as ${ident(d.id)}`);
      sortOf.set(d.id, key);
    } else {
      const label = labelSql(c, d, key, ctx, p);
      out.push(`${label} as ${ident(d.id)}`, `${key} as ${ident(`${d.id}_id`)}`);
      sortOf.set(d.id, `lower(${label})`);
    }
  });
  for (const m of q.measures) {
    out.push(`${measureOver(m)} as ${ident(m.id)}`);
    sortOf.set(m.id, measureOver(m));
  }
  const totals = q.measures.map((m) => `${measureOver(m, 'over ()')} as ${ident(`__t_${m.id}`)}`);
  const dir = q.order;
  // Ties (and nulls, last) are ordered by the groups' keys, so pages never overlap. A sort by a detail column is not
  // SQL: the groups come in their keys' order, which the detail's sort keeps for its ties (runReportWithDetails).
  const by = sortOf.get(q.sort);
  const order = [...(by ? [`${by} ${dir} nulls last`] : []), ...q.group.map((_, i) => `g.${ident(`d${i}`)} asc`)];
  const window = options.paged === false ? '' : ` limit ${q.perPage} offset ${(q.page - 1) * q.perPage}`;
  const sql = `with g as (select ${[...dims, ...sums].join(', ') || '1'} from ${from} where ${where}${groupBy})
      select ${[...out, ...totals, 'count(*) over () as "__groups"'].join(', ')} from g order by ${order.join(', ')}${window}`;
  return { sql, params: p.values };
}

/** A row's values as numbers (PostgreSQL sends bigint and numeric as text); a ratio with no denominator stays null. */
function typed(c: Compiled, q: ReportQuery, r: Row): Row {
  const out: Row = {};
  for (const d of q.group) {
    const f = resolvePath(c, d.field)!.field;
    if (!d.bucket && f.type !== 'reference') {
      // A plain value: its name ("20%", a choice's name) and the value itself (`<id>_value`).
      const v = r[d.id] === null || r[d.id] === undefined ? null : (r[d.id] as string | number);
      out[d.id] = plainName(d, f.choices, v);
      out[`${d.id}_value`] = v === null ? null : f.type === 'number' ? Number(v) : String(v);
      continue;
    }
    out[d.id] = r[d.id] ?? null;
    if (!d.bucket) out[`${d.id}_id`] = r[`${d.id}_id`] === null ? null : Number(r[`${d.id}_id`]);
  }
  for (const m of q.measures) out[m.id] = r[m.id] === null || r[m.id] === undefined ? null : Number(r[m.id]);
  return out;
}

/** A report's page of groups and its totals, as the caller may read them. */
export async function runReport(
  ctx: EngineContext,
  report: ReportDeclaration,
  c: Compiled,
  q: ReportQuery,
  options: { paged?: boolean; summaries?: boolean } = {},
) {
  const rows = reportSql(report, c, ctx, q, options);
  const data = await ctx.db.query(rows.sql, rows.params);
  let first: Row | undefined = data[0];
  // A page past the last has no row to carry the count and the totals: the first page's first row has them.
  if (!first && options.paged !== false && q.page > 1) {
    const again = reportSql(report, c, ctx, { ...q, page: 1, perPage: 1 }, options);
    [first] = await ctx.db.query(again.sql, again.params);
  }
  const groups = first ? Number(first.__groups) : 0;
  // No group at all: nothing was counted (0), and no ratio has a denominator.
  const sum = Object.fromEntries(
    q.measures.map((m) => [m.id, first ? first[`__t_${m.id}`] : m.kind === 'ratio' ? null : 0]),
  );
  return { data: data.map((r) => typed(c, q, r)), totals: typed(c, { ...q, group: [] }, sum), groups };
}

/**
 * Reads the detail columns of the records a report's rows name (a report's `details`), as of a date: for each
 * record's id, its values by column id. One per report that declares details (server/routes/reports.ts).
 */
export type DetailLoader = (
  ctx: EngineContext,
  c: Compiled,
  ids: number[],
  asOf: string,
) => Promise<Map<number, ReportRow>>;

/**
 * The detail columns a caller receives: only when the rows are grouped by the details' dimension, each made of fields
 * they may read (`resource.field`).
 */
export function availableDetails(
  report: ReportDeclaration,
  c: Compiled,
  ctx: Ctx,
  q: Pick<ReportQuery, 'group'>,
): ReportDetail[] {
  if (!report.details || !q.group.some((d) => d.id === report.details!.dimension)) return [];
  return report.details.columns.filter((col) =>
    col.readFrom.every((path) => {
      const [resource, field] = path.split('.');
      const f = c.lookup(resource).byField.get(field);
      return !!f && readable(ctx.principal, f);
    }),
  );
}

/**
 * The rows with their detail columns: each row's record (the dimension's `<id>_id`) read once, as of the period's
 * last day (or the report's today). A row with no record (none) has none of them.
 */
export async function withDetails(
  ctx: EngineContext,
  report: ReportDeclaration,
  c: Compiled,
  q: ReportQuery,
  details: ReportDetail[],
  load: DetailLoader | undefined,
  rows: Row[],
): Promise<Row[]> {
  if (!details.length || !load) return rows;
  const key = `${report.details!.dimension}_id`;
  const ids = [...new Set(rows.map((r) => r[key]).filter((id): id is number => typeof id === 'number'))];
  const values = ids.length ? await load(ctx, c, ids, q.period?.to ?? q.asOf) : new Map<number, ReportRow>();
  return rows.map((r) => {
    const v = typeof r[key] === 'number' ? values.get(r[key] as number) : undefined;
    return { ...r, ...Object.fromEntries(details.map((d) => [d.id, v?.[d.id] ?? null])) };
  });
}

/**
 * A report's page (or every group, `paged: false`; the first `limit` of them for print) with its detail columns.
 * Sorted by a detail column, every group is counted and its record's details read before the page is cut (the
 * details are no SQL over the grouped rows): ties keep the groups' keys' order, and an empty value comes last either
 * way, as a measure's null does.
 */
export async function runReportWithDetails(
  ctx: EngineContext,
  report: ReportDeclaration,
  c: Compiled,
  q: ReportQuery,
  load: DetailLoader | undefined,
  options: { paged?: boolean; limit?: number } = {},
) {
  const details = availableDetails(report, c, ctx, q);
  const by = details.find((d) => d.id === q.sort);
  const cut = (rows: Row[]) => (options.limit === undefined ? rows : rows.slice(0, options.limit));
  if (!by) {
    const { data, totals, groups } = await runReport(ctx, report, c, q, options);
    return { data: await withDetails(ctx, report, c, q, details, load, cut(data)), totals, groups, details };
  }
  const { data, totals, groups } = await runReport(ctx, report, c, q, { paged: false });
  const sorted = sortByDetail(await withDetails(ctx, report, c, q, details, load, data), by, q.order);
  const page = options.paged === false ? sorted : sorted.slice((q.page - 1) * q.perPage, q.page * q.perPage);
  return { data: cut(page), totals, groups, details };
}

/** Rows sorted by a detail: a choice in its declared order, counts and hours as numbers, text and dates as text. */
export function sortByDetail(rows: Row[], d: ReportDetail, order: 'asc' | 'desc'): Row[] {
  const rank = (v: unknown): number | string => {
    if (d.format === 'choice') {
      const i = d.choices?.findIndex((x) => x.id === v) ?? -1;
      return i < 0 ? Number.MAX_SAFE_INTEGER : i;
    }
    return d.format === 'count' || d.format === 'hours' ? Number(v) : String(v);
  };
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = x[d.id];
    const b = y[d.id];
    if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
    if (b === null || b === undefined) return -1;
    const [ra, rb] = [rank(a), rank(b)];
    const cmp =
      typeof ra === 'number' && typeof rb === 'number'
        ? ra - rb
        : String(ra).localeCompare(String(rb), 'en-GB', { sensitivity: 'base' });
    return sign * cmp;
  });
}
