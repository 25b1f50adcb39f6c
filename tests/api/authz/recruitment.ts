import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, customRoles, row } from './principals';
import { call } from '../helpers';

const vacancyBody = (ctx: AuthzContext) => ({ title: `Authz vacancy ${ctx.next()}`, location: 'Leeds' });
const applicationBody = (ctx: AuthzContext, jobId: number | string) => ({
  job_id: jobId,
  first_name: 'Authz',
  last_name: `Applicant ${ctx.next()}`,
  email: `authz.applicant.${ctx.next()}@applicant.example`,
  right_to_work: 'yes',
  consent: true,
});

/** A vacancy of agency A (or B) moved through `moves`. */
async function vacancy(ctx: AuthzContext, moves: string[] = [], token = ctx.setup): Promise<number> {
  const id = (await ctx.must(await call(ctx.t.app, token, 'POST', '/api/vacancies', vacancyBody(ctx)), 201)).id;
  for (const m of moves) await ctx.must(await call(ctx.t.app, token, 'POST', `/api/vacancies/${id}/actions/${m}`, {}));
  return id;
}

/** The interview and reschedule actions' input: a date and time (the rest is optional). */
const interviewInput = () => ({ interview_at: new Date(Date.now() + 3 * 86_400_000).toISOString() });

/** An application of agency A to its shared vacancy, moved through `moves`. */
async function application(ctx: AuthzContext, moves: string[] = []): Promise<number> {
  const body = applicationBody(ctx, ctx.shared.vacancies);
  const id = (await ctx.must(await call(ctx.t.app, ctx.setup, 'POST', '/api/job_applications', body), 201)).id;
  for (const m of moves)
    await ctx.must(
      await call(
        ctx.t.app,
        ctx.setup,
        'POST',
        `/api/job_applications/${id}/actions/${m}`,
        m === 'interview' ? interviewInput() : {},
      ),
    );
  return id;
}

/**
 * Recruitment (issue 35): vacancies and job applications are the agency's, for its admins and consultants (no
 * deletes for a consultant); client users and staff have no access, the other agency's admin finds no record. The
 * recruitment settings are the agency's one row: admins save, consultants read.
 */
export const recruitment: AuthzArea = {
  get rows() {
    const resource = (name: string, actions: string[]) => [
      row('GET', `/api/${name}`, A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', `/api/${name}/export`, A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', `/api/${name}/:id`, A, 'ok', 'ok', F, F, N, F, A),
      row('PUT', `/api/${name}/:id`, A, 'ok', 'ok', F, F, N, F, A),
      row('DELETE', `/api/${name}/:id`, A, 'ok', F, F, F, N, F, A),
      ...actions.map((a) => row('POST', `/api/${name}/:id/actions/${a}`, A, 'ok', 'ok', F, F, N, F, A)),
    ];
    return [
      ...resource('vacancies', ['open', 'close', 'reopen']),
      row('POST', '/api/vacancies', A, 201, 201, F, F, 201, F, A),
      ...resource('job_applications', ['screen', 'interview', 'reschedule', 'offer', 'hire', 'reject', 'move']),
      // The other agency's admin names agency A's vacancy: it does not exist for them (422 on the field).
      row('POST', '/api/job_applications', A, 201, 201, F, F, 422, F, A),
      // The agency's recruitment settings: its admins change them, its consultants read them; each agency its own row.
      // Served by their own routes (served: false) as the other settings are: no custom role's privilege reaches them.
      customRoles(row('GET', '/api/recruitment_settings', A, 'ok', 'ok', F, F, 'ok', F, A), F, F),
      customRoles(row('PUT', '/api/recruitment_settings', A, 'ok', F, F, F, 'ok', F, A), F, F),
    ];
  },
  async prepare(ctx) {
    ctx.shared.vacancies = await vacancy(ctx);
    ctx.sharedB.vacancies = await vacancy(ctx, [], ctx.setupB);
    ctx.shared.job_applications = await application(ctx);
    ctx.sharedB.job_applications = (
      await ctx.must(
        await call(ctx.t.app, ctx.setupB, 'POST', '/api/job_applications', applicationBody(ctx, ctx.sharedB.vacancies)),
        201,
      )
    ).id;
  },
  requests: {
    'PUT /api/recruitment_settings': () => ({
      method: 'PUT',
      url: '/api/recruitment_settings',
      payload: { retention_months: 6 },
    }),
  },
  actionInput: {
    'job_applications interview': interviewInput(),
    'job_applications reschedule': interviewInput(),
    // The demo agency's own stage, Reference check.
    'job_applications move': { to_stage: 'custom_1' },
  },
  createBody: {
    vacancies: async (ctx) => vacancyBody(ctx),
    job_applications: async (ctx) => applicationBody(ctx, ctx.shared.vacancies),
  },
  fresh: {
    vacancies: (ctx) => vacancy(ctx),
    'vacancies close': (ctx) => vacancy(ctx, ['open']),
    'vacancies reopen': (ctx) => vacancy(ctx, ['open', 'close']),
    job_applications: (ctx) => application(ctx),
    'job_applications interview': (ctx) => application(ctx, ['screen']),
    'job_applications reschedule': (ctx) => application(ctx, ['screen', 'interview']),
    'job_applications offer': (ctx) => application(ctx, ['screen', 'interview']),
    'job_applications hire': (ctx) => application(ctx, ['screen', 'interview', 'offer']),
  },
};
