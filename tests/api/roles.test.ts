import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, DEMO, login, loginAs, makeTestApp, type TestApp } from './helpers';
import { newRole, userWithRole } from './customRoles';
import { LAST_ADMIN } from '../../server/behaviours/users';

// Issue 35, users and privileges: the agency's own roles, stored and enforced by the one permits() of the API and
// the screens; a change applies to the holder's next request, in this app and in a second one on the database.
let t: TestApp;
let second: FastifyInstance;
let admin: string;
let consultant: string;
let otherAdmin: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  second = await t.extraApp();
  [admin, consultant, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'otherAdmin'),
  ]);
});
afterAll(async () => {
  await t?.close();
});
// Each test sets passwords (Argon2id): on a busy machine that takes longer than the default.
const slow = { timeout: 120_000 };
const status = async (app: FastifyInstance, token: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  (await call(app, token, method, url, body)).statusCode;

describe('a custom role', slow, () => {
  it('grants its holder what it names and nothing else; a change applies to their next request, in either app', async () => {
    const role = await newRole(t, admin, ['candidates.list', 'candidates.show']);
    const user = await userWithRole(t, admin, role);
    expect(await status(t.app, user.token, 'GET', '/api/candidates')).toBe(200);
    expect(await status(second, user.token, 'GET', '/api/candidates')).toBe(200); // the second app caches the session
    expect(await status(t.app, user.token, 'GET', '/api/clients')).toBe(403);
    expect(await status(t.app, user.token, 'POST', '/api/candidates', { first_name: 'A' })).toBe(403);
    expect(await status(t.app, user.token, 'GET', '/api/users')).toBe(403);
    // The session endpoint answers the privileges the screens ask permits() with.
    const me = (await call(t.app, user.token, 'GET', '/api/admin_login')).json();
    expect(me.user).toMatchObject({ role: 'custom', privileges: ['candidates.list', 'candidates.show'] });

    // Clients granted, the staff list taken away: the next request of each kind, in the other app too.
    const edit = await call(t.app, admin, 'PUT', `/api/agency_roles/${role}`, { privileges: ['clients.list'] });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await status(second, user.token, 'GET', '/api/candidates')).toBe(403);
    expect(await status(second, user.token, 'GET', '/api/clients')).toBe(200);
    expect(await status(t.app, user.token, 'GET', '/api/candidates')).toBe(403);

    // The change is in the role's history, with who made it.
    const trail = await t.db.query<{ event: string; changes: any }>(
      `select event, changes from audit_log where resource = 'agency_roles' and record_id = $1 order by id`,
      [role],
    );
    expect(trail.map((e) => e.event)).toEqual(['create', 'update']);
    expect(JSON.stringify(trail[1].changes)).toContain('clients.list');
  });

  it('another role given to the user applies to their next request', async () => {
    const none = await newRole(t, admin, []);
    const lists = await newRole(t, admin, ['clients.list']);
    const user = await userWithRole(t, admin, none);
    expect(await status(second, user.token, 'GET', '/api/clients')).toBe(403);
    const res = await call(t.app, admin, 'PUT', `/api/users/${user.id}`, { agency_role_id: lists });
    expect(res.statusCode, res.body).toBe(200);
    expect(await status(second, user.token, 'GET', '/api/clients')).toBe(200);
  });

  it('can never grant more than admin: a privilege admin is not declared to have is refused on the field', async () => {
    for (const privileges of [['users.delete'], ['timesheets.sign'], ['agency_roles.list'], ['not_a_resource.list']]) {
      const res = await call(t.app, admin, 'POST', '/api/agency_roles', { name: `Too much ${privileges}`, privileges });
      expect(res.statusCode, String(privileges)).toBe(422);
      expect(res.json().errors).toHaveProperty('privileges');
    }
  });

  it('a role with every privilege does not make its holder an admin: roles and role changes stay the admin’s', async () => {
    const { ALL_PRIVILEGES } = await import('./customRoles');
    const role = await newRole(t, admin, ALL_PRIVILEGES);
    const user = await userWithRole(t, admin, role);
    expect(await status(t.app, user.token, 'GET', '/api/clients')).toBe(200);
    expect(await status(t.app, user.token, 'GET', '/api/agency_roles')).toBe(403);
    // Granted users.edit, they still cannot change anyone's role (nor give themselves another).
    const [consultantRow] = await t.db.query<{ id: number }>('select id from users where email = $1', [
      DEMO.consultant.email,
    ]);
    const res = await call(t.app, user.token, 'PUT', `/api/users/${consultantRow.id}`, { role: 'admin' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.role).toBe('Only an admin can change a role.');
    const mine = await call(t.app, user.token, 'PUT', `/api/users/${user.id}`, { agency_role_id: role });
    expect(mine.statusCode).toBe(200); // nothing changes
    const other = await newRole(t, admin, ['clients.list']);
    const swap = await call(t.app, user.token, 'PUT', `/api/users/${user.id}`, { agency_role_id: other });
    expect(swap.statusCode).toBe(422);
    // An admin-only route that is about no one resource (the agency's sign-in settings) stays the admin's.
    expect(await status(t.app, user.token, 'POST', '/api/agency_roles', { name: 'Mine', privileges: [] })).toBe(403);
  });

  it('needs its role named, and only an admin gives one', async () => {
    const missing = await call(t.app, admin, 'POST', '/api/users', {
      name: 'No Role',
      email: `no.role.${Date.now()}@roles.example`,
      role: 'custom',
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.agency_role_id).toBe('Choose which of the agency’s roles they hold.');
    const role = await newRole(t, admin, []);
    expect(
      await status(t.app, consultant, 'POST', '/api/users', {
        name: 'By Consultant',
        email: `by.consultant.${Date.now()}@roles.example`,
        role: 'custom',
        agency_role_id: role,
      }),
    ).toBe(422);
    // Consultants do not see the roles at all.
    expect(await status(t.app, consultant, 'GET', '/api/agency_roles')).toBe(403);
  });

  it('a role held by a user cannot be deleted (said in words); an unused one can', async () => {
    const role = await newRole(t, admin, ['clients.list']);
    await userWithRole(t, admin, role);
    const res = await call(t.app, admin, 'DELETE', `/api/agency_roles/${role}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/user/i);
    const unused = await newRole(t, admin, []);
    expect((await call(t.app, admin, 'DELETE', `/api/agency_roles/${unused}`)).statusCode).toBe(200);
  });

  it("another agency's role does not exist for an admin: 404, and it cannot be given", async () => {
    const role = await newRole(t, admin, ['clients.list']);
    expect(await status(t.app, otherAdmin, 'GET', `/api/agency_roles/${role}`)).toBe(404);
    const listed = (await call(t.app, otherAdmin, 'GET', '/api/agency_roles?per_page=100')).json().data as {
      id: number;
    }[];
    expect(listed.map((r) => r.id)).not.toContain(role);
    const res = await call(t.app, otherAdmin, 'POST', '/api/users', {
      name: 'Borrowed Role',
      email: `borrowed.${Date.now()}@roles.example`,
      role: 'custom',
      agency_role_id: role,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('agency_role_id');
  });
});

describe('the last admin', slow, () => {
  it('cannot lose the admin role, said in words; with another admin, the role can change', async () => {
    const [me] = await t.db.query<{ id: number; merchant_id: number }>(
      'select id, merchant_id from users where email = $1',
      [DEMO.admin.email],
    );
    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from users where merchant_id = $1 and kind = 'admin' and role = 'admin' and active`,
      [me.merchant_id],
    );
    expect(n).toBe(1);
    const role = await newRole(t, admin, []);
    for (const change of [{ role: 'consultant' }, { role: 'custom', agency_role_id: role }]) {
      const res = await call(t.app, admin, 'PUT', `/api/users/${me.id}`, change);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.role).toBe(LAST_ADMIN);
    }
    // A second admin, signed in: the first one's role may change now (by the other admin).
    const email = `second.admin.${Date.now()}@roles.example`;
    const invited = await call(t.app, admin, 'POST', '/api/users', { name: 'Second Admin', email, role: 'admin' });
    expect(invited.statusCode).toBe(201);
    const { userInvitationTokenSentTo } = await import('./invites');
    const invite = await userInvitationTokenSentTo(t, email);
    await t.app.inject({
      method: 'POST',
      url: `/api/user_invites/${invite}`,
      payload: { password: 'second-admin-pw' },
    });
    const secondAdmin = await login(t.app, 'admin', email, 'second-admin-pw');
    const res = await call(t.app, secondAdmin, 'PUT', `/api/users/${me.id}`, { role: 'consultant' });
    expect(res.statusCode, res.body).toBe(200);
    // And now the second admin is the last one: they cannot be made anything else by the first (a consultant now).
    const back = await call(t.app, secondAdmin, 'PUT', `/api/users/${me.id}`, { role: 'admin' });
    expect(back.statusCode).toBe(200);
  });
});
