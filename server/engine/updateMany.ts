// Updating many records at once (a set-based update or transition, issue 31.4): a single write's rules (the
// lifecycle's locks, validation, scope and references, constraints, numbering, hooks, version, audit) in set form,
// all or nothing: one pass of checks over every record, one UPDATE … FROM unnest and one audit statement.
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import { validateRecords, type Problems } from '../../core/engine/validate.js';
import type { FieldDeclaration, RecordValues } from '../../core/engine/types.js';
import { toFieldErrors } from './messages.js';
import { ident, Params, queryMany, scopeWhere, selectList, type Compiled } from './compile.js';
import type { EngineContext, SaveEvent } from './context.js';
import { auditMany, diff, type Changes } from './audit.js';
import { customFieldsOf } from './customFields.js';
import { checkConstraints } from './constraints.js';
import { numberRecords, numbersAt } from './numbering.js';
import { allVisibleTo, askedOfDatabase, checkAgainstDatabase, lockRefusal, sameValue, store } from './write.js';
import { arrayLiteral, columnOf, columnValue } from './createMany.js';
import { columnType } from './ddl.js';
import { attachFiles } from '../files/store.js';
import { nameOf } from './query.js';
import { fromLines, refreshDocuments, refuseLockedLines } from './lines.js';

/** One record of a set-based write: as stored (read and locked by the caller), and the changes it takes. */
export interface Update {
  stored: Row;
  changes: Record<string, unknown>;
}

export interface UpdateOptions {
  /** The action that causes the write: its name in each audit entry, and what the hooks see. */
  action?: string;
  /** Kept in each record's audit entry. */
  input?: unknown;
  /** A declared action runs the write (runAction checked its transition for every record). */
  declared?: boolean;
  /** Server code that must write past the lifecycle's locks says why; each audit entry names it. */
  overrideLock?: string;
}

/** One refused record and why, in words; `status` is what a single write answers for the same rule. */
export interface Refused {
  row: Row;
  why: string;
  status: number;
}

/** Most refused records named in the message (every one is in `errors`, by id). */
const NAMED = 5;
const count = (n: number) => n.toLocaleString('en-GB');

/**
 * Some records of a set-based write refused, so nothing was written: the message names the first few by their
 * representation ("1 of the 5,000 selected timesheet lines cannot be changed, so nothing was changed. 2026-05-04 Ann
 * Lee: This timesheet line is verified: …"), `errors` every one by id. The status is the one a single write answers
 * for the same rule (409 for a record's state, 422 for its values); 409 when both are among them.
 */
export class RecordsRefused extends HttpError {
  constructor(
    c: Compiled,
    total: number,
    refused: (Refused & { name: string })[],
    /** What the set would have done: 'changed', or 'deleted' (deleteMany). */
    done = 'changed',
  ) {
    const list = refused
      .slice(0, NAMED)
      .map((x) => `${x.name}: ${x.why}`)
      .join('; ');
    super(
      refused.some((x) => x.status === 409) ? 409 : Math.max(...refused.map((x) => x.status)),
      `${count(refused.length)} of the ${count(total)} selected ${c.decl.label.many.toLowerCase()} cannot be ${done}, so nothing was ${done}. ${list}${refused.length > NAMED ? '; …' : ''}`,
      Object.fromEntries(refused.map((x) => [String(x.row.id), x.why])),
    );
  }
}

/**
 * The refusal of a set naming its refused records as a read names them (their representation may be a computed
 * field, which a locked row does not carry): one read of the few named.
 */
export async function recordsRefused(
  ctx: EngineContext,
  c: Compiled,
  total: number,
  refused: Refused[],
  done?: string,
): Promise<RecordsRefused> {
  const named = refused.slice(0, NAMED);
  const p = new Params();
  const read = await ctx.db.query(
    `select ${selectList(c, ctx.principal, 'record', p.bind, ctx.today)} from ${c.table} where merchant_id = ${p.bind(ctx.principal.merchantId)} and id = any(${p.bind(named.map((x) => Number(x.row.id)))}::int[])`,
    p.values,
  );
  const byId = new Map(read.map((r) => [Number(r.id), r]));
  return new RecordsRefused(
    c,
    total,
    refused.map((x) => ({ ...x, name: nameOf(c, byId.get(Number(x.row.id)) ?? x.row) })),
    done,
  );
}

