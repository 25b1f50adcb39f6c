import type { Queryable, Row } from '../db/index.js';
import { ident, Params, type Compiled } from './compile.js';
import { storedLoginType, type FieldDeclaration } from '../../core/engine/types.js';
import type { EngineContext, EnginePrincipal } from './context.js';

export type AuditEvent = 'create' | 'update' | 'delete' | 'action';
export type Changes = Record<string, { from: unknown; to: unknown }>;

/**
 * A field nobody reads (`readableBy: []`, a password's hash) is in the trail only as having changed: agency users
 * read the trail, and a hash in it could be cracked offline.
 */
const hiddenChange = (from: unknown, to: unknown) => ({
  from: from == null ? null : 'set',
  to: to == null ? null : from == null ? 'set' : 'changed',
});

/**
 * The agency users who read the audit trail (audit_entries' access). A field some of them may not read (nobody: a
 * password's hash; admins only: a staff member's masked bank details) is in the trail only as set or changed, so the
 * trail never shows a reader what the record itself would not.
 */
const TRAIL_READERS = ['admin', 'consultant'] as const;
const hiddenInTrail = (f: FieldDeclaration) =>
  f.readableBy !== undefined && !TRAIL_READERS.every((r) => f.readableBy!.includes(r));

/** Text, a yes/no or nothing: two such values that are not identical differ as JSON too (no number: NaN is null). */
export const isScalar = (v: unknown) => v == null || typeof v === 'string' || typeof v === 'boolean';

/**
 * Each changed field's old and new value; custom fields by key. Unchanged fields are left out. `fields`: the only
 * fields that may differ (a set-based write's columns), custom fields then being unchanged.
 */
export function diff(c: Compiled, before: Row | undefined, after: Row, fields?: FieldDeclaration[]): Changes {
  const out: Changes = {};
  // Two different scalars differ as JSON too (isScalar): thousands of records' changes compared without writing them.
  const same = (a: unknown, b: unknown) =>
    !(isScalar(a) && isScalar(b) && (a ?? null) !== (b ?? null)) &&
    JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const f of fields ?? c.stored) {
    if (f.source === 'created_at') continue;
    const [from, to] = [asWritten(f, before?.[f.source]), asWritten(f, after[f.source])];
    // The same value is the same (most fields of an update): only values that differ are compared as JSON.
    if (from === to || same(from, to)) continue;
    out[f.source] = hiddenInTrail(f) ? hiddenChange(from, to) : { from, to };
  }
  if (c.decl.customFields && !fields) {
    const a = before?.custom_fields ?? {};
    const b = after.custom_fields ?? {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (!same(a[k], b[k])) out[`custom_fields.${k}`] = { from: a[k] ?? null, to: b[k] ?? null };
  }
  return out;
}

/**
 * A stored value as the trail records it: a decimal column comes back from the database as text ('5'), so a number
 * is recorded as the number a write gave, whichever way the row was written (one save or a createMany).
 */
const asWritten = (f: Compiled['stored'][number], v: unknown) =>
  f.type === 'number' && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
    ? Number(v)
    : (v ?? null);

/** The changes between two versions of a row kept outside the engine (a setting), over the named columns. */
export function diffColumns(before: Row | undefined, after: Row | undefined, columns: string[]): Changes {
  const out: Changes = {};
  for (const k of columns) {
    const from = before?.[k] ?? null;
    const to = after?.[k] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[k] = { from, to };
  }
  return out;
}

/** One entry of the audit trail, as stored. `subject` files it under another record (a child's parent). */
export interface AuditEntry {
  resource: string;
  recordId: number;
  subject?: { resource: string; id: number };
  event: AuditEvent;
  action?: string;
  changes?: Changes;
  input?: unknown;
  /** When it happened: the engine's clock (ctx.now); the database's clock when not given. */
  at?: Date;
}

/**
 * The one statement that writes audit entries (every writer's: an engine write, createMany, the side writes, the
 * seed): one entry per row of `rows.from`, an SQL relation, each value an SQL expression over it. Who and when are
 * the principal's; the subject files the entries under another record (`filedUnderOf`). The table refuses updates
 * and deletes (a trigger), so the history cannot be edited. Readers read the view `audit_log`: these rows and the
 * sets auditMany writes, each expanded into one entry a record (migration 120).
 */
