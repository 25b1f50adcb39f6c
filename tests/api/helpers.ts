import { startOfWeekMonday } from '../../core/domain/time/agencyTime';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import type { Db, Queryable } from '../../server/db';
import { openTestDb, TEST_DATABASE_URL, type DemoSize } from './databases';
import { LoginThrottle } from '../../server/auth/throttle';
import type { ResourceDeclaration } from '../../core/engine/types';

/**
 * The API tests run against a real database, a copy per test file of one made once per run (tests/api/databases.ts):
 *  - PGlite in memory by default;
 *  - PostgreSQL when TEST_DATABASE_URL is set, each test file in a database of its own (dropped at the end), so
 *    files can run in parallel against one server. An unreachable server fails the tests (never skips them).
 */
export { openTestDb, TEST_DATABASE_URL, type Content, type TestDb } from './databases';
export { fixtureWrite, markFixture } from './auditCheck';
export const dbKind: 'pglite' | 'postgres' = TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A timesheet line no pay run holds (SQL over `timesheet_lines`, unaliased): not marked paid by a finalised run and on
 * no unreleased payslip line. The demo's own pay runs (server/seed/payRuns.ts) hold older weeks' lines.
 */
export const NOT_ON_A_PAY_RUN = `timesheet_lines.paid_in_run is null and not exists (select 1 from payslip_lines held
  where held.merchant_id = timesheet_lines.merchant_id and held.timesheet_line_id = timesheet_lines.id
    and held.released_at is null)`;

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** Builds another app on the same database (e.g. with a short token lifetime); closed with the rest. */
  extraApp(options?: AppOptions): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export interface AppOptions {
  tokenLifetimeSeconds?: number;
  throttle?: LoginThrottle;
  /** The API's rate limit per user and minute (the matrix runs more requests a minute than any person would). */
  rateLimitPerMinute?: number;
  /** Fixes the server's clock (ctx.now, and today from it) at this instant. */
  now?: Date | string;
  /** The declarations served, when a test changes one (another role's access); every declared one otherwise. */
  declarations?: ResourceDeclaration[];
}

export interface MakeOptions extends AppOptions {
  /** 'demo' (default): the demo agencies with `candidates` staff in the first; 'none': migrated, empty. */
  seed?: 'demo' | 'none';
  candidates?: DemoSize;
  /** The demo's year of history (server/seed/history.ts): only for files that read it, since its shifts would be
   * double bookings of the shifts other files book in past weeks. */
  history?: boolean;
}

/**
 * A migrated, seeded database (a copy of the run's) and an app on it. Call once per test file (beforeAll) and share it.
 */
export async function makeTestApp(options: MakeOptions = {}): Promise<TestApp> {
  const testDb = await openTestDb(
    (options.seed ?? 'demo') === 'demo' ? { demo: options.candidates ?? 40, history: options.history } : 'migrated',
  );
  const { db } = testDb;
  const apps: FastifyInstance[] = [];
  const build = async (o: AppOptions = {}) => {
    const app = await buildApp({
      db,
      config: {
        tokenLifetimeSeconds: o.tokenLifetimeSeconds ?? 3600,
        staticDir: undefined,
        ...(o.rateLimitPerMinute ? { rateLimitPerMinute: o.rateLimitPerMinute } : {}),
      },
      // A throttle per app (its own namespace in the shared counts): failed sign-ins in one test never lock out
      // another.
      throttle: o.throttle ?? new LoginThrottle({ namespace: `app-${randomBytes(6).toString('hex')}:` }),
      // Likewise the API rate limit: one test's requests never use up another's budget.
      rateLimit: { namespace: `app-${randomBytes(6).toString('hex')}:` },
      clock: o.now === undefined ? undefined : () => new Date(o.now!),
      declarations: o.declarations,
    });
    await app.ready();
    apps.push(app);
    return app;
  };
  try {
    const app = await build(options);
    return {
      app,
      db,
      extraApp: build,
      async close() {
        for (const a of apps) await a.close();
        await testDb.close();
      },
    };
  } catch (e) {
    await testDb.close().catch(() => undefined);
    throw e;
  }
}

export type Kind = 'admin' | 'client' | 'staff';

export const DEMO = {
  admin: { kind: 'admin', email: 'admin@demo.test', password: 'demo-admin' },
  consultant: { kind: 'admin', email: 'consultant@demo.test', password: 'demo-admin' },
  client: { kind: 'client', email: 'client@demo.test', password: 'demo-client' },
  client2: { kind: 'client', email: 'client2@demo.test', password: 'demo-client' },
  otherAdmin: { kind: 'admin', email: 'admin@other.test', password: 'demo-admin' },
  staff: { kind: 'staff', email: 'staff@demo.test', password: 'demo-staff' },
} as const;

/** POST /api/{kind}_login; answers the whole response. */
export function postLogin(
  app: FastifyInstance,
  kind: Kind,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return app.inject({ method: 'POST', url: `/api/${kind}_login`, payload: { email, password }, headers });
}

