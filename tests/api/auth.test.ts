import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO, login, loginAs, makeTestApp, postLogin, type TestApp, fixtureWrite, markFixture } from './helpers';
import { LoginThrottle } from '../../server/auth/throttle';
import { CLIENT_HINT } from '../../server/auth/routes';
import { endSessionsOfClient } from '../../server/auth/sessions';

const WRONG = 'The e-mail address or password is incorrect.';
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/admin_login', () => {
  it('answers token, token_expiration (ISO 8601 UTC, in the future), login_type, merchant_id and user', async () => {
    const res = await postLogin(t.app, 'admin', DEMO.admin.email, DEMO.admin.password);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['login_type', 'merchant_id', 'token', 'token_expiration', 'user']);
    expect(body.token).toEqual(expect.any(String));
    expect(body.token.length).toBeGreaterThanOrEqual(32);
    expect(body.token_expiration).toMatch(ISO_UTC);
    const expires = Date.parse(body.token_expiration);
    expect(expires).toBeGreaterThan(Date.now() + 3500 * 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3600 * 1000);
    expect(body.login_type).toBe('admin');
    expect(body.merchant_id).toEqual(expect.any(Number));
    expect(body.user).toEqual({ id: expect.any(Number), name: 'Alex Morgan', email: 'admin@demo.test', role: 'admin' });
  });

  it('gives two sign-ins two different tokens, both valid', async () => {
    const a = await loginAs(t.app, 'admin');
    const b = await loginAs(t.app, 'admin');
    expect(a).not.toBe(b);
    expect((await call(t.app, a, 'GET', '/api/admin_login')).statusCode).toBe(200);
    expect((await call(t.app, b, 'GET', '/api/admin_login')).statusCode).toBe(200);
  });

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const res = await postLogin(t.app, 'admin', '  Admin@Demo.TEST ', DEMO.admin.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('admin@demo.test');
  });

  it('signs in a consultant with role consultant', async () => {
    const res = await postLogin(t.app, 'admin', DEMO.consultant.email, DEMO.consultant.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      login_type: 'admin',
      user: { role: 'consultant', email: 'consultant@demo.test' },
    });
  });
});

describe('POST /api/client_login', () => {
  it('answers the same shape plus client_id, at the top level and in user', async () => {
    const res = await postLogin(t.app, 'client', DEMO.client.email, DEMO.client.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'client_id',
      'client_name',
      'login_type',
      'merchant_id',
      'token',
      'token_expiration',
      'user',
    ]);
    expect(body.login_type).toBe('client');
    expect(body.token_expiration).toMatch(ISO_UTC);
    expect(Date.parse(body.token_expiration)).toBeGreaterThan(Date.now());
    expect(body.client_id).toEqual(expect.any(Number));
    expect(body.client_name).toEqual(expect.any(String));
    const [own] = await t.db.query<{ name: string }>('select name from clients where id = $1', [body.client_id]);
    expect(body.client_name).toBe(own.name);
    expect(body.user).toEqual({
      id: expect.any(Number),
      name: 'Helen Carter',
      email: 'client@demo.test',
      role: 'manager',
      client_id: body.client_id,
    });
  });

  it('a client account cannot sign in to the agency panel (401 with the "Client?" hint), nor an admin to the client panel (401)', async () => {
    const a = await postLogin(t.app, 'admin', DEMO.client.email, DEMO.client.password);
    const b = await postLogin(t.app, 'client', DEMO.admin.email, DEMO.admin.password);
    expect([a.statusCode, b.statusCode]).toEqual([401, 401]);
    expect(a.json()).toMatchObject({ message: CLIENT_HINT, hint: 'client' });
    expect(b.json().message).toBe(WRONG);
  });
});

describe('wrong credentials and bad input', () => {
  it('wrong password and unknown e-mail both answer 401 with the same message', async () => {
    const wrong = await postLogin(t.app, 'admin', DEMO.admin.email, 'not-the-password');
    const unknown = await postLogin(t.app, 'admin', 'nobody@nowhere.test', 'demo-admin');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: WRONG });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('missing fields answer 422 with an error per field', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/admin_login', payload: {} });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toEqual(expect.any(String));
    expect(Object.keys(none.json().errors).sort()).toEqual(['email', 'password']);
    const noPassword = await t.app.inject({
      method: 'POST',
      url: '/api/client_login',
      payload: { email: 'client@demo.test' },
    });
    expect(noPassword.statusCode).toBe(422);
    expect(Object.keys(noPassword.json().errors)).toEqual(['password']);
    const empty = await t.app.inject({ method: 'POST', url: '/api/admin_login', payload: { email: '', password: '' } });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors).sort()).toEqual(['email', 'password']);
  });

  it('invalid JSON answers 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin_login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "admin@demo.test", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('an empty JSON body and a non-object body are refused without 500', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/admin_login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBeGreaterThanOrEqual(400);
    expect(empty.statusCode).toBeLessThan(500);
    const array = await t.app.inject({
      method: 'POST',
      url: '/api/admin_login',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(array.statusCode).toBeGreaterThanOrEqual(400);
    expect(array.statusCode).toBeLessThan(500);
  });
});

