import type { AuthzArea, AuthzContext } from './area';
import { row } from './principals';
import { call } from '../helpers';

const SLUG = 'brightway-staffing';
/** An open vacancy of agency A and one of agency B (the job board shows only open ones). */
const open: { a?: number; b?: number } = {};
let address = 0;

async function openVacancy(ctx: AuthzContext, token: string): Promise<number> {
  const body = { title: `Authz board job ${ctx.next()}`, location: 'York' };
  const id = (await ctx.must(await call(ctx.t.app, token, 'POST', '/api/vacancies', body), 201)).id;
  await ctx.must(await call(ctx.t.app, token, 'POST', `/api/vacancies/${id}/actions/open`, {}));
  return id;
}

/** An application as the public form sends it (multipart), consent given. */
async function applicationForm(ctx: AuthzContext) {
  const form = new FormData();
  const n = ctx.next();
  for (const [k, v] of Object.entries({
    first_name: 'Authz',
    last_name: `Board applicant ${n}`,
    email: `authz.board.${n}@applicant.example`,
    right_to_work: 'yes',
    consent: 'yes',
  }))
    form.append(k, v);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { type: req.headers.get('content-type')!, body: Buffer.from(await req.arrayBuffer()) };
}

/**
 * The public job board (issue 35): pages, not the API, and public like signing in — every principal gets the same
 * answer, a session or not (the board never reads one). Applying answers 303 (to the page saying it was sent). Agency
 * B's job under agency A's slug is not on A's board: 404 (the "agency B's records" check runs these rows too).
 */
export const careers: AuthzArea = {
  get rows() {
    return [
      row('GET', '/careers/:slug', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
      row('GET', '/careers/:slug/jobs/:id', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
      row('GET', '/careers/:slug/jobs/:id/applied', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
      row('POST', '/careers/:slug/jobs/:id/apply', 303, 303, 303, 303, 303, 303, 303, 303),
    ];
  },
  async prepare(ctx) {
    open.a = await openVacancy(ctx, ctx.setup);
    open.b = await openVacancy(ctx, ctx.setupB);
  },
  requests: {
    'GET /careers/:slug': () => ({ method: 'GET', url: `/careers/${SLUG}` }),
    'GET /careers/:slug/jobs/:id': (_ctx, _p, other) => ({
      method: 'GET',
      url: `/careers/${SLUG}/jobs/${other ? open.b : open.a}`,
    }),
    'GET /careers/:slug/jobs/:id/applied': (_ctx, _p, other) => ({
      method: 'GET',
      url: `/careers/${SLUG}/jobs/${other ? open.b : open.a}/applied`,
    }),
    // Each from an address of its own: the board's limit per address is not what these rows test.
    'POST /careers/:slug/jobs/:id/apply': async (ctx, _p, other) => {
      const { type, body } = await applicationForm(ctx);
      return {
        method: 'POST',
        url: `/careers/${SLUG}/jobs/${other ? open.b : open.a}/apply`,
        headers: { 'content-type': type },
        payload: body,
        remoteAddress: `198.51.100.${++address}`,
      };
    },
  },
};
