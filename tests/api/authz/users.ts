import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, row } from '../authz-matrix';
import { call } from '../helpers';
import { userInvitationTokenSentTo } from '../invites';

const userBody = (ctx: AuthzContext) => ({
  name: `Authz User ${ctx.next()}`,
  email: `authz.user.${ctx.next()}@authz.example`,
  role: 'consultant',
});
const newUser = async (ctx: AuthzContext, token = ctx.setup) =>
  (await ctx.must(await call(ctx.t.app, token, 'POST', '/api/users', userBody(ctx)), 201)).id as number;
/** A new user of agency A, invited: the token from the invitation e-mail as sent. */
async function freshInvite(ctx: AuthzContext): Promise<string> {
  const body = userBody(ctx);
  await ctx.must(await call(ctx.t.app, ctx.setup, 'POST', '/api/users', body), 201);
  return userInvitationTokenSentTo(ctx.t, body.email);
}
let readableInvite = '';

/**
 * Agency and client users (issue 14): agency users list, open and invite them; only admins edit (change roles);
 * nobody deletes (deactivate instead); staff manage none. A client's manager (clientA and clientB are managers)
 * lists and invites their own client's colleagues (issue 35): agency A's consultant is outside their scope (404), and
 * the body inviting a consultant is authorised, then refused (422: client roles only). The invitation link's routes
 * are public (the token is the key) and answer 404 for a link that is no user's invitation (the link principal's,
 * to a shift). Choosing the password is the invitation link's action, which has no route of the users resource.
 */
export const users: AuthzArea = {
  get rows() {
    return [
      row('GET', '/api/users', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/users/:id', A, 'ok', 'ok', N, N, N, F, A),
      row('POST', '/api/users', A, 201, 201, 422, 422, 201, F, A),
      row('PUT', '/api/users/:id', A, 'ok', F, F, F, N, F, A),
      row('DELETE', '/api/users/:id', A, F, F, F, F, F, F, A),
      row('POST', '/api/users/:id/actions/resend', A, 'ok', 'ok', N, N, N, F, A),
      row('POST', '/api/users/:id/actions/deactivate', A, 'ok', 'ok', N, N, N, F, A),
      row('POST', '/api/users/:id/actions/reactivate', A, 'ok', 'ok', N, N, N, F, A),
      row('GET', '/api/user_invites/:token', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', N),
      row('POST', '/api/user_invites/:token', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', N),
    ];
  },
  async prepare(ctx) {
    ctx.shared.users = await newUser(ctx);
    ctx.sharedB.users = await newUser(ctx, ctx.setupB);
    readableInvite = await freshInvite(ctx);
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
    'GET /api/user_invites/:token': (ctx, p) => ({
      method: 'GET',
      url: `/api/user_invites/${p === 'link' ? ctx.tokens.link : readableInvite}`,
    }),
    'POST /api/user_invites/:token': async (ctx, p) => ({
      method: 'POST',
      url: `/api/user_invites/${p === 'link' ? ctx.tokens.link : await freshInvite(ctx)}`,
      payload: { password: 'a-long-enough-password' },
    }),
  },
};
