import type { FastifyInstance } from 'fastify';
import { Params, scopeWhere } from '../engine/compile.js';
import { route } from './route.js';
import { IdParams } from '../../core/contracts/common.js';
import { SignTimesheetsAnswer } from '../../core/contracts/timesheets.js';

/**
 * The spec's GET /api/sign_timesheets/{id} (the client's id), read through the engine's scope and read policy: a
 * client user reaches only their own client (another's: 404), an agency user any client of their agency; staff
 * members are refused before the handler. (The printed timesheet is the generic GET /api/timesheets/{id}/pdf.)
 */
export async function timesheetsRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/sign_timesheets/:id',
    may: { timesheet_signatures: 'list' },
    // The client as the caller may see it: another client's, or another agency's, is not found.
    record: 'clients',
    schema: {
      tags: ['Timesheets'],
      summary: "A client's signed timesheets: each signature with its signer, image, time, how and address",
      params: IdParams,
      response: { 200: SignTimesheetsAnswer },
    },
    handler: async ({ req, ctx }) => {
      const signatures = app.engine.get('timesheet_signatures')!;
      const p = new Params();
      const where = scopeWhere(signatures, ctx.principal, p.bind);
      const rows = await app.db.query<SignTimesheetsAnswer['sign_timesheets'][number]>(
        `select g.id, g.timesheet_id, t.number, t.client_id, t.site_id, t.period_start::text as period_start,
                t.period_end::text as period_end, t.status, coalesce(t.paid_minutes, 0) / 60.0::float8 as hours,
                coalesce(t.charge, 0)::int as charge, g.signer_name, g.signature, g.signed_at, g.signed_via, g.ip_address,
                coalesce(g.line_count, 0) as line_count
           from (select * from timesheet_signatures where ${where}) g
           join timesheets t on t.merchant_id = g.merchant_id and t.id = g.timesheet_id
          where t.client_id = ${p.bind(req.params.id)}
          order by g.signed_at desc, g.id desc`,
        p.values,
      );
      return {
        sign_timesheets: rows.map((r) => ({
          ...r,
          hours: Math.round(Number(r.hours) * 100) / 100,
          signed_at: new Date(r.signed_at).toISOString(),
        })),
      };
    },
  });
}
