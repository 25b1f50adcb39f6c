import { containsPattern, TRIGRAM_MIN_LENGTH, type Row } from '../db/index.js';
import { badInput, HttpError, notFound } from '../http.js';
import type { ActionDeclaration, FieldDeclaration } from '../../src/engine/types.js';
import { LIST_LIMITS } from '../../src/engine/types.js';
import { checkField, validateRecord, validateCustomFieldsInput, type CustomFieldDefinition, type Problems } from '../../src/engine/validate.js';
import { resolveLimit, formatDate } from '../../src/engine/dates.js';
import { normaliseText } from '../../src/engine/text.js';
import { FILE_LIMIT_LABELS, fileKindOf } from '../../src/engine/files.js';
import { toFieldErrors } from './messages.js';
import { TEXT_TYPES } from './ddl.js';
import { fieldExpression, ident, Params, readable, scopeWhere, selectList, type Compiled } from './compile.js';
import type { EngineContext, EnginePrincipal } from './context.js';
import { audit, diff } from './audit.js';
import { checkFileRefs, attachFiles, filesNotOfKind } from '../files/store.js';
import { permits } from '../../src/resources/access.js';
import { hasView } from '../../src/engine/types.js';
import { addDaysToDate, DEFAULT_TIME_ZONE, isPlainDate, zonedDateTimeToInstant } from '../domain/time/agencyTime.js';

const JSON_TYPES = new Set(['address', 'json']);
/** Typed text is trimmed; a choice is not (" " is not an option, and must be refused, not cleared). */
const TRIMMED = new Set(['text', 'longtext', 'email', 'phone']);
/** Longest free-text search or filter value accepted. */
export const MAX_QUERY_VALUE = 200;
/** Deepest page a list serves: far beyond any screen, and keeps OFFSET within what the database accepts. */
const MAX_PAGE = 100_000;

const sortExpression = (c: Compiled, field: string, bind: (v: unknown) => string, today: string) => {
  const f = c.byField.get(field);
  if (!f) return ident(field);
  return TEXT_TYPES.has(f.type) && !f.computed ? `lower(${ident(field)})` : fieldExpression(c, f, bind, today);
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
    if (parts.some((n) => !Number.isSafeInteger(n) || Math.abs(n) > 2 ** 31 - 1)) throw new HttpError(400, `Filter ${f.source} must be a number.`, { [f.source]: 'Must be a number' });
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
function dayBound(raw: string, bound: 'gte' | 'lte', ctx: { today: string; timeZone?: string }): { op: string; value: string } | null {
  const day = dateFilterValue(raw, ctx.today);
  if (!isPlainDate(day)) return null;
  const tz = ctx.timeZone ?? DEFAULT_TIME_ZONE;
  if (bound === 'gte') return { op: '>=', value: zonedDateTimeToInstant(day, '00:00', tz).toISOString() };
  return { op: '<', value: zonedDateTimeToInstant(addDaysToDate(day, 1), '00:00', tz).toISOString() };
}

/** Builds the WHERE clause of a list from the query string: declared filters only, everything as parameters. */
export function buildWhere(c: Compiled, ctx: Pick<EngineContext, 'principal' | 'today'> & { timeZone?: string }, query: Record<string, string>, p = new Params()) {
  const where = [scopeWhere(c, ctx.principal, p.bind)];
  const reserved = new Set(['page', 'per_page', 'sort', 'order', 'q', 'ids', 'id', 'tab']);
  const filters: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(query)) {
    if (typeof value !== 'string') throw new HttpError(400, `Filter ${rawKey} is given more than once.`, { [rawKey]: 'Give one value' });
    if (value.length > MAX_QUERY_VALUE * 50) throw new HttpError(400, `Filter ${rawKey} is too long.`, { [rawKey]: 'Too long' });
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
      const day = f.type === 'datetime' ? dayBound(value, range[2] as 'gte' | 'lte', ctx) : null;
      if (day) {
        where.push(`${fieldExpression(c, f, p.bind, ctx.today)} ${day.op} ${p.bind(day.value)}`);
        continue;
      }
      const v = f.type === 'number' || f.type === 'money' ? Number(value) : f.type === 'date' ? dateFilterValue(value, ctx.today) : value;
      if (typeof v === 'number' && !Number.isFinite(v)) throw new HttpError(400, `Filter ${key} must be a number.`, { [key]: 'Must be a number' });
      if (typeof v === 'string' && (!/^\d{4}-\d\d-\d\d/.test(v) || Number.isNaN(Date.parse(v)))) throw new HttpError(400, `Filter ${key} must be a date.`, { [key]: 'Must be a date' });
      where.push(`${fieldExpression(c, f, p.bind, ctx.today)} ${range[2] === 'gte' ? '>=' : '<='} ${p.bind(v)}`);
      continue;
    }
    const f = c.filterable.get(key);
    if (!f || !readable(ctx.principal, f)) throw new HttpError(400, `Unknown filter ${key}.`, { [key]: 'Unknown filter' });
    const custom = c.behaviour.computedFilters?.[f.source];
    if (custom) {
      const values = value.split(',');
      if (f.choices && values.some((x) => !f.choices!.some((ch) => ch.id === x))) throw new HttpError(400, `Filter ${key} must be one of the listed options.`, { [key]: 'Unknown option' });
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
    if (list.length > 1000 || list.some((n) => !Number.isSafeInteger(n) || n < 1 || n > 2 ** 31 - 1)) throw new HttpError(400, 'ids must be numbers.', { ids: 'Must be numbers' });
    where.push(`id = any(${p.bind(list)})`);
  }
  const q = (query.q ?? '').trim().toLowerCase();
  if (q.length > MAX_QUERY_VALUE) throw new HttpError(400, `The search is too long (at most ${MAX_QUERY_VALUE} characters).`, { q: `At most ${MAX_QUERY_VALUE} characters` });
  if (q && c.decl.search?.length) where.push(`search_text like ${p.bind(containsPattern(q))}`);
  return { where: where.join(' and '), params: p };
}

