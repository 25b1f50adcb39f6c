import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notFound } from '../http.js';
import { containsPattern, TRIGRAM_MIN_LENGTH } from '../db/index.js';
import { agencyLogos, agencyProfile } from './account.js';
import { AgencyAnswer, AgencyLogos, StaffSearch, StaffSearchMiss, StaffSearchQuery } from '../contracts/account.js';
import { IdParams } from '../contracts/common.js';

/** What the application shell needs: the agency's name and logo, staff search. */
export async function shellRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/merchants/:id', {
    config: { access: 'any' },
    schema: { tags: ['agency'], summary: "The agency's profile", params: IdParams, response: { 200: AgencyAnswer } },
    handler: async (req) => {
      if (req.params.id !== req.auth!.merchant_id) throw notFound('Agency');
      const data = await agencyProfile(app.db, req.params.id);
      if (!data) throw notFound('Agency');
      return { data };
    },
  });

  app.get('/api/agency_logo_list', {
    config: { access: 'any' },
    schema: { tags: ['agency'], summary: "The agency's logos (logo_type agency_logo, favicon, ...)", response: { 200: AgencyLogos } },
    handler: async (req) => ({ data: await agencyLogos(app.db, req.auth!.merchant_id) }),
  });

  app.get('/api/search_candidate', {
    config: { access: 'admin' },
    schema: {
      tags: ['staff'],
      summary: 'Find staff by name, e-mail or phone (at most 10)',
      querystring: StaffSearchQuery,
      response: { 200: StaffSearch, 400: StaffSearchMiss, 404: StaffSearchMiss },
    },
    handler: async (req, reply) => {
      const q = (req.query.candidate_query ?? '').trim().toLowerCase();
      if (!q) return reply.status(400).send({ candidate: [], message: 'Not Staff found for the specified criteria' });
      const columns = `id, first_name, last_name, first_name || ' ' || last_name as name, email, phone, status, activated, profile_photo`;
      const match = 'merchant_id = $1 and deleted_at is null and search_text like $2';
      const order = 'order by lower(last_name), lower(first_name), id limit 10';
      // Long enough, the trigram index finds the matches; sorting them afterwards keeps the planner from
      // walking the name index and filtering most of the agency's staff.
      const candidate = await app.db.query<StaffSearch['candidate'][number]>(
        q.length >= TRIGRAM_MIN_LENGTH
          ? `with m as materialized (select ${columns} from candidates where ${match}) select * from m ${order}`
          : `select ${columns} from candidates where ${match} ${order}`,
        [req.auth!.merchant_id, containsPattern(q)],
      );
      if (candidate.length === 0) return reply.status(404).send({ candidate: [], message: 'Not Staff found for the specified criteria' });
      return { candidate, message: `${candidate.length} staff found` };
    },
  });

  // The notifications (GET agency_notifications, PUT merchant_notification_read_all) are in routes/notifications.ts.

}