export function insertAuditSql(
  who: EnginePrincipal,
  bind: (value: unknown) => string,
  e: { resource: string; subjectResource: string; event: AuditEvent; action?: string | null },
  rows: { from: string; recordId: string; subjectId: string; changes: string; input: string; at: string },
): string {
  // A link holder has no user (userId 0), nor the system (a periodic job): the entry names them in user_name ('via
  // link sent to …', 'system'), user_id is empty.
  return `insert into audit_rows (merchant_id, resource, record_id, subject_resource, subject_id, event, action, changes, input, user_id, user_name, login_type, created_at, updated_at)
    select ${bind(who.merchantId)}::int, ${bind(e.resource)}, ${rows.recordId}, ${bind(e.subjectResource)}, ${rows.subjectId}, ${bind(e.event)}, ${bind(e.action ?? null)},
           ${rows.changes}, ${rows.input}, ${bind(who.userId || null)}::int, ${bind(who.name)}, ${bind(storedLoginType(who.loginType))}, ${rows.at}, ${rows.at}
      from ${rows.from}`;
}

/** Where a resource's entries are filed besides the record's own: under its parent (a child) or what it names. */
export const filedUnderOf = (c: Compiled) => c.decl.parent ?? c.decl.filedUnder;

/**
 * Writes one entry of the audit trail in the caller's transaction: who, when, what. The engine calls it (`audit`
 * below) for each write of a resource not declared `audited: false`; code that changes a record outside the engine
 * calls it itself, as the account and notification-settings routes, the invitations and the hooks' side writes do.
 */
export async function writeAudit(db: Queryable, who: EnginePrincipal, e: AuditEntry) {
  const p = new Params();
  const sql = insertAuditSql(
    who,
    p.bind,
    { resource: e.resource, subjectResource: e.subject?.resource ?? e.resource, event: e.event, action: e.action },
    {
      from: '(select 1) as one',
      recordId: `${p.bind(e.recordId)}::int`,
      subjectId: `${p.bind(e.subject?.id ?? e.recordId)}::int`,
      changes: `${p.bind(JSON.stringify(e.changes ?? {}))}::jsonb`,
      input: `${p.bind(e.input === undefined ? null : JSON.stringify(e.input))}::jsonb`,
      at: `coalesce(${p.bind(e.at?.toISOString() ?? null)}::timestamptz, now())`,
    },
  );
  await db.query(sql, p.values);
}

/**
 * The engine's entry for a write: a child record's entry is also filed under its parent (the staff member whose
 * document changed).
 */
export async function audit(
  ctx: EngineContext,
  c: Compiled,
  recordId: number,
  event: AuditEvent,
  e: { record?: Row; changes?: Changes; action?: string; input?: unknown },
) {
  if (c.decl.audited === false) return;
  const under = filedUnderOf(c);
  const subject = under ? { resource: under.resource, id: Number(e.record?.[under.field]) || recordId } : undefined;
  await writeAudit(ctx.db, ctx.principal, {
    resource: c.decl.name,
    recordId,
    subject,
    event,
    action: e.action,
    changes: e.changes,
    input: e.input,
    // The write's own time, as every rule that depends on the time reads it (a test's fixed clock, the demo's story).
    at: ctx.now,
  });
}

/**
 * The entries of records written together (a set-based update or transition), as one row of the trail for the whole
 * set (audit_sets, migration 120): who, when, the action and its input once, the records' ids and the ids they are
 * filed under (filedUnderOf) as arrays, and each distinct change once, each record naming its own by position. The
 * view `audit_log` expands the row into the entries `audit` would have written one by one: each record's entry has
 * its own id, drawn here from the trail's sequence in the records' order, so ids and order are as before. One row
 * with two GIN-indexed arrays costs a fraction of a row a record in the trail's five indexes (docs/decisions.md,
 * "Issue 31.4 — the audit cost of a set-based transition").
 */