export function parsePaging(c: Compiled, principal: EnginePrincipal, query: Record<string, string>) {
  const page = query.page === undefined ? 1 : Number(query.page);
  const perPage = query.per_page === undefined ? LIST_LIMITS.defaultPerPage : Number(query.per_page);
  const errors: Record<string, string> = {};
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) errors.page = `Must be a whole number from 1 to ${MAX_PAGE}`;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > LIST_LIMITS.maxPerPage) errors.per_page = `Must be a whole number from 1 to ${LIST_LIMITS.maxPerPage}`;
  const sort = query.sort ?? c.decl.defaultSort.field;
  const sortField = c.byField.get(sort);
  if (!c.sortable.has(sort) || (sortField && !readable(principal, sortField))) errors.sort = `Cannot sort by ${String(sort).slice(0, 60)}`;
  const order = String(query.order ?? (query.sort ? 'asc' : c.decl.defaultSort.order)).toLowerCase();
  if (order !== 'asc' && order !== 'desc') errors.order = 'Must be asc or desc';
  if (Object.keys(errors).length) throw new HttpError(400, 'The list parameters are not valid.', errors);
  return { page, perPage, sort, order: order as 'asc' | 'desc' };
}

/** A search long enough for the trigram index is answered from it first, then sorted and paged. */
const searchesByTrigram = (query: Record<string, string>) => (query.q ?? '').trim().length >= TRIGRAM_MIN_LENGTH;

export async function listRecords(ctx: EngineContext, c: Compiled, query: Record<string, string>) {
  const { page, perPage, sort, order } = parsePaging(c, ctx.principal, query);
  const { where, params } = buildWhere(c, ctx, query);
  // Select-list parameters (a computed field's today) come after the WHERE ones; both share one list.
  const countParams = [...params.values];
  const select = selectList(c, ctx.principal, 'list', params.bind, ctx.today);
  const window = (sortBy: string) => `order by ${sortBy} ${order}${sort === 'id' ? '' : `, id ${order}`} limit ${perPage} offset ${(page - 1) * perPage}`;
  const sortField = c.byField.get(sort);
  // Without the materialised match set the planner may walk the sort index and filter most of the table.
  // Outside it, a computed field is sorted by its selected column.
  const data = searchesByTrigram(query)
    ? await ctx.db.query(`with m as materialized (select ${select} from ${c.table} where ${where}) select * from m ${window(sortField && TEXT_TYPES.has(sortField.type) && !sortField.computed ? `lower(${ident(sort)})` : ident(sort))}`, params.values)
    : await ctx.db.query(`select ${select} from ${c.table} where ${where} ${window(sortExpression(c, sort, params.bind, ctx.today))}`, params.values);
  const merchantId = ctx.principal.merchantId;
  const key = c.totals.key(c.decl.table, merchantId, where, countParams);
  let n = c.totals.get(key);
  if (n === undefined) {
    [{ n }] = await ctx.db.query<{ n: number }>(`select count(*)::int as n from ${c.table} where ${where}`, countParams);
    c.totals.set(key, n);
  }
  const references = await listReferences(ctx, c, data);
  return { data, total_count: n, total_pages: Math.ceil(n / perPage), current_page: page, per_page: perPage, references };
}

