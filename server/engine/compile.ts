import type { FieldDeclaration, ResourceDeclaration } from '../../core/engine/types.js';
import { hasView } from '../../core/engine/types.js';
import { canRead } from '../../core/resources/access.js';
import { deletionOf, lifecycleProblems } from '../../core/engine/lifecycle.js';
import type { Queryable, Row } from '../db/index.js';
import { unitPathOf } from '../../core/engine/unitScope.js';
import type { EnginePrincipal, ResourceBehaviour } from './context.js';
import { TotalCache } from './totals.js';

/** Quotes an identifier that comes from a declaration (never from a request). */
export const ident = (s: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`Bad identifier in declaration: ${s}`);
  return `"${s}"`;
};

/** Finds another compiled resource (a reference's target, the custom-field definitions, children). */
export type Lookup = (name: string) => Compiled;

/** Binds query parameters in order: `bind(value)` answers its placeholder ($n). */
export class Params {
  values: unknown[] = [];
  bind = (value: unknown) => {
    this.values.push(value);
    return `$${this.values.length}`;
  };
}

/** Everything the engine derives from one declaration, computed once at start-up. */
export function compile(
  decl: ResourceDeclaration,
  lookup: Lookup,
  totals: TotalCache,
  behaviour: ResourceBehaviour = {},
) {
  const table = ident(decl.table);
  // A declaration's mistakes (an unknown state or field, an action named like a CRUD permission) fail at start-up.
  const problems = lifecycleProblems(decl);
  for (const u of decl.uniqueTogether ?? [])
    for (const f of [...u.fields, ...(u.field ? [u.field] : [])])
      if (!decl.fields.some((x) => x.source === f && !x.computed))
        problems.push(`${decl.name}.uniqueTogether names ${f}, which is not a stored field`);
  const numbered = decl.numbering && decl.fields.find((x) => x.source === decl.numbering!.field);
  if (decl.numbering && (!numbered || (!numbered.readOnly && !decl.numbering.whenEmpty) || numbered.computed))
    problems.push(`${decl.name}.numbering.field must be a stored field, readOnly unless numbered whenEmpty`);
  const at = decl.numbering?.at;
  if (at && at !== 'create' && !decl.lifecycle?.transitions.some((t) => t.action === at))
    problems.push(`${decl.name}.numbering.at names ${at}, which is no transition of its lifecycle`);
  for (const d of decl.documents ?? [])
    if (
      d.keptFrom &&
      d.keptFrom !== 'create' &&
      !decl.lifecycle?.transitions.some((t) => t.action === d.keptFrom && t.to !== undefined)
    )
      problems.push(`${decl.name}.documents ${d.template}: keptFrom ${d.keptFrom} is no transition to a state`);
  for (const d of decl.documents ?? [])
    if (d.keptForStaff && (!d.keptFrom || !decl.staffScope))
      problems.push(`${decl.name}.documents ${d.template}: keptForStaff needs keptFrom and the resource's staffScope`);
  for (const f of decl.effectiveDated
    ? [...decl.effectiveDated.key, decl.effectiveDated.from, decl.effectiveDated.to]
    : [])
    if (!decl.fields.some((x) => x.source === f && !x.computed))
      problems.push(`${decl.name}.effectiveDated names ${f}, which is not a stored field`);
  for (const f of decl.fields) {
    if (f.referenceWhere && f.type !== 'reference')
      problems.push(`${decl.name}.${f.source}.referenceWhere needs a reference`);
    if (f.within && (f.type !== 'reference' || !decl.fields.some((x) => x.source === f.within!.field)))
      problems.push(`${decl.name}.${f.source}.within needs a reference and a field ${f.within.field}`);
  }
  for (const f of decl.listData ?? [])
    if (!decl.fields.some((x) => x.source === f))
      problems.push(`${decl.name}.listData names ${f}, which is not a field`);
  for (const f of decl.listTotals ?? [])
    if (!decl.fields.some((x) => x.source === f && (x.type === 'money' || x.type === 'number')))
      problems.push(`${decl.name}.listTotals names ${f}, which is not a money or number field`);
  if (problems.length) throw new Error(problems.join('; '));
  const deletion = deletionOf(decl);
  const soft = deletion.mode === 'soft';
  for (const f of [deletion.by, typeof deletion.reason === 'string' ? deletion.reason : undefined])
    if (f && !decl.fields.some((x) => x.source === f))
      throw new Error(`${decl.name}.delete names ${f}, which is not a field`);
  const fields = decl.fields;
  const stored = fields.filter((f) => !f.computed);
  const computed = fields.filter((f) => f.computed);
  for (const f of computed)
    if (!behaviour.computed?.[f.source])
      throw new Error(`${decl.name}.${f.source} is computed but its server behaviour gives no expression`);
  const writable = stored.filter((f) => !f.readOnly);
  const byField = new Map(fields.map((f) => [f.source, f]));
  const sortable = new Set(['id', 'created_at', ...fields.filter((f) => f.sortable).map((f) => f.source)]);
  const filterFields = fields.filter((f) => f.filter || f.source === decl.parent?.field);
  const filterable = new Map(filterFields.map((f) => [f.source, f]));
  const rangeable = new Map(
    filterFields.filter((f) => ['date', 'datetime', 'number', 'money'].includes(f.type)).map((f) => [f.source, f]),
  );
  const storedColumns = [
    'id',
    ...stored.map((f) => f.source).filter((s) => s !== 'created_at'),
    ...(decl.customFields ? ['custom_fields'] : []),
    'created_at',
    'updated_at',
    'version',
  ];
  // A listed soft delete keeps its deleted rows readable (their own tab); the engine refuses their writes instead.
  const live = soft && !deletion.listed ? ' and deleted_at is null' : '';
  const actions = new Map((decl.actions ?? []).map((a) => [a.name, a]));
  // A lifecycle whose state the server computes from stored columns (a user is invited until they set a password):
  // a write's read of the record carries it, so transitions and locks are checked against it like a stored state.
  const computedState = computed.find((f) => f.source === decl.lifecycle?.field)?.source;
  return {
    decl,
    table,
    soft,
    deletion,
    fields,
    stored,
    computed,
    writable,
    byField,
    sortable,
    filterable,
    rangeable,
    storedColumns,
    live,
    lookup,
    totals,
    behaviour,
    actions,
    computedState,
    /** The resources whose records are this one's lines (their `parent.lines`), linked by compileAll. */
    lineResources: [] as string[],
  };
}
export type Compiled = ReturnType<typeof compile>;

