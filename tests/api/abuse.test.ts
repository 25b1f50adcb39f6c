import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app';
import { openPostgres, type Db } from '../../server/db';
import { HashQueue } from '../../server/auth/hashQueue';
import { LoginThrottle } from '../../server/auth/throttle';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';
import { call, DEMO, loginAs, openTestDb, TEST_DATABASE_URL, type TestDb, fixtureWrite } from './helpers';

// Abuse an attacker found (issue 13): a flood of failed sign-ins stalling the server, a rate limit each process
// and each new sign-in escaped, and client users storing large files and requesting shifts without end.
let testDb: TestDb;
let db: Db;
const apps: FastifyInstance[] = [];
const extraDbs: Db[] = [];
const TZ = 'Europe/London';
const ns = () => `${randomBytes(6).toString('hex')}:`;

type Options = { perMinute?: number; rateNamespace?: string; hashing?: HashQueue; throttle?: LoginThrottle; on?: Db };
async function app(o: Options = {}): Promise<FastifyInstance> {
  const options: AppOptions = {
    db: o.on ?? db,
    config: {
      tokenLifetimeSeconds: 3600,
      staticDir: undefined,
      ...(o.perMinute ? { rateLimitPerMinute: o.perMinute } : {}),
    },
    throttle: o.throttle ?? new LoginThrottle({ namespace: ns() }),
    hashing: o.hashing,
    rateLimit: { namespace: o.rateNamespace ?? ns() },
  };
  const a = await buildApp(options);
  await a.ready();
  apps.push(a);
  return a;
}

beforeAll(async () => {
  testDb = await openTestDb({ demo: 10 });
  db = testDb.db;
});
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const d of extraDbs) await d.close();
  await testDb?.close();
});

function latch() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

describe('sign-ins under a flood (item 11)', () => {
  const signIn = (
    a: FastifyInstance,
    who: keyof typeof DEMO,
    remoteAddress: string,
    password: string = DEMO[who].password,
  ) =>
    a.inject({
      method: 'POST',
      url: `/api/${DEMO[who].kind}_login`,
      payload: { email: DEMO[who].email, password },
      remoteAddress,
    });

  const signInAs = (a: FastifyInstance, email: string, remoteAddress: string, password: string) =>
    a.inject({ method: 'POST', url: '/api/admin_login', payload: { email, password }, remoteAddress });

  it('hashes one password at a time here; past the bounds it refuses at once, in words, with Retry-After', async () => {
    const hashing = new HashQueue({ concurrency: 1, perKey: 1, maxWaiting: 1 });
    const a = await app({ hashing });
    // Another hash holds the only place until the test lets it go.
    const gate = latch();
    const holder = hashing.run(null, () => gate.done);
    const waiting = signIn(a, 'admin', '198.51.100.1');
    await hashing.whenWaiting(1);

    // The same address already has a sign-in being checked: refused before any hashing.
    const sameAddress = await signIn(a, 'consultant', '198.51.100.1');
    expect(sameAddress.statusCode).toBe(429);
    expect(sameAddress.json().message).toBe(
      'Too many sign-ins are being checked from your address at once. Try again in a few seconds.',
    );
    expect(Number(sameAddress.headers['retry-after'])).toBeGreaterThan(0);
    // The queue is full: any other address is refused too, also before hashing.
    const full = await signIn(a, 'consultant', '198.51.100.2');
    expect(full.statusCode).toBe(503);
    expect(full.json().message).toBe('The server is busy checking other sign-ins. Try again in a few seconds.');
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
    expect(hashing.waitingCount).toBe(1);
    // Those refusals were not counted as attempts: the consultant signs in at once when there is room.
    gate.release();
    await holder;
    expect((await waiting).statusCode).toBe(200);
    expect((await signIn(a, 'consultant', '198.51.100.2')).statusCode).toBe(200);
  });

  it('a burst of wrong sign-ins from eight fresh addresses never refuses a correct one from another (issue 30.4)', async () => {
    const hashing = new HashQueue({ concurrency: 1, perKey: 20, maxWaiting: 40 });
    const a = await app({ hashing });
    const gate = latch();
    const holder = hashing.run(null, () => gate.done);
    // Counts the burst's answers, and resolves once `n` of them are in.
    let settled = 0;
    const waiters: { n: number; resolve: () => void }[] = [];
    const settledAt = (n: number) => new Promise<void>((resolve) => waiters.push({ n, resolve }));
    const count = <T>(p: Promise<T>) =>
      p.finally(() => {
        settled++;
        for (const w of waiters) if (settled === w.n) w.resolve();
      });
    const allRefused = settledAt(120);
    const burst = Array.from({ length: 160 }, (_, i) =>
      count(signInAs(a, `nobody.${i}@burst.example`, `203.0.113.${1 + (i % 8)}`, 'wrong')),
    );
    // 40 wait for a turn, 120 were refused at once: the queue is full of addresses none of which has failed yet.
    await allRefused;
    expect(hashing.waitingCount).toBe(40);
    const displaced = settledAt(121);
    const admin = signIn(a, 'admin', '198.51.100.77');
    // The admin's sign-in took the place of the latest of a burst address's five.
    await displaced;
    gate.release();
    await holder;
    expect((await admin).statusCode).toBe(200);
    const statuses = (await Promise.all(burst)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 503)).toHaveLength(121);
    expect(statuses.filter((s) => s === 401)).toHaveLength(39);
  });

  it('refuses an account over its limit without waiting for a hash', async () => {
    const hashing = new HashQueue({ concurrency: 1, perKey: 4, maxWaiting: 4 });
    const a = await app({ hashing, throttle: new LoginThrottle({ namespace: ns(), perAccount: 1 }) });
    expect((await signIn(a, 'otherAdmin', '198.51.100.3', 'wrong')).statusCode).toBe(401);
    // Every hashing place is taken; the account's next attempt is refused all the same, and at once.
    const gate = latch();
    const holder = hashing.run(null, () => gate.done);
    try {
      const refused = await signIn(a, 'otherAdmin', '198.51.100.3');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
      expect(hashing.waitingCount).toBe(0);
    } finally {
      gate.release();
      await holder;
    }
  });
});