/**
 * The records a list page refers to, by target resource: { job_roles: [{ id: 3, name: 'Registered Nurse', … }] }.
 * A list page then renders whole in one round trip (the screen would otherwise ask getMany of each target after
 * the rows arrive). Only reference fields the list shows and the principal may read, and only targets the
 * principal may list; each target is read as its own list would answer it (same row scope and select list),
 * so this never shows more than a getMany of those ids would.
 */
export async function listReferences(ctx: EngineContext, c: Compiled, rows: Row[]): Promise<Record<string, Row[]>> {
  const wanted = new Map<string, Set<number>>();
  for (const f of c.stored) {
    if ((f.type !== 'reference' && f.type !== 'references') || !f.reference || !hasView(f, 'list') || !readable(ctx.principal, f)) continue;
    const target = c.lookup(f.reference);
    if (!permits(ctx.principal, target.decl, 'list')) continue;
    const ids = wanted.get(f.reference) ?? new Set<number>();
    for (const r of rows) for (const id of Array.isArray(r[f.source]) ? r[f.source] : [r[f.source]]) if (id != null) ids.add(Number(id));
    wanted.set(f.reference, ids);
  }
  const out: Record<string, Row[]> = {};
  for (const [name, ids] of wanted) {
    if (ids.size === 0) continue;
    const target = c.lookup(name);
    const p = new Params();
    const where = scopeWhere(target, ctx.principal, p.bind);
    const list = p.bind([...ids]);
    out[name] = await ctx.db.query(`select ${selectList(target, ctx.principal, 'list', p.bind, ctx.today)} from ${target.table} where ${where} and id = any(${list}) order by id`, p.values);
  }
  return out;
}

/** One record the principal may see (404 otherwise). `lock` takes a row lock for a write in this transaction. */
export async function getRecord(ctx: Pick<EngineContext, 'db' | 'principal' | 'today'>, c: Compiled, id: number, options: { lock?: boolean; all?: boolean } = {}): Promise<Row> {
  const p = new Params();
  const where = scopeWhere(c, ctx.principal, p.bind);
  // A write reads every stored column (the policy compares them); an answer only what the principal may read.
  const select = options.all ? c.storedColumns.map(ident).join(', ') : selectList(c, ctx.principal, 'record', p.bind, ctx.today);
  const [row] = await ctx.db.query(`select ${select} from ${c.table} where id = ${p.bind(id)} and ${where}${options.lock ? ' for update' : ''}`, p.values);
  if (!row) throw notFound(c.decl.label.one);
  return row;
}

/**
 * The agency's custom field definitions, kept until a write to their table (by any process: the same signal
 * that drops cached list totals) or for at most the totals' lifetime; every staff write needs them.
 */
const definitions = new Map<string, { version: number; until: number; defs: CustomFieldDefinition[] }>();
/** Every cached definition forgotten: for test files that share one process but each have their own database. */
export const forgetCustomFieldDefinitions = () => definitions.clear();
async function customFieldsOf(ctx: EngineContext, c: Compiled): Promise<CustomFieldDefinition[]> {
  if (!c.decl.customFields) return [];
  const defs = c.lookup(c.decl.customFields);
  const merchantId = ctx.principal.merchantId;
  const key = `${defs.decl.table}|${merchantId}`;
  const version = c.totals.versionOf(defs.decl.table, merchantId);
  const hit = definitions.get(key);
  if (hit && hit.version === version && hit.until > Date.now()) return hit.defs;
  const rows = await ctx.db.query<CustomFieldDefinition & Row>(`select key, label, field_type, required, options from ${defs.table} where merchant_id = $1 order by position, id`, [merchantId]);
  if (definitions.size > 1000) definitions.clear();
  definitions.set(key, { version, until: Date.now() + 10_000, defs: rows });
  return rows;
}

