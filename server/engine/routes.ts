import type { FastifyInstance, FastifyRequest } from 'fastify';
import { containsPattern, TRIGRAM_MIN_LENGTH, type Queryable, type Row } from '../db/index.js';
import { badInput, forbidden, HttpError, notFound } from '../http.js';
import type { Action, FieldDeclaration, ResourceDeclaration } from '../../src/engine/types.js';
import { hasView, LIST_LIMITS } from '../../src/engine/types.js';
import { validateRecord, type CustomFieldDefinition, type Problems } from '../../src/engine/validate.js';
import { permits } from '../../src/resources/access.js';
import { toFieldErrors } from './messages.js';
import { TEXT_TYPES } from './ddl.js';

const JSON_TYPES = new Set(['address']);

/** Quotes an identifier that comes from a declaration (never from a request). */
const ident = (s: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`Bad identifier in declaration: ${s}`);
  return `"${s}"`;
};

interface Scope {
  merchantId: number;
}

/** Finds another compiled resource (a reference's target, the custom-field definitions). */
export type Lookup = (name: string) => Compiled;

/** Everything the engine derives from one declaration, computed once at start-up. */
export function compile(decl: ResourceDeclaration, lookup: Lookup, totals = new TotalCache()) {
  const table = ident(decl.table);
  const soft = decl.delete === 'soft';
  const fields = decl.fields;
  const writable = fields.filter((f) => !f.readOnly);
  const byField = new Map(fields.map((f) => [f.source, f]));
  const sortable = new Set(['id', 'created_at', ...fields.filter((f) => f.sortable).map((f) => f.source)]);
  const filterable = new Map(fields.filter((f) => f.filter).map((f) => [f.source, f]));
  const rangeable = new Map(fields.filter((f) => f.filter && ['date', 'datetime', 'number', 'money'].includes(f.type)).map((f) => [f.source, f]));
  const columns = ['id', ...fields.map((f) => f.source).filter((s) => s !== 'created_at'), ...(decl.customFields ? ['custom_fields'] : []), 'created_at', 'updated_at'];
  // Lists leave out uploads unless the list shows them: a page of staff must not carry 25 photos.
  const listColumns = columns.filter((c) => {
    const f = byField.get(c);
    return !f || !['image', 'file'].includes(f.type) || hasView(f, 'list');
  });
  const select = (cols: string[]) => cols.map(ident).join(', ');
  const live = soft ? ' and deleted_at is null' : '';
  return { decl, table, soft, fields, writable, byField, sortable, filterable, rangeable, columns, listColumns, select, live, lookup, totals };
}
export type Compiled = ReturnType<typeof compile>;

function sortExpression(c: Compiled, field: string) {
  const f = c.byField.get(field);
  return f && TEXT_TYPES.has(f.type) ? `lower(${ident(field)})` : ident(field);
}

function parseBool(value: string, field: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new HttpError(400, `Filter ${field} must be true or false.`, { [field]: 'Must be true or false' });
}

function filterValue(f: FieldDeclaration, raw: string): unknown {
  if (f.type === 'boolean') return parseBool(raw, f.source);
  if (f.type === 'reference' || f.type === 'number' || f.type === 'money') {
    const parts = raw.split(',').map((s) => Number(s));
    if (parts.some((n) => !Number.isInteger(n))) throw new HttpError(400, `Filter ${f.source} must be a number.`, { [f.source]: 'Must be a number' });
    return parts;
  }
  return raw.split(',');
}

