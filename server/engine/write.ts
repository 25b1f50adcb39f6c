// Writing a record: the write policy, validation against the declaration and the database, and the stored row.
import type { Row } from '../db/index.js';
import { badInput, HttpError } from '../http.js';
import type { FieldDeclaration, RecordValues } from '../../core/engine/types.js';
import { validateRecord, validateCustomFieldsInput, type Problems } from '../../core/engine/validate.js';
import { normaliseText } from '../../core/engine/text.js';
import { FILE_LIMIT_LABELS, fileKindOf } from '../../core/engine/files.js';
import { toFieldErrors } from './messages.js';
import { columnType, TEXT_TYPES } from './ddl.js';
import { ident, Params, readable, scopeWhere, type Compiled } from './compile.js';
import type { EngineContext, EnginePrincipal } from './context.js';
import { audit, diff, isScalar } from './audit.js';
import { checkFileRefs, attachFiles, filesNotOfKind } from '../files/store.js';
import { customFieldsOf } from './customFields.js';
import { getRecord } from './query.js';
import { keepCreatedDocuments } from '../documents/records.js';
import { checkConstraints } from './constraints.js';
import { numberRecords, numbersAt } from './numbering.js';
import { checkPeriod } from './periods.js';
import { fromLines, refreshDocuments, refuseLockedLines } from './lines.js';
import {
  createdLockedReason,
  isActionOnly,
  lockedReason,
  notEditableReason,
  writeRefusal,
} from '../../core/engine/lifecycle.js';

const JSON_TYPES = new Set(['address', 'json']);
/** Typed text is trimmed; a choice is not (" " is not an option, and must be refused, not cleared). */
const TRIMMED = new Set(['text', 'longtext', 'email', 'phone']);
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
      return Object.fromEntries(
        ['line1', 'line2', 'city', 'postcode', 'country'].map((k) => [
          k,
          a[k] === '' || a[k] === undefined ? null : a[k],
        ]),
      );
    }
    default:
      return typeof v === 'string' && TRIMMED.has(f.type) ? normaliseText(v) : v;
  }
}

/** Typed text as it is stored: trimmed and in NFC, the parts of an address too. Anything else as sent. */
export function normalised(f: FieldDeclaration, v: unknown): unknown {
  if (typeof v === 'string' && TRIMMED.has(f.type)) return normaliseText(v);
  if (f.type === 'address' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
    return Object.fromEntries(
      Object.entries(v).map(([k, part]) => [k, typeof part === 'string' ? part.normalize('NFC') : part]),
    );
  }
  return v;
}
/**
 * Whether two values of a field are the same as stored. Compared as JSON, unless they are identical or two different
 * scalars (the same answer without writing either: a set-based write asks it for every field of thousands).
 */
export const sameValue = (f: FieldDeclaration, a: unknown, b: unknown) => {
  const [x, y] = [canonical(f, a), canonical(f, b)];
  if (x === y) return true;
  if (isScalar(x) && isScalar(y)) return false;
  return JSON.stringify(x) === JSON.stringify(y);
};

export const defaultOf = (f: FieldDeclaration) =>
  f.defaultValue !== undefined
    ? f.defaultValue
    : f.type === 'boolean'
      ? false
      : f.type === 'references' || f.type === 'choices'
        ? []
        : null;

/**
 * What a new record starts from before the caller's values: the declared defaults, with the agency's own for the
 * declaration's `agencyDefaults` fields (its behaviour's `defaults`), read once per write. One place for a single
 * create, a createMany and the create form's GET /api/{name}/defaults.
 */
export async function createDefaultsOf(ctx: EngineContext, c: Compiled): Promise<Record<string, unknown>> {
  const storable = c.stored.filter((f) => f.source !== 'created_at');
  const declared: Record<string, unknown> = Object.fromEntries(storable.map((f) => [f.source, defaultOf(f)]));
  const fields = c.decl.agencyDefaults ?? [];
  if (!fields.length || !c.behaviour.defaults) return declared;
  const agency = await c.behaviour.defaults(ctx);
  for (const f of fields) if (agency[f] !== undefined) declared[f] = agency[f];
  return declared;
}

/**
 * The field write policy. A caller may send a field back unchanged (forms send whole records); changing a
 * field that only actions change, a create-only field after creation, or a field their role may not write
 * is refused, naming the field. Read-only fields are filled by the server and ignored.
 */
