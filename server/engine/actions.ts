// Running a declared action on records: its input, its guard and its effects, in the write path.
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { ActionDeclaration } from '../../core/engine/types.js';
import { checkField, type Problems } from '../../core/engine/validate.js';
import { toFieldErrors } from './messages.js';
import { ident, Params, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { normalised, refuse, store } from './write.js';
import { getRecord, nameOf } from './query.js';
import { ofRecordRefusal, recordsRefused, updateMany } from './updateMany.js';
import { deleteMany, deleteRecord } from './delete.js';
import { lockRecords } from './locks.js';

export { lockParents, lockRecords } from './locks.js';
import { actionRefusal, stateName, transitionOf } from '../../core/engine/lifecycle.js';
import { refuseLockedLines, writingDocument } from './lines.js';
import { keepIssuedDocuments } from '../documents/records.js';

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

/** The input as the audit trail keeps it: without its secrets (a new password). */
function kept(action: ActionDeclaration, input: Record<string, unknown>) {
  const secrets = new Set((action.input ?? []).filter((f) => f.secret).map((f) => f.source));
  if (secrets.size === 0) return input;
  return Object.fromEntries(Object.entries(input).filter(([k]) => !secrets.has(k)));
}

/**
 * The behaviour's slow work on an action's input (server/engine/context.ts `prepare`), to run before the action's
 * transaction begins; undefined when the action has none. Refuses bad input (422) as the action itself would.
 */
export async function prepareAction(
  ctx: EngineContext,
  c: Compiled,
  action: ActionDeclaration,
  body: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const prepare = c.behaviour.prepare?.[action.name];
  return prepare ? prepare(actionInput(ctx, action, body), ctx) : undefined;
}

/** A programming mistake: the effect led somewhere the lifecycle does not declare. */
const wrongState = (c: Compiled, action: string, to: unknown) =>
  new Error(
    `${c.decl.name}.${action} would make the ${c.decl.label.one.toLowerCase()} ${stateName(c.decl, to)}, which its lifecycle does not declare`,
  );

/**
 * A collection action's answer when it started work that goes on after the request (a job with progress): its route
 * answers 202 with `data` (the job's id, for GET /api/jobs/:id) instead of 200.
 */
export class Accepted {
  constructor(public data: unknown) {}
}

/** Runs a collection action (declared `collection: true`): its validated input, given to the behaviour's effect. */
export async function runCollectionAction(
  ctx: EngineContext,
  c: Compiled,
  action: ActionDeclaration,
  body: Record<string, unknown>,
): Promise<unknown> {
  const run = c.behaviour.collection?.[action.name];
  if (!run) throw new Error(`${c.decl.name}.${action.name} is a collection action without an effect in its behaviour`);
  return run(ctx, actionInput(ctx, action, body));
}

/**
 * The locked rows with the computed fields the action's guard reads (`guardReads`), read under the rows' lock: the
 * guard sees them as a read shows them, though the row written is the stored one.
 */
async function withGuardReads(ctx: EngineContext, c: Compiled, action: ActionDeclaration, rows: Row[]) {
  const reads = action.guardReads ?? [];
  if (!reads.length || !rows.length) return rows;
  const p = new Params();
  const cols = reads.map((f) => `(${c.behaviour.computed![f](p.bind, { today: ctx.today })}) as ${ident(f)}`);
  const found = await ctx.db.query(
    `select id, ${cols.join(', ')} from ${c.table} where merchant_id = ${p.bind(ctx.principal.merchantId)}
      and id = any(${p.bind(rows.map((r) => r.id))}::int[])`,
    p.values,
  );
  const byId = new Map(found.map((r) => [Number(r.id), r]));
  return rows.map((r) => ({ ...r, ...byId.get(Number(r.id)) }));
}

/**
 * Runs an action on one or more records, all or nothing: the rows are locked, every guard must allow it, then the
 * records take the declared patch and the server effect through the same write path as any change (validation,
 * hooks, audit with the action and its input, secrets left out): one record through `store`, many in set form
 * (storeUpdates: one pass of checks, one UPDATE, one audit statement). `options.prepared` is prepareAction's answer,
 * computed before the transaction; without it the preparation runs here.
 */
export async function runAction(
  ctx: EngineContext,
  c: Compiled,
  action: ActionDeclaration,
  ids: number[],
  body: Record<string, unknown>,
  registry?: Map<string, Compiled>,
  options: Parameters<typeof transitionRecords>[6] = {},
): Promise<Row[]> {
  // The outermost action keeps the documents of the records it created once its effect is done (their lines written).
  if (ctx.keeping) return transitionRecords(ctx, c, action, ids, body, registry, options);
  ctx.keeping = [];
  try {
    const out = await transitionRecords(ctx, c, action, ids, body, registry, options);
    for (const keep of ctx.keeping.splice(0)) await keep();
    return out;
  } finally {
    delete ctx.keeping;
  }
}

async function transitionRecords(
  ctx: EngineContext,
  c: Compiled,
  action: ActionDeclaration,
  ids: number[],
  body: Record<string, unknown>,
  registry?: Map<string, Compiled>,
  options: {
    /** The server's own run (ctx.engine.act) says why in the entry, beside the action's input. */
    reason?: string;
    /** prepareAction's answer, computed before the transaction; without it the preparation runs here. */
    prepared?: Record<string, unknown>;
    /** Many records answered with their stored fields only (the server's own run), not as a read answers them. */
    stored?: boolean;
  } = {},
): Promise<Row[]> {
  const lc = c.decl.lifecycle;
  const rows = await lockRecords(ctx, c, ids, registry);
  // The input is read once the records are found: a caller learns nothing of a record outside their scope from a 422.
  const input = actionInput(ctx, action, body);
  const effectInput = { ...input, ...(options.prepared ?? (await prepareAction(ctx, c, action, body))) };
  // What the entry keeps: the input without its secrets, and the server's reason for its own run.
  const entryInput = options.reason ? { reason: options.reason, ...kept(action, input) } : kept(action, input);
  const guarded = await withGuardReads(ctx, c, action, rows);
  const refused = rows.flatMap((r, i) => {
    const why = actionRefusal(c.decl, action, guarded[i]);
    return why ? [{ row: r, why: toFieldErrors({ x: { message: why } }).x, status: 409 }] : [];
  });
  if (refused.length) {
    if (rows.length === 1) throw new HttpError(409, refused[0].why);
    throw await recordsRefused(ctx, c, rows.length, refused);
  }
  // Lines of a document whose state locks them (the action's own states, or the lines' editableIn).
  await refuseLockedLines(ctx, c, rows, action.deletes ? undefined : action.name, (i, why) =>
    rows.length === 1 ? new HttpError(409, why) : new HttpError(409, `${nameOf(c, rows[i])}: ${why}`),
  );
  // The declared delete's button: the engine's delete with the input's reason, audited as a delete.
  if (action.deletes) {
    if (!registry) throw new Error(`${c.decl.name}.${action.name} deletes: runAction needs the registry`);
    // Many in set form (deleteMany). A deleted row that stays listed is answered as it now reads (who deleted it,
    // why); any other as it was.
    const gone =
      rows.length === 1
        ? [await deleteRecord(ctx, c, rows[0].id, registry, input.reason)]
        : await deleteMany(
            ctx,
            c,
            rows.map((r) => Number(r.id)),
            registry,
            input.reason,
          );
    if (!c.deletion.listed) return gone;
    const out: Row[] = [];
    for (const r of gone) out.push(await getRecord(ctx, c, r.id));
    return out;
  }
  const t = transitionOf(lc, action.name);
  // The states the transition may lead to: the one it declares, one of those it lists, or the record's own.
  const allowed = (stored: Row, field: string) =>
    t?.to === undefined ? [stored[field]] : Array.isArray(t.to) ? t.to : [t.to];
  if (rows.length > 1 && !c.computedState) {
    // The effect in set form, or each record's in turn (its refusal naming the record).
    const many = c.behaviour.actionsMany?.[action.name];
    const one = c.behaviour.actions?.[action.name];
    const effects: (Record<string, unknown> | void)[] = many ? ((await many(ctx, rows, effectInput)) ?? []) : [];
    if (!many && one)
      // As ofRecord, without a closure and a promise more for each of thousands of records.
      for (const r of rows)
        try {
          effects.push(await one(ctx, r, effectInput));
        } catch (err) {
          throw await ofRecordRefusal(ctx, c, rows.length, r, err);
        }
    const items = rows.map((stored, i) => {
      const patch: Record<string, unknown> = { ...action.patch?.(stored, input), ...(effects[i] ?? {}) };
      if (lc) {
        if (typeof t?.to === 'string') patch[lc.field] = t.to;
        if (!allowed(stored, lc.field).includes(patch[lc.field] ?? stored[lc.field]))
          throw wrongState(c, action.name, patch[lc.field]);
      }
      return { stored, changes: patch };
    });
    const ids = rows.map((r) => Number(r.id));
    // Documents' lines changed by the effect leave them to this write (one version, one entry each).
    const written = await writingDocument(ctx, c, ids, () =>
      updateMany(ctx, c, items, { action: action.name, input: entryInput, declared: true, read: !options.stored }),
    );
    await keepIssuedDocuments(ctx, c, action.name, ids);
    return written;
  }
  const out: Row[] = [];
  for (const stored of rows)
    // A document's lines changed by its effect leave it to its own write below (one version, one entry).
    out.push(await writingDocument(ctx, c, stored.id, () => transition(stored)));
  // The documents this transition issues, rendered and kept in its transaction (a lock's timesheet).
  await keepIssuedDocuments(
    ctx,
    c,
    action.name,
    out.map((r) => r.id),
  );
  return out;

  async function transition(stored: Row): Promise<Row> {
    const patch: Record<string, unknown> = {
      ...action.patch?.(stored, input),
      ...((await c.behaviour.actions?.[action.name]?.(ctx, stored, effectInput)) ?? {}),
    };
    if (c.computedState) {
      // The patch changes the columns the state is computed from; the state it leads to is checked once written
      // (a refusal rolls the write back).
      const written = await store(ctx, c, stored, patch, { action: action.name, input: entryInput, declared: true });
      const to = (await getRecord(ctx, c, written.id, { all: true }))[c.computedState];
      if (!allowed(stored, c.computedState).includes(to)) throw wrongState(c, action.name, to);
      return written;
    }
    if (lc) {
      // The transition sets the state it declares; an effect may choose only among the states it declares.
      if (typeof t?.to === 'string') patch[lc.field] = t.to;
      const to = patch[lc.field] ?? stored[lc.field];
      if (!allowed(stored, lc.field).includes(to)) throw wrongState(c, action.name, to);
    }
    return store(ctx, c, stored, patch, { action: action.name, input: entryInput, declared: true });
  }
}
