import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEMO, makeTestApp, openTestDb, type TestApp, type TestDb, fixtureWrite, markFixture } from './helpers';
import { Cluster } from '../../server/cluster';
import { endSessionsOfClient, endSessionsOfUser } from '../../server/auth/sessions';
import { LoginThrottle } from '../../server/auth/throttle';
import type { Db } from '../../server/db';
import { startProcess, stopProcess, type Child, type Server } from './serverProcess';

/**
 * Two server processes on one database behave as one: sessions, the sign-in throttle and list totals.
 * - PostgreSQL (TEST_DATABASE_URL): two real server processes (`node --import tsx server/index.ts`) on this
 *   file's database, called over HTTP.
 * - PGlite lives in one process by construction: two apps on one database, each with its own caches and its
 *   own bus subscription, stand for the two processes.
 */

const postgres = Boolean(process.env.TEST_DATABASE_URL);

let db: Db;
/** The bus as the test (another writer on the same database) sees it. */
let cluster: Cluster;
let A: Server;
let B: Server;
let stop: () => Promise<void>;

// ---- PGlite: two apps in this process ------------------------------------------------------------------------

function injected(app: FastifyInstance): Server {
  return {
    async request(method, url, { token, payload } = {}) {
      const res = await app.inject({
        method,
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload !== undefined ? { payload: payload as any } : {}),
      });
      return {
        status: res.statusCode,
        headers: res.headers as Record<string, string>,
        body: res.body ? res.json() : undefined,
      };
    },
  };
}

let children: Child[] = [];
beforeAll(async () => {
  if (postgres) {
    const testDb: TestDb = await openTestDb({ demo: 40 });
    db = testDb.db;
    try {
      cluster = await Cluster.start(db);
      children = await Promise.all([startProcess(testDb.url!), startProcess(testDb.url!)]);
    } catch (e) {
      await Promise.all(children.map((c) => stopProcess(c.process)));
      await testDb.close();
      throw e;
    }
    [A, B] = children.map((c) => c.server);
    stop = async () => {
      await Promise.all(children.map((c) => stopProcess(c.process)));
      await cluster.close();
      await testDb.close();
    };
  } else {
    // One throttle namespace for both apps, as every process shares '' in production.
    const t: TestApp = await makeTestApp({ throttle: new LoginThrottle({ namespace: 'cluster:' }) });
    const second = await t.extraApp({ throttle: new LoginThrottle({ namespace: 'cluster:' }) });
    db = t.db;
    cluster = t.app.cluster;
    [A, B] = [injected(t.app), injected(second)];
    stop = () => t.close();
  }
});
afterAll(async () => {
  await stop?.();
});

