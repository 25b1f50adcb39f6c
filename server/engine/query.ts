// Reading records: a list from its query string (filters, search, sort, paging), its references, one record.
import { containsPattern, TRIGRAM_MIN_LENGTH, type Row } from '../db/index.js';
import { HttpError, notFound } from '../http.js';
import type { FieldDeclaration } from '../../core/engine/types.js';
import { LIST_LIMITS } from '../../core/engine/types.js';
import { resolveLimit, formatDate } from '../../core/engine/dates.js';
import { sortsCaseless } from './ddl.js';
import {
  fieldExpression,
  ident,
  Params,
  readable,
  scopeWhere,
  selectList,
  writeColumns,
  type Compiled,
} from './compile.js';
import type { EngineContext, EnginePrincipal } from './context.js';
import { permits } from '../../core/resources/access.js';
import { hasView } from '../../core/engine/types.js';
import {
  addDaysToDate,
  DEFAULT_TIME_ZONE,
  isPlainDate,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime.js';

/** Longest free-text search or filter value accepted. */
export const MAX_QUERY_VALUE = 200;
/** Deepest page a list serves: far beyond any screen, and keeps OFFSET within what the database accepts. */
const MAX_PAGE = 100_000;

export const sortExpression = (c: Compiled, field: string, bind: (v: unknown) => string, today: string) => {
  const f = c.byField.get(field);
  if (!f) return ident(field);
  return sortsCaseless(f) ? `lower(${ident(field)})` : fieldExpression(c, f, bind, today);
};

function parseBool(value: string, field: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new HttpError(400, `Filter ${field} must be true or false.`, { [field]: 'Must be true or false' });
}

function filterValue(f: FieldDeclaration, raw: string): unknown {
  if (f.type === 'boolean') return parseBool(raw, f.source);
  if (f.type === 'reference' || f.type === 'number' || f.type === 'money') {
    const parts = raw.split(',').map((s) => Number(s));
    if (parts.some((n) => !Number.isSafeInteger(n) || Math.abs(n) > 2 ** 31 - 1))
      throw new HttpError(400, `Filter ${f.source} must be a number.`, { [f.source]: 'Must be a number' });
    return parts;
  }
  return raw.split(',');
}

/** A date filter may be relative to the agency's today ('today', '+30d', '-1y'): the document report's tabs. */
function dateFilterValue(raw: string, today: string): string {
  if (/^(today|[+-]\d{1,4}[dmy])$/.test(raw)) return formatDate(resolveLimit(raw, today)!);
  return raw;
}

/**
 * A date-time filter given a day (a date, or relative to today: the diary's Today tab) covers the whole day on
 * the agency's clock: from its first instant (gte) up to, not including, the next day's (lte).
 */
function dayBound(
  raw: string,
  bound: 'gte' | 'lte',
  ctx: { today: string; timeZone?: string },
): { op: string; value: string } | null {
  const day = dateFilterValue(raw, ctx.today);
  if (!isPlainDate(day)) return null;
  const tz = ctx.timeZone ?? DEFAULT_TIME_ZONE;
  if (bound === 'gte') return { op: '>=', value: zonedDateTimeToInstant(day, '00:00', tz).toISOString() };
  return { op: '<', value: zonedDateTimeToInstant(addDaysToDate(day, 1), '00:00', tz).toISOString() };
}

/** Builds the WHERE clause of a list from the query string: declared filters only, everything as parameters. */
export function buildWhere(
  c: Compiled,
  ctx: Pick<EngineContext, 'principal' | 'today'> & { timeZone?: string },
  query: Record<string, string>,
  p = new Params(),
) {
  const where = [scopeWhere(c, ctx.principal, p.bind)];
  /** The fields the conditions compare (a source builder's choice, SourceBuilders): filters, `id`, `q`. */
  const fields = new Set<string>();
  const reserved = new Set(['page', 'per_page', 'sort', 'order', 'q', 'ids', 'id', 'tab', 'fields']);
  const filters: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(query)) {
    if (typeof value !== 'string')
      throw new HttpError(400, `Filter ${rawKey} is given more than once.`, { [rawKey]: 'Give one value' });
    if (value.length > MAX_QUERY_VALUE * 50)
      throw new HttpError(400, `Filter ${rawKey} is too long.`, { [rawKey]: 'Too long' });
    if (reserved.has(rawKey) || value === '') continue;
    const key = c.decl.filterAliases?.[rawKey] ?? rawKey;
    filters[key] = value;
  }
  if (query.tab) {
    const tab = c.decl.tabs?.find((t) => t.id === query.tab);
    if (!tab) throw new HttpError(400, `Unknown list tab ${query.tab}.`, { tab: 'Unknown tab' });
    for (const [k, v] of Object.entries(tab.filter)) filters[k] ??= String(v);
  }
  for (const [key, value] of Object.entries(filters)) {
    const range = /^(.*)_(gte|lte)$/.exec(key);
    if (range && c.rangeable.has(range[1]) && readable(ctx.principal, c.rangeable.get(range[1])!)) {
      const f = c.rangeable.get(range[1])!;
      fields.add(f.source);
      const day = f.type === 'datetime' ? dayBound(value, range[2] as 'gte' | 'lte', ctx) : null;
      if (day) {
        where.push(`${fieldExpression(c, f, p.bind, ctx.today)} ${day.op} ${p.bind(day.value)}`);
        continue;
      }
      const v =
        f.type === 'number' || f.type === 'money'
          ? Number(value)
          : f.type === 'date'
            ? dateFilterValue(value, ctx.today)
            : value;
      if (typeof v === 'number' && !Number.isFinite(v))
        throw new HttpError(400, `Filter ${key} must be a number.`, { [key]: 'Must be a number' });
      if (typeof v === 'string' && (!/^\d{4}-\d\d-\d\d/.test(v) || Number.isNaN(Date.parse(v))))
        throw new HttpError(400, `Filter ${key} must be a date.`, { [key]: 'Must be a date' });
      where.push(`${fieldExpression(c, f, p.bind, ctx.today)} ${range[2] === 'gte' ? '>=' : '<='} ${p.bind(v)}`);
      continue;
    }
    const f = c.filterable.get(key);
    if (!f || !readable(ctx.principal, f))
      throw new HttpError(400, `Unknown filter ${key}.`, { [key]: 'Unknown filter' });
    fields.add(f.source);
    const custom = c.behaviour.computedFilters?.[f.source];
    if (custom) {
      const values = value.split(',');
      if (f.choices && values.some((x) => !f.choices!.some((ch) => ch.id === x)))
        throw new HttpError(400, `Filter ${key} must be one of the listed options.`, { [key]: 'Unknown option' });
      where.push(`(${values.map((x) => `(${custom(x, p.bind, { today: ctx.today })})`).join(' or ')})`);
      continue;
    }
    // A field holding user ids (declared `reference: 'users'`) may be filtered by 'me': the caller ("my notes").
    const v = filterValue(f, value === 'me' && f.reference === 'users' ? String(ctx.principal.userId) : value);
    const expr = fieldExpression(c, f, p.bind, ctx.today);
    if (f.type === 'references') {
      const ids = v as number[];
      where.push(`${expr} && ${p.bind(ids)}::integer[]`);
    } else if (Array.isArray(v) && v.length > 1) where.push(`${expr} = any(${p.bind(v)})`);
    else where.push(`${expr} = ${p.bind(Array.isArray(v) ? v[0] : v)}`);
  }
  const ids = query.ids ?? query.id;
  if (ids) {
    const list = String(ids).split(',').map(Number);
    if (list.length > 1000 || list.some((n) => !Number.isSafeInteger(n) || n < 1 || n > 2 ** 31 - 1))
      throw new HttpError(400, 'ids must be numbers.', { ids: 'Must be numbers' });
    where.push(`id = any(${p.bind(list)})`);
    fields.add('id');
  }
  const q = (query.q ?? '').trim().toLowerCase();
  if (q.length > MAX_QUERY_VALUE)
    throw new HttpError(400, `The search is too long (at most ${MAX_QUERY_VALUE} characters).`, {
      q: `At most ${MAX_QUERY_VALUE} characters`,
    });
  if (q && c.decl.search?.length) {
    where.push(`search_text like ${p.bind(containsPattern(q))}`);
    fields.add('q');
  }
  return { where: where.join(' and '), params: p, fields };
}

