import type { FastifyInstance } from 'fastify';
import { Params, readable, scopeWhere } from '../engine/compile.js';
import { route } from './route.js';
import { rolesOf } from '../../core/resources/access.js';
import { containsPattern, TRIGRAM_MIN_LENGTH } from '../db/index.js';
import { agencyLogos, ownAgency } from './account.js';
import {
  AgencyAnswer,
  AgencyLogos,
  StaffSearch,
  StaffSearchMiss,
  StaffSearchQuery,
} from '../../core/contracts/account.js';
import { IdParams } from '../../core/contracts/common.js';

/** What the application shell needs: the agency's name and logo, staff search. */
export async function shellRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/merchants/:id',
    roles: rolesOf('agency', 'client'),
    record: ownAgency,
    schema: { tags: ['agency'], summary: "The agency's profile", params: IdParams, response: { 200: AgencyAnswer } },
    handler: async ({ record }) => ({ data: record }),
  });

  route(app, {
    method: 'GET',
    url: '/api/agency_logo_list',
    roles: rolesOf('agency', 'client'),
    schema: {
      tags: ['agency'],
      summary: "The agency's logos (logo_type agency_logo, favicon, ...)",
      response: { 200: AgencyLogos },
    },
    handler: async ({ ctx }) => ({ data: await agencyLogos(ctx.db, ctx.principal.merchantId) }),
  });

  route(app, {
    method: 'GET',
    url: '/api/search_candidate',
    // A search is a list of staff: the candidates declaration's list permission, row scope and read policy.
    may: { candidates: 'list' },
    schema: {
      tags: ['staff'],
      summary: 'Find staff by name, e-mail or phone (at most 10)',
      querystring: StaffSearchQuery,
      response: { 200: StaffSearch, 400: StaffSearchMiss, 404: StaffSearchMiss },
    },
    handler: async ({ req, reply, ctx: { principal } }) => {
      const c = app.engine.get('candidates')!;
      const q = (req.query.candidate_query ?? '').trim().toLowerCase();
      if (!q) return reply.status(400).send({ candidate: [], message: 'Not Staff found for the specified criteria' });
      const shown = ['first_name', 'last_name', 'email', 'phone', 'status', 'activated', 'profile_photo'].filter((f) =>
        readable(principal, c.byField.get(f)!),
      );
      const name =
        shown.includes('first_name') && shown.includes('last_name') ? ", first_name || ' ' || last_name as name" : '';
      const columns = `id${shown.map((f) => `, ${f}`).join('')}${name}`;
      const p = new Params();
      const match = `${scopeWhere(c, principal, p.bind)} and search_text like ${p.bind(containsPattern(q))}`;
      const order = 'order by lower(last_name), lower(first_name), id limit 10';
      // Long enough, the trigram index finds the matches; sorting them afterwards keeps the planner from
      // walking the name index and filtering most of the agency's staff.
      const candidate = await app.db.query<StaffSearch['candidate'][number]>(
        q.length >= TRIGRAM_MIN_LENGTH
          ? `with m as materialized (select ${columns}, last_name as sort_last, first_name as sort_first from candidates where ${match}) select ${['id', ...shown, ...(name ? ['name'] : [])].join(', ')} from m order by lower(sort_last), lower(sort_first), id limit 10`
          : `select ${columns} from candidates where ${match} ${order}`,
        p.values,
      );
      if (candidate.length === 0)
        return reply.status(404).send({ candidate: [], message: 'Not Staff found for the specified criteria' });
      return { candidate, message: `${candidate.length} staff found` };
    },
  });

  // The notifications (GET agency_notifications, PUT merchant_notification_read_all) are in routes/notifications.ts.
}
