// Running a declared action on records: its input, its guard and its effects, in the write path.
import type { Row } from '../db/index.js';
import { HttpError, notFound } from '../http.js';
import type { ActionDeclaration } from '../../core/engine/types.js';
import { checkField, type Problems } from '../../core/engine/validate.js';
import { toFieldErrors } from './messages.js';
import { ident, Params, scopeWhere, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { normalised, refuse, store } from './write.js';
import { getRecord, nameOf } from './query.js';
import { deleteRecord } from './delete.js';
import { actionRefusal, stateName, transitionOf } from '../../core/engine/lifecycle.js';

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
 * Runs an action on one or more records, all or nothing: the rows are locked, every guard must allow it, then
 * each record takes the declared patch and the server effect through the same write path as any change
 * (validation, hooks, audit with the action and its input).
 */
export async function runAction(
  ctx: EngineContext,
  c: Compiled,
  action: ActionDeclaration,
  ids: number[],
  body: Record<string, unknown>,
  registry?: Map<string, Compiled>,
): Promise<Row[]> {
  const input = actionInput(ctx, action, body);
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const p = new Params();
  const where = scopeWhere(c, ctx.principal, p.bind);
  // Locked in id order, so two bulk runs over overlapping rows cannot deadlock.
  const rows = await ctx.db.query(
    `select ${c.storedColumns.map(ident).join(', ')} from ${c.table} where id = any(${p.bind(unique)}) and ${where} order by id for update`,
    p.values,
  );
  if (rows.length !== unique.length) {
    if (unique.length === 1) throw notFound(c.decl.label.one);
    throw new HttpError(
      404,
      `${unique.length - rows.length} of the ${unique.length} selected ${c.decl.label.many.toLowerCase()} no longer exist. Reload the list and try again.`,
    );
  }
  const refused = rows.map((r) => ({ r, why: actionRefusal(c.decl, action, r) })).filter((x) => x.why);
  if (refused.length) {
    const reason = (key: string) => toFieldErrors({ x: { message: key } }).x;
    if (rows.length === 1) throw new HttpError(409, reason(refused[0].why!));
    const list = refused
      .slice(0, 5)
      .map((x) => `${nameOf(c, x.r)}: ${reason(x.why!)}`)
      .join('; ');
    throw new HttpError(
      409,
      `${refused.length} of the ${rows.length} selected ${c.decl.label.many.toLowerCase()} cannot be changed, so nothing was changed. ${list}${refused.length > 5 ? '; …' : ''}`,
      Object.fromEntries(refused.map((x) => [String(x.r.id), reason(x.why!)])),
    );
  }
  // The declared delete's button: the engine's delete with the input's reason, audited as a delete.
  if (action.deletes) {
    if (!registry) throw new Error(`${c.decl.name}.${action.name} deletes: runAction needs the registry`);
    const out: Row[] = [];
    // A deleted row that stays listed is answered as it now reads (who deleted it, why); any other as it was.
    for (const r of rows) {
      const gone = await deleteRecord(ctx, c, r.id, registry, input.reason);
      out.push(c.deletion.listed ? await getRecord(ctx, c, r.id) : gone);
    }
    return out;
  }
  const lc = c.decl.lifecycle;
  const t = transitionOf(lc, action.name);
  const out: Row[] = [];
  for (const stored of rows) {
    const patch: Record<string, unknown> = {
      ...action.patch?.(stored, input),
      ...((await c.behaviour.actions?.[action.name]?.(ctx, stored, input)) ?? {}),
    };
    if (lc) {
      // The transition sets the state it declares; an effect may choose only among the states it declares.
      if (typeof t?.to === 'string') patch[lc.field] = t.to;
      const to = patch[lc.field] ?? stored[lc.field];
      const allowed = t?.to === undefined ? [stored[lc.field]] : Array.isArray(t.to) ? t.to : [t.to];
      if (!allowed.includes(to))
        throw new Error(
          `${c.decl.name}.${action.name} would make the ${c.decl.label.one.toLowerCase()} ${stateName(c.decl, to)}, which its lifecycle does not declare`,
        );
    }
    out.push(await store(ctx, c, stored, patch, { action: action.name, input }));
  }
  return out;
}
