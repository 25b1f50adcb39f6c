// Running a declared action on records: its input, its guard and its effects, in the write path.
import type { Row } from '../db/index.js';
import { HttpError, notFound } from '../http.js';
import type { ActionDeclaration } from '../../core/engine/types.js';
import { checkField, type Problems } from '../../core/engine/validate.js';
import { toFieldErrors } from './messages.js';
import { ident, Params, scopeWhere, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { normalised, refuse, store } from './write.js';
import { nameOf } from './query.js';

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
