import type { AuthzArea } from './area';
import { A, F, N, row, type Outcome } from './principals';
import { enqueueJob, type JobKind } from '../../../server/jobs/queue';

/** A job kind of the matrix's own: its jobs are only queued here, never run. */
const authzJob: JobKind = { kind: 'authz-test', step: async () => ({ state: {}, done: 1, finished: true }) };

/**
 * Exports and printed documents (issue 16 item 7): a list's export needs the declaration's 'export' (client users
 * have it nowhere; consultants not on settings or support requests), the printed shift list its 'list'. Jobs
 * (item 6): an agency's jobs are open to its agency users, a client user's or staff member's own to them; every
 * other caller gets 404.
 */
const exports: [string, Outcome][] = [
  ['clients', 'ok'],
  ['sites', 'ok'],
  ['candidates', 'ok'],
  ['job_roles', F],
  ['staff_statuses', F],
  ['employment_types', F],
  ['staff_profiles', F],
  ['document_categories', F],
  ['staff_detail_fields', F],
  ['candidate_documents', 'ok'],
  ['candidate_restrictions', 'ok'],
  ['candidate_preferences', 'ok'],
  ['availability', 'ok'],
  ['rate_cards', 'ok'],
  ['candidate_rates', 'ok'],
  ['client_rules', 'ok'],
  ['holiday_overrides', 'ok'],
  ['shift_templates', 'ok'],
  ['on_cost_rates', 'ok'],
  ['wage_floors', 'ok'],
  ['shifts', 'ok'],
  ['email_outbox', 'ok'],
  ['diary_notes', 'ok'],
  ['support_requests', F],
  ['audit_entries', 'ok'],
];

export const documents: AuthzArea = {
  get rows() {
    return [
      ...exports.map(([name, consultant]) => row('GET', `/api/${name}/export`, A, 'ok', consultant, F, F, 'ok', F, A)),
      row('GET', '/api/shifts/print', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      // Started by agency A's admin: not the client users' or the staff member's, not the other agency's.
      row('GET', '/api/jobs/:id', A, 'ok', 'ok', N, N, N, N, A),
    ];
  },
  async prepare(ctx) {
    ctx.shared.jobs = await enqueueJob(ctx.t.db, {
      merchantId: ctx.ids.merchantA,
      kind: authzJob,
      createdBy: (await ctx.t.app.sessions.resolve(ctx.setup))!.id,
    });
    ctx.sharedB.jobs = await enqueueJob(ctx.t.db, {
      merchantId: ctx.ids.merchantB,
      kind: authzJob,
      createdBy: (await ctx.t.app.sessions.resolve(ctx.setupB))!.id,
    });
  },
};