/** Builds the WHERE clause of a list from the query string: declared filters only, everything as parameters. */
export function buildWhere(c: Compiled, scope: Scope, query: Record<string, string>) {
  const params: unknown[] = [scope.merchantId];
  const where = [`merchant_id = $1${c.live}`];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  const reserved = new Set(['page', 'per_page', 'sort', 'order', 'q', 'ids', 'id', 'tab']);
  const filters: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(query)) {
    if (reserved.has(rawKey) || value === undefined || value === '') continue;
    const key = c.decl.filterAliases?.[rawKey] ?? rawKey;
    filters[key] = String(value);
  }
  if (query.tab) {
    const tab = c.decl.tabs?.find((t) => t.id === query.tab);
    if (!tab) throw new HttpError(400, `Unknown list tab ${query.tab}.`, { tab: 'Unknown tab' });
    for (const [k, v] of Object.entries(tab.filter)) filters[k] ??= String(v);
  }
  for (const [key, value] of Object.entries(filters)) {
    const range = /^(.*)_(gte|lte)$/.exec(key);
    if (range && c.rangeable.has(range[1])) {
      const f = c.rangeable.get(range[1])!;
      const v = f.type === 'number' || f.type === 'money' ? Number(value) : value;
      if (typeof v === 'number' && !Number.isFinite(v)) throw new HttpError(400, `Filter ${key} must be a number.`, { [key]: 'Must be a number' });
      if (typeof v === 'string' && Number.isNaN(Date.parse(v))) throw new HttpError(400, `Filter ${key} must be a date.`, { [key]: 'Must be a date' });
      add((p) => `${ident(f.source)} ${range[2] === 'gte' ? '>=' : '<='} ${p}`, v);
      continue;
    }
    const f = c.filterable.get(key);
    if (!f) throw new HttpError(400, `Unknown filter ${key}.`, { [key]: 'Unknown filter' });
    const v = filterValue(f, value);
    if (Array.isArray(v) && v.length > 1) add((p) => `${ident(f.source)} = any(${p})`, v);
    else add((p) => `${ident(f.source)} = ${p}`, Array.isArray(v) ? v[0] : v);
  }
  const ids = query.ids ?? query.id;
  if (ids) {
    const list = String(ids).split(',').map(Number);
    if (list.some((n) => !Number.isInteger(n))) throw new HttpError(400, 'ids must be numbers.', { ids: 'Must be numbers' });
    add((p) => `id = any(${p})`, list);
  }
  const q = (query.q ?? '').trim().toLowerCase();
  if (q && c.decl.search?.length) add((p) => `search_text like ${p}`, containsPattern(q));
  return { where: where.join(' and '), params };
}

export function parsePaging(c: Compiled, query: Record<string, string>) {
  const page = query.page === undefined ? 1 : Number(query.page);
  const perPage = query.per_page === undefined ? LIST_LIMITS.defaultPerPage : Number(query.per_page);
  const errors: Record<string, string> = {};
  if (!Number.isInteger(page) || page < 1) errors.page = 'Must be a whole number from 1';
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > LIST_LIMITS.maxPerPage) errors.per_page = `Must be a whole number from 1 to ${LIST_LIMITS.maxPerPage}`;
  const sort = query.sort ?? c.decl.defaultSort.field;
  if (!c.sortable.has(sort)) errors.sort = `Cannot sort by ${sort}`;
  const order = (query.order ?? (query.sort ? 'asc' : c.decl.defaultSort.order)).toLowerCase();
  if (order !== 'asc' && order !== 'desc') errors.order = 'Must be asc or desc';
  if (Object.keys(errors).length) throw new HttpError(400, 'The list parameters are not valid.', errors);
  return { page, perPage, sort, order: order as 'asc' | 'desc' };
}

/**
 * List totals are cached per agency and filter, and dropped whenever the engine writes to that table for that
 * agency: counting 60,000 matching staff costs more than fetching the page. The short lifetime bounds how long
 * a write made outside the engine can go unseen.
 */