/** A value as the database will hold it, for comparing what a caller sends with what is stored. */
function canonical(f: FieldDeclaration, v: unknown): unknown {
  if (v === undefined || v === null || v === '') return null;
  switch (f.type) {
    case 'reference':
    case 'number':
    case 'money':
      return typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    case 'references':
      return Array.isArray(v) ? v.map(Number).sort((a, b) => a - b) : v;
    case 'address': {
      if (typeof v !== 'object') return v;
      const a = v as Record<string, unknown>;
      return Object.fromEntries(['line1', 'line2', 'city', 'postcode', 'country'].map((k) => [k, a[k] === '' || a[k] === undefined ? null : a[k]]));
    }
    default:
      return typeof v === 'string' && TRIMMED.has(f.type) ? normaliseText(v) : v;
  }
}

/** Typed text as it is stored: trimmed and in NFC, the parts of an address too. Anything else as sent. */
function normalised(f: FieldDeclaration, v: unknown): unknown {
  if (typeof v === 'string' && TRIMMED.has(f.type)) return normaliseText(v);
  if (f.type === 'address' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
    return Object.fromEntries(Object.entries(v).map(([k, part]) => [k, typeof part === 'string' ? part.normalize('NFC') : part]));
  }
  return v;
}
const sameValue = (f: FieldDeclaration, a: unknown, b: unknown) => JSON.stringify(canonical(f, a)) === JSON.stringify(canonical(f, b));

const defaultOf = (f: FieldDeclaration) => (f.defaultValue !== undefined ? f.defaultValue : f.type === 'boolean' ? false : f.type === 'references' ? [] : null);

/**
 * The field write policy. A caller may send a field back unchanged (forms send whole records); changing a
 * field that only actions change, a create-only field after creation, or a field their role may not write
 * is refused, naming the field. Read-only fields are filled by the server and ignored.
 */
function applyWritePolicy(c: Compiled, principal: EnginePrincipal, body: Record<string, unknown>, stored?: Row) {
  const changes: Record<string, unknown> = {};
  const problems: Problems = {};
  for (const f of c.writable) {
    if (!Object.prototype.hasOwnProperty.call(body, f.source)) continue;
    let v = normalised(f, body[f.source]);
    if (v === '') v = null;
    const current = stored ? stored[f.source] : defaultOf(f);
    if (sameValue(f, v, current)) {
      if (!stored) changes[f.source] = v;
      continue;
    }
    if (f.actionOnly) problems[f.source] = { message: 'engine.policy.actionOnly' };
    else if (f.createOnly && stored) problems[f.source] = { message: 'engine.policy.createOnly' };
    else if ((f.writableBy && !f.writableBy.includes(principal.role)) || !readable(principal, f)) problems[f.source] = { message: 'engine.policy.role' };
    else changes[f.source] = v;
  }
  return { changes, problems };
}

/** Validation the database has to answer: unique values, references inside the caller's scope, stored files. */
async function checkAgainstDatabase(ctx: EngineContext, c: Compiled, record: Record<string, unknown>, known: Problems, id?: number): Promise<Problems> {
  const problems: Problems = {};
  const merchantId = ctx.principal.merchantId;
  for (const f of c.stored) {
    const v = record[f.source];
    // A value that already failed validation never reaches a query.
    if (v == null || known[f.source] || f.readOnly) continue;
    if (f.unique) {
      const expr = TEXT_TYPES.has(f.type) ? `lower(${ident(f.source)}) = lower($2)` : `${ident(f.source)} = $2`;
      const [dup] = await ctx.db.query(`select 1 from ${c.table} where merchant_id = $1${c.live} and ${expr} and id <> $3 limit 1`, [merchantId, v, id ?? 0]);
      if (dup) problems[f.source] = { message: 'engine.validation.unique' };
    }
    if ((f.type === 'reference' || f.type === 'references') && f.reference) {
      const target = c.lookup(f.reference);
      const ids = [...new Set((Array.isArray(v) ? v : [v]).map(Number))];
      if (ids.length === 0) continue;
      const p = new Params();
      // A client user may point only at rows of their own client (a site of another client does not exist for them).
      const scoped = target.decl.clientScope ? scopeWhere(target, ctx.principal, p.bind) : `merchant_id = ${p.bind(merchantId)}${target.live}`;
      const found = await ctx.db.query(`select id from ${target.table} where ${scoped} and id = any(${p.bind(ids)})`, p.values);
      if (found.length !== ids.length) problems[f.source] = { message: 'engine.validation.referenceMissing' };
    }
    if (f.type === 'image' || f.type === 'file') {
      const bad = await checkFileRefs(ctx.db, merchantId, ctx.principal.userId, [String(v)], id === undefined ? undefined : { resource: c.decl.name, id });
      if (bad.length) {
        problems[f.source] = { message: 'engine.validation.file' };
        continue;
      }
      const kind = f.file?.kind ?? fileKindOf(f.type);
      const [wrong] = await filesNotOfKind(ctx.db, merchantId, [String(v)], kind);
      if (wrong?.problem === 'type') problems[f.source] = { message: kind === 'image' ? 'engine.validation.image' : 'engine.validation.fileType' };
      else if (wrong?.problem === 'size') problems[f.source] = { message: 'engine.validation.fileSize', args: { max: FILE_LIMIT_LABELS[kind] } };
    }
  }
  return problems;
}

