import type { FastifyInstance } from 'fastify';
import { notFound } from '../http.js';
import { asBuilt, idParams } from '../engine/routes.js';
import { builtInRolesOf, rolesOf } from '../../core/resources/access.js';
import { route } from '../routes/route.js';
import { JobAnswer } from '../../core/contracts/documents.js';

/**
 * GET /api/jobs/:id: a job's progress, which the screen that started it polls. An agency user sees their agency's
 * jobs; a client user or staff member only those they started. Anyone else's answers 404.
 */
export async function jobRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/jobs/:id',
    roles: rolesOf('agency', 'client', 'staff'),
    record: async (req, ctx) => {
      const id = Number((req.params as { id?: unknown }).id);
      // No id at all: the schema refuses it (422).
      if (!Number.isInteger(id) || id < 1 || id > 2147483647) return undefined;
      // A custom role's holder follows their own jobs only: no privilege of theirs covers another's work.
      const mine = builtInRolesOf('agency').includes(ctx.principal.role) ? '' : ' and created_by = $3';
      const [job] = await ctx.db.query<JobAnswer['data']>(
        `select id, kind, status, done, total, attempts, error, result, created_at, updated_at, finished_at from jobs where id = $1 and merchant_id = $2${mine}`,
        mine ? [id, ctx.principal.merchantId, ctx.principal.userId] : [id, ctx.principal.merchantId],
      );
      if (!job) throw notFound('Job');
      return job;
    },
    schema: {
      tags: ['jobs'],
      summary: "A job's progress (done of total), status and result",
      params: idParams,
      response: { 200: JobAnswer },
    },
    // Sent as read (its times are the database's): the schema documents it.
    serializerCompiler: asBuilt,
    handler: async ({ record }) => ({ data: record }),
  });
}