const TOTAL_TTL_MS = 10_000;
export class TotalCache {
  private totals = new Map<string, { n: number; until: number }>();
  private versions = new Map<string, number>();
  private version = (table: string, merchantId: number) => this.versions.get(`${table}|${merchantId}`) ?? 0;
  key(table: string, merchantId: number, where: string, params: unknown[]) {
    return `${table}|${merchantId}|${this.version(table, merchantId)}|${where}|${JSON.stringify(params)}`;
  }
  get(key: string) {
    const hit = this.totals.get(key);
    return hit && hit.until > Date.now() ? hit.n : undefined;
  }
  set(key: string, n: number) {
    if (this.totals.size > 5000) this.totals.clear();
    this.totals.set(key, { n, until: Date.now() + TOTAL_TTL_MS });
  }
  changed(table: string, merchantId: number) {
    this.versions.set(`${table}|${merchantId}`, this.version(table, merchantId) + 1);
  }
}

/** A search long enough for the trigram index is answered from it first, then sorted and paged. */
const searchesByTrigram = (query: Record<string, string>) => (query.q ?? '').trim().length >= TRIGRAM_MIN_LENGTH;

export async function listRecords(db: Queryable, c: Compiled, scope: Scope, query: Record<string, string>) {
  const { page, perPage, sort, order } = parsePaging(c, query);
  const { where, params } = buildWhere(c, scope, query);
  const orderBy = `${sortExpression(c, sort)} ${order}${sort === 'id' ? '' : `, id ${order}`}`;
  const window = `order by ${orderBy} limit ${perPage} offset ${(page - 1) * perPage}`;
  // Without the materialised match set the planner may walk the sort index and filter most of the table.
  const data = searchesByTrigram(query)
    ? await db.query(`with m as materialized (select ${c.select(c.listColumns)} from ${c.table} where ${where}) select * from m ${window}`, params)
    : await db.query(`select ${c.select(c.listColumns)} from ${c.table} where ${where} ${window}`, params);
  const key = c.totals.key(c.decl.table, scope.merchantId, where, params);
  let n = c.totals.get(key);
  if (n === undefined) {
    [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from ${c.table} where ${where}`, params);
    c.totals.set(key, n);
  }
  return { data, total_count: n, total_pages: Math.ceil(n / perPage), current_page: page, per_page: perPage };
}

export async function getRecord(db: Queryable, c: Compiled, scope: Scope, id: number): Promise<Row> {
  const [row] = await db.query(`select ${c.select(c.columns)} from ${c.table} where id = $2 and merchant_id = $1${c.live}`, [scope.merchantId, id]);
  if (!row) throw notFound(c.decl.label.one);
  return row;
}

async function customFieldsOf(db: Queryable, c: Compiled, scope: Scope): Promise<CustomFieldDefinition[]> {
  if (!c.decl.customFields) return [];
  const defs = c.lookup(c.decl.customFields);
  return db.query<CustomFieldDefinition & Row>(`select key, label, field_type, required, options from ${defs.table} where merchant_id = $1 order by position, id`, [scope.merchantId]);
}

/** Keeps only what a caller may write, trims text, and turns '' into null. */
function pickWritable(c: Compiled, body: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const f of c.writable) {
    if (!(f.source in body)) continue;
    let v = body[f.source];
    if (typeof v === 'string' && TEXT_TYPES.has(f.type)) v = v.trim();
    if (v === '') v = null;
    out[f.source] = v;
  }
  return out;
}

/** Validation the database has to answer: unique values and references inside the caller's agency. */
async function checkAgainstDatabase(db: Queryable, c: Compiled, scope: Scope, record: Record<string, unknown>, id?: number): Promise<Problems> {
  const problems: Problems = {};
  for (const f of c.fields) {
    const v = record[f.source];
    if (v == null || problems[f.source]) continue;
    if (f.unique) {
      const expr = TEXT_TYPES.has(f.type) ? `lower(${ident(f.source)}) = lower($2)` : `${ident(f.source)} = $2`;
      const [dup] = await db.query(`select 1 from ${c.table} where merchant_id = $1${c.live} and ${expr} and id <> $3 limit 1`, [scope.merchantId, v, id ?? 0]);
      if (dup) problems[f.source] = { message: 'engine.validation.unique' };
    }
    if ((f.type === 'reference' || f.type === 'references') && f.reference) {
      const target = c.lookup(f.reference);
      const ids = (Array.isArray(v) ? v : [v]).map(Number);
      if (ids.length === 0) continue;
      const found = await db.query(`select id from ${target.table} where merchant_id = $1${target.live} and id = any($2)`, [scope.merchantId, ids]);
      if (found.length !== new Set(ids).size) problems[f.source] = { message: 'engine.validation.referenceMissing' };
    }
  }
  return problems;
}

function normaliseCustom(defs: CustomFieldDefinition[], value: unknown) {
  const input = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  // Values of fields the agency has since removed are kept: nothing a user saved is lost.
  for (const [k, v] of Object.entries(input)) out[k] = v === '' ? null : v;
  for (const d of defs) if (d.field_type === 'number' && typeof out[d.key] === 'string' && out[d.key] !== '') out[d.key] = Number(out[d.key]);
  return out;
}

function toColumnValue(f: FieldDeclaration | undefined, v: unknown) {
  // An empty many-reference is an empty list, never NULL.
  if (f?.type === 'references') return v == null ? [] : (v as unknown[]).map(Number);
  if (f?.type === 'boolean' && v == null) return false;
  if (v == null) return null;
  if ((f && JSON_TYPES.has(f.type)) || !f) return JSON.stringify(v);
  if (f.type === 'reference') return Number(v);
  if (f.type === 'number' || f.type === 'money') return Number(v);
  return v;
}

export async function saveRecord(db: Queryable, c: Compiled, scope: Scope, body: Record<string, unknown>, id?: number): Promise<Row> {
  const existing = id === undefined ? undefined : await getRecord(db, c, scope, id);
  const changes = pickWritable(c, body);
  // An update merges into the stored record: a field the caller did not send keeps its value.
  const record: Record<string, unknown> = existing ? { ...existing, ...changes } : { ...defaultsOf(c), ...changes };
  const defs = await customFieldsOf(db, c, scope);
  if (c.decl.customFields) record.custom_fields = normaliseCustom(defs, 'custom_fields' in body ? { ...(existing?.custom_fields ?? {}), ...(body.custom_fields as object) } : existing?.custom_fields);
  const problems = validateRecord(c.decl, record, defs);
  Object.assign(problems, await checkAgainstDatabase(db, c, scope, record, id));
  if (Object.keys(problems).length) throw badInput(toFieldErrors(problems));

  const cols = [...c.writable.map((f) => f.source), ...(c.decl.customFields ? ['custom_fields'] : [])];
  const values = cols.map((col) => toColumnValue(c.byField.get(col), record[col]));
  if (existing) {
    const sets = cols.map((col, i) => `${ident(col)} = $${i + 3}`).join(', ');
    await db.query(`update ${c.table} set ${sets}, updated_at = now() where merchant_id = $1 and id = $2`, [scope.merchantId, id, ...values]);
    return getRecord(db, c, scope, id!);
  }
  const [row] = await db.query<{ id: number }>(
    `insert into ${c.table} (merchant_id, ${cols.map(ident).join(', ')}) values ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')}) returning id`,
    [scope.merchantId, ...values],
  );
  return getRecord(db, c, scope, row.id);
}

function defaultsOf(c: Compiled) {
  return Object.fromEntries(c.writable.filter((f) => f.defaultValue !== undefined).map((f) => [f.source, f.defaultValue]));
}

export async function deleteRecord(db: Queryable, c: Compiled, scope: Scope, id: number): Promise<Row> {
  const row = await getRecord(db, c, scope, id);
  if (c.soft) await db.query(`update ${c.table} set deleted_at = now() where merchant_id = $1 and id = $2`, [scope.merchantId, id]);
  else await db.query(`delete from ${c.table} where merchant_id = $1 and id = $2`, [scope.merchantId, id]);
  return row;
}

/** Compiles a set of declarations that refer to each other. */
export function compileAll(declarations: ResourceDeclaration[]): Map<string, Compiled> {
  const registry = new Map<string, Compiled>();
  const totals = new TotalCache();
  const lookup: Lookup = (name) => {
    const c = registry.get(name);
    if (!c) throw new Error(`No declaration named ${name}`);
    return c;
  };
  for (const d of declarations) registry.set(d.name, compile(d, lookup, totals));
  return registry;
}

function authorise(req: FastifyRequest, decl: ResourceDeclaration, action: Action): Scope {
  const user = req.auth!;
  if (!permits({ loginType: user.kind, role: user.role }, decl, action)) throw forbidden();
  return { merchantId: user.merchant_id };
}

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

/** The REST routes of one declared resource under /api/{name}. */
export async function resourceRoutes(app: FastifyInstance, c: Compiled) {
  const decl = c.decl;
  const base = `/api/${decl.name}`;
  const tags = [decl.label.many];
  const record = { type: 'object', additionalProperties: true } as const;
  // Once a write is committed, the agency's cached totals of this table are stale; a count computed before it
  // was stored under the old version and is never read again.
  const written = (scope: Scope) => c.totals.changed(decl.table, scope.merchantId);
  app.get(base, {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: `List ${decl.label.many.toLowerCase()}`,
      description: `Filters: ${[...c.filterable.keys(), ...Object.keys(decl.filterAliases ?? {})].join(', ') || 'none'}; q searches ${decl.search?.join(', ') ?? 'nothing'}; tab: ${(decl.tabs ?? []).map((t) => t.id).join(', ') || 'none'}; sort: ${[...c.sortable].join(', ')}.`,
      querystring: { type: 'object', additionalProperties: { type: 'string' } },
    },
    handler: async (req) => listRecords(app.db, c, authorise(req, decl, 'list'), req.query as Record<string, string>),
  });
  app.get<{ Params: { id: number } }>(`${base}/:id`, {
    config: { access: 'admin' },
    schema: { tags, summary: `One ${decl.label.one.toLowerCase()}`, params: idParams },
    handler: async (req) => ({ data: await getRecord(app.db, c, authorise(req, decl, 'show'), req.params.id) }),
  });
  app.post(base, {
    config: { access: 'admin' },
    schema: { tags, summary: `Create a ${decl.label.one.toLowerCase()}`, body: record },
    handler: async (req, reply) => {
      const scope = authorise(req, decl, 'create');
      const data = await app.db.transaction((tx) => saveRecord(tx, c, scope, req.body as Record<string, unknown>));
      written(scope);
      return reply.status(201).send({ data });
    },
  });
  app.put<{ Params: { id: number } }>(`${base}/:id`, {
    config: { access: 'admin' },
    schema: { tags, summary: `Update a ${decl.label.one.toLowerCase()}`, params: idParams, body: record },
    handler: async (req) => {
      const scope = authorise(req, decl, 'edit');
      const data = await app.db.transaction((tx) => saveRecord(tx, c, scope, req.body as Record<string, unknown>, req.params.id));
      written(scope);
      return { data };
    },
  });
  app.delete<{ Params: { id: number } }>(`${base}/:id`, {
    config: { access: 'admin' },
    schema: { tags, summary: `Delete a ${decl.label.one.toLowerCase()}`, params: idParams },
    handler: async (req) => {
      const scope = authorise(req, decl, 'delete');
      const data = await deleteRecord(app.db, c, scope, req.params.id);
      written(scope);
      return { data };
    },
  });
}

export async function engineRoutes(app: FastifyInstance, options: { declarations: ResourceDeclaration[] }) {
  const registry = compileAll(options.declarations);
  for (const c of registry.values()) await resourceRoutes(app, c);
}