export async function auditMany(
  ctx: EngineContext,
  c: Compiled,
  written: { row: Row; changes: Changes }[],
  event: AuditEvent,
  e: { action?: string; input?: unknown },
) {
  if (c.decl.audited === false || written.length === 0) return;
  const under = filedUnderOf(c);
  const p = new Params();
  const ids = written.map((w) => Number(w.row.id));
  const subjects = written.map((w, i) => (under ? Number(w.row[under.field]) || ids[i] : ids[i]));
  // Records written together mostly change the same way (a transition: the same state, author and time): each
  // distinct change is sent and stored once, and each record names its own by position.
  // A change shared by many records (one object: storeUpdates diffs records written alike once) is written out once.
  const distinct = new Map<string, number>();
  const byObject = new Map<Changes, number>();
  const which = written.map((w) => {
    let k = byObject.get(w.changes);
    if (k !== undefined) return k;
    const json = JSON.stringify(w.changes);
    k = distinct.get(json);
    if (k === undefined) distinct.set(json, (k = distinct.size + 1));
    byObject.set(w.changes, k);
    return k;
  });
  await ctx.db.query(
    insertAuditSetSql(
      ctx.principal,
      p.bind,
      { resource: c.decl.name, subjectResource: under?.resource ?? c.decl.name, event, action: e.action },
      {
        from: `(select ${p.bind(ids)}::int[] as record_ids, ${p.bind(subjects)}::int[] as subject_ids) as s`,
        changes: `${p.bind([...distinct.keys()])}::jsonb[]`,
        which: `${p.bind(which)}::int[]`,
        input: `${p.bind(e.input === undefined ? null : JSON.stringify(e.input))}::jsonb`,
        at: `coalesce(${p.bind(ctx.now?.toISOString() ?? null)}::timestamptz, now())`,
      },
    ),
    p.values,
  );
}

/**
 * The one statement that writes the row of a set (auditMany's, createMany's): `set.from` is an SQL relation of one
 * row with the arrays `record_ids` and `subject_ids`; `changes` the distinct changes and `which` each record's (an
 * index into them, from 1). Each record's entry gets an id of its own from the trail's sequence, in the records'
 * order, when the row is written. Who and when are the principal's, as insertAuditSql writes them.
 */
export function insertAuditSetSql(
  who: EnginePrincipal,
  bind: (value: unknown) => string,
  e: { resource: string; subjectResource: string; event: AuditEvent; action?: string | null },
  set: { from: string; changes: string; which: string; input: string; at: string },
): string {
  return `insert into audit_sets (merchant_id, resource, subject_resource, event, action, input, user_id, user_name, login_type, created_at,
                          ids, record_ids, subject_ids, changes, which)
    select ${bind(who.merchantId)}::int, ${bind(e.resource)}, ${bind(e.subjectResource)}, ${bind(e.event)}, ${bind(e.action ?? null)},
           ${set.input}, ${bind(who.userId || null)}::int, ${bind(who.name)}, ${bind(storedLoginType(who.loginType))}, ${set.at},
           array(select nextval('audit_log_id_seq') from generate_series(1, cardinality(s.record_ids))),
           s.record_ids, s.subject_ids, ${set.changes}, ${set.which}
      from ${set.from}`;
}

/** concat_ws takes at most 100 arguments: 90 fields a call, the calls joined by another. */
const FIELDS_PER_CALL = 90;

/**
 * The changes of created rows as `diff(c, undefined, row)` answers them, as an SQL expression over `source` (a
 * relation of the inserted rows, carrying only the fields in `present` when given, the others being empty): every
 * field stored with a value, as { "from": null, "to": value }, times as the API writes them. Written as JSON text and
 * read as jsonb once a row: building one jsonb object per field made the audit cost more than the insert itself.
 */
