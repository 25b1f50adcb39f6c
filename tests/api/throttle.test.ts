import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, parseTrustProxy, type Config } from '../../server/config';
import { LoginThrottle, type ThrottleOptions } from '../../server/auth/throttle';
import { DEMO, makeTestApp, postLogin, type TestApp } from './helpers';

let t: TestApp;
const own: FastifyInstance[] = [];
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  for (const app of own) await app.close();
  await t?.close();
});

// Counts live in the database: every test counts in a namespace of its own.
let n = 0;
const throttle = (o: Partial<ThrottleOptions> = {}) =>
  new LoginThrottle({ ...o, namespace: o.namespace ?? `throttle-${++n}:` });
const from = (
  app: FastifyInstance,
  remoteAddress: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) => app.inject({ method: 'POST', url: '/api/admin_login', payload: { email, password }, remoteAddress, headers });
/** The count of an account at an address (app.inject's own address unless a test gives one). */
const accountKey = (namespace: string, email: string, address = '127.0.0.1') =>
  `${namespace}account:${email}|${address}`;

describe('attempts are counted when they start', () => {
  it('100 parallel sign-ins for one account, 99 wrong: at most 5 passwords are checked, the rest get 429', async () => {
    const app = await t.extraApp({ throttle: throttle() });
    const passwords = [...Array.from({ length: 99 }, (_, i) => `wrong-${i}`), DEMO.admin.password];
    const answers = await Promise.all(passwords.map((p) => postLogin(app, 'admin', DEMO.admin.email, p)));
    const statuses = answers.map((a) => a.statusCode);
    expect(
      statuses.every((s) => [200, 401, 429].includes(s)),
      statuses.join(','),
    ).toBe(true);
    // Only the 5 attempts under the limit reached the password check (401, or 200 if the right one was among them).
    expect(statuses.filter((s) => s !== 429).length).toBe(5);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    for (const a of answers.filter((x) => x.statusCode === 429))
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('two apps on one database (two processes) share the count', async () => {
    const namespace = `shared-${++n}:`;
    const [a, b] = [
      await t.extraApp({ throttle: throttle({ namespace }) }),
      await t.extraApp({ throttle: throttle({ namespace }) }),
    ];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postLogin(i % 2 ? a : b, 'admin', DEMO.consultant.email, `wrong-${i}`)),
    );
    expect(answers.filter((x) => x.statusCode === 401).length).toBe(5);
    expect(answers.filter((x) => x.statusCode === 429).length).toBe(15);
    const [row] = await t.db.query('select count from login_attempts where key = $1', [
      accountKey(namespace, DEMO.consultant.email),
    ]);
    expect(row.count).toBe(20);
  });

  it('Retry-After is what is left of the window, and once it has passed the count starts again', async () => {
    const namespace = `window-${++n}:`;
    const app = await t.extraApp({ throttle: throttle({ namespace }) });
    for (let i = 0; i < 5; i++)
      expect((await postLogin(app, 'admin', DEMO.otherAdmin.email, 'wrong')).statusCode).toBe(401);
    const locked = await postLogin(app, 'admin', DEMO.otherAdmin.email, DEMO.otherAdmin.password);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(890);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);
    expect(locked.json().message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    const key = accountKey(namespace, DEMO.otherAdmin.email);
    await t.db.query(`update login_attempts set window_start = window_start - interval '10 minutes' where key = $1`, [
      key,
    ]);
    const later = await postLogin(app, 'admin', DEMO.otherAdmin.email, 'wrong');
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(300);
    expect(Number(later.headers['retry-after'])).toBeGreaterThan(290);
    await t.db.query(`update login_attempts set window_start = window_start - interval '5 minutes' where key = $1`, [
      key,
    ]);
    expect((await postLogin(app, 'admin', DEMO.otherAdmin.email, 'wrong')).statusCode).toBe(401);
    const [row] = await t.db.query('select count from login_attempts where key = $1', [key]);
    expect(row.count).toBe(1);
    expect((await postLogin(app, 'admin', DEMO.otherAdmin.email, DEMO.otherAdmin.password)).statusCode).toBe(200);
    // A success starts the account's count again.
    expect(await t.db.query('select count from login_attempts where key = $1', [key])).toEqual([]);
  });
});