function toColumnValue(f: FieldDeclaration | undefined, v: unknown) {
  // An empty many-reference is an empty list, never NULL.
  if (f?.type === 'references') return v == null ? [] : (v as unknown[]).map(Number);
  if (f?.type === 'boolean' && v == null) return false;
  if (v == null) return null;
  if ((f && JSON_TYPES.has(f.type)) || !f) return JSON.stringify(v);
  if (f.type === 'reference' || f.type === 'number' || f.type === 'money') return Number(v);
  return v;
}

function refuse(problems: Problems) {
  if (Object.keys(problems).length) throw badInput(toFieldErrors(problems));
}

const stale = (c: Compiled) =>
  new HttpError(409, `This ${c.decl.label.one.toLowerCase()} was changed by someone else while you were editing it. Reload it to see their changes, then make yours again.`, { version: 'Changed meanwhile' });

/**
 * Stores a change the caller is allowed to make (policy already applied): validates the merged record, asks
 * the database, runs the hooks, writes, audits. Creates when `stored` is undefined.
 */
async function store(ctx: EngineContext, c: Compiled, stored: Row | undefined, changes: Record<string, unknown>, e: { customInput?: unknown; action?: string; input?: unknown; problems?: Problems }): Promise<Row> {
  const storable = c.stored.filter((f) => f.source !== 'created_at');
  const record: Record<string, any> = stored ? { ...stored, ...changes } : { ...Object.fromEntries(storable.map((f) => [f.source, defaultOf(f)])), ...changes };
  const problems: Problems = { ...e.problems };
  const defs = await customFieldsOf(ctx, c);
  if (c.decl.customFields) {
    if (e.customInput !== undefined) {
      const custom = validateCustomFieldsInput(defs, e.customInput, stored?.custom_fields ?? {}, ctx.today);
      Object.assign(problems, custom.problems);
      record.custom_fields = custom.merged;
    } else record.custom_fields = stored?.custom_fields ?? {};
  }
  const valid = validateRecord(c.decl, record, defs, ctx.today);
  for (const [k, v] of Object.entries(valid)) problems[k] ??= v;
  // A field the caller did not touch keeps its stored value; only fields this write sets are checked again.
  const touched = stored ? Object.fromEntries(Object.keys(changes).map((k) => [k, record[k]])) : record;
  Object.assign(problems, await checkAgainstDatabase(ctx, c, touched, problems, stored?.id));
  refuse(problems);
  // The hook may refuse, or fill fields the server sets (who recorded it, a default expiry) on `record`.
  const hookProblems = await c.behaviour.beforeSave?.(ctx, { stored, changes, record, action: e.action });
  if (hookProblems) refuse(hookProblems);

  const merchantId = ctx.principal.merchantId;
  const cols = [...storable.map((f) => f.source), ...(c.decl.customFields ? ['custom_fields'] : [])];
  // The written row comes back with the statement (every stored column, and the computed ones): no re-read.
  const values: unknown[] = [merchantId];
  const bind = (v: unknown) => `$${values.push(v)}`;
  const returning = () => [c.storedColumns.map(ident).join(', '), ...c.computed.map((f) => `(${c.behaviour.computed![f.source](bind, { today: ctx.today })}) as ${ident(f.source)}`)].join(', ');
  let full: Row;
  if (stored) {
    const changed = cols.filter((col) => (col === 'custom_fields' ? JSON.stringify(record.custom_fields) !== JSON.stringify(stored.custom_fields) : !sameValue(c.byField.get(col)!, record[col], stored[col])));
    if (changed.length === 0 && !e.action) return getRecord(ctx, c, stored.id);
    const sets = changed.map((col) => `${ident(col)} = ${bind(toColumnValue(c.byField.get(col), record[col]))}`);
    [full] = await ctx.db.query(`update ${c.table} set ${[...sets, 'updated_at = now()', 'version = version + 1'].join(', ')} where merchant_id = $1 and id = ${bind(stored.id)} returning ${returning()}`, values);
  } else {
    const placeholders = cols.map((col) => bind(toColumnValue(c.byField.get(col), record[col])));
    [full] = await ctx.db.query(`insert into ${c.table} (merchant_id, ${cols.map(ident).join(', ')}) values ($1, ${placeholders.join(', ')}) returning ${returning()}`, values);
  }
  const id: number = full.id;
  const fileFields = c.stored.filter((f) => (f.type === 'image' || f.type === 'file') && full[f.source] && full[f.source] !== stored?.[f.source]);
  for (const f of fileFields) {
    // Another record took the file first (two saves with one upload): refused, and the write rolls back.
    const taken = await attachFiles(ctx.db, merchantId, c.decl.name, id, f.source, [String(full[f.source])]);
    if (taken.length) refuse({ [f.source]: { message: 'engine.validation.file' } });
  }
  await audit(ctx, c, id, e.action ? 'action' : stored ? 'update' : 'create', { record: full, changes: diff(c, stored, full), action: e.action, input: e.input });
  const changedItself = await c.behaviour.afterSave?.(ctx, { stored, changes, record, action: e.action, row: full });
  // A client user's answer is read through their scope: a row written outside it is refused (and rolled back).
  // An agency user's scope is their agency, which a write cannot change; a hook that changed the row is re-read.
  if (changedItself || ctx.principal.loginType !== 'admin') return getRecord(ctx, c, id);
  return visibleTo(c, ctx.principal, full);
}