describe('tokens', () => {
  it('401 for a missing, malformed or unknown token, with a message', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Basic abc' },
      { authorization: 'Bearer garbage-token' },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin_login', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().message).toEqual(expect.any(String));
    }
  });

  it('GET /api/admin_login answers the signed-in admin', async () => {
    const token = await loginAs(t.app, 'admin');
    const res = await call(t.app, token, 'GET', '/api/admin_login');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ login_type: 'admin', user: { email: 'admin@demo.test', role: 'admin' } });
  });

  it('expires: a token from an app with a 1-second lifetime answers 401 after it', async () => {
    const short = await t.extraApp({ tokenLifetimeSeconds: 1 });
    const res = await postLogin(short, 'admin', DEMO.admin.email, DEMO.admin.password);
    const { token, token_expiration } = res.json();
    expect(Date.parse(token_expiration) - Date.now()).toBeLessThanOrEqual(1000);
    expect((await call(short, token, 'GET', '/api/admin_login')).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1300));
    const after = await call(short, token, 'GET', '/api/admin_login');
    expect(after.statusCode).toBe(401);
    // ... on any app sharing the database, not only the one holding the cached session.
    expect((await call(t.app, token, 'GET', '/api/admin_login')).statusCode).toBe(401);
  });

  it('sign-out revokes: POST /api/logout, then the same token answers 401', async () => {
    const token = await loginAs(t.app, 'admin');
    const other = await loginAs(t.app, 'admin');
    const out = await call(t.app, token, 'POST', '/api/logout');
    expect(out.statusCode).toBe(200);
    expect((await call(t.app, token, 'GET', '/api/admin_login')).statusCode).toBe(401);
    expect((await call(t.app, token, 'GET', '/api/agency_logo_list')).statusCode).toBe(401);
    expect((await call(t.app, token, 'POST', '/api/logout')).statusCode).toBe(401);
    // Only that token: another session of the same user still works.
    expect((await call(t.app, other, 'GET', '/api/admin_login')).statusCode).toBe(200);
  });

  it('sign-out works for client users too', async () => {
    const token = await loginAs(t.app, 'client');
    expect((await call(t.app, token, 'POST', '/api/logout')).statusCode).toBe(200);
    expect((await call(t.app, token, 'GET', '/api/client_login')).statusCode).toBe(401);
  });
});