describe('the address limit stops guessing without locking out those known at the address', () => {
  it('successful sign-ins do not count against the address', async () => {
    const app = await t.extraApp({ throttle: throttle({ perAddress: 3 }) });
    expect((await from(app, '10.2.2.2', 'u1@nowhere.test', 'x')).statusCode).toBe(401);
    expect((await from(app, '10.2.2.2', 'u2@nowhere.test', 'x')).statusCode).toBe(401);
    expect((await from(app, '10.2.2.2', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
    expect((await from(app, '10.2.2.2', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(200);
    expect((await from(app, '10.2.2.2', 'u3@nowhere.test', 'x')).statusCode).toBe(401); // the 3rd failure
    expect((await from(app, '10.2.2.2', 'u4@nowhere.test', 'x')).statusCode).toBe(429);
  });

  it('an account is known at an address for 30 days after signing in from it', async () => {
    const namespace = `known-${++n}:`;
    const app = await t.extraApp({ throttle: throttle({ namespace, perAddress: 2 }) });
    expect((await from(app, '10.3.3.3', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
    for (const u of ['u1', 'u2']) expect((await from(app, '10.3.3.3', `${u}@nowhere.test`, 'x')).statusCode).toBe(401);
    expect((await from(app, '10.3.3.3', 'u3@nowhere.test', 'x')).statusCode).toBe(429);
    expect((await from(app, '10.3.3.3', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(429);
    expect((await from(app, '10.3.3.3', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
    await t.db.query(
      `update login_known_addresses set last_success_at = now() - interval '31 days' where account = $1`,
      [namespace + DEMO.admin.email],
    );
    expect((await from(app, '10.3.3.3', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(429);
  });

  it('an account known at the address is still limited to 5 attempts', async () => {
    const app = await t.extraApp({ throttle: throttle() });
    expect((await from(app, '10.5.5.5', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await from(app, '10.5.5.5', DEMO.consultant.email, 'wrong')).statusCode).toBe(401);
    expect((await from(app, '10.5.5.5', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(429);
  });
});

describe('a stranger cannot lock the owner out (issue 30.12)', () => {
  it('five wrong passwords from one address lock that address only: the right one from another signs in', async () => {
    const app = await t.extraApp({ throttle: throttle() });
    for (let i = 0; i < 5; i++) expect((await from(app, '10.9.9.1', DEMO.admin.email, 'wrong')).statusCode).toBe(401);
    expect((await from(app, '10.9.9.1', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(429);
    expect((await from(app, '10.9.9.2', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(200);
  });

  it('guessing one account from many addresses stops at its limit from unknown addresses; the owner at their own still signs in', async () => {
    const app = await t.extraApp({ throttle: throttle({ perAccountAnywhere: 6 }) });
    expect((await from(app, '10.8.8.8', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(200);
    for (const address of ['10.7.0.1', '10.7.0.2', '10.7.0.3'])
      for (let i = 0; i < 2; i++)
        expect((await from(app, address, DEMO.consultant.email, 'wrong')).statusCode).toBe(401);
    // A fourth stranger's address is stopped, even with the right password (it is not known there).
    expect((await from(app, '10.7.0.4', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(429);
    // The owner, where they signed in before, is neither counted nor stopped.
    expect((await from(app, '10.8.8.8', DEMO.consultant.email, 'wrong')).statusCode).toBe(401);
    expect((await from(app, '10.8.8.8', DEMO.consultant.email, DEMO.consultant.password)).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  it('is read from the environment: unset or false, true, a number of hops, or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy(' true ')).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 192.168.0.0/16,::1,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    for (const bad of ['yes', '10.0.0.1/x', '10.0.0/8', 'proxy.example.com'])
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
  });

  async function appWith(trustProxy: Config['trustProxy'], namespace: string) {
    const app = await buildApp({
      db: t.db,
      config: { tokenLifetimeSeconds: 3600, trustProxy },
      throttle: throttle({ namespace, perAddress: 2 }),
    });
    own.push(app);
    return app;
  }
  /** The address the throttle saw, as a successful sign-in records it. */
  async function seenAddress(app: FastifyInstance, namespace: string, remoteAddress: string, forwarded: string) {
    expect(
      (await from(app, remoteAddress, DEMO.admin.email, DEMO.admin.password, { 'x-forwarded-for': forwarded }))
        .statusCode,
    ).toBe(200);
    const rows = await t.db.query<{ address: string }>('select address from login_known_addresses where account = $1', [
      namespace + DEMO.admin.email,
    ]);
    await t.db.query('delete from login_known_addresses where account = $1', [namespace + DEMO.admin.email]);
    return rows.map((r) => r.address);
  }

  it('by default X-Forwarded-For is ignored, so changing it does not dodge the address limit', async () => {
    const namespace = `proxy-${++n}:`;
    const app = await appWith(false, namespace);
    expect(await seenAddress(app, namespace, '10.6.6.6', '203.0.113.1')).toEqual(['10.6.6.6']);
    for (const i of [1, 2])
      expect(
        (await from(app, '10.6.6.6', `u${i}@nowhere.test`, 'x', { 'x-forwarded-for': `203.0.113.${i}` })).statusCode,
      ).toBe(401);
    expect((await from(app, '10.6.6.6', 'u3@nowhere.test', 'x', { 'x-forwarded-for': '203.0.113.3' })).statusCode).toBe(
      429,
    );
  });

  it('behind a listed proxy, the address is the client\u2019s from X-Forwarded-For', async () => {
    const namespace = `proxy-${++n}:`;
    const app = await appWith(['10.0.0.1'], namespace);
    expect(await seenAddress(app, namespace, '10.0.0.1', '203.0.113.7')).toEqual(['203.0.113.7']);
    // Not from the listed proxy: its header is not believed.
    expect(await seenAddress(app, namespace, '10.0.0.9', '203.0.113.7')).toEqual(['10.0.0.9']);
    for (const i of [1, 2])
      expect(
        (await from(app, '10.0.0.1', `u${i}@nowhere.test`, 'x', { 'x-forwarded-for': '203.0.113.7' })).statusCode,
      ).toBe(401);
    expect((await from(app, '10.0.0.1', 'u3@nowhere.test', 'x', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(
      429,
    );
    // Another client behind the same proxy is counted apart.
    expect((await from(app, '10.0.0.1', 'u4@nowhere.test', 'x', { 'x-forwarded-for': '203.0.113.8' })).statusCode).toBe(
      401,
    );
  });

  it('with a number of hops, that many nearest hops are trusted', async () => {
    const namespace = `proxy-${++n}:`;
    const app = await appWith(1, namespace);
    expect(await seenAddress(app, namespace, '10.0.0.1', '198.51.100.1, 203.0.113.9')).toEqual(['203.0.113.9']);
  });
});