/** The columns of a full row the principal may receive (as getRecord would select them). */
function visibleTo(c: Compiled, principal: EnginePrincipal, row: Row): Row {
  const out: Row = {};
  for (const col of [...c.storedColumns, ...c.computed.map((f) => f.source)]) {
    const f = c.byField.get(col);
    if (!f || readable(principal, f)) out[col] = row[col];
  }
  return out;
}

/** POST (no id) or PUT: the caller's write, under the write policy and, when a version is sent, the version check. */
export async function saveRecord(ctx: EngineContext, c: Compiled, body: Record<string, unknown>, id?: number): Promise<Row> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badInput({ _: 'Send the record as a JSON object' });
  const stored = id === undefined ? undefined : await getRecord(ctx, c, id, { lock: true, all: true });
  if (stored && body.version !== undefined && body.version !== null && Number(body.version) !== Number(stored.version)) throw stale(c);
  const { changes, problems } = applyWritePolicy(c, ctx.principal, body, stored);
  const customInput = c.decl.customFields && Object.prototype.hasOwnProperty.call(body, 'custom_fields') ? body.custom_fields : undefined;
  return store(ctx, c, stored, changes, { customInput, problems });
}

/**
 * Deletes (or, for soft resources, hides) a record, keeping the database whole: live rows that depend on it
 * refuse the delete in words (a staff member's future shifts), children follow the parent's rule (refuse while
 * they exist, or hidden with it), and references to it are refused, removed or kept as each referring field
 * declares. Every row this changes besides the record itself takes a new version and its own audit entry; the
 * record's entry keeps what it held.
 */