export function applyWritePolicy(c: Compiled, principal: EnginePrincipal, body: Record<string, unknown>, stored?: Row) {
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
    const notNow = notEditableReason(c.decl, f, stored);
    if (isActionOnly(c.decl, f)) problems[f.source] = { message: 'engine.policy.actionOnly' };
    else if (f.createOnly && stored) problems[f.source] = { message: 'engine.policy.createOnly' };
    else if (notNow) problems[f.source] = { message: notNow };
    else if ((f.writableBy && !f.writableBy.includes(principal.role)) || !readable(principal, f))
      problems[f.source] = { message: 'engine.policy.role' };
    else changes[f.source] = v;
  }
  return { changes, problems };
}

/** A record a write is about to store, for the checks that ask the database. */
export interface Pending {
  /** The record as it will be stored (on an update, only the fields the write touches). */
  record: RecordValues;
  /** What already failed: those fields are not asked about. */
  known: Problems;
  /** The stored record's id, on an update. */
  id?: number;
}

/**
 * Whether checkAgainstDatabase asks the database about a field's value: a unique value, a reference, a stored file
 * (a read-only field is the server's own, never asked about).
 */
export const askedOfDatabase = (f: FieldDeclaration) =>
  !f.readOnly &&
  (!!f.unique ||
    ((f.type === 'reference' || f.type === 'references') && !!f.reference) ||
    f.type === 'image' ||
    f.type === 'file');

const keyOf = (f: FieldDeclaration, v: unknown) =>
  TEXT_TYPES.has(f.type) ? normaliseText(String(v)).toLowerCase() : JSON.stringify(v);

/**
 * Validation the database has to answer, for one record or many at once (createMany): unique values (also among
 * the records themselves), references inside the caller's scope, stored files. One statement per field asked about,
 * whatever the number of records; the problems come back by record.
 */
export async function checkAgainstDatabase(ctx: EngineContext, c: Compiled, pending: Pending[]): Promise<Problems[]> {
  const out: Problems[] = pending.map(() => ({}));
  const merchantId = ctx.principal.merchantId;
  const updated = pending.flatMap((x) => (x.id === undefined ? [] : [x.id]));
  // Only the fields the database answers about are looked at: a set of thousands is not walked once per other field.
  for (const f of c.stored) {
    if (!askedOfDatabase(f)) continue;
    // A value that already failed validation never reaches a query.
    const asking = pending.flatMap((x, i) =>
      x.record[f.source] == null || x.known[f.source] ? [] : [{ i, v: x.record[f.source] }],
    );
    if (asking.length === 0) continue;
    if (f.unique) {
      const text = TEXT_TYPES.has(f.type);
      const p = new Params();
      const values = p.bind([...new Set(asking.map((a) => String(a.v)))]);
      const taken = await ctx.db.query<{ v: string }>(
        `select v from unnest(${values}::text[]) as v where exists (select 1 from ${c.table}
          where merchant_id = ${p.bind(merchantId)}${c.live} and ${text ? `lower(${ident(f.source)}) = lower(v)` : `${ident(f.source)} = v::${columnType(f)}`}
            and not (id = any(${p.bind(updated)}::int[])))`,
        p.values,
      );
      const inUse = new Set(taken.map((r) => r.v));
      // Two of the records themselves with one value: the later one is refused, as it would be after the first.
      const seen = new Set<string>();
      for (const { i, v } of asking) {
        const key = keyOf(f, v);
        if (inUse.has(String(v)) || seen.has(key)) out[i][f.source] = { message: 'engine.validation.unique' };
        seen.add(key);
      }
    }
    if ((f.type === 'reference' || f.type === 'references') && f.reference) {
      const target = c.lookup(f.reference);
      const idsOf = (v: unknown) => [...new Set((Array.isArray(v) ? v : [v]).map(Number))];
      const all = [...new Set(asking.flatMap((a) => idsOf(a.v)))];
      if (all.length === 0) continue;
      const p = new Params();
      // A reference may point only at rows a read of the target would show the caller: a site of another client
      // does not exist for a client user, another consultant's support request not for a consultant.
      const scoped = scopeWhere(target, ctx.principal, p.bind);
      const found = await ctx.db.query<{ id: number }>(
        `select id from ${target.table} where ${scoped} and id = any(${p.bind(all)})`,
        p.values,
      );
      const there = new Set(found.map((r) => Number(r.id)));
      for (const { i, v } of asking)
        if (!idsOf(v).every((id) => there.has(id)))
          out[i][f.source] = { message: 'engine.validation.referenceMissing' };
    }
    if (f.type === 'image' || f.type === 'file') {
      // A new record may take only files its author uploaded and nobody owns; one being edited also its own.
      const bad = new Set<number>();
      const creates = asking.filter((a) => pending[a.i].id === undefined);
      const refused = new Set(
        await checkFileRefs(
          ctx.db,
          merchantId,
          ctx.principal.userId,
          creates.map((a) => String(a.v)),
        ),
      );
      for (const a of creates) if (refused.has(String(a.v))) bad.add(a.i);
      for (const a of asking.filter((x) => pending[x.i].id !== undefined)) {
        const owner = { resource: c.decl.name, id: pending[a.i].id! };
        if ((await checkFileRefs(ctx.db, merchantId, ctx.principal.userId, [String(a.v)], owner)).length) bad.add(a.i);
      }
      // One upload for two records of the same write: the later one is refused, as a second save would be.
      const seen = new Set<string>();
      for (const a of asking) {
        if (seen.has(String(a.v).toLowerCase())) bad.add(a.i);
        seen.add(String(a.v).toLowerCase());
      }
      for (const i of bad) out[i][f.source] = { message: 'engine.validation.file' };
      const kind = f.file?.kind ?? fileKindOf(f.type);
      const wrong = new Map(
        (
          await filesNotOfKind(
            ctx.db,
            merchantId,
            asking.filter((a) => !bad.has(a.i)).map((a) => String(a.v)),
            kind,
          )
        ).map((w) => [w.id.toLowerCase(), w.problem]),
      );
      for (const a of asking) {
        const problem = bad.has(a.i) ? undefined : wrong.get(String(a.v).toLowerCase());
        if (problem === 'type')
          out[a.i][f.source] = { message: kind === 'image' ? 'engine.validation.image' : 'engine.validation.fileType' };
        else if (problem === 'size')
          out[a.i][f.source] = { message: 'engine.validation.fileSize', args: { max: FILE_LIMIT_LABELS[kind] } };
      }
    }
  }
  return out;
}