describe('rate limiting', () => {
  // Counts are shared through the database: each test counts in a namespace of its own.
  let n = 0;
  const isolated = (o: Partial<ConstructorParameters<typeof LoginThrottle>[0]> = {}) =>
    new LoginThrottle({ ...o, namespace: `auth-${++n}:` });

  it('the 6th attempt for one account answers 429 with retry-after, even with the right password', async () => {
    const app = await t.extraApp({ throttle: isolated() });
    for (let i = 0; i < 5; i++) {
      const res = await postLogin(app, 'admin', DEMO.consultant.email, `wrong-${i}`);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const sixth = await postLogin(app, 'admin', DEMO.consultant.email, 'wrong-6');
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.json().message).toEqual(expect.any(String));
    const right = await postLogin(app, 'admin', DEMO.consultant.email, DEMO.consultant.password);
    expect(right.statusCode).toBe(429);
    // The lock is per account: another account from the same address still signs in.
    expect((await postLogin(app, 'admin', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
  });

  it('a success before the limit resets the account count', async () => {
    const app = await t.extraApp({ throttle: isolated() });
    for (let i = 0; i < 4; i++) expect((await postLogin(app, 'admin', DEMO.admin.email, 'wrong')).statusCode).toBe(401);
    expect((await postLogin(app, 'admin', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await postLogin(app, 'admin', DEMO.admin.email, 'wrong')).statusCode).toBe(401);
    expect((await postLogin(app, 'admin', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
  });

  it('many failures from one address stop accounts not known there, not those who signed in from it before', async () => {
    const app = await t.extraApp({ throttle: isolated({ perAddress: 8 }) });
    const from = (remoteAddress: string, email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/admin_login', payload: { email, password }, remoteAddress });
    // A colleague signed in from this address before: it is known for them.
    expect((await from('10.9.9.9', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
    // Concurrently: each failure costs a full password hash; they run in libuv's thread pool.
    const failures = await Promise.all(
      Array.from({ length: 8 }, (_, i) => from('10.9.9.9', `user${i}@nowhere.test`, 'x')),
    );
    expect(failures.map((r) => r.statusCode)).toEqual(Array(8).fill(401));
    const refused = await from('10.9.9.9', 'someone-new@nowhere.test', 'x');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Never signed in from here: stopped, even with the right password.
    expect((await from('10.9.9.9', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(429);
    // Known here: not locked out by the others' failures.
    expect((await from('10.9.9.9', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
    // Another address is not affected.
    expect((await from('10.1.1.1', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(200);
  });

  it('with the default limits, 20 failures from one address stop the 21st account', async () => {
    const app = await t.extraApp({ throttle: isolated() });
    const from = (email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/admin_login',
        payload: { email, password: 'x' },
        remoteAddress: '10.7.7.7',
      });
    const failures = await Promise.all(Array.from({ length: 20 }, (_, i) => from(`u${i}@nowhere.test`)));
    expect(failures.map((r) => r.statusCode)).toEqual(Array(20).fill(401));
    expect((await from('u-last@nowhere.test')).statusCode).toBe(429);
  });
});

describe('users of an inactive or deleted client', () => {
  const client2 = async () =>
    (
      await t.db.query<{ client_id: number; merchant_id: number }>(
        'select client_id, merchant_id from users where email = $1',
        [DEMO.client2.email],
      )
    )[0];
  afterEach(async () => {
    await fixtureWrite(t.db, `update clients set status = 'active', deleted_at = null where id = $1`, [
      (await client2()).client_id,
    ]);
  });

  it('cannot sign in: the same 401 as a wrong password', async () => {
    const { client_id } = await client2();
    for (const change of [`status = 'inactive'`, 'deleted_at = now()']) {
      await fixtureWrite(t.db, `update clients set ${change} where id = $1`, [client_id]);
      const res = await postLogin(t.app, 'client', DEMO.client2.email, DEMO.client2.password);
      expect(res.statusCode, change).toBe(401);
      expect(res.json()).toEqual({ message: WRONG });
      await fixtureWrite(t.db, `update clients set status = 'active', deleted_at = null where id = $1`, [client_id]);
      expect((await postLogin(t.app, 'client', DEMO.client2.email, DEMO.client2.password)).statusCode).toBe(200);
    }
  });

  it('a session of such a user answers 401 even when nothing ended it', async () => {
    const token = await loginAs(t.app, 'client2');
    await fixtureWrite(t.db, 'update clients set deleted_at = now() where id = $1', [(await client2()).client_id]);
    // An app that has not cached the session looks it up and refuses it.
    const fresh = await t.extraApp();
    expect((await call(fresh, token, 'GET', '/api/client_login')).statusCode).toBe(401);
  });

  it('endSessionsOfClient ends their sessions at once, cached ones included, and only theirs', async () => {
    const token = await loginAs(t.app, 'client2');
    const otherClient = await loginAs(t.app, 'client');
    expect((await call(t.app, token, 'GET', '/api/client_login')).statusCode).toBe(200); // now cached
    const { client_id, merchant_id } = await client2();
    await t.db.transaction(async (tx) => {
      await markFixture(tx);
      await tx.query(`update clients set status = 'inactive' where id = $1`, [client_id]);
      await endSessionsOfClient(tx, t.app.cluster, merchant_id, client_id);
    });
    expect((await call(t.app, token, 'GET', '/api/client_login')).statusCode).toBe(401);
    const [{ n }] = await t.db.query<{ n: number }>(
      'select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.client_id = $1',
      [client_id],
    );
    expect(n).toBe(0);
    expect((await call(t.app, otherClient, 'GET', '/api/client_login')).statusCode).toBe(200);
  });
});

describe('login is still usable after throttled sign-ins on another app', () => {
  it('the shared app was not affected by the throttle tests', async () => {
    expect(await login(t.app, 'admin', DEMO.consultant.email, DEMO.consultant.password)).toEqual(expect.any(String));
  });
});
