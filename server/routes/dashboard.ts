import type { FastifyInstance } from 'fastify';
import { route } from './route.js';
import { buildWhere } from '../engine/query.js';
import { fieldExpression, ident, Params, readable } from '../engine/compile.js';
import type { EngineContext } from '../engine/context.js';
import { HttpError } from '../http.js';
import { permits, rolesOf } from '../../core/resources/access.js';
import { NEEDS_DOING, resolveQueueFilter, type NeedsDoingItem } from '../../core/resources/needsDoing.js';
import { NeedsDoingAnswer, type NeedsDoingCount } from '../../core/contracts/dashboard.js';

/**
 * Counts the "Needs doing" items the caller may list, in one statement: each item is one aggregate over its table
 * with the WHERE its list would use (buildWhere: the caller's row scope and read policy, the tab, the filters), so a
 * count and the list it opens agree, and a consultant's counts are what their own lists show.
 */
export async function countNeedsDoing(
  ctx: EngineContext,
  registry: FastifyInstance['engine'],
  items: readonly NeedsDoingItem[] = NEEDS_DOING,
): Promise<NeedsDoingCount[]> {
  const p = new Params();
  const parts: { item: NeedsDoingItem; filter: Record<string, string>; summed: boolean; sql: string }[] = [];
  for (const item of items) {
    const c = registry.get(item.resource);
    if (!c || !permits(ctx.principal, c.decl, 'list')) continue;
    const filter = resolveQueueFilter(item.filter, ctx.now);
    const query = { ...(item.tab ? { tab: item.tab } : {}), ...filter };
    let where: string;
    const bound = p.values.length;
    try {
      ({ where } = buildWhere(c, ctx, query, p));
    } catch (e) {
      // A filter on a field the caller may not read: their list could not be filtered so either. What the item
      // bound before the refusal is taken back (the statement's parameters are the other items').
      if (!(e instanceof HttpError && e.status === 400)) throw e;
      p.values.length = bound;
      continue;
    }
    const sumField = item.sum ? c.byField.get(item.sum) : undefined;
    const summed = !!sumField && readable(ctx.principal, sumField);
    const sum = summed ? `, coalesce(sum(${fieldExpression(c, sumField!, p.bind, ctx.today)}), 0)::bigint as s` : '';
    parts.push({ item, filter, summed, sql: `(select count(*)::int as n${sum} from ${c.table} where ${where})` });
  }
  if (parts.length === 0) return [];
  const alias = (i: number) => ident(`q${i}`);
  const [row] = await ctx.db.query(
    `select ${parts.map((x, i) => `${alias(i)}.n as ${ident(`n${i}`)}${x.summed ? `, ${alias(i)}.s as ${ident(`s${i}`)}` : ''}`).join(', ')}
       from ${parts.map((x, i) => `${x.sql} as ${alias(i)}`).join(' cross join ')}`,
    p.values,
  );
  return parts.map((x, i) => ({
    id: x.item.id,
    count: Number(row[`n${i}`]),
    ...(x.summed ? { sum: Number(row[`s${i}`]) } : {}),
    route: x.item.route,
    filter: x.filter,
  }));
}

/** The agency dashboard's figures (issue 34). */
export async function dashboardRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/dashboard/needs_doing',
    // Agency users; each item then needs the caller's list permission on its resource.
    roles: rolesOf('agency'),
    schema: {
      tags: ['dashboard'],
      summary: "What needs doing: each count of the agency dashboard's work queue, with the list that shows its rows",
      response: { 200: NeedsDoingAnswer },
    },
    handler: async ({ ctx }) => ({
      data: await countNeedsDoing(ctx, app.engine),
      as_of: ctx.now.toISOString(),
    }),
  });
}