function toColumnValue(f: FieldDeclaration | undefined, v: unknown) {
  // An empty many-reference is an empty list, never NULL.
  if (f?.type === 'references') return v == null ? [] : (v as unknown[]).map(Number);
  if (f?.type === 'choices') return v ?? [];
  if (f?.type === 'boolean' && v == null) return false;
  if (v == null) return null;
  if ((f && JSON_TYPES.has(f.type)) || !f) return JSON.stringify(v);
  if (f.type === 'reference' || f.type === 'number' || f.type === 'money') return Number(v);
  return v;
}

export function refuse(problems: Problems) {
  if (Object.keys(problems).length) throw badInput(toFieldErrors(problems));
}

export const stale = (c: Compiled) =>
  new HttpError(
    409,
    `This ${c.decl.label.one.toLowerCase()} was changed by someone else while you were editing it. Reload it to see their changes, then make yours again.`,
    { version: 'Changed meanwhile' },
  );

/**
 * Stores a change the caller is allowed to make (policy already applied): validates the merged record, asks
 * the database, runs the hooks, writes, audits. Creates when `stored` is undefined.
 */
export async function store(
  ctx: EngineContext,
  c: Compiled,
  stored: Row | undefined,
  changes: Record<string, unknown>,
  e: {
    customInput?: unknown;
    action?: string;
    input?: unknown;
    problems?: Problems;
    followsPeriod?: boolean;
    /** A declared action runs the write (runAction checked its transition against the lifecycle). */
    declared?: boolean;
    /** Server code that must write past the lifecycle's locks says why; the audit entry names it. */
    overrideLock?: string;
  },
): Promise<Row> {
  if (!e.declared && !e.overrideLock) refuseLocked(c, stored, changes);
  const storable = c.stored.filter((f) => f.source !== 'created_at');
  const record: RecordValues = stored ? { ...stored, ...changes } : { ...(await createDefaultsOf(ctx, c)), ...changes };
  // A line of a document whose state locks it (a declared action was checked by runAction, with its own states).
  if (!e.declared && !e.overrideLock) await refuseLockedLines(ctx, c, [record]);
  // A document takes what its lines make of it (rollups, the state they derive) in its own write: one version.
  if (stored && c.lineResources.length) Object.assign(record, (await fromLines(ctx, c, [record])).get(stored.id));
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
  const [asked] = await checkAgainstDatabase(ctx, c, [{ record: touched, known: problems, id: stored?.id }]);
  Object.assign(problems, asked);
  refuse(problems);
  refuse((await checkConstraints(ctx, c, [{ record, stored, known: problems }]))[0]);
  // A row that follows another's period change (its end moved) is not checked again: the change was checked there.
  if (c.decl.effectiveDated && !e.followsPeriod) await checkPeriod(ctx, c, record, stored, store);
  // Taken before the hook, which may read it (or refuse the write: the rollback gives the number back); at create, or
  // in the transaction of the transition that numbers the record (a draft has none).
  if (numbersAt(c, stored, e.declared ? e.action : undefined)) {
    await numberRecords(ctx.db, c, ctx.principal.merchantId, [record]);
  }
  // The hook may refuse, or fill fields the server sets (who recorded it, a default expiry) on `record`.
  const hookProblems = await c.behaviour.beforeSave?.(ctx, { stored, changes, record, action: e.action });
  if (hookProblems) refuse(hookProblems);

  const merchantId = ctx.principal.merchantId;
  const cols = [...storable.map((f) => f.source), ...(c.decl.customFields ? ['custom_fields'] : [])];
  // The written row comes back with the statement (every stored column, and the computed ones): no re-read.
  const values: unknown[] = [merchantId];
  const bind = (v: unknown) => `$${values.push(v)}`;
  const returning = () =>
    [
      c.storedColumns.map(ident).join(', '),
      ...c.computed.map(
        (f) => `(${c.behaviour.computed![f.source](bind, { today: ctx.today })}) as ${ident(f.source)}`,
      ),
    ].join(', ');
  let statement: string;
  if (stored) {
    const changed = cols.filter((col) =>
      col === 'custom_fields'
        ? JSON.stringify(record.custom_fields) !== JSON.stringify(stored.custom_fields)
        : !sameValue(c.byField.get(col)!, record[col], stored[col]),
    );
    if (changed.length === 0 && !e.action) return getRecord(ctx, c, stored.id);
    const sets = changed.map((col) => `${ident(col)} = ${bind(toColumnValue(c.byField.get(col), record[col]))}`);
    statement = `update ${c.table} set ${[...sets, 'updated_at = now()', 'version = version + 1'].join(', ')} where merchant_id = $1 and id = ${bind(stored.id)} returning ${returning()}`;
  } else {
    const placeholders = cols.map((col) => bind(toColumnValue(c.byField.get(col), record[col])));
    statement = `insert into ${c.table} (merchant_id, ${cols.map(ident).join(', ')}) values ($1, ${placeholders.join(', ')}) returning ${returning()}`;
  }
  const explain = c.behaviour.refusedByDatabase;
  let full: Row;
  if (!explain) [full] = await ctx.db.query(statement, values);
  else {
    await ctx.db.query('savepoint engine_write');
    try {
      [full] = await ctx.db.query(statement, values);
      await ctx.db.query('release savepoint engine_write');
    } catch (err) {
      await ctx.db.query('rollback to savepoint engine_write');
      throw (
        (await explain(
          ctx,
          { stored, changes, record, action: e.action },
          err as { code?: string; detail?: string },
        )) ?? err
      );
    }
  }
  const id: number = full.id;
  const fileFields = c.stored.filter(
    (f) => (f.type === 'image' || f.type === 'file') && full[f.source] && full[f.source] !== stored?.[f.source],
  );
  for (const f of fileFields) {
    // Another record took the file first (two saves with one upload): refused, and the write rolls back.
    const taken = await attachFiles(ctx.db, merchantId, c.decl.name, id, f.source, [String(full[f.source])]);
    if (taken.length) refuse({ [f.source]: { message: 'engine.validation.file' } });
  }
  await audit(ctx, c, id, e.action ? 'action' : stored ? 'update' : 'create', {
    record: full,
    changes: diff(c, stored, full),
    action: e.action,
    input: e.overrideLock ? { ...(e.input as object), overrideLock: e.overrideLock } : e.input,
  });
  const changedItself = await c.behaviour.afterSave?.(ctx, { stored, changes, record, action: e.action, row: full });
  if (!stored) await keepCreatedDocuments(ctx, c, [id]);
  // A line's document follows it (and the line's answer then reads its document's new state).
  const parent = c.decl.parent;
  if (parent?.lines && (await refreshDocuments(ctx, c, [full[parent.field], stored?.[parent.field]])))
    return getRecord(ctx, c, id);
  // A client user's answer is read through their scope: a row written outside it is refused (and rolled back).
  // An agency user's scope is their agency, which a write cannot change; a hook that changed the row is re-read.
  if (changedItself || ctx.principal.loginType !== 'agency') return getRecord(ctx, c, id);
  return visibleTo(c, ctx.principal, full);
}

