import type { FastifyInstance } from 'fastify';
import { notFound } from '../http.js';
import { route } from './route.js';
import { complianceOf } from '../services/compliance.js';
import { describeCompliance } from '../../core/domain/compliance/compliance.js';
import { ComplianceAnswer } from '../../core/contracts/compliance.js';
import { IdParams } from '../../core/contracts/common.js';

/** A compliance result in the answer's words. */
function answerOf(r: Awaited<ReturnType<typeof complianceOf>>, today: string) {
  const note = (n: { category: { id: number; name: string }; expiry: string; daysLeft: number }) => ({
    category_id: n.category.id,
    name: n.category.name,
    expiry_date: n.expiry,
    days_left: n.daysLeft,
  });
  return {
    data: {
      compliant: r.compliant,
      summary: describeCompliance(r),
      missing: r.missing.map((c) => ({ category_id: c.id, name: c.name })),
      expired: r.expired.map(note),
      expiring: r.expiring.map(note),
      valid_until: r.validUntil,
      today,
    },
  };
}

/** A staff member's compliance for their job role today: what is missing, expiring and expired. */
export async function complianceRoutes(app: FastifyInstance) {
  // The staff member's own, on their phone page (My documents): what to upload next.
  route(app, {
    method: 'GET',
    url: '/api/staff_compliance',
    roles: ['staff'],
    schema: {
      tags: ['Staff'],
      summary: "The signed-in staff member's own compliance today (missing, expiring, expired documents)",
      response: { 200: ComplianceAnswer },
    },
    handler: async ({ ctx }) => {
      const [me] = await ctx.db.query<{ id: number; job_role_id: number | null }>(
        'select id, job_role_id from candidates where merchant_id = $1 and id = $2 and deleted_at is null',
        [ctx.principal.merchantId, ctx.principal.candidateId ?? 0],
      );
      if (!me) throw notFound('Staff member');
      return answerOf(await complianceOf(ctx.db, ctx.principal.merchantId, me, ctx.today), ctx.today);
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/candidates/:id/compliance',
    may: { candidates: 'show' },
    record: 'candidates',
    schema: {
      tags: ['Staff'],
      summary: "A staff member's compliance today (missing, expiring, expired documents)",
      params: IdParams,
      response: { 200: ComplianceAnswer },
    },
    handler: async ({ ctx, record: staff }) => {
      const r = await complianceOf(
        ctx.db,
        ctx.principal.merchantId,
        { id: staff.id, job_role_id: staff.job_role_id },
        ctx.today,
      );
      return answerOf(r, ctx.today);
    },
  });
}
