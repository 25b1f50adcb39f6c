import { describe, expect, it } from 'vitest';
import { KILL_PERIOD, killHarness, until } from './killHarness';
import { RUN_PAUSE_LOCK } from '../../server/services/invoicing';

// Issue 32: a real server process killed with SIGKILL in the middle of an invoice run, and another started on the
// same PostgreSQL database: no half-made invoice survives, Resume finishes the run and nothing is billed twice.
// PGlite lives inside its one process, so there the same is shown by a worker whose connection dies mid-step
// (invoice-runs.test.ts), and vitest.config.ts leaves this file out of the PGlite run.
// Every line the demo's runs billed released by hand (a fixture): billable again, over many clients.
const h = killHarness('update invoice_lines set released_at = now() where merchant_id = $1 and released_at is null');

const billing = async (runId: number) =>
  (
    await h.testDb.db.query<{ lines: number; items: number; invoices: number; empty: number }>(
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
      const unhold = await h.holdPause(RUN_PAUSE_LOCK);

      const a = await h.start({ INVOICE_RUN_PAUSE: '1' });
      const body = { mode: 'daily', ...KILL_PERIOD };
      const preview = await a.server.request('POST', '/api/invoices/actions/generate', {
        token: a.token,
        payload: { ...body, preview: true },
      });
      const invoices = preview.body.data.invoices as { client_id: number; lines: unknown[] }[];
      const lines = invoices.reduce((n, i) => n + i.lines.length, 0);
      expect(new Set(invoices.map((i) => i.client_id)).size).toBeGreaterThanOrEqual(3);
      const started = await a.server.request('POST', '/api/invoices/actions/generate', {
        token: a.token,
        payload: { ...body, background: true },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const runId = started.body.data.run_id as number;

      // Server A's worker has billed the first client and waits in the second step, its invoices written.
      await h.waitAtPause(RUN_PAUSE_LOCK);
      const [mid] = await h.testDb.db.query<{ clients_done: number; invoice_count: number; line_count: number }>(
        'select clients_done, invoice_count, line_count from invoice_runs where id = $1',
        [runId],
      );
      expect(mid.clients_done).toBe(1);
      await h.kill(a.child);
      await unhold();
      // Only the first client's invoices, each with its lines: the killed step's invoices never committed.
      expect(await billing(runId)).toEqual({
        lines: mid.line_count,
        items: mid.line_count,
        invoices: mid.invoice_count,
        empty: 0,
      });

      // Another server; Resume gives it the run at once (not after the dead worker's lease), and it finishes.
      const b = await h.start();
      const resumed = await b.server.request('POST', `/api/invoice_runs/${runId}/actions/resume`, {
        token: b.token,
        payload: {},
      });
      expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
      const run = await until(
        async () => (await b.server.request('GET', `/api/invoice_runs/${runId}`, { token: b.token })).body.data,
        (r) => r.state !== 'running',
      );
      expect(run).toMatchObject({ state: 'done', line_count: lines, invoice_count: invoices.length });
      expect(await billing(runId)).toEqual({ lines, items: lines, invoices: invoices.length, empty: 0 });
    },
  );
});