async function signIn(server: Server, who: keyof typeof DEMO): Promise<string> {
  const { kind, email, password } = DEMO[who];
  const res = await server.request('POST', `/api/${kind}_login`, { payload: { email, password } });
  if (res.status !== 200) throw new Error(`Sign-in as ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.token;
}
const me = (server: Server, token: string, kind: 'admin' | 'client' = 'admin') =>
  server.request('GET', `/api/${kind}_login`, { token }).then((r) => r.status);

/**
 * Another process hears of a change when PostgreSQL hands it the notification: milliseconds after the commit,
 * more on a loaded machine. Asks again until `expected` (or 2 s, far under the 30 s a cached session used to
 * live), and answers what was last seen.
 */
async function soon<T>(ask: () => Promise<T>, expected: T, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = await ask();
    if (JSON.stringify(seen) === JSON.stringify(expected) || Date.now() > deadline) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`two ${postgres ? 'server processes' : 'apps'} on one ${postgres ? 'PostgreSQL' : 'PGlite'} database`, () => {
  it('a sign-out on A ends the session on B at once, though B had it cached', async () => {
    const token = await signIn(A, 'admin');
    expect(await me(B, token)).toBe(200); // B looks it up and caches it
    expect(await me(B, token)).toBe(200);
    expect((await A.request('POST', '/api/logout', { token })).status).toBe(200);
    expect(await me(A, token)).toBe(401);
    expect(await soon(() => me(B, token), 401)).toBe(401);
  });

  it('deactivating a user ends their sessions in both at once, and they cannot sign in', async () => {
    const token = await signIn(A, 'consultant');
    expect([await me(A, token), await me(B, token)]).toEqual([200, 200]);
    const [{ id }] = await db.query<{ id: number }>('select id from users where email = $1', [DEMO.consultant.email]);
    try {
      await db.transaction(async (tx) => {
        await markFixture(tx);
        await tx.query('update users set active = false where id = $1', [id]);
        await endSessionsOfUser(tx, cluster, id);
      });
      await cluster.settle();
      expect(await soon(async () => [await me(A, token), await me(B, token)], [401, 401])).toEqual([401, 401]);
      const again = await B.request('POST', '/api/admin_login', {
        payload: { email: DEMO.consultant.email, password: DEMO.consultant.password },
      });
      expect(again.status).toBe(401);
    } finally {
      await fixtureWrite(db, 'update users set active = true where id = $1', [id]);
    }
  });

  it('deactivating or deleting a client ends its users\u2019 sessions in both at once, and they cannot sign in', async () => {
    const [{ client_id, merchant_id }] = await db.query<{ client_id: number; merchant_id: number }>(
      'select client_id, merchant_id from users where email = $1',
      [DEMO.client2.email],
    );
    const other = await signIn(A, 'client');
    try {
      for (const change of [`status = 'inactive'`, 'deleted_at = now()']) {
        const token = await signIn(B, 'client2');
        expect([await me(A, token, 'client'), await me(B, token, 'client')], change).toEqual([200, 200]);
        await db.transaction(async (tx) => {
          await markFixture(tx);
          await tx.query(`update clients set ${change} where id = $1`, [client_id]);
          await endSessionsOfClient(tx, cluster, merchant_id, client_id);
        });
        await cluster.settle();
        expect(
          await soon(async () => [await me(A, token, 'client'), await me(B, token, 'client')], [401, 401]),
          change,
        ).toEqual([401, 401]);
        const again = await A.request('POST', '/api/client_login', {
          payload: { email: DEMO.client2.email, password: DEMO.client2.password },
        });
        expect(again.status, change).toBe(401);
        expect(again.body).toEqual({ message: 'The e-mail address or password is incorrect.' });
        await fixtureWrite(db, `update clients set status = 'active', deleted_at = null where id = $1`, [client_id]);
      }
      // Users of other clients were not touched.
      expect([await me(A, other, 'client'), await me(B, other, 'client')]).toEqual([200, 200]);
    } finally {
      await fixtureWrite(db, `update clients set status = 'active', deleted_at = null where id = $1`, [client_id]);
    }
  });

  it('deactivating a staff member on A ends their staff session on B at once, though B had it cached (issue 13, item 8)', async () => {
    const token = await signIn(A, 'staff');
    const staffMe = () => B.request('GET', '/api/staff_login', { token }).then((r) => r.status);
    expect([await staffMe(), await staffMe()]).toEqual([200, 200]); // cached on B
    const [{ candidate_id }] = await db.query<{ candidate_id: number }>(
      'select candidate_id from users where email = $1',
      [DEMO.staff.email],
    );
    const admin = await signIn(A, 'admin');
    try {
      expect(
        (await A.request('POST', `/api/candidates/${candidate_id}/actions/deactivate`, { token: admin, payload: {} }))
          .status,
      ).toBe(200);
      expect(await soon(staffMe, 401)).toBe(401);
      const again = await B.request('POST', '/api/staff_login', {
        payload: { email: DEMO.staff.email, password: DEMO.staff.password },
      });
      expect(again.status).toBe(401);
    } finally {
      await fixtureWrite(db, 'update candidates set activated = true where id = $1', [candidate_id]);
    }
  });

  it('the sign-in throttle counts across them: 3 failures on A and 2 on B, then A refuses (429)', async () => {
    const attempt = (server: Server, password: string) =>
      server.request('POST', '/api/admin_login', { payload: { email: DEMO.otherAdmin.email, password } });
    for (let i = 0; i < 3; i++) expect((await attempt(A, `wrong-a${i}`)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await attempt(B, `wrong-b${i}`)).status).toBe(401);
    const refused = await attempt(A, 'wrong-a3');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // B refuses too, even the right password.
    expect((await attempt(B, DEMO.otherAdmin.password)).status).toBe(429);
  });

  it('a list total cached on B changes at once after a create on A', async () => {
    const admin = await signIn(A, 'admin');
    const total = async (server: Server) => {
      const res = await server.request('GET', '/api/candidates?per_page=1', { token: admin });
      expect(res.status).toBe(200);
      return res.body.total_count as number;
    };
    const before = await total(B);
    expect(await total(B)).toBe(before); // cached now
    const created = await A.request('POST', '/api/candidates', {
      token: admin,
      payload: { first_name: 'Cluster', last_name: 'Probe', email: `cluster-${Date.now()}@probe.test` },
    });
    expect(created.status).toBe(201);
    expect(await total(A)).toBe(before + 1);
    // Cached totals live 10 s: within 2 s only the announcement of the write can have dropped B's.
    expect(await soon(() => total(B), before + 1)).toBe(before + 1);
  });

  it('a privilege taken from a custom role on A refuses its holder on B at their next request, though B had the session cached (issue 35)', async () => {
    const admin = await signIn(A, 'admin');
    const created = await A.request('POST', '/api/agency_roles', {
      token: admin,
      payload: { name: `Cluster clerk ${Date.now()}`, privileges: ['clients.list', 'candidates.list'] },
    });
    expect(created.status).toBe(201);
    const roleId = created.body.data.id as number;
    // A user holding it, with the consultant's password (its hash copied: no invitation needed here).
    const email = `cluster.clerk.${Date.now()}@roles.example`;
    await fixtureWrite(
      db,
      `insert into users (merchant_id, kind, name, email, password_hash, role, agency_role_id)
       select merchant_id, 'admin', 'Cluster Clerk', $1, password_hash, 'custom', $2 from users where email = $3`,
      [email, roleId, DEMO.consultant.email],
    );
    const res = await A.request('POST', '/api/admin_login', { payload: { email, password: DEMO.consultant.password } });
    expect(res.status).toBe(200);
    const token = res.body.token as string;
    const clients = (server: Server) =>
      server.request('GET', '/api/clients?per_page=1', { token }).then((r) => r.status);
    expect(await clients(B)).toBe(200); // B looks the session up and caches it, privileges and all
    expect(await clients(B)).toBe(200);
    const changed = await A.request('PUT', `/api/agency_roles/${roleId}`, {
      token: admin,
      payload: { privileges: ['candidates.list'] },
    });
    expect(changed.status).toBe(200);
    expect(await clients(A)).toBe(403);
    expect(await soon(() => clients(B), 403)).toBe(403);
    // What it still grants, B still answers.
    expect(await B.request('GET', '/api/candidates?per_page=1', { token }).then((r) => r.status)).toBe(200);
  });

  // Only a server process has a bus connection to lose (PGlite's bus is in-process): not registered on PGlite.
  if (postgres)
    it('when B loses its bus connection it stops trusting its cache, and listens again', async () => {
      const [, b] = children;
      const token = await signIn(A, 'admin');
      expect(await me(B, token)).toBe(200); // cached on B
      const listener = async () =>
        (
          await db.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1`, [
            `staffing listener ${b.process.pid}`,
          ])
        )[0]?.pid;
      const pid = await listener();
      expect(pid, 'B has a listening connection named after its process').toEqual(expect.any(Number));
      // Wait until that backend is gone: B has seen its connection end.
      await db.query('select pg_terminate_backend($1, 5000)', [pid]);
      // Signed out while B hears nothing: once B has noticed the drop it must not answer from its cache, though
      // the announcement never reached it (without that rule the cached session would live on for 30 s).
      expect((await A.request('POST', '/api/logout', { token })).status).toBe(200);
      expect(await soon(() => me(B, token), 401)).toBe(401);
      // B reconnects by itself and hears sign-outs again.
      const deadline = Date.now() + 15_000;
      while ((await listener()) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await listener(), b.output()).toEqual(expect.any(Number));
      const next = await signIn(A, 'admin');
      expect(await me(B, next)).toBe(200);
      expect(await me(B, next)).toBe(200);
      expect((await A.request('POST', '/api/logout', { token: next })).status).toBe(200);
      expect(await soon(() => me(B, next), 401)).toBe(401);
    });
});
