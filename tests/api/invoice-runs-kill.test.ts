import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, fixtureWrite, openTestDb, type TestDb } from './helpers';
import { startProcess, stopProcess, type Child, type Server } from './serverProcess';
import { RUN_PAUSE_LOCK } from '../../server/services/invoicing';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';

// Issue 32: a real server process killed with SIGKILL in the middle of an invoice run, and another started on the
// same PostgreSQL database: no half-made invoice survives, Resume finishes the run and nothing is billed twice.
// PGlite lives inside its one process, so there the same is shown by a worker whose connection dies mid-step
// (invoice-runs.test.ts), and vitest.config.ts leaves this file out of the PGlite run.
const today = agencyToday('Europe/London');
const from = addDaysToDate(today, -35);
const to = addDaysToDate(today, -4);

let testDb: TestDb;
let merchantId: number;
const children: Child[] = [];

beforeAll(async () => {
  testDb = await openTestDb({ demo: 40 });
  [{ merchant_id: merchantId }] = await testDb.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
  // Every line the demo's runs billed released by hand (a fixture): billable again, over many clients.
  await fixtureWrite(
    testDb.db,
    'update invoice_lines set released_at = now() where merchant_id = $1 and released_at is null',
    [merchantId],
  );
}, 600_000);
afterAll(async () => {
  await Promise.all(children.map((c) => stopProcess(c.process)));
  await testDb?.close();
});

async function signIn(server: Server): Promise<string> {
  const res = await server.request('POST', '/api/admin_login', {
    payload: { email: DEMO.admin.email, password: DEMO.admin.password },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

/** Asks again (every 50 ms) until `done` holds of the answer: a latch on what the database or a server says. */
async function until<T>(ask: () => Promise<T>, done: (seen: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = await ask();
    if (done(seen)) return seen;
    if (Date.now() > deadline) throw new Error(`Still ${JSON.stringify(seen)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const billing = async (runId: number) =>
  (
    await testDb.db.query<{ lines: number; items: number; invoices: number; empty: number }>(
      `select (select count(*)::int from invoice_lines l join invoices i on i.id = l.invoice_id
                where i.run_id = $1 and l.released_at is null) as lines,
              (select count(distinct coalesce('t' || l.timesheet_line_id, 'c' || l.cancelled_shift_id))::int
                 from invoice_lines l join invoices i on i.id = l.invoice_id
                where i.run_id = $1 and l.released_at is null) as items,
              (select count(*)::int from invoices where run_id = $1) as invoices,
              (select count(*)::int from invoices i where i.run_id = $1
                  and not exists (select 1 from invoice_lines l where l.invoice_id = i.id)) as empty`,
      [runId],
    )
  )[0];

describe('an invoice run whose server is killed with SIGKILL', () => {
  // Two servers start in it (each up to 90 s on a loaded machine).
  it(
    'leaves no half-made invoice, and Resume on another server finishes it, billing each line once',
    { timeout: 300_000 },
    async () => {
      // The test holds the pause point's lock: the killed server's second step waits there, uncommitted.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let held!: () => void;
      const holding = new Promise<void>((r) => (held = r));
      const latch = testDb.db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1, $2)', [RUN_PAUSE_LOCK, merchantId]);
        held();
        await released;
      });
      await holding;

      const a = await startProcess(testDb.url!, { INVOICE_RUN_PAUSE: '1' });
      children.push(a);
      const tokenA = await signIn(a.server);
      const body = { mode: 'daily', from, to };
      const preview = await a.server.request('POST', '/api/invoices/actions/generate', {
        token: tokenA,
        payload: { ...body, preview: true },
      });
      const invoices = preview.body.data.invoices as { client_id: number; lines: unknown[] }[];
      const lines = invoices.reduce((n, i) => n + i.lines.length, 0);
      expect(new Set(invoices.map((i) => i.client_id)).size).toBeGreaterThanOrEqual(3);
      const started = await a.server.request('POST', '/api/invoices/actions/generate', {
        token: tokenA,
        payload: { ...body, background: true },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const runId = started.body.data.run_id as number;

      // Server A's worker has billed the first client and waits in the second step, its invoices written.
      await until(
        async () =>
          (
            await testDb.db.query<{ n: number }>(
              `select count(*)::int as n from pg_locks
              where locktype = 'advisory' and not granted and classid = $1 and objid = $2`,
              [RUN_PAUSE_LOCK, merchantId],
            )
          )[0].n,
        (n) => n === 1,
      );
      const [mid] = await testDb.db.query<{ clients_done: number; invoice_count: number; line_count: number }>(
        'select clients_done, invoice_count, line_count from invoice_runs where id = $1',
        [runId],
      );
      expect(mid.clients_done).toBe(1);
      const exited = new Promise((r) => a.process.once('exit', r));
      a.process.kill('SIGKILL');
      await exited;
      release();
      await latch;
      // Only the first client's invoices, each with its lines: the killed step's invoices never committed.
      expect(await billing(runId)).toEqual({
        lines: mid.line_count,
        items: mid.line_count,
        invoices: mid.invoice_count,
        empty: 0,
      });

      // Another server; Resume gives it the run at once (not after the dead worker's lease), and it finishes.
      const b = await startProcess(testDb.url!);
      children.push(b);
      const tokenB = await signIn(b.server);
      const resumed = await b.server.request('POST', `/api/invoice_runs/${runId}/actions/resume`, {
        token: tokenB,
        payload: {},
      });
      expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
      const run = await until(
        async () => (await b.server.request('GET', `/api/invoice_runs/${runId}`, { token: tokenB })).body.data,
        (r) => r.state !== 'running',
      );
      expect(run).toMatchObject({ state: 'done', line_count: lines, invoice_count: invoices.length });
      expect(await billing(runId)).toEqual({ lines, items: lines, invoices: invoices.length, empty: 0 });
    },
  );
});
