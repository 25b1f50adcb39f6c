import type { FastifyInstance } from 'fastify';
import { notFound } from '../http.js';
import { asBuilt, idParams } from '../engine/routes.js';
import { JobAnswer } from '../../core/contracts/documents.js';

/**
 * GET /api/jobs/:id: a job's progress, which the screen that started it polls. An agency user sees their agency's
 * jobs; a client user or staff member only those they started. Anyone else's answers 404.
 */
export async function jobRoutes(app: FastifyInstance) {
  app.get<{ Params: { id: number } }>('/api/jobs/:id', {
    config: { access: 'any', staff: true },
    schema: {
      tags: ['jobs'],
      summary: "A job's progress (done of total), status and result",
      params: idParams,
      response: { 200: JobAnswer },
    },
    // Sent as read (its times are the database's): the schema documents it.
    serializerCompiler: asBuilt,
    handler: async (req) => {
      const user = req.auth!;
      const mine = user.loginType === 'agency' ? '' : ' and created_by = $3';
      const [job] = await app.db.query(
        `select id, kind, status, done, total, attempts, error, result, created_at, updated_at, finished_at from jobs where id = $1 and merchant_id = $2${mine}`,
        user.loginType === 'agency' ? [req.params.id, user.merchant_id] : [req.params.id, user.merchant_id, user.id],
      );
      if (!job) throw notFound('Job');
      return { data: job };
    },
  });
}