/** A record's problems in words: "Title: At most 50 characters" (the field named unless the message is whole). */
function problemWords(c: Compiled, errors: Record<string, string>): string {
  return Object.entries(errors)
    .map(([f, m]) => (f && f !== '_' && c.byField.get(f) ? `${c.byField.get(f)!.label}: ${m}` : m))
    .join('; ');
}

/** A single write's refusal (a per-record hook's) as the refusal of the set naming that record. */
export async function ofRecord<T>(
  ctx: EngineContext,
  c: Compiled,
  total: number,
  row: Row,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw await ofRecordRefusal(ctx, c, total, row, err);
  }
}

/** What ofRecord throws when a record's own work throws `err`: the set's refusal naming that record. */
export async function ofRecordRefusal(ctx: EngineContext, c: Compiled, total: number, row: Row, err: unknown) {
  if (!(err instanceof HttpError) || err instanceof RecordsRefused || total === 1) return err;
  const fields = err.errors ?? {};
  const why =
    Object.values(fields).includes(err.message) || !Object.keys(fields).length ? err.message : problemWords(c, fields);
  return recordsRefused(ctx, c, total, [{ row, why, status: err.status }]);
}

/** Refuses the set when any record has problems (by position), naming each record that has. */
async function refuseProblems(ctx: EngineContext, c: Compiled, items: Update[], problems: Problems[]) {
  const refused = problems.flatMap((p, i) =>
    Object.keys(p).length ? [{ row: items[i].stored, why: problemWords(c, toFieldErrors(p)), status: 422 }] : [],
  );
  if (refused.length) throw await recordsRefused(ctx, c, items.length, refused);
}

/** A time as the drivers answer one (server/db/index.ts, toIso): UTC, to the millisecond. */
const ANSWERED_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** A date as the drivers answer one (server/db/index.ts: a date is its text). */
const ANSWERED_DATE = /^\d{4}-\d\d-\d\d$/;

/**
 * Whether a column's values, as the records of a set-based update send them, are what the database stores and its
 * drivers answer (so the UPDATE need not return them): text sent as text, a yes/no as one (empty: no), a whole number
 * of an integer column as a number, a time in UTC to the millisecond ('2026-05-04T09:00:00.000Z', as toISOString writes
 * it), a date as yyyy-MM-dd; empty as empty. A time in another form, a decimal or JSON may be stored in another form
 * ('2026-05-04T10:00:00+01:00' as '2026-05-04T09:00:00.000Z', 7.50 as '7.5'), so those are read back.
 */
function storedAsSent(f: FieldDeclaration, writing: number[], records: RecordValues[], col: string): boolean {
  const t = columnType(f);
  if (columnOf(f).cast) return false;
  const form = t === 'timestamp with time zone' ? ANSWERED_TIME : t === 'date' ? ANSWERED_DATE : undefined;
  if (!form && t !== 'text' && t !== 'boolean' && t !== 'integer' && t !== 'bigint') return false;
  return writing.every((i) => {
    const v = records[i][col];
    if (v === null || v === undefined) return true;
    if (form) return typeof v === 'string' && form.test(v);
    if (t === 'text') return typeof v === 'string';
    if (t === 'boolean') return typeof v === 'boolean';
    return typeof v === 'number' && Number.isSafeInteger(v);
  });
}

/** A value's number among those seen (Map's SameValueZero: one number for each distinct text or number). */
function intern(seen: Map<unknown, number>, v: unknown): number {
  let n = seen.get(v);
  if (n === undefined) seen.set(v, (n = seen.size));
  return n;
}

/** A value storedAsSent says is stored as sent, as the drivers answer it. */
const sentValue = (f: FieldDeclaration, v: unknown) => v ?? (f.type === 'boolean' ? false : null);