/** Signs in and answers the token; fails the test if sign-in does not succeed. */
export async function login(app: FastifyInstance, kind: Kind, email: string, password: string): Promise<string> {
  const res = await postLogin(app, kind, email, password);
  if (res.statusCode !== 200) throw new Error(`${kind} sign-in as ${email} answered ${res.statusCode}: ${res.body}`);
  return res.json().token;
}

export const loginAs = (app: FastifyInstance, who: keyof typeof DEMO) =>
  login(app, DEMO[who].kind, DEMO[who].email, DEMO[who].password);

/** An authenticated request. */
export function call(
  app: FastifyInstance,
  token: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload !== undefined ? { payload: payload as any } : {}),
  });
}

/** An audit entry as GET /api/audit_entries answers it (what the History tab shows). */
export interface AuditRow {
  id: number;
  resource: string;
  record_id: number;
  subject_resource: string;
  subject_id: number;
  event: 'create' | 'update' | 'delete' | 'action';
  action: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  input: Record<string, unknown> | null;
  user_name: string;
  created_at: string;
}

/**
 * The audit trail of a resource (or of one of its records), as the History tab reads it; at most the latest 100
 * entries.
 */
export async function auditTrail(
  app: FastifyInstance,
  token: string,
  resource: string,
  recordId?: number,
): Promise<AuditRow[]> {
  const res = await call(
    app,
    token,
    'GET',
    `/api/audit_entries?resource=${encodeURIComponent(resource)}${recordId === undefined ? '' : `&record_id=${recordId}`}&sort=created_at&order=DESC&per_page=100`,
  );
  if (res.statusCode !== 200) throw new Error(`The audit trail of ${resource} answered ${res.statusCode}: ${res.body}`);
  return res.json().data;
}

export interface ExpectedAudit {
  resource: string;
  /** The record; when left out, any record of the resource (a setting created by the write). */
  id?: number;
  event: AuditRow['event'];
  action?: string;
  /** Changes the entry must hold (others may be there too), each as { from, to }. */
  changes?: Record<string, { from: unknown; to: unknown }>;
}

/**
 * Runs a write and checks that it left a new audit entry of the given record: the event (and action), with at least
 * the given changes. Answers the write's own answer and the entry, so a test can look further.
 */
export async function expectAudited<T>(
  app: FastifyInstance,
  token: string,
  expected: ExpectedAudit,
  write: () => Promise<T>,
): Promise<{ result: T; entry: AuditRow }> {
  const seen = new Set((await auditTrail(app, token, expected.resource, expected.id)).map((e) => e.id));
  const result = await write();
  const fresh = (await auditTrail(app, token, expected.resource, expected.id)).filter((e) => !seen.has(e.id));
  const wanted = expect.objectContaining({
    resource: expected.resource,
    event: expected.event,
    ...(expected.id === undefined ? {} : { record_id: expected.id }),
    ...(expected.action === undefined ? {} : { action: expected.action }),
    ...(expected.changes === undefined ? {} : { changes: expect.objectContaining(expected.changes) }),
  });
  const entry = fresh.find((e) => wanted.asymmetricMatch(e));
  expect(
    entry,
    `no new ${expected.event} entry of ${expected.resource} ${expected.id ?? ''} among ${JSON.stringify(fresh).slice(0, 1500)}`,
  ).toBeDefined();
  return { result, entry: entry! };
}

/**
 * A database connection that dies as a killed process's does: from the moment `dieWhen` matches a statement, that
 * statement and every later one fail, so the open transaction rolls back and nothing more is written (not even
 * the worker's "retry later"); its lease is left to run out.
 */
export function killable(db: Db, dieWhen: (sql: string, params?: unknown[]) => boolean): Db {
  let dead = false;
  const guard = (q: Queryable): Queryable => ({
    // As the connection it wraps answers many rows (PGlite: as one JSON text), so the engine reads them as it would.
    manyRowsAsJson: q.manyRowsAsJson,
    query: async (sql, params, options) => {
      if (dead) throw new Error('connection terminated');
      const rows = await q.query(sql, params, options);
      if (dieWhen(sql, params)) {
        dead = true;
        throw new Error('connection terminated');
      }
      return rows as any;
    },
  });
  return { ...db, query: guard(db).query, transaction: (fn) => db.transaction((tx) => fn(guard(tx))) };
}

/**
 * The demo agency's id and the Mondays of the weeks in which it has signed or verified timesheet lines of staff not
 * yet on a pay run (the demo's runs pay some), oldest first: the weeks a pay run test pays.
 */
export async function payableWeeks(db: Db) {
  const [{ merchantId }] = await db.query<{ merchantId: number }>(
    `select merchant_id as "merchantId" from users where email = 'admin@demo.test'`,
  );
  const days = await db.query<{ day: string }>(
    `select distinct work_date::text as day from timesheet_lines
      where merchant_id = $1 and status in ('signed', 'verified') and candidate_id is not null and ${NOT_ON_A_PAY_RUN}
      order by 1`,
    [merchantId],
  );
  return { merchantId, mondays: [...new Set(days.map((d) => startOfWeekMonday(d.day)))] };
}
