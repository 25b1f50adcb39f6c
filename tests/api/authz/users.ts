import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, row } from '../authz-matrix';
import { call } from '../helpers';

const userBody = (ctx: AuthzContext) => ({
  name: `Authz User ${ctx.next()}`,
  email: `authz.user.${ctx.next()}@authz.example`,
  role: 'consultant',
});
const newUser = async (ctx: AuthzContext, token = ctx.setup) =>
  (await ctx.must(await call(ctx.t.app, token, 'POST', '/api/users', userBody(ctx)), 201)).id as number;
/** A link that was never issued: the public invitation routes answer every caller alike. */
const unknownLink = '/api/user_invites/not-a-real-invitation-token';

/**
 * Agency and client users (issue 14): agency users list, open and invite them; only admins edit (change roles);
 * nobody deletes (deactivate instead); client users and staff manage none. The invitation link's routes are
 * public and answer 404 for a link that does not work.
 */
export const users: AuthzArea = {
  get rows() {
    return [
      row('GET', '/api/users', A, 'ok', 'ok', F, F, 'ok'),
      row('GET', '/api/users/:id', A, 'ok', 'ok', F, F, N),
      row('POST', '/api/users', A, 201, 201, F, F, 201),
      row('PUT', '/api/users/:id', A, 'ok', F, F, F, N),
      row('DELETE', '/api/users/:id', A, F, F, F, F, F),
      row('POST', '/api/users/:id/actions/resend', A, 'ok', 'ok', F, F, N),
      row('POST', '/api/users/:id/actions/deactivate', A, 'ok', 'ok', F, F, N),
      row('POST', '/api/users/:id/actions/reactivate', A, 'ok', 'ok', F, F, N),
      row('GET', '/api/user_invites/:token', 404, 404, 404, 404, 404, 404),
      row('POST', '/api/user_invites/:token', 404, 404, 404, 404, 404, 404),
    ];
  },
  async prepare(ctx) {
    ctx.shared.users = await newUser(ctx);
    ctx.sharedB.users = await newUser(ctx, ctx.setupB);
  },
  createBody: { users: async (ctx) => userBody(ctx) },
  fresh: {
    users: (ctx) => newUser(ctx),
    'users reactivate': async (ctx) => {
      const id = await newUser(ctx);
      await ctx.must(await call(ctx.t.app, ctx.setup, 'POST', `/api/users/${id}/actions/deactivate`, {}));
      return id;
    },
  },
  requests: {
    'GET /api/user_invites/:token': () => ({ method: 'GET', url: unknownLink }),
    'POST /api/user_invites/:token': () => ({
      method: 'POST',
      url: unknownLink,
      payload: { password: 'a-long-enough-password' },
    }),
  },
};