export function parsePaging(c: Compiled, principal: EnginePrincipal, query: Record<string, string>) {
  const page = query.page === undefined ? 1 : Number(query.page);
  const perPage = query.per_page === undefined ? LIST_LIMITS.defaultPerPage : Number(query.per_page);
  const errors: Record<string, string> = {};
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE)
    errors.page = `Must be a whole number from 1 to ${MAX_PAGE}`;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > LIST_LIMITS.maxPerPage)
    errors.per_page = `Must be a whole number from 1 to ${LIST_LIMITS.maxPerPage}`;
  const sort = query.sort ?? c.decl.defaultSort.field;
  const sortField = c.byField.get(sort);
  if (!c.sortable.has(sort) || (sortField && !readable(principal, sortField)))
    errors.sort = `Cannot sort by ${String(sort).slice(0, 60)}`;
  const order = String(query.order ?? (query.sort ? 'asc' : c.decl.defaultSort.order)).toLowerCase();
  if (order !== 'asc' && order !== 'desc') errors.order = 'Must be asc or desc';
  if (Object.keys(errors).length) throw new HttpError(400, 'The list parameters are not valid.', errors);
  return { page, perPage, sort, order: order as 'asc' | 'desc' };
}

/**
 * The fields a list asked its rows to carry (`?fields=a,b`), and the id; undefined for every field. A name the
 * declaration does not know answers 400; a field the caller may not read is left out, as it is from any answer.
 */