/** A resource whose write changes other rows in order (a period's end moved): one record at a time. */
async function oneByOne(ctx: EngineContext, c: Compiled, items: Update[], e: UpdateOptions) {
  const rows: Row[] = [];
  for (const { stored, changes } of items)
    rows.push(await ofRecord(ctx, c, items.length, stored, () => store(ctx, c, stored, changes, e)));
  return { rows, reread: true };
}

/**
 * Stores changes to records already read and locked (policy applied), all or nothing: the lifecycle's locks (unless a
 * declared action, or an override with its reason) and the locks of lines by their documents, validation, the
 * database's checks and the constraints for every record in one pass; numbers taken at the transition; each record's
 * beforeSave; then one `UPDATE … FROM unnest` that sets each record's changed columns and bumps its version, one
 * statement for their audit entries, afterSave in set form (afterUpdateMany) or each record's, and the lines'
 * documents refreshed at once. Answers the stored columns of each record in the order given, and whether a hook (or a
 * document's refresh) changed them.
 */
export async function storeUpdates(
  ctx: EngineContext,
  c: Compiled,
  items: Update[],
  e: UpdateOptions,
): Promise<{ rows: Row[]; reread: boolean }> {
  if (items.length === 0) return { rows: [], reread: false };
  if (c.decl.effectiveDated || c.computedState) return oneByOne(ctx, c, items, e);
  const total = items.length;
  if (!e.declared && !e.overrideLock) {
    const refused = items.flatMap(({ stored, changes }): Refused[] => {
      const { locked, fields } = lockRefusal(c, stored, changes);
      if (locked) return [{ row: stored, why: locked, status: 409 }];
      return Object.keys(fields).length
        ? [{ row: stored, why: problemWords(c, toFieldErrors(fields)), status: 422 }]
        : [];
    });
    if (refused.length) throw await recordsRefused(ctx, c, total, refused);
  }
  const records: RecordValues[] = items.map(({ stored, changes }) => ({ ...stored, ...changes }));
  // Lines of documents whose state locks them (a declared action was checked by runAction, with its own states).
  if (!e.declared && !e.overrideLock)
    await refuseLockedLines(
      ctx,
      c,
      records,
      undefined,
      (i, why) =>
        new RecordsRefused(c, total, [{ row: items[i].stored, why, status: 409, name: nameOf(c, items[i].stored) }]),
    );
  // Documents take what their lines make of them (rollups, the state they derive) in their own write: one version.
  if (c.lineResources.length) {
    const fromTheirLines = await fromLines(ctx, c, records as Row[]);
    for (const record of records) Object.assign(record, fromTheirLines.get(Number(record.id)));
  }
  const defs = await customFieldsOf(ctx, c);
  const problems: Problems[] = validateRecords(c.decl, records, defs, ctx.today);
  // A field the write does not touch keeps its stored value: only those it sets are asked about again (and of
  // those, only the ones the database answers about: a transition's state, author and time are not).
  const askable = c.stored
    .filter(askedOfDatabase)
    .map((f) => f.source)
    .filter((k) => items.some(({ changes }) => Object.hasOwn(changes, k)));
  if (askable.length) {
    const asked = await checkAgainstDatabase(
      ctx,
      c,
      items.map(({ stored, changes }, i) => ({
        record: Object.fromEntries(askable.filter((k) => Object.hasOwn(changes, k)).map((k) => [k, records[i][k]])),
        known: problems[i],
        id: Number(stored.id),
      })),
    );
    asked.forEach((p, i) => Object.assign(problems[i], p));
  }
  await refuseProblems(ctx, c, items, problems);
  await refuseProblems(
    ctx,
    c,
    items,
    await checkConstraints(
      ctx,
      c,
      records.map((record, i) => ({ record, stored: items[i].stored, known: problems[i] })),
    ),
  );
  // Taken before the hooks, which may read them (or refuse the set: the rollback gives the numbers back).
  const numbered = records.filter((_, i) => numbersAt(c, items[i].stored, e.declared ? e.action : undefined));
  if (numbered.length) await numberRecords(ctx.db, c, ctx.principal.merchantId, numbered);
  const events: SaveEvent[] = items.map(({ stored, changes }, i) => ({
    stored,
    changes,
    record: records[i],
    action: e.action,
  }));
  const b = c.behaviour;
  // Each record's beforeSave (see ResourceBehaviour.afterUpdateMany): its refusal names the record.
  if (b.beforeSave)
    for (const [i, ev] of events.entries()) {
      const found = await ofRecord(ctx, c, total, ev.stored!, () => b.beforeSave!(ctx, ev));
      if (found && Object.keys(found).length)
        await refuseProblems(
          ctx,
          c,
          items,
          events.map((_, k) => (k === i ? found : {})),
        );
    }

  // Custom fields are the agency's own input on a form: a server write or transition never changes them.
  const cols = c.stored.map((f) => f.source).filter((col) => col !== 'created_at');
  // Which records change each column: a list for a column some record changes, none for the others (thousands of
  // records, most columns as they were). Unless a hook, the lines or a number changed the records past their changes,
  // only the columns the changes name can differ.
  const pastChanges = !!b.beforeSave || c.lineResources.length > 0 || numbered.length > 0;
  const named = new Set<string>();
  if (!pastChanges) for (const { changes } of items) for (const k in changes) named.add(k);
  const changedIn = new Map<string, boolean[]>();
  for (const col of pastChanges ? cols : cols.filter((x) => named.has(x))) {
    const f = c.byField.get(col)!;
    // Records mostly go from the same value to the same value (a transition): the last pair's answer is kept, as
    // comparing typed text normalises both sides.
    let known = false;
    let [lastNow, lastWas, lastDiffers]: [unknown, unknown, boolean] = [undefined, undefined, false];
    const differs = (i: number) => {
      const now = records[i][col];
      const was = items[i].stored[col];
      if (now === was) return false;
      if (!known || now !== lastNow || was !== lastWas) {
        lastNow = now;
        lastWas = was;
        lastDiffers = !sameValue(f, now, was);
        known = true;
      }
      return lastDiffers;
    };
    if (records.some((_, i) => differs(i)))
      changedIn.set(
        col,
        records.map((_, i) => differs(i)),
      );
  }
  const changed = (i: number, col: string) => changedIn.get(col)?.[i] ?? false;
  // As a single write: a record the write leaves as it was is not written, unless an action ran on it.
  const lists = [...changedIn.values()];
  const writing = items.flatMap((_, i) => (e.action || lists.some((list) => list[i]) ? [i] : []));
  const out: Row[] = items.map((x) => x.stored);
  if (writing.length === 0) return { rows: out, reread: false };
  const union = cols.filter((col) => changedIn.has(col) && writing.some((i) => changed(i, col)));
  const p = new Params();
  const merchant = p.bind(ctx.principal.merchantId);
  const ids = p.bind(writing.map((i) => Number(items[i].stored.id)));
  const arrays = [`${ids}::int[]`];
  const names = ['engine_id'];
  const sets: string[] = [];
  union.forEach((col, k) => {
    const f = c.byField.get(col)!;
    const { array, cast } = columnOf(f);
    const values = writing.map((i) => columnValue(f, records[i][col]));
    const everyRecord = writing.every((i) => changed(i, col));
    // A value every record takes (a transition's state, author, time, reason) is sent once, not once a record.
    if (everyRecord && values.every((v) => v === values[0])) {
      sets.push(`${ident(col)} = ${p.bind(values[0])}::${array}${cast ? `::${cast}` : ''}`);
      return;
    }
    arrays.push(`${p.bind(arrayLiteral(values))}::${array}[]`);
    names.push(`engine_${k}`);
    const value = cast ? `u."engine_${k}"::${cast}` : `u."engine_${k}"`;
    if (everyRecord) sets.push(`${ident(col)} = ${value}`);
    else {
      // A column only some records change: the others keep theirs (never rewritten from JavaScript's copy).
      arrays.push(`${p.bind(arrayLiteral(writing.map((i) => changed(i, col))))}::boolean[]`);
      names.push(`engine_${k}_set`);
      sets.push(`${ident(col)} = case when u."engine_${k}_set" then ${value} else ${c.table}.${ident(col)} end`);
    }
  });
  // What the database gives back: only the columns whose stored form can differ from what was sent (a time, a
  // decimal, JSON, a date). Text, yes/no and whole numbers sent as such are stored as sent; the new version is the
  // one read under the lock plus one, and the time is the transaction's (one value, read once below).
  const sentAsStored = new Set(union.filter((col) => storedAsSent(c.byField.get(col)!, writing, records, col)));
  const returned = union.filter((col) => !sentAsStored.has(col));
  const statement = `update ${c.table} set ${[...sets, 'updated_at = now()', `version = ${c.table}.version + 1`].join(', ')}
      from unnest(${arrays.join(', ')}) as u(${names.map(ident).join(', ')})
     where ${c.table}.merchant_id = ${merchant} and ${c.table}.id = u."engine_id"${
       returned.length ? ` returning ${['id', ...returned].map((col) => `${c.table}.${ident(col)}`).join(', ')}` : ''
     }`;
  // Thousands of rows answered: queryMany. Nothing to answer when every value is stored as sent (the rows are locked,
  // so each is written).
  const write = async () =>
    returned.length
      ? queryMany(ctx.db, c, ['id', ...returned], statement, p.values)
      : (await ctx.db.query(statement, p.values), []);
  const explain = b.refusedByDatabase;
  let got: Row[];
  if (!explain) got = await write();
  else {
    await ctx.db.query('savepoint engine_write');
    try {
      got = await write();
      await ctx.db.query('release savepoint engine_write');
    } catch (err) {
      await ctx.db.query('rollback to savepoint engine_write');
      // The database names no record: each is asked in turn whether the refusal is its own, as a single write would be.
      for (const i of writing) {
        const why = await explain(ctx, events[i], err as { code?: string; detail?: string });
        if (why instanceof HttpError)
          throw await recordsRefused(ctx, c, total, [{ row: items[i].stored, why: why.message, status: why.status }]);
        if (why) throw why;
      }
      throw err;
    }
  }
  // now(): the transaction's start, the time the UPDATE wrote; as the drivers answer a time (queryMany).
  const [{ updated_at }] = await queryMany(ctx.db, c, ['id', 'updated_at'], 'select 0 as id, now() as updated_at', []);
  const byId = new Map(got.map((r) => [Number(r.id), r]));
  const sent = [...sentAsStored].map((col) => ({ col, f: c.byField.get(col)!, changes: changedIn.get(col)! }));
  for (const i of writing) {
    const row: Row = { ...items[i].stored, updated_at, version: Number(items[i].stored.version) + 1 };
    for (const { col, f, changes } of sent) if (changes[i]) row[col] = sentValue(f, records[i][col]);
    if (got.length) Object.assign(row, byId.get(Number(items[i].stored.id)));
    out[i] = row;
  }
  // One statement for every entry, each as a single write's: what changed, as diff says (only the columns written
  // can have: the rest of each row is as it was read).
  const written = union.map((col) => c.byField.get(col)!);
  // Records written alike (a transition: the same state, author and time over the same values) change alike: each
  // distinct pair of before and after values is diffed once, and its change is one object, which auditMany writes
  // out once. Values are told apart by identity (a text, a number, empty), so only equal inputs share a diff.
  const seen = written.map(() => new Map<unknown, number>());
  const diffs = new Map<string, Changes>();
  // Most often every record goes from the same values to the same values: one change for them all.
  const alike = written.every(
    (f) =>
      writing.every((i) => items[i].stored[f.source] === items[writing[0]].stored[f.source]) &&
      writing.every((i) => out[i][f.source] === out[writing[0]][f.source]),
  );
  const shared = alike && writing.length ? diff(c, items[writing[0]].stored, out[writing[0]], written) : undefined;
  const changesOf = (i: number): Changes => {
    if (shared) return shared;
    let key = '';
    for (let k = 0; k < written.length; k++) {
      const [a, b] = [items[i].stored[written[k].source], out[i][written[k].source]];
      if ((a !== null && typeof a === 'object') || (b !== null && typeof b === 'object'))
        return diff(c, items[i].stored, out[i], written);
      key += `${intern(seen[k], a)}.${intern(seen[k], b)},`;
    }
    let changes = diffs.get(key);
    if (!changes) diffs.set(key, (changes = diff(c, items[i].stored, out[i], written)));
    return changes;
  };
  await auditMany(
    ctx,
    c,
    writing.map((i) => ({ row: out[i], changes: changesOf(i) })),
    e.action ? 'action' : 'update',
    {
      action: e.action,
      input: e.overrideLock ? { ...(e.input as object), overrideLock: e.overrideLock } : e.input,
    },
  );
  for (const f of c.stored.filter((x) => x.type === 'image' || x.type === 'file'))
    for (const i of writing) {
      if (!changed(i, f.source) || !out[i][f.source]) continue;
      // Another record took the file first (two saves with one upload): refused, and the write rolls back.
      const taken = await attachFiles(ctx.db, ctx.principal.merchantId, c.decl.name, out[i].id, f.source, [
        String(out[i][f.source]),
      ]);
      if (taken.length)
        await refuseProblems(
          ctx,
          c,
          items,
          items.map((_, k) => (k === i ? { [f.source]: { message: 'engine.validation.file' } } : {})),
        );
    }
  const saved = b.afterUpdateMany || b.afterSave ? writing.map((i) => ({ ...events[i], row: out[i] })) : [];
  let reread = false;
  if (b.afterUpdateMany) reread = !!(await b.afterUpdateMany(ctx, saved));
  else if (b.afterSave)
    for (const ev of saved)
      reread = !!(await ofRecord(ctx, c, total, ev.stored!, () => b.afterSave!(ctx, ev))) || reread;
  // Lines' documents follow them, all of them at once (then the lines' answers read their documents' new state).
  const parent = c.decl.parent;
  if (parent?.lines) {
    const docs = writing.flatMap((i) => [out[i][parent.field], items[i].stored[parent.field]]);
    if (await refreshDocuments(ctx, c, docs)) reread = true;
  }
  return { rows: out, reread };
}

