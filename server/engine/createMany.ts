// Creating many records at once (createMany): a single create's rules (validation, scope and references,
// constraints, numbering, hooks, version, audit) in set form, all or nothing.
import type { Row } from '../db/index.js';
import { HttpError, notFound } from '../http.js';
import type { FieldDeclaration, RecordValues } from '../../core/engine/types.js';
import { validateCustomFieldsInput, validateRecord, type Problems } from '../../core/engine/validate.js';
import { toFieldErrors } from './messages.js';
import { ident, Params, readable, scopeWhere, selectList, type Compiled } from './compile.js';
import { columnType } from './ddl.js';
import type { EngineContext, SaveEvent } from './context.js';
import { auditCreatesSql } from './audit.js';
import { customFieldsOf } from './customFields.js';
import { checkConstraints } from './constraints.js';
import { numberRecords, numbersAt } from './numbering.js';
import { applyWritePolicy, checkAgainstDatabase, createDefaultsOf, store } from './write.js';
import { attachFiles } from '../files/store.js';
import { createdLockedReason } from '../../core/engine/lifecycle.js';
import { refreshDocuments, refuseLockedLines } from './lines.js';
import { keepCreatedDocuments } from '../documents/records.js';

/** The refusals of some records of a createMany, by position: what is wrong with each, in words. */
export interface RowRefusal {
  row: number;
  /** By field ('' when the refusal names no field). */
  errors: Record<string, string>;
}

/** Most refused records named in the message (every one is in `errors`). */
const NAMED = 3;

/**
 * A createMany refused: nothing was created. `errors` names each refused record's fields as `rows[3].site_id` (or
 * `rows[3]` alone); `rows` keeps them by position, for a route that names its records otherwise (the shifts' dates).
 * The status is 422, or the one a single create answers for the same rule (a single-row hook's 409, say).
 */
export class RowsRefused extends HttpError {
  constructor(
    c: Compiled,
    total: number,
    public rows: RowRefusal[],
    status = 422,
  ) {
    const label = (f: string) => c.byField.get(f)?.label ?? f;
    const named = rows
      .slice(0, NAMED)
      .flatMap((r) =>
        Object.entries(r.errors).map(([f, m]) => `Row ${r.row + 1} (rows[${r.row}])${f ? `, ${label(f)}` : ''}: ${m}`),
      );
    const many = c.decl.label.many.toLowerCase();
    super(
      status,
      `Nothing was created: ${rows.length} of the ${total} ${many} ${rows.length === 1 ? 'has a problem' : 'have problems'}. ${named.join('; ')}${rows.length > NAMED ? '; …' : ''}`,
      Object.fromEntries(
        rows.flatMap((r) =>
          Object.entries(r.errors).map(([f, m]) => [f ? `rows[${r.row}].${f}` : `rows[${r.row}]`, m]),
        ),
      ),
    );
  }
}

/** Refuses the set when any record has problems, naming each record that has. */
function refuseRows(c: Compiled, problems: Problems[]) {
  const rows = problems.flatMap((p, row) => (Object.keys(p).length ? [{ row, errors: toFieldErrors(p) }] : []));
  if (rows.length) throw new RowsRefused(c, problems.length, rows);
}

/** An error of one record's single-row path, as the refusal of the set naming that record. */
function ofRow(c: Compiled, total: number, row: number, e: unknown): unknown {
  if (!(e instanceof HttpError) || e instanceof RowsRefused) return e;
  return new RowsRefused(c, total, [{ row, errors: e.errors ?? { '': e.message } }], e.status);
}

/**
 * How a column travels in the insert's unnest: the array type its values are sent in, and what a value sent as text
 * is cast to (a list column: unnest would flatten an array of arrays; a JSON column, as its text). Custom fields are
 * JSON.
 */
export function columnOf(f: FieldDeclaration | undefined): { array: string; cast?: string } {
  if (!f || f.type === 'json' || f.type === 'address') return { array: 'text', cast: 'jsonb' };
  if (f.type === 'references') return { array: 'text', cast: 'integer[]' };
  if (f.type === 'choices') return { array: 'text', cast: 'text[]' };
  return { array: columnType(f) };
}

