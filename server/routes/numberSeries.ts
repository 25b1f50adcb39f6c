import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http.js';
import { rolesOf } from '../../core/resources/access.js';
import { route } from './route.js';
import { NumberSeriesAnswer, NumberSeriesList } from '../../core/contracts/documents.js';
import { writeAudit } from '../engine/audit.js';
import { formatNumber, NEXT_NUMBER_MAX } from '../engine/numbering.js';
import type { Queryable } from '../db/index.js';
import type { EnginePrincipal } from '../engine/context.js';
import type { NumberingDeclaration } from '../../core/engine/types.js';

const SAME_PREFIX = 'Another number series of the agency uses this prefix: choose one of its own.';

/**
 * Moves one of the agency's series, in the caller's transaction: its next number forward (never back: a number once
 * given must not be given again), and its prefix (for the numbers given from now on; those given keep theirs).
 * Locked as a create taking a number would lock it, so no number is given between the check and the change.
 * Answers the series as it now is, or the problems by field (`next_number`, `prefix`) and changes nothing.
 */
export async function moveSeries(
  tx: Queryable,
  principal: EnginePrincipal,
  series: string,
  numbering: NumberingDeclaration,
  change: { next_number?: number; prefix?: string },
): Promise<{ row: { series: string; prefix: string; next_number: number } } | { problems: Record<string, string> }> {
  await tx.query('insert into number_series (merchant_id, series, prefix) values ($1, $2, $3) on conflict do nothing', [
    principal.merchantId,
    series,
    numbering.prefix ?? '',
  ]);
  const [row] = await tx.query<{ prefix: string; next_number: number }>(
    'select prefix, next_number from number_series where merchant_id = $1 and series = $2 for update',
    [principal.merchantId, series],
  );
  const next = change.next_number ?? row.next_number;
  const prefix = change.prefix ?? row.prefix;
  const problems: Record<string, string> = {};
  if (next < row.next_number) {
    const given =
      row.next_number > 1
        ? ` ${formatNumber(row.next_number - 1, row.prefix, numbering.pad)} has been given already;`
        : '';
    problems.next_number = `The next number can only move forward:${given} give ${row.next_number} or more.`;
  }
  if (prefix !== row.prefix) {
    const [other] = await tx.query(
      'select 1 from number_series where merchant_id = $1 and series <> $2 and prefix = $3 limit 1',
      [principal.merchantId, series, prefix],
    );
    if (other) problems.prefix = SAME_PREFIX;
  }
  if (Object.keys(problems).length) return { problems };
  const [after] = await tx.query<{ series: string; prefix: string; next_number: number }>(
    'update number_series set next_number = $3, prefix = $4, updated_at = now() where merchant_id = $1 and series = $2 returning series, prefix, next_number',
    [principal.merchantId, series, next, prefix],
  );
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (next !== row.next_number) changes[`${series}.next_number`] = { from: row.next_number, to: next };
  if (prefix !== row.prefix) changes[`${series}.prefix`] = { from: row.prefix, to: prefix };
  // Filed under the agency: a series has no record id of its own.
  if (Object.keys(changes).length)
    await writeAudit(tx, principal, {
      resource: 'number_series',
      recordId: principal.merchantId,
      event: 'update',
      changes,
    });
  return { row: after };
}

/** What a series is called in a URL: the declarations' series names ('TS', 'INV'). */
const SERIES = '^[A-Za-z0-9_-]{1,20}$';

/**
 * The agency's number series (numbering declared on resources, server/engine/numbering.ts): agency users read
 * them; an admin may move a series' next number forward (an agency taking over numbers from its old system), never
 * back, as a number once given must not be given again.
 */
export async function numberSeriesRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/number_series',
    roles: rolesOf('agency'),
    schema: {
      tags: ['agency'],
      summary: "The agency's number series and the next number of each",
      response: { 200: NumberSeriesList },
    },
    handler: async ({ ctx }) => {
      const rows = await ctx.db.query<{ series: string; prefix: string; next_number: number }>(
        'select series, prefix, next_number from number_series where merchant_id = $1 order by series',
        [ctx.principal.merchantId],
      );
      return { data: rows };
    },
  });

  /** The series the declarations number records with, by name ('TS'): no other may be made or moved. */
  const declared = () =>
    new Map(
      [...app.engine.values()].flatMap((c) => (c.decl.numbering ? [[c.decl.numbering.series, c.decl.numbering]] : [])),
    );

  route(app, {
    method: 'PUT',
    url: '/api/number_series/:series',
    roles: ['admin'],
    schema: {
      tags: ['agency'],
      summary: "Move a series' next number forward (admins)",
      description: `Only a series the product numbers records with; the next number from 1 to ${NEXT_NUMBER_MAX}, never back.`,
      params: { type: 'object', required: ['series'], properties: { series: { type: 'string', pattern: SERIES } } },
      body: { type: 'object', required: ['next_number'], additionalProperties: false, properties: { next_number: {} } },
      response: { 200: NumberSeriesAnswer },
    },
    handler: async ({ req, ctx: { principal }, transaction }) => {
      const { series } = req.params as { series: string };
      const numbering = declared().get(series);
      if (!numbering) throw new HttpError(404, `There is no number series called ${series}.`);
      const next = (req.body as { next_number: unknown }).next_number;
      if (typeof next !== 'number' || !Number.isSafeInteger(next) || next < 1 || next > NEXT_NUMBER_MAX) {
        const words = `Give the next number as a whole number from 1 to ${NEXT_NUMBER_MAX.toLocaleString('en-GB')}.`;
        throw new HttpError(422, words, { next_number: words });
      }
      const data = await transaction(async ({ db: tx }) => {
        const moved = await moveSeries(tx, principal, series, numbering, { next_number: next });
        if ('problems' in moved) throw new HttpError(422, moved.problems.next_number, moved.problems);
        return moved.row;
      });
      return { data };
    },
  });
}