export async function deleteRecord(ctx: EngineContext, c: Compiled, id: number, registry: Map<string, Compiled>): Promise<Row> {
  const row = await getRecord(ctx, c, id, { lock: true, all: true });
  const merchantId = ctx.principal.merchantId;
  await refuseWhileBlocked(ctx, c, id, registry);
  const hidden: Record<string, number> = {};
  // Why a row that refers to the record changed, in its own history.
  const deletedWith = `${nameOf(c, row)} (${c.decl.label.one.toLowerCase()} ${id}) was deleted`;
  for (const other of registry.values()) {
    for (const f of other.stored) {
      if ((f.type !== 'reference' && f.type !== 'references') || f.reference !== c.decl.name) continue;
      const match = f.type === 'references' ? `${ident(f.source)} @> array[$2]::integer[]` : `${ident(f.source)} = $2`;
      const isParent = other.decl.parent?.resource === c.decl.name && other.decl.parent.field === f.source;
      const mode = isParent ? (other.decl.parent!.onDelete === 'hide' ? 'hide' : 'refuse') : (f.onDelete ?? (c.soft ? 'keep' : 'refuse'));
      if (mode === 'keep') continue;
      if (mode === 'refuse') {
        const [{ n }] = await ctx.db.query<{ n: number }>(`select count(*)::int as n from ${other.table} where merchant_id = $1${other.live} and ${match}`, [merchantId, id]);
        if (n > 0) {
          const what = n === 1 ? other.decl.label.one.toLowerCase() : `${n} ${other.decl.label.many.toLowerCase()}`;
          throw new HttpError(409, `This ${c.decl.label.one.toLowerCase()} is in use by ${what}. Remove ${n === 1 ? 'it' : 'them'} first.`);
        }
        continue;
      }
      const columns = other.storedColumns.map(ident).join(', ');
      // Each touched row is read (and locked) first: its audit entry says what it held.
      const rows = await ctx.db.query(`select ${columns} from ${other.table} where merchant_id = $1${other.live} and ${match} order by id for update`, [merchantId, id]);
      if (rows.length === 0) continue;
      const ids = rows.map((r) => r.id);
      ctx.touched?.add(other.decl.table);
      if (mode === 'hide') {
        if (other.soft) await ctx.db.query(`update ${other.table} set deleted_at = now(), version = version + 1, updated_at = now() where merchant_id = $1 and id = any($2)`, [merchantId, ids]);
        else await ctx.db.query(`delete from ${other.table} where merchant_id = $1 and id = any($2)`, [merchantId, ids]);
        hidden[other.decl.name] = rows.length;
        for (const r of rows) await audit(ctx, other, r.id, 'delete', { record: r, changes: diff(other, r, {}), input: { reason: deletedWith } });
        continue;
      }
      const set = f.type === 'references' ? `array_remove(${ident(f.source)}, $3)` : 'null';
      const after = await ctx.db.query(`update ${other.table} set ${ident(f.source)} = ${set}, version = version + 1, updated_at = now() where merchant_id = $1 and id = any($2) returning id, ${ident(f.source)}`, [merchantId, ids, id]);
      const now = new Map(after.map((r) => [r.id, r[f.source]]));
      for (const r of rows) await audit(ctx, other, r.id, 'update', { record: r, changes: { [f.source]: { from: r[f.source], to: now.get(r.id) ?? null } }, input: { reason: deletedWith } });
    }
  }
  if (c.soft) await ctx.db.query(`update ${c.table} set deleted_at = now(), version = version + 1 where merchant_id = $1 and id = $2`, [merchantId, id]);
  else await ctx.db.query(`delete from ${c.table} where merchant_id = $1 and id = $2`, [merchantId, id]);
  await audit(ctx, c, id, 'delete', { record: row, changes: diff(c, row, {}), input: Object.keys(hidden).length ? { hidden } : undefined });
  await c.behaviour.afterDelete?.(ctx, row);
  return row;
}

/** How many blocking rows a refusal names; the rest are counted. */
const BLOCKERS_LISTED = 3;

