// Locking the records of a write (and their parents) in one order: every writer's first step.
import type { Row } from '../db/index.js';
import { HttpError, notFound } from '../http.js';
import { ident, Params, queryMany, scopeWhere, writeColumns, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';

/**
 * Locks the parent rows of records about to be acted on (a timesheet before its lines), so that every write takes
 * a record and its parent in one order: parent, then child. An action on a line that goes on to change its timesheet
 * (a line signed on a phone collects the timesheet) racing an action on the timesheet that changes its lines (the
 * client approving in the panel) would otherwise each hold the row the other waits for: a deadlock, answered 500
 * (issue 29.20). With one order the second waits, then finds the state the first left and is refused in words (409).
 */
export async function lockParents(
  ctx: EngineContext,
  c: Compiled,
  ids: number[],
  registry?: Map<string, Compiled>,
): Promise<void> {
  const parent = c.decl.parent;
  if (!parent || ids.length === 0) return;
  const table = (registry?.get(parent.resource) ?? ctx.engine.compiled(parent.resource)).table;
  await ctx.db.query(
    `select id from ${table} where merchant_id = $1 and id in (select ${ident(parent.field)} from ${c.table} where merchant_id = $1 and id = any($2::int[])) order by id for update`,
    [ctx.principal.merchantId, ids],
  );
}

/**
 * The records of a write, in the principal's row scope, locked in id order after their parents (lockParents): two
 * writes over overlapping records cannot deadlock. A record not found (gone, or outside the scope) refuses them all
 * (404).
 */
export async function lockRecords(
  ctx: EngineContext,
  c: Compiled,
  ids: number[],
  registry?: Map<string, Compiled>,
): Promise<Row[]> {
  const unique = [...new Set(ids.map(Number))].sort((a, b) => a - b);
  const p = new Params();
  const where = scopeWhere(c, ctx.principal, p.bind);
  await lockParents(ctx, c, unique, registry);
  // Thousands of rows for a set-based write: queryMany.
  const rows = await queryMany(
    ctx.db,
    c,
    c.computedState ? [...c.storedColumns, c.computedState] : c.storedColumns,
    `select ${writeColumns(c, p.bind, ctx.today)} from ${c.table} where id = any(${p.bind(unique)}) and ${where} order by id for update`,
    p.values,
  );
  if (rows.length !== unique.length) {
    if (unique.length === 1) throw notFound(c.decl.label.one);
    throw new HttpError(
      404,
      `${unique.length - rows.length} of the ${unique.length} selected ${c.decl.label.many.toLowerCase()} no longer exist. Reload the list and try again.`,
    );
  }
  return rows;
}
