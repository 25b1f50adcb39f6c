import type { AuthzArea, AuthzContext } from './area';
import { A, customRoles, F, N, row } from './principals';
import { call } from '../helpers';

const roleBody = (ctx: AuthzContext) => ({ name: `Authz role ${ctx.next()}`, privileges: ['clients.list'] });
const newRole = async (ctx: AuthzContext, token = ctx.setup) =>
  (await ctx.must(await call(ctx.t.app, token, 'POST', '/api/agency_roles', roleBody(ctx)), 201)).id as number;

/**
 * The agency's own roles (issue 35): its admins list, create, change and delete them; nobody else sees them — not a
 * consultant, not a client or staff member, and not a custom role however much it grants (who may grant what stays
 * the admin's: the roles are no privilege a role can hold). The other agency's admin finds none of agency A's.
 */
export const roles: AuthzArea = {
  get rows() {
    const adminOnly = (r: ReturnType<typeof row>) => customRoles(r, F, F);
    return [
      adminOnly(row('GET', '/api/agency_roles', A, 'ok', F, F, F, 'ok', F, A)),
      adminOnly(row('GET', '/api/agency_roles/:id', A, 'ok', F, F, F, N, F, A)),
      adminOnly(row('POST', '/api/agency_roles', A, 201, F, F, F, 201, F, A)),
      adminOnly(row('PUT', '/api/agency_roles/:id', A, 'ok', F, F, F, N, F, A)),
      adminOnly(row('DELETE', '/api/agency_roles/:id', A, 'ok', F, F, F, N, F, A)),
    ];
  },
  async prepare(ctx) {
    ctx.shared.agency_roles = await newRole(ctx);
    ctx.sharedB.agency_roles = await newRole(ctx, ctx.setupB);
  },
  createBody: { agency_roles: async (ctx) => roleBody(ctx) },
  fresh: { agency_roles: (ctx) => newRole(ctx) },
};