/**
 * The lifecycle's locks for a write that is no declared action, whoever makes it (a request, a hook, a service, a
 * job): a locked record refuses any change (409), a field only actions change or not editable in the record's state
 * refuses by field (422), and a new record never starts in a final state (it reaches one only through a transition).
 */
export function refuseLocked(c: Compiled, stored: Row | undefined, changes: Record<string, unknown>) {
  if (!stored) {
    const why = createdLockedReason(c.decl, {
      ...Object.fromEntries(c.stored.map((f) => [f.source, defaultOf(f)])),
      ...changes,
    });
    if (why) throw new HttpError(409, why);
    return;
  }
  const { locked, fields } = lockRefusal(c, stored, changes);
  if (locked) throw new HttpError(409, locked);
  refuse(fields);
}

/**
 * Why the lifecycle refuses these changes to a stored record by a write that is no declared action (writeRefusal over
 * the fields whose value they change): `locked` for the whole record, or the problems by field.
 */
export function lockRefusal(
  c: Compiled,
  stored: Row,
  changes: Record<string, unknown>,
): { locked: string | null; fields: Problems } {
  const changed = Object.keys(changes).flatMap((k) => {
    const f = c.byField.get(k);
    return f && !sameValue(f, changes[k], stored[k]) ? [f] : [];
  });
  const { locked, fields } = writeRefusal(c.decl, stored, changed);
  return { locked, fields: Object.fromEntries(Object.entries(fields).map(([k, message]) => [k, { message }])) };
}

