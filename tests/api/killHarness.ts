import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO, fixtureWrite, openTestDb, type TestDb } from './helpers';
import { startProcess, stopProcess, type Child, type Server } from './serverProcess';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';

// What a run's kill test shares (invoice runs, pay runs): the demo on a PostgreSQL database of the file's own with
// what the demo's runs took released by hand, real server processes on it (stopped when the file ends), the advisory
// lock a run's step waits on at its pause point, and a latch on what the database or a server says. PGlite lives
// inside its one process, so vitest.config.ts leaves the kill files out of the PGlite run.

/** The period the kill tests run over: the demo's recent weeks. */
const today = agencyToday('Europe/London');
export const KILL_PERIOD = { from: addDaysToDate(today, -35), to: addDaysToDate(today, -4) };

/** Asks again (every 50 ms) until `done` holds of the answer: a latch on what the database or a server says. */
export async function until<T>(ask: () => Promise<T>, done: (seen: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = await ask();
    if (done(seen)) return seen;
    if (Date.now() > deadline) throw new Error(`Still ${JSON.stringify(seen)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function signIn(server: Server): Promise<string> {
  const res = await server.request('POST', '/api/admin_login', {
    payload: { email: DEMO.admin.email, password: DEMO.admin.password },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

/**
 * The file's database and servers. `releaseAll` is the fixture run before the tests (the agency as $1): what the
 * demo's runs took, released by hand, so that a run finds it again.
 */
export function killHarness(releaseAll: string) {
  const children: Child[] = [];
  const h = {
    testDb: undefined as unknown as TestDb,
    merchantId: 0,
    /** A server process on the file's database (with `env`), and its admin signed in. */
    async start(env?: Record<string, string>) {
      const child = await startProcess(h.testDb.url!, env);
      children.push(child);
      return { child, server: child.server, token: await signIn(child.server) };
    },
    /**
     * Holds the pause point's lock (`lock`, the agency), so that a server's step after the first waits there,
     * uncommitted; answers its release, which waits for the lock to go.
     */
    async holdPause(lock: number) {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let held!: () => void;
      const holding = new Promise<void>((r) => (held = r));
      const latch = h.testDb.db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1, $2)', [lock, h.merchantId]);
        held();
        await released;
      });
      await holding;
      return async () => {
        release();
        await latch;
      };
    },
    /** Waits until a server's step waits at the pause point (its lock asked for, not granted). */
    waitAtPause: (lock: number) =>
      until(
        async () =>
          (
            await h.testDb.db.query<{ n: number }>(
              `select count(*)::int as n from pg_locks
              where locktype = 'advisory' and not granted and classid = $1 and objid = $2`,
              [lock, h.merchantId],
            )
          )[0].n,
        (n) => n === 1,
      ),
    /** Kills the server's process with SIGKILL and waits for it to be gone. */
    async kill(child: Child) {
      const exited = new Promise((r) => child.process.once('exit', r));
      child.process.kill('SIGKILL');
      await exited;
    },
  };
  beforeAll(async () => {
    h.testDb = await openTestDb({ demo: 40 });
    [{ merchant_id: h.merchantId }] = await h.testDb.db.query<{ merchant_id: number }>(
      `select merchant_id from users where email = 'admin@demo.test'`,
    );
    await fixtureWrite(h.testDb.db, releaseAll, [h.merchantId]);
  }, 600_000);
  afterAll(async () => {
    await Promise.all(children.map((c) => stopProcess(c.process)));
    await h.testDb?.close();
  });
  return h;
}