/**
 * The rows of `statement` (a select or a write's RETURNING, of `columns` in that order, with their `id`), in id order
 * when it orders them. Where the connection takes many rows sooner as one JSON text (Queryable.manyRowsAsJson,
 * PGlite), they come as one: the 150,000 values of 10,000 locked rows took PGlite longer to hand over than the UPDATE
 * that followed took to write them, where one text costs one JSON.parse (PostgreSQL is a quarter slower that way, so
 * it answers rows as they are; docs/decisions.md, "Issue 31 — the set-based transition's 2×"). Each value is then
 * what the drivers answer for its column (server/db/index.ts): a time as its ISO text in UTC to the millisecond, a
 * decimal as its text, the rest as JSON writes them (a date as 'yyyy-MM-dd', a bigint as a number).
 */
export async function queryMany(
  db: Queryable,
  c: Compiled,
  columns: string[],
  statement: string,
  params: unknown[],
): Promise<Row[]> {
  if (!db.manyRowsAsJson) return db.query(statement, params);
  const value = (col: string) => {
    const f = c.byField.get(col);
    const sql = `x.${ident(col)}`;
    if (col === 'created_at' || col === 'updated_at' || f?.type === 'datetime')
      return `to_char(${sql} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return f?.type === 'number' && !f.integer ? `${sql}::text` : sql;
  };
  const [answer] = await db.query<{ rows: string }>(
    `with x as (${statement})
     select coalesce(json_agg(json_build_array(${columns.map(value).join(', ')}) order by x.id), '[]')::text as rows from x`,
    params,
  );
  return (JSON.parse(answer.rows) as unknown[][]).map((values) => {
    const row: Row = {};
    for (let k = 0; k < columns.length; k++) row[columns[k]] = values[k];
    return row;
  });
}

/** The columns a write reads (every stored one, and a computed lifecycle state), for a select list. */
export function writeColumns(c: Compiled, bind: (v: unknown) => string, today: string): string {
  const cols = c.storedColumns.map(ident);
  if (c.computedState)
    cols.push(`(${c.behaviour.computed![c.computedState](bind, { today })}) as ${ident(c.computedState)}`);
  return cols.join(', ');
}

/** Fields the principal may receive: everything but those their role may not read. */
export const readable = (principal: EnginePrincipal, f: FieldDeclaration) => canRead(principal, f.readableBy, f.groups);

/**
 * The select list for a principal. Lists leave out uploads unless the list shows them (a page of staff must
 * not carry 25 photos) and never carry a field the principal may not read. `only` narrows it further to the
 * fields a list asked for (`?fields=`), and the id.
 */
export function selectList(
  c: Compiled,
  principal: EnginePrincipal,
  view: 'list' | 'record',
  bind: (v: unknown) => string,
  today: string,
  alias = '',
  only?: Set<string>,
) {
  const cols: string[] = [];
  for (const col of c.storedColumns) {
    const f = c.byField.get(col);
    if (only && col !== 'id' && !only.has(col)) continue;
    if (f && !readable(principal, f)) continue;
    // Custom fields are the agency's own notes on the record: no readableBy names staff in them.
    if (col === 'custom_fields' && (principal.loginType === 'staff' || principal.loginType === 'link')) continue;
    if (view === 'list' && f && ['image', 'file'].includes(f.type) && !hasView(f, 'list')) continue;
    cols.push(alias + ident(col));
  }
  for (const f of c.computed) {
    if (only && !only.has(f.source)) continue;
    if (!readable(principal, f)) continue;
    cols.push(`(${c.behaviour.computed![f.source](bind, { today })}) as ${ident(f.source)}`);
  }
  return cols.join(', ');
}

/** The expression a sort or filter uses for a field: its column, or a computed field's expression. */
export function fieldExpression(c: Compiled, f: FieldDeclaration, bind: (v: unknown) => string, today: string) {
  return f.computed ? `(${c.behaviour.computed![f.source](bind, { today })})` : ident(f.source);
}

/**
 * The rows a principal may see: their agency's live rows, and for client users only those of their own client
 * (directly or through references, as the declaration's clientScope says), or every row of the agency's shared
 * vocabulary (clientScope 'agency'); for staff members only their own (staffScope), or the agency's vocabulary
 * (staffScope 'agency'), and no row of a resource that declares neither; for a link holder only the link's record
 * and its children.
 */
export function scopeWhere(c: Compiled, principal: EnginePrincipal, bind: (v: unknown) => string): string {
  const parts = [`merchant_id = ${bind(principal.merchantId)}${c.live}`];
  if (principal.loginType === 'client' && c.decl.clientScope !== 'agency') {
    parts.push(
      c.decl.clientScope && principal.clientId ? clientPath(c, c.decl.clientScope, bind(principal.clientId)) : 'false',
    );
  }
  if (principal.loginType === 'staff' && c.decl.staffScope !== 'agency') {
    parts.push(
      c.decl.staffScope && principal.candidateId
        ? clientPath(c, c.decl.staffScope, bind(principal.candidateId))
        : 'false',
    );
  }
  // A capability link reaches the one record it was minted for and that record's children (a timesheet's lines,
  // which its action signs), and nothing of any other resource.
  if (principal.loginType === 'link')
    parts.push(
      principal.link?.resource === c.decl.name
        ? `id = ${bind(principal.link.recordId)}`
        : principal.link && c.decl.parent?.resource === principal.link.resource
          ? `${ident(c.decl.parent.field)} = ${bind(principal.link.recordId)}`
          : 'false',
    );
  // A custom role limited to business units (issue 35): the rows whose client is in one of its units, or that reach
  // no client (an agency-wide rate card, an agency user); clients themselves by their own unit.
  const units = unitsOf(principal);
  const path = units && unitPathOf(c.decl);
  if (units && path) parts.push(unitPath(c, path, `in (${unitClients(units, bind)})`));
  const own = c.behaviour.scope?.(principal, bind);
  if (own) parts.push(`(${own})`);
  return parts.join(' and ');
}

/** The business units a principal's rows are limited to (a custom role's, issue 35), or null for every unit. */
export function unitsOf(principal: EnginePrincipal): readonly number[] | null {
  return principal.loginType === 'agency' && principal.role === 'custom' && principal.units?.length
    ? principal.units
    : null;
}

/** The clients of the units, as a sub-select of their ids (for a hand-written query that bills or exports them). */
export function unitClients(units: readonly number[], bind: (v: unknown) => string): string {
  return `select id from clients where business_unit_id = any(${bind([...units])}::int[])`;
}

/** A unit path (unitPathOf): like clientPath, but a step that reaches no client (null) keeps the row. */
function unitPath(c: Compiled, path: string, leaf: string): string {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return head === 'id' ? `id ${leaf}` : `(${ident(head)} is null or ${ident(head)} ${leaf})`;
  const f = c.byField.get(head);
  if (!f || f.type !== 'reference' || !f.reference)
    throw new Error(`${c.decl.name}: unit path ${path}: ${head} is not a reference`);
  const target = c.lookup(f.reference);
  return `(${ident(head)} is null or ${ident(head)} in (select id from ${target.table} where ${unitPath(target, rest.join('.'), leaf)}))`;
}

function clientPath(c: Compiled, path: string, placeholder: string): string {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return `${ident(head)} = ${placeholder}`;
  const f = c.byField.get(head);
  if (!f || f.type !== 'reference' || !f.reference)
    throw new Error(`${c.decl.name}: scope path ${path}: ${head} is not a reference`);
  const target = c.lookup(f.reference);
  return `${ident(head)} in (select id from ${target.table} where ${clientPath(target, rest.join('.'), placeholder)})`;
}