const arrayItem = (v: unknown) => {
  const s = String(v);
  // Most texts hold neither a quote nor a backslash: looked for first, as thousands of a set's values are written.
  return s.includes('"') || s.includes('\\') ? `"${s.replace(/["\\]/g, '\\$&')}"` : `"${s}"`;
};
/** An array's text as PostgreSQL reads it: numbers and booleans bare, anything else quoted, NULL for null. */
export const arrayLiteral = (values: unknown[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : arrayItem(v))).join(',')}}`;
/** A value as its unnest array carries it (as toColumnValue does for a single insert). */
export function columnValue(f: FieldDeclaration | undefined, v: unknown) {
  if (f?.type === 'references') return `{${v == null ? '' : (v as unknown[]).map(Number).join(',')}}`;
  if (f?.type === 'choices') return `{${v == null ? '' : (v as unknown[]).map(arrayItem).join(',')}}`;
  if (f?.type === 'boolean' && v == null) return false;
  if (v == null) return null;
  if (!f || f.type === 'json' || f.type === 'address') return JSON.stringify(v);
  // An effect may set a time as a Date (an update's patch); the array's text carries it as the instant it is.
  if (v instanceof Date) return v.toISOString();
  if (f.type === 'reference' || f.type === 'number' || f.type === 'money') return Number(v);
  return v;
}

export interface ManyOptions {
  /** Kept in every record's audit entry: what the run or request was asked. */
  input?: unknown;
  /** Problems already found per record (the field write policy's). */
  problems?: (Problems | undefined)[];
  /** Each record's custom fields as sent, for a resource that has them. */
  customInputs?: unknown[];
}

/** A resource whose create changes other rows in order (a new period closes the one in force): one record at a time. */
async function oneByOne(ctx: EngineContext, c: Compiled, rows: Record<string, unknown>[], e: ManyOptions) {
  const out: Row[] = [];
  for (const [i, changes] of rows.entries()) {
    try {
      out.push(
        await store(ctx, c, undefined, changes, {
          customInput: e.customInputs?.[i],
          problems: e.problems?.[i],
          input: e.input,
        }),
      );
    } catch (err) {
      throw ofRow(c, rows.length, i, err);
    }
  }
  return { rows: out, reread: false };
}

/**
 * Stores new records (policy already applied), all or nothing: validates every record, asks the database once per
 * field and constraint for all of them, takes their numbers, runs the hooks in set form, then inserts them in one
 * statement that also writes their audit entries (built by the database from the inserted rows). Answers the stored
 * rows in the order given, and whether a hook changed them.
 */
async function storeMany(
  ctx: EngineContext,
  c: Compiled,
  rows: Record<string, unknown>[],
  e: ManyOptions,
): Promise<{ rows: Row[]; reread: boolean }> {
  if (rows.length === 0) return { rows: [], reread: false };
  // Its table's cached totals go stale when the transaction commits (server/engine/routes.ts inTransaction).
  ctx.touched?.add(c.decl.table);
  if (c.decl.effectiveDated) return oneByOne(ctx, c, rows, e);
  const storable = c.stored.filter((f) => f.source !== 'created_at');
  const defaults = await createDefaultsOf(ctx, c);
  const defs = await customFieldsOf(ctx, c);
  const problems: Problems[] = rows.map((_, i) => ({ ...e.problems?.[i] }));
  const records: RecordValues[] = rows.map((changes, i) => {
    const record: RecordValues = { ...defaults, ...changes };
    if (c.decl.customFields) {
      const input = e.customInputs?.[i];
      if (input !== undefined) {
        const custom = validateCustomFieldsInput(defs, input, {}, ctx.today);
        Object.assign(problems[i], custom.problems);
        record.custom_fields = custom.merged;
      } else record.custom_fields = {};
    }
    for (const [k, v] of Object.entries(validateRecord(c.decl, record, defs, ctx.today))) problems[i][k] ??= v;
    // A record reaches a final state only through a transition, never by being created in it.
    const startsLocked = createdLockedReason(c.decl, record);
    if (startsLocked && c.decl.lifecycle) problems[i][c.decl.lifecycle.field] ??= { message: startsLocked };
    return record;
  });
  const asked = await checkAgainstDatabase(
    ctx,
    c,
    records.map((record, i) => ({ record, known: problems[i] })),
  );
  asked.forEach((p, i) => Object.assign(problems[i], p));
  refuseRows(c, problems);
  refuseRows(
    c,
    await checkConstraints(
      ctx,
      c,
      records.map((record, i) => ({ record, known: problems[i] })),
    ),
  );
  // Lines of a document whose state locks them are refused like a single create's, naming the line.
  await refuseLockedLines(
    ctx,
    c,
    records,
    undefined,
    (row, why) => new RowsRefused(c, rows.length, [{ row, errors: { '': why } }], 409),
  );
  // Taken before the hooks, which may read them (or refuse the set: the rollback gives the numbers back).
  if (numbersAt(c, undefined, undefined)) await numberRecords(ctx.db, c, ctx.principal.merchantId, records);
  const events: SaveEvent[] = records.map((record, i) => ({ changes: rows[i], record }));
  const b = c.behaviour;
  if (b.beforeSaveMany) {
    const found = (await b.beforeSaveMany(ctx, events)) ?? [];
    refuseRows(
      c,
      events.map((_, i) => found[i] ?? {}),
    );
  } else if (b.beforeSave) {
    for (const [i, ev] of events.entries()) {
      let found: Problems | void;
      try {
        found = await b.beforeSave(ctx, ev);
      } catch (err) {
        throw ofRow(c, rows.length, i, err);
      }
      if (found && Object.keys(found).length)
        throw new RowsRefused(c, rows.length, [{ row: i, errors: toFieldErrors(found) }]);
    }
  }

  const cols = [...storable.map((f) => f.source), ...(c.decl.customFields ? ['custom_fields'] : [])];
  const p = new Params();
  const merchant = p.bind(ctx.principal.merchantId);
  // One array per column (unnest reads them ~5 times faster than json_populate_recordset reads one JSON), written
  // here as the array's text; a column empty in every record is written as null without sending an array of nulls.
  const sent: string[] = [];
  const arrays: string[] = [];
  for (const col of cols) {
    const f = c.byField.get(col);
    const column = records.map((r) => columnValue(f, r[col]));
    if (column.every((v) => v === null)) continue;
    sent.push(col);
    arrays.push(`${p.bind(arrayLiteral(column))}::${columnOf(f).array}[]`);
  }
  const values = cols.map((col) => {
    if (!sent.includes(col)) return 'null';
    const { cast } = columnOf(c.byField.get(col));
    return cast ? `u.${ident(col)}::${cast}` : `u.${ident(col)}`;
  });
  const rowsOf = sent.length
    ? `unnest(${arrays.join(', ')}) with ordinality as u(${sent.map(ident).join(', ')}, "engine_position")`
    : `generate_series(1, ${p.bind(records.length)}::int) as u("engine_position")`;
  // What the database gives each row, and the columns sent: those written as null stay null (no declared table has a
  // trigger that sets a value), so they are neither read back nor looked at by the audit.
  const returned = ['id', 'created_at', 'updated_at', 'version', ...sent];
  const audit = auditCreatesSql(c, ctx.principal, 'created', p.bind, e.input, new Set(sent), ctx.now);
  // Inserted in the order given, so their ids follow it; one statement writes the rows and their audit entries.
  const got = await ctx.db.query(
    `with created as (
       insert into ${c.table} (merchant_id, ${cols.map(ident).join(', ')})
       select ${merchant}, ${values.join(', ')}
         from ${rowsOf}
        order by u."engine_position"
       returning ${returned.map(ident).join(', ')})${audit ? `,\n     audited as (${audit})` : ''}
     select * from created`,
    p.values,
  );
  got.sort((a, b) => a.id - b.id);
  const inserted = got.map((row) => {
    const full: Row = {};
    for (const col of c.storedColumns) full[col] = row[col] ?? null;
    return full;
  });
  const fileFields = c.stored.filter((f) => f.type === 'image' || f.type === 'file');
  for (const f of fileFields)
    for (const [i, row] of inserted.entries()) {
      if (!row[f.source]) continue;
      // Another record took the file first (two saves with one upload): refused, and the write rolls back.
      const taken = await attachFiles(ctx.db, ctx.principal.merchantId, c.decl.name, row.id, f.source, [
        String(row[f.source]),
      ]);
      if (taken.length)
        throw new RowsRefused(c, rows.length, [
          { row: i, errors: toFieldErrors({ [f.source]: { message: 'engine.validation.file' } }) },
        ]);
    }
  const saved = events.map((ev, i) => ({ ...ev, row: inserted[i] }));
  let reread = false;
  if (b.afterSaveMany) reread = !!(await b.afterSaveMany(ctx, saved));
  else if (b.afterSave)
    for (const [i, ev] of saved.entries()) {
      try {
        reread = !!(await b.afterSave(ctx, ev)) || reread;
      } catch (err) {
        throw ofRow(c, rows.length, i, err);
      }
    }
  // Their documents follow, all of them in a few statements whatever their number (refreshDocuments).
  const parent = c.decl.parent;
  if (parent?.lines)
    await refreshDocuments(
      ctx,
      c,
      inserted.map((r) => r[parent.field]),
    );
  return { rows: inserted, reread };
}

/** The created rows inside the principal's row scope, read again: a record created outside it refuses the set (404). */
async function inScope(ctx: EngineContext, c: Compiled, rows: Row[], select: string, p = new Params()) {
  const where = scopeWhere(c, ctx.principal, p.bind);
  const found = await ctx.db.query(
    `select ${select} from ${c.table} where ${where} and id = any(${p.bind(rows.map((r) => r.id))}::int[]) order by id`,
    p.values,
  );
  if (found.length !== rows.length) throw notFound(c.decl.label.one);
  return found;
}

/**
 * The engine handle's createMany: the server's own records (no field write policy), as the context's principal,
 * answered with their stored fields as that principal may read them, in the order given.
 */
export async function createMany(
  ctx: EngineContext,
  c: Compiled,
  rows: Record<string, unknown>[],
  e: ManyOptions = {},
): Promise<Row[]> {
  const stored = await storeMany(ctx, c, rows, e);
  await keepCreatedDocuments(
    ctx,
    c,
    stored.rows.map((r) => Number(r.id)),
  );
  // An agency user's scope is their agency, which a create cannot leave; anyone else's is read again, as on a create.
  const all =
    stored.reread || ctx.principal.loginType !== 'agency'
      ? await inScope(ctx, c, stored.rows, c.storedColumns.map(ident).join(', '))
      : stored.rows;
  const hidden = ctx.principal.loginType === 'staff' || ctx.principal.loginType === 'link';
  const unread = c.storedColumns.filter((k) => {
    const f = c.byField.get(k);
    return f ? !readable(ctx.principal, f) : k === 'custom_fields' && hidden;
  });
  if (unread.length === 0) return all;
  return all.map((row) => {
    const out = { ...row };
    for (const k of unread) delete out[k];
    return out;
  });
}

/**
 * A caller's create of many records (a bulk route): each record under the field write policy, then createMany's
 * path. Answers the records as a read of each would (computed fields too), in the order given.
 */
export async function saveMany(
  ctx: EngineContext,
  c: Compiled,
  bodies: unknown[],
  e: { input?: unknown } = {},
): Promise<Row[]> {
  const problems: Problems[] = [];
  const changes: Record<string, unknown>[] = [];
  const customInputs: unknown[] = [];
  for (const body of bodies) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      problems.push({ '': { message: 'Send each record as a JSON object' } });
      changes.push({});
      customInputs.push(undefined);
      continue;
    }
    const b = body as Record<string, unknown>;
    const policed = applyWritePolicy(c, ctx.principal, b);
    problems.push(policed.problems);
    changes.push(policed.changes);
    customInputs.push(
      c.decl.customFields && Object.prototype.hasOwnProperty.call(b, 'custom_fields') ? b.custom_fields : undefined,
    );
  }
  refuseRows(
    c,
    problems.map((p) => (p[''] ? p : {})),
  );
  const stored = await storeMany(ctx, c, changes, { input: e.input, problems, customInputs });
  const p = new Params();
  return inScope(ctx, c, stored.rows, selectList(c, ctx.principal, 'record', p.bind, ctx.today), p);
}