/**
 * The records as a read of each answers them (computed fields too, only what the principal may read), in the order
 * given: one statement. A record outside the principal's scope (a write moved it there) refuses the set (404).
 */
export async function readRecords(ctx: EngineContext, c: Compiled, ids: number[]): Promise<Row[]> {
  const p = new Params();
  const where = scopeWhere(c, ctx.principal, p.bind);
  const found = await ctx.db.query(
    `select ${selectList(c, ctx.principal, 'record', p.bind, ctx.today)} from ${c.table} where ${where} and id = any(${p.bind(ids)}::int[])`,
    p.values,
  );
  const byId = new Map(found.map((r) => [Number(r.id), r]));
  if (ids.some((id) => !byId.has(Number(id)))) throw new HttpError(404, `${c.decl.label.one} not found.`);
  return ids.map((id) => byId.get(Number(id))!);
}

/**
 * storeUpdates, answered as the principal may read the records: their stored columns (a server write), or, with
 * `read`, as a read of each answers them (a request). A client user's answer, or one a hook changed, is read again
 * through the principal's scope.
 */
export async function updateMany(
  ctx: EngineContext,
  c: Compiled,
  items: Update[],
  e: UpdateOptions & { read?: boolean },
): Promise<Row[]> {
  const { rows, reread } = await storeUpdates(ctx, c, items, e);
  if (e.read || reread || ctx.principal.loginType !== 'agency') {
    const read = await readRecords(
      ctx,
      c,
      rows.map((r) => Number(r.id)),
    );
    return e.read
      ? read
      : allVisibleTo(
          c,
          ctx.principal,
          rows.map((r, i) => ({ ...r, ...read[i] })),
        );
  }
  return allVisibleTo(c, ctx.principal, rows);
}