/** Refuses (409) the delete while live rows declared as blockers (a staff member's future shifts) refer to the record. */
async function refuseWhileBlocked(ctx: EngineContext, c: Compiled, id: number, registry: Map<string, Compiled>) {
  const reasons: string[] = [];
  const errors: Record<string, string> = {};
  for (const other of registry.values()) {
    for (const [field, blocker] of Object.entries(other.behaviour.deleteBlockers ?? {})) {
      const f = other.byField.get(field);
      if (!f || f.reference !== c.decl.name) continue;
      const p = new Params();
      const match = f.type === 'references' ? `${ident(field)} @> array[${p.bind(id)}]::integer[]` : `${ident(field)} = ${p.bind(id)}`;
      const where = `merchant_id = ${p.bind(ctx.principal.merchantId)}${other.live} and ${match} and (${blocker.where})`;
      const [{ n }] = await ctx.db.query<{ n: number }>(`select count(*)::int as n from ${other.table} where ${where}`, p.values);
      if (n === 0) continue;
      const sortBy = other.byField.get(other.decl.defaultSort.field)?.computed ? 'id' : ident(other.decl.defaultSort.field);
      const first = await ctx.db.query(`select ${selectList(other, ctx.principal, 'record', p.bind, ctx.today)} from ${other.table} where ${where} order by ${sortBy} ${other.decl.defaultSort.order}, id limit ${BLOCKERS_LISTED}`, p.values);
      const list = first.map((r) => nameOf(other, r)).join('; ') + (n > first.length ? `; and ${n - first.length} more` : '');
      reasons.push(`${blocker.describe(n)} (${list}). ${blocker.advice}`);
      errors[other.decl.name] = list;
    }
  }
  if (reasons.length) throw new HttpError(409, `This ${c.decl.label.one.toLowerCase()} cannot be deleted yet: ${reasons.join(' ')}`, errors);
}

/** The action's input: only its declared fields, validated like fields. */
function actionInput(ctx: EngineContext, action: ActionDeclaration, body: Record<string, unknown>) {
  const input: Record<string, unknown> = {};
  const problems: Problems = {};
  for (const f of action.input ?? []) {
    let v = normalised(f, body?.[f.source]);
    if (v === '' || v === undefined) v = null;
    const p = checkField(f, v, ctx.today);
    if (p) problems[f.source] = p;
    else input[f.source] = v;
  }
  refuse(problems);
  return input;
}

// Locked rows carry no computed fields: a name made of one reads as the resource's name and id ('Shift 5').
const nameOf = (c: Compiled, r: Row) => c.decl.recordRepresentation.replace(/%\{(\w+)\}/g, (_, k) => String(r[k] ?? '')).trim() || `${c.decl.label.one} ${r.id}`;

/**
 * Runs an action on one or more records, all or nothing: the rows are locked, every guard must allow it, then
 * each record takes the declared patch and the server effect through the same write path as any change
 * (validation, hooks, audit with the action and its input).
 */
export async function runAction(ctx: EngineContext, c: Compiled, action: ActionDeclaration, ids: number[], body: Record<string, unknown>): Promise<Row[]> {
  const input = actionInput(ctx, action, body);
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const p = new Params();
  const where = scopeWhere(c, ctx.principal, p.bind);
  // Locked in id order, so two bulk runs over overlapping rows cannot deadlock.
  const rows = await ctx.db.query(`select ${c.storedColumns.map(ident).join(', ')} from ${c.table} where id = any(${p.bind(unique)}) and ${where} order by id for update`, p.values);
  if (rows.length !== unique.length) {
    if (unique.length === 1) throw notFound(c.decl.label.one);
    throw new HttpError(404, `${unique.length - rows.length} of the ${unique.length} selected ${c.decl.label.many.toLowerCase()} no longer exist. Reload the list and try again.`);
  }
  const refused = rows.map((r) => ({ r, why: action.guard?.(r) ?? null })).filter((x) => x.why);
  if (refused.length) {
    const reason = (key: string) => toFieldErrors({ x: { message: key } }).x;
    if (rows.length === 1) throw new HttpError(409, reason(refused[0].why!));
    const list = refused.slice(0, 5).map((x) => `${nameOf(c, x.r)}: ${reason(x.why!)}`).join('; ');
    throw new HttpError(409, `${refused.length} of the ${rows.length} selected ${c.decl.label.many.toLowerCase()} cannot be changed, so nothing was changed. ${list}${refused.length > 5 ? '; …' : ''}`, Object.fromEntries(refused.map((x) => [String(x.r.id), reason(x.why!)])));
  }
  const out: Row[] = [];
  for (const stored of rows) {
    const patch = { ...action.patch?.(stored, input), ...((await c.behaviour.actions?.[action.name]?.(ctx, stored, input)) ?? {}) };
    out.push(await store(ctx, c, stored, patch, { action: action.name, input }));
  }
  return out;
}