export function createChangesSql(c: Compiled, source: string, present?: Set<string>): string {
  const col = (f: string) => `${source}.${ident(f)}`;
  const value = (f: FieldDeclaration) => {
    switch (f.type) {
      case 'datetime':
        return `'"' || to_char(${col(f.source)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;
      case 'number':
      case 'money':
      case 'reference':
      case 'boolean':
        return `${col(f.source)}::text`;
      // A JSON column holding JSON null reads as null, as it does in JavaScript.
      case 'json':
      case 'address':
        return `nullif(${col(f.source)}, 'null'::jsonb)::text`;
      default:
        return `to_json(${col(f.source)})::text`;
    }
  };
  // An empty field makes its piece null, which concat_ws leaves out, as diff leaves out what did not change. A field
  // nobody reads (a password's hash) is only 'set', as diff writes it (hiddenChange).
  const pieces = c.stored
    .filter((f) => f.source !== 'created_at' && (!present || present.has(f.source)))
    .map(
      (f) =>
        `'"${f.source}":{"from":null,"to":' || ${hiddenInTrail(f) ? `case when ${col(f.source)} is not null then '"set"' end` : value(f)} || '}'`,
    );
  if (c.decl.customFields && (!present || present.has('custom_fields')))
    pieces.push(
      `(select string_agg(to_json('custom_fields.' || k)::text || ':{"from":null,"to":' || v::text || '}', ',') from jsonb_each(${col('custom_fields')}) as e(k, v) where v <> 'null'::jsonb)`,
    );
  const chunks: string[] = [];
  for (let i = 0; i < pieces.length; i += FIELDS_PER_CALL) chunks.push(pieces.slice(i, i + FIELDS_PER_CALL).join(', '));
  const joined =
    chunks.length === 1
      ? `concat_ws(',', ${chunks[0]})`
      : `concat_ws(',', ${chunks.map((ch) => `nullif(concat_ws(',', ${ch}), '')`).join(', ')})`;
  return `('{' || ${joined} || '}')::jsonb`;
}

/**
 * The audit entries of records created together (createMany), as one `insert … select` over `source`: a relation
 * of the inserted rows (the INSERT's RETURNING, as a CTE). Each entry is the one `audit` writes for a create, its
 * changes built by the database from the rows (createChangesSql) rather than as one JSON per record in JavaScript, so
 * a create of thousands costs one statement; they are stored as one row of the set (insertAuditSetSql), expanded by
 * the view audit_log, except the seed's (each at its row's own time: a row each). `present`: the only fields
 * `source` carries, when the others are known to be empty in every row. `at`: the write's time, or each row's own
 * `created_at` (the demo's rows, written around the engine). Null for a resource declared `audited: false`.
 */
export function auditCreatesSql(
  c: Compiled,
  who: EnginePrincipal,
  source: string,
  bind: (value: unknown) => string,
  input?: unknown,
  present?: Set<string>,
  at?: Date | 'created_at',
): string | null {
  if (c.decl.audited === false) return null;
  const col = (f: string) => `${source}.${ident(f)}`;
  const under = filedUnderOf(c);
  const subject =
    under && (!present || present.has(under.field)) ? `coalesce(${col(under.field)}, ${col('id')})` : col('id');
  const e = { resource: c.decl.name, subjectResource: under?.resource ?? c.decl.name, event: 'create' as const };
  const inputSql = `${bind(input === undefined ? null : JSON.stringify(input))}::jsonb`;
  // The seed's rows were made at their own times, as though entered then: a row each.
  if (at === 'created_at')
    return insertAuditSql(who, bind, e, {
      from: source,
      recordId: col('id'),
      subjectId: subject,
      changes: createChangesSql(c, source, present),
      input: inputSql,
      at: col('created_at'),
    });
  // Records created together at one time: one row of the set (insertAuditSetSql), each record's changes its own.
  return insertAuditSetSql(who, bind, e, {
    from: `(select array_agg(${col('id')} order by ${col('id')}) as record_ids, array_agg(${subject} order by ${col('id')}) as subject_ids,
                   array_agg(${createChangesSql(c, source, present)} order by ${col('id')}) as changes
              from ${source}) as s where s.record_ids is not null`,
    changes: 's.changes',
    which: 'array(select generate_series(1, cardinality(s.record_ids)))',
    input: inputSql,
    at: `coalesce(${bind(at?.toISOString() ?? null)}::timestamptz, now())`,
  });
}
