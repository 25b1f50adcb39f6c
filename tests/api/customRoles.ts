import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db';
import { call, login } from './helpers';
import { userInvitationTokenSentTo } from './invites';
import { declarations } from '../../core/resources/declarations';
import { privilegeRows } from '../../core/resources/roles/privileges';

type Product = { app: FastifyInstance; db: Db };

/** Every privilege a custom role can be granted: everything admin is declared to do, the roles themselves aside. */
export const ALL_PRIVILEGES = privilegeRows(declarations).flatMap((r) => r.privileges.map((p) => p.key));

let n = 0;
export const CUSTOM_PASSWORD = 'custom-role-password';

async function must(res: { statusCode: number; body: string; json(): any }, status: number) {
  if (res.statusCode !== status) throw new Error(`setup answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res.json().data;
}

/** A new role of the admin's agency, granting `privileges` (limited to business units, if named): its id. */
export async function newRole(
  t: Product,
  admin: string,
  privileges: string[],
  name?: string,
  units: number[] = [],
): Promise<number> {
  const body = { name: name ?? `Custom role ${++n} ${Date.now()}`, privileges, business_unit_ids: units };
  return (await must(await call(t.app, admin, 'POST', '/api/agency_roles', body), 201)).id;
}

/**
 * A new agency user holding the role, invited by the admin and signed in with the password their invitation set:
 * their user id, e-mail and session token.
 */
export async function userWithRole(
  t: Product,
  admin: string,
  roleId: number,
): Promise<{ id: number; email: string; token: string }> {
  const email = `custom.${++n}.${Date.now()}@roles.example`;
  const body = { name: `Custom User ${n}`, email, role: 'custom', agency_role_id: roleId };
  const { id } = await must(await call(t.app, admin, 'POST', '/api/users', body), 201);
  const invite = await userInvitationTokenSentTo(t, email);
  await must(
    await t.app.inject({ method: 'POST', url: `/api/user_invites/${invite}`, payload: { password: CUSTOM_PASSWORD } }),
    200,
  );
  return { id, email, token: await login(t.app, 'admin', email, CUSTOM_PASSWORD) };
}