/** The columns of a full row the principal may receive (as getRecord would select them). */
export function visibleTo(c: Compiled, principal: EnginePrincipal, row: Row): Row {
  return allVisibleTo(c, principal, [row])[0];
}

/** visibleTo for many rows: which columns the principal may read is worked out once, not once a row. */
export function allVisibleTo(c: Compiled, principal: EnginePrincipal, rows: Row[]): Row[] {
  const cols = [...c.storedColumns, ...c.computed.map((f) => f.source)].filter((col) => {
    const f = c.byField.get(col);
    return !f || readable(principal, f);
  });
  return rows.map((row) => {
    const out: Row = {};
    for (const col of cols) out[col] = row[col];
    return out;
  });
}

/** POST (no id) or PUT: the caller's write, under the write policy and, when a version is sent, the version check. */
export async function saveRecord(
  ctx: EngineContext,
  c: Compiled,
  body: Record<string, unknown>,
  id?: number,
): Promise<Row> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw badInput({ _: 'Send the record as a JSON object' });
  // Its table's cached totals go stale when the transaction commits (server/engine/routes.ts inTransaction).
  ctx.touched?.add(c.decl.table);
  const stored = id === undefined ? undefined : await getRecord(ctx, c, id, { lock: true, all: true });
  if (stored && body.version !== undefined && body.version !== null && Number(body.version) !== Number(stored.version))
    throw stale(c);
  // A record in a final state (a signed timesheet) or a deleted one still listed (a shift) is no longer edited.
  const locked =
    stored &&
    (lockedReason(c.decl, stored) ??
      (stored.deleted_at ? `This ${c.decl.label.one.toLowerCase()} has been deleted.` : null));
  if (locked) throw new HttpError(409, locked);
  const { changes, problems } = applyWritePolicy(c, ctx.principal, body, stored);
  const customInput =
    c.decl.customFields && Object.prototype.hasOwnProperty.call(body, 'custom_fields') ? body.custom_fields : undefined;
  return store(ctx, c, stored, changes, { customInput, problems });
}