describe('the API rate limit (item 13)', () => {
  /** A second app on the same database: on PostgreSQL through its own pool, as another process would be. */
  async function secondDb(): Promise<Db> {
    if (!TEST_DATABASE_URL) return db;
    const other = await openPostgres(testDb.url!, { max: 2 });
    extraDbs.push(other);
    return other;
  }

  it('is counted across processes: requests on A and on B share one budget', async () => {
    const shared = ns();
    const A = await app({ perMinute: 6, rateNamespace: shared });
    const B = await app({ perMinute: 6, rateNamespace: shared, on: await secondDb() });
    const token = await loginAs(A, 'admin');
    for (let i = 0; i < 3; i++) expect((await call(A, token, 'GET', '/api/clients?per_page=1')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(B, token, 'GET', '/api/clients?per_page=1')).statusCode).toBe(200);
    const refusedOnA = await call(A, token, 'GET', '/api/clients?per_page=1');
    expect(refusedOnA.statusCode).toBe(429);
    expect(refusedOnA.json().message).toMatch(/^Too many requests\. Try again in \d+ seconds?\.$/);
    expect(Number(refusedOnA.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(B, token, 'GET', '/api/clients?per_page=1')).statusCode).toBe(429);
    // Another user has a budget of their own.
    const consultant = await loginAs(B, 'consultant');
    expect((await call(A, consultant, 'GET', '/api/clients?per_page=1')).statusCode).toBe(200);
  });

  it('far below the limit, counts every request in a few statements, and none is lost when the app closes', async () => {
    const shared = ns();
    let statements = 0;
    const counting: Db = {
      ...db,
      query: (sql, params) => {
        if (/api_request_counts/.test(sql)) statements++;
        return db.query(sql, params);
      },
    };
    const a = await app({ perMinute: 1000, rateNamespace: shared, on: counting });
    const token = await loginAs(a, 'admin');
    statements = 0;
    const res = await call(a, token, 'GET', '/api/clients?per_page=1');
    expect(res.headers['x-ratelimit-remaining']).toBe('999');
    for (let i = 1; i < 60; i++) expect((await call(a, token, 'GET', '/api/clients?per_page=1')).statusCode).toBe(200);
    // One statement per 20 requests, and one a second for what is counted in between: 60 before this change.
    expect(statements).toBeLessThan(20);
    await a.close();
    const [{ count }] = await db.query<{ count: number }>(
      `select count from api_request_counts where key like $1 || 'user:%'`,
      [shared],
    );
    expect(count).toBe(60);
  });

  it('is counted per user: signing in again brings no fresh budget', async () => {
    const a = await app({ perMinute: 4 });
    const first = await loginAs(a, 'client');
    for (let i = 0; i < 4; i++) expect((await call(a, first, 'GET', '/api/client_login')).statusCode).toBe(200);
    expect((await call(a, first, 'GET', '/api/client_login')).statusCode).toBe(429);
    const second = await loginAs(a, 'client');
    const res = await call(a, second, 'GET', '/api/client_login');
    expect(res.statusCode).toBe(429);
    expect(res.headers['x-ratelimit-limit']).toBe('4');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe('what client users may store and request (item 14)', () => {
  let a: FastifyInstance;
  let admin: string;
  let client: string;
  let clientId: number;
  let site: number;
  let role: number;
  let merchant: number;
  const PNG = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]),
  ]);
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  const upload = (token: string, body: Buffer, kind: 'image' | 'document', headers: Record<string, string> = {}) =>
    a.inject({
      method: 'POST',
      url: `/api/files?kind=${kind}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', ...headers },
      payload: body,
    });

  beforeAll(async () => {
    a = await app();
    [admin, client] = await Promise.all([loginAs(a, 'admin'), loginAs(a, 'client')]);
    const [u] = await db.query<{ client_id: number; merchant_id: number }>(
      `select client_id, merchant_id from users where email = 'client@demo.test'`,
    );
    clientId = u.client_id;
    merchant = u.merchant_id;
    [{ id: site }] = await db.query<{ id: number }>(
      'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
      [merchant, clientId],
    );
    [{ id: role }] = await db.query<{ id: number }>(
      'select id from job_roles where merchant_id = $1 order by id limit 1',
      [merchant],
    );
  });

  it('a client user cannot store files: nothing in the client panel takes one', async () => {
    for (const [body, kind] of [
      [PDF, 'document'],
      [PNG, 'image'],
    ] as const) {
      const res = await upload(client, body, kind);
      expect(res.statusCode, kind).toBe(403);
      expect(res.json().message).toBe('You cannot upload files: nothing you can edit takes one.');
    }
    expect(
      (await db.query(`select 1 from files f join users u on u.id = f.uploaded_by where u.email = 'client@demo.test'`))
        .length,
    ).toBe(0);
    // The agency's users still upload what their forms take.
    expect((await upload(admin, PDF, 'document')).statusCode).toBe(201);
    expect((await upload(admin, PNG, 'image')).statusCode).toBe(201);
  });

  it('an upload larger than its kind allows is refused from its stated length, before it is read', async () => {
    const res = await upload(admin, PNG, 'image', { 'content-length': String(2 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The file is too large: at most 1 MB.');
  });

  describe('shift requests per client per day', () => {
    let day = 30;
    const request = (n: number, token = client) => {
      const dates = Array.from({ length: n }, () => addDaysToDate(agencyToday(TZ), day++));
      return call(a, token, 'POST', '/api/shifts/bulk', {
        client_id: clientId,
        site_id: site,
        job_role_id: role,
        start_time: '08:00',
        end_time: '16:00',
        dates,
      });
    };
    /** The agency default's limit. */
    const setLimit = (value: number | null) =>
      fixtureWrite(
        db,
        `update client_rules set max_shift_requests_per_day = $2 where merchant_id = $1 and client_id is null`,
        [merchant, value],
      );
    const requestedToday = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from shifts where client_id = $1 and requested_by_client and created_at >= $2`,
          [clientId, zonedDateTimeToInstant(agencyToday(TZ), '00:00', TZ)],
        )
      )[0].n;

    it('stops a client past the agency’s daily limit, in words, across bulk and single requests', async () => {
      const used = await requestedToday();
      await setLimit(used + 3);
      // One call of more than is left is refused whole.
      const tooMany = await request(4);
      expect(tooMany.statusCode).toBe(429);
      expect(tooMany.json().message).toBe(
        `Your organisation can request 3 shifts more today (the agency takes at most ${used + 3} a day, and ${used} are requested); this asks for 4. Request fewer, or ask the agency.`,
      );
      expect(await requestedToday()).toBe(used);
      expect((await request(2)).statusCode).toBe(201);
      const start = new Date(Date.now() + 40 * 86400_000);
      const single = (token = client) =>
        call(a, token, 'POST', '/api/shifts', {
          client_id: clientId,
          site_id: site,
          job_role_id: role,
          start_at: start.toISOString(),
          end_at: new Date(start.getTime() + 8 * 3600_000).toISOString(),
        });
      expect((await single()).statusCode).toBe(201);
      const past = await single();
      expect(past.statusCode).toBe(429);
      expect(past.json().message).toBe(
        `Your organisation has requested ${used + 3} shifts today, the most the agency takes in a day (${used + 3}). Request more tomorrow, or ask the agency.`,
      );
      // The agency's own shifts for the client are not requests: not counted, not capped.
      expect((await request(2, admin)).statusCode).toBe(201);
      // The client's own rules override the agency's default.
      const own = await call(a, admin, 'POST', '/api/client_rules', {
        client_id: clientId,
        max_shift_requests_per_day: used + 5,
      });
      expect(own.statusCode, own.body).toBe(201);
      expect((await request(2)).statusCode).toBe(201);
      expect((await request(1)).statusCode).toBe(429);
      expect((await call(a, admin, 'DELETE', `/api/client_rules/${own.json().data.id}`)).statusCode).toBe(200);
    });

    it('counts concurrent requests one after the other: they cannot all slip under the limit', async () => {
      const used = await requestedToday();
      await setLimit(used + 3);
      const answers = await Promise.all([request(2), request(2), request(2)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 429, 429]);
      expect(await requestedToday()).toBe(used + 2);
      await setLimit(100);
    });

    it('the limit is a setting of the pricing rules, edited through the API like any field', async () => {
      const [rules] = await db.query<{ id: number }>(
        'select id from client_rules where merchant_id = $1 and client_id is null',
        [merchant],
      );
      const bad = await call(a, admin, 'PUT', `/api/client_rules/${rules.id}`, { max_shift_requests_per_day: 0 });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.max_shift_requests_per_day).toBeTruthy();
      const saved = await call(a, admin, 'PUT', `/api/client_rules/${rules.id}`, { max_shift_requests_per_day: 40 });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().data.max_shift_requests_per_day).toBe(40);
      await setLimit(100);
    });
  });
});