export function requestedFields(c: Compiled, raw: string | undefined): Set<string> | undefined {
  if (raw === undefined || raw === '') return undefined;
  const names = raw.split(',');
  const unknown = names.find((n) => !c.byField.has(n) && !c.storedColumns.includes(n));
  if (unknown !== undefined)
    throw new HttpError(400, `Unknown field ${unknown.slice(0, 60)}.`, {
      fields: `Unknown field ${unknown.slice(0, 60)}`,
    });
  return new Set(['id', ...names]);
}

/** A search long enough for the trigram index is answered from it first, then sorted and paged. */
const searchesByTrigram = (query: Record<string, string>) => (query.q ?? '').trim().length >= TRIGRAM_MIN_LENGTH;

/** A list's pages up to this one run as prepared statements (see listRecords). */
const PREPARED_PAGES = 20;

export async function listRecords(ctx: EngineContext, c: Compiled, query: Record<string, string>) {
  const { page, perPage, sort, order } = parsePaging(c, ctx.principal, query);
  const { where, params, fields } = buildWhere(c, ctx, query);
  // Select-list parameters (a computed field's today) come after the WHERE ones; both share one list.
  const countParams = [...params.values];
  const only = requestedFields(c, query.fields);
  const select = selectList(c, ctx.principal, 'list', params.bind, ctx.today, '', only);
  const orderBy = () =>
    `order by ${sortExpression(c, sort, params.bind, ctx.today)} ${order}${sort === 'id' ? '' : `, id ${order}`}`;
  const window = `${orderBy()} limit ${perPage} offset ${(page - 1) * perPage}`;
  // What the page reads: the table, or what the behaviour builds for this page (SourceBuilders), read as the table.
  const built = c.behaviour.source?.page?.({ where, filtered: fields, sort, order, rows: page * perPage }, params.bind);
  const from = built ? `${built} as ${c.table}` : c.table;
  // The page's rows are chosen from the bare table first, and the select list (computed fields' subqueries,
  // conversions) runs on those rows alone: in one statement it would run on every row OFFSET skips as well.
  // Without the materialised match set a search may walk the sort index and filter most of the table.
  const pageRows = searchesByTrigram(query)
    ? `with m as materialized (select * from ${from} where ${where}) select * from m as ${c.table} ${window}`
    : `select * from ${from} where ${where} ${window}`;
  // The first pages are what screens ask again and again: their statements are prepared (planning cost as much as
  // running them); a page further on is planned each time, so the prepared texts stay few.
  const data = await ctx.db.query(`select ${select} from (${pageRows}) as ${c.table} ${orderBy()}`, params.values, {
    prepare: page <= PREPARED_PAGES,
  });
  const merchantId = ctx.principal.merchantId;
  // The declared totals are summed in the statement that counts, over the same rows (listTotals): never a page's.
  const summed = (c.decl.listTotals ?? [])
    .map((s) => c.byField.get(s) ?? c.computed.find((f) => f.source === s)!)
    .filter((f) => readable(ctx.principal, f));
  const sums = summed.map(
    (f) =>
      // Pence sum to whole pence; a decimal number (hours) keeps its fraction.
      `, coalesce(sum(${fieldExpression(c, f, (v) => (countParams.push(v), `$${countParams.length}`), ctx.today)}), 0)::${f.type === 'money' ? 'bigint' : 'numeric'} as ${ident(f.source)}`,
  );
  const key = c.totals.key(c.decl.table, merchantId, `${where}|${summed.map((f) => f.source)}`, countParams);
  let counted = c.totals.get<Row>(key);
  if (counted === undefined) {
    // A behaviour may count without reading the table (SourceBuilders.count); a list with declared totals sums rows.
    const counter = summed.length
      ? undefined
      : c.behaviour.source?.count?.(
          { where, filtered: fields },
          (v) => (countParams.push(v), `$${countParams.length}`),
        );
    [counted] = await ctx.db.query(
      counter
        ? `select (${counter})::int as n`
        : `select count(*)::int as n${sums.join('')} from ${c.table} where ${where}`,
      countParams,
      { prepare: true },
    );
    c.totals.set(key, counted);
  }
  const n = Number(counted.n);
  const references = await listReferences(ctx, c, data, only);
  return {
    ...(summed.length ? { totals: Object.fromEntries(summed.map((f) => [f.source, Number(counted[f.source])])) } : {}),
    data,
    total_count: n,
    total_pages: Math.ceil(n / perPage),
    current_page: page,
    per_page: perPage,
    references,
  };
}

