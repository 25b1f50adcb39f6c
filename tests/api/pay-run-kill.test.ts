import { describe, expect, it } from 'vitest';
import { KILL_PERIOD, killHarness, until } from './killHarness';
import { PAY_RUN_PAUSE_LOCK } from '../../server/services/payroll';

// Issue 33: a real server process killed with SIGKILL in the middle of a pay run, and another started on the same
// PostgreSQL database: no half-made payslip survives, Resume finishes the run and no line is paid twice. One staff
// member a step (PAY_RUN_STEP_STAFF), so the demo's staff make a run of several steps. PGlite lives inside its one
// process, so there the same is shown by a worker whose connection dies mid-step (pay-run-jobs.test.ts), and
// vitest.config.ts leaves this file out of the PGlite run.
// Every line the demo's runs paid released by hand (a fixture): payable again.
const h = killHarness('update payslip_lines set released_at = now() where merchant_id = $1 and released_at is null');

const paid = async (runId: number) =>
  (
    await h.testDb.db.query<{ lines: number; items: number; payslips: number; empty: number }>(
      `select (select count(*)::int from payslip_lines l join payslips p on p.id = l.payslip_id
                where p.pay_run_id = $1 and l.released_at is null and l.timesheet_line_id is not null) as lines,
              (select count(distinct l.timesheet_line_id)::int from payslip_lines l join payslips p on p.id = l.payslip_id
                where p.pay_run_id = $1 and l.released_at is null) as items,
              (select count(*)::int from payslips where pay_run_id = $1) as payslips,
              (select count(*)::int from payslips p where p.pay_run_id = $1
                  and not exists (select 1 from payslip_lines l where l.payslip_id = p.id)) as empty`,
      [runId],
    )
  )[0];

describe('a pay run whose server is killed with SIGKILL', () => {
  // Two servers start in it (each up to 90 s on a loaded machine).
  it(
    'leaves no half-made payslip, and Resume on another server finishes it, paying each line once',
    { timeout: 300_000 },
    async () => {
      // The test holds the pause point's lock: the killed server's second step waits there, uncommitted.
      const unhold = await h.holdPause(PAY_RUN_PAUSE_LOCK);

      const a = await h.start({ PAY_RUN_PAUSE: '1', PAY_RUN_STEP_STAFF: '1' });
      const body = { frequency: 'weekly', ...KILL_PERIOD };
      const preview = await a.server.request('POST', '/api/pay_runs/actions/generate', {
        token: a.token,
        payload: { ...body, preview: true },
      });
      const slips = preview.body.data.payslips as { lines: { timesheet_line_id: number | null }[] }[];
      expect(slips.length).toBeGreaterThanOrEqual(3);
      // The timesheet lines paid (holiday pay, deductions and adjustments pay none).
      const lines = slips.reduce((n, p) => n + p.lines.filter((l) => l.timesheet_line_id != null).length, 0);
      const started = await a.server.request('POST', '/api/pay_runs/actions/generate', {
        token: a.token,
        payload: { ...body, background: true },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const runId = started.body.data.run_id as number;

      // Server A's worker has paid the first staff member and waits in the second step, its payslip written.
      await h.waitAtPause(PAY_RUN_PAUSE_LOCK);
      const [mid] = await h.testDb.db.query<{ candidates_done: number }>(
        'select candidates_done from pay_runs where id = $1',
        [runId],
      );
      expect(mid.candidates_done).toBe(1);
      const midPaid = await paid(runId);
      await h.kill(a.child);
      await unhold();
      // Only the first staff member's payslip, with its lines: the killed step's payslip never committed.
      expect(midPaid).toMatchObject({ payslips: 1, empty: 0 });
      expect(await paid(runId)).toEqual(midPaid);

      // Another server; Resume gives it the run at once (not after the dead worker's lease), and it finishes.
      const b = await h.start({ PAY_RUN_STEP_STAFF: '1' });
      const resumed = await b.server.request('POST', `/api/pay_runs/${runId}/actions/resume`, {
        token: b.token,
        payload: {},
      });
      expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
      const run = await until(
        async () => (await b.server.request('GET', `/api/pay_runs/${runId}`, { token: b.token })).body.data,
        (r) => r.progress !== 'running',
      );
      expect(run).toMatchObject({ progress: 'done', candidates_done: slips.length, staff_count: slips.length });
      expect(await paid(runId)).toEqual({ lines, items: lines, payslips: slips.length, empty: 0 });
    },
  );
});