/**
 * The records a list page refers to, by target resource: { job_roles: [{ id: 3, name: 'Registered Nurse', … }] }.
 * A list page then renders whole in one round trip (the screen would otherwise ask getMany of each target after
 * the rows arrive). Only reference fields the list shows (and asked for, `only`) and the principal may read, and
 * only targets the
 * principal may list; each target is read as its own list would answer it (same row scope and select list),
 * so this never shows more than a getMany of those ids would. Records already read for the same reader since the
 * agency's last write are not read again (TotalCache.referencesOf).
 */
export async function listReferences(
  ctx: EngineContext,
  c: Compiled,
  rows: Row[],
  only?: Set<string>,
): Promise<Record<string, Row[]>> {
  const wanted = new Map<string, Set<number>>();
  for (const f of c.stored) {
    if (
      (f.type !== 'reference' && f.type !== 'references') ||
      !f.reference ||
      !hasView(f, 'list') ||
      (only && !only.has(f.source)) ||
      !readable(ctx.principal, f)
    )
      continue;
    const target = c.lookup(f.reference);
    if (!permits(ctx.principal, target.decl, 'list')) continue;
    const ids = wanted.get(f.reference) ?? new Set<number>();
    for (const r of rows)
      for (const id of Array.isArray(r[f.source]) ? r[f.source] : [r[f.source]]) if (id != null) ids.add(Number(id));
    wanted.set(f.reference, ids);
  }
  const out: Record<string, Row[]> = {};
  // What the select list and the row scope depend on: who reads (their own scope included), and the day.
  const p = ctx.principal;
  const reader = `${p.userId}|${p.loginType}|${p.role}|${p.clientId}|${p.candidateId ?? ''}|${p.link ? `${p.link.resource}:${p.link.recordId}` : ''}|${ctx.today}`;
  for (const [name, ids] of wanted) {
    if (ids.size === 0) continue;
    const target = c.lookup(name);
    const known = c.totals.referencesOf(name, p.merchantId, reader);
    const missing = [...ids].filter((id) => !known.has(id));
    if (missing.length) {
      const q = new Params();
      const where = scopeWhere(target, p, q.bind);
      const list = q.bind(missing);
      const rows = await ctx.db.query(
        `select ${selectList(target, p, 'list', q.bind, ctx.today)} from ${target.table} where ${where} and id = any(${list})`,
        q.values,
      );
      for (const id of missing) known.set(id, null);
      for (const r of rows) known.set(Number(r.id), r);
    }
    out[name] = [...ids]
      .sort((a, b) => a - b)
      .map((id) => known.get(id))
      .filter((r): r is Row => !!r);
  }
  return out;
}

/** One record the principal may see (404 otherwise). `lock` takes a row lock for a write in this transaction. */
export async function getRecord(
  ctx: Pick<EngineContext, 'db' | 'principal' | 'today'>,
  c: Compiled,
  id: number,
  options: { lock?: boolean; all?: boolean } = {},
): Promise<Row> {
  const p = new Params();
  const where = scopeWhere(c, ctx.principal, p.bind);
  // A write reads every stored column (the policy compares them); an answer only what the principal may read.
  const select = options.all
    ? writeColumns(c, p.bind, ctx.today)
    : selectList(c, ctx.principal, 'record', p.bind, ctx.today);
  // A read (not a write's locked read) may come from what the behaviour builds for this id (SourceBuilders).
  const built = options.lock ? undefined : c.behaviour.source?.record?.(id, p.bind);
  const [row] = await ctx.db.query(
    `select ${select} from ${built ? `${built} as ${c.table}` : c.table} where id = ${p.bind(id)} and ${where}${options.lock ? ' for update' : ''}`,
    p.values,
  );
  if (!row) throw notFound(c.decl.label.one);
  return row;
}

// Locked rows carry no computed fields: a name made of one reads as the resource's name and id ('Shift 5').
export const nameOf = (c: Compiled, r: Row) =>
  c.decl.recordRepresentation.replace(/%\{(\w+)\}/g, (_, k) => String(r[k] ?? '')).trim() ||
  `${c.decl.label.one} ${r.id}`;
