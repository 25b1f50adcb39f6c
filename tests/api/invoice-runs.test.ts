import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, killable, loginAs, makeTestApp, type TestApp } from './helpers';
import { claimJob, runNextJob, runStep, workerName } from '../../server/jobs/queue';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';

// Issue 32: an invoice run as a job with progress, one client a transaction. A worker killed mid-step leaves no
// half-made invoice, Resume finishes the run, and runs that overlap bill each line once. (A real server process
// killed with SIGKILL on PostgreSQL: invoice-runs-kill.test.ts.)
let t: TestApp;
let admin: string;
let merchantId: number;
const TZ = 'Europe/London';
const today = agencyToday(TZ);
// The demo's runs bill the work of these days; their lines are released below, so it can be billed again.
const from = addDaysToDate(today, -35);
const to = addDaysToDate(today, -4);

beforeAll(async () => {
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
  [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
  // The run's first file to need the demo migrates and seeds it: minutes on a loaded machine.
}, 600_000);
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const generate = (body: Record<string, unknown>) =>
  call(t.app, admin, 'POST', '/api/invoices/actions/generate', { mode: 'daily', from, to, ...body });
const runOf = async (id: number) => ok(await call(t.app, admin, 'GET', `/api/invoice_runs/${id}`));
const jobOf = async (id: number) => ok(await call(t.app, admin, 'GET', `/api/jobs/${id}`));

/** Every line the demo's runs billed released by hand (a fixture, not what is tested): billable again. */
async function releaseBilled() {
  await fixtureWrite(
    t.db,
    'update invoice_lines set released_at = now() where merchant_id = $1 and released_at is null',
    [merchantId],
  );
}

/** What the period's runs billed: every item billed at most once, and every invoice of a run has lines. */
async function billing(runIds: number[]) {
  const [r] = await t.db.query<{ lines: number; items: number; invoices: number; empty: number }>(
    `select (select count(*)::int from invoice_lines l join invoices i on i.id = l.invoice_id
              where i.run_id = any($1::int[]) and l.released_at is null) as lines,
            (select count(distinct coalesce('t' || l.timesheet_line_id, 'c' || l.cancelled_shift_id))::int
               from invoice_lines l join invoices i on i.id = l.invoice_id
              where i.run_id = any($1::int[]) and l.released_at is null) as items,
            (select count(*)::int from invoices where run_id = any($1::int[])) as invoices,
            (select count(*)::int from invoices i where i.run_id = any($1::int[])
                and not exists (select 1 from invoice_lines l where l.invoice_id = i.id)) as empty`,
    [runIds],
  );
  return r;
}

describe('an invoice run in the background', () => {
  it('is a job with progress, one client a step; a worker killed mid-step leaves no half-made invoice and Resume finishes it', async () => {
    await releaseBilled();
    // The demo's own queued jobs (its e-mails) are run first, so the worker below takes the run's job.
    while ((await runNextJob(t.app.jobs, t.db, workerName())) !== null);
    const preview = await ok(await generate({ preview: true }));
    const clients = new Set(preview.invoices.map((i: { client_id: number }) => i.client_id));
    expect(clients.size).toBeGreaterThanOrEqual(3);
    const lines = preview.invoices.reduce((n: number, i: { lines: unknown[] }) => n + i.lines.length, 0);

    const started = await ok(await generate({ background: true }), 202);
    expect(started).toMatchObject({ clients: clients.size });
    const { run_id: runId, job_id: jobId } = started;
    // Nothing drafted in the request: the run's row says who, what and how far.
    expect(await runOf(runId)).toMatchObject({
      mode: 'daily',
      period_start: from,
      period_end: to,
      started_by: 'Alex Morgan',
      state: 'running',
      clients_done: 0,
      clients_total: clients.size,
      invoice_count: 0,
      job_id: jobId,
    });
    expect(await jobOf(jobId)).toMatchObject({ kind: 'invoice-run', status: 'queued', done: 0, total: clients.size });

    // Worker A bills the first client, then dies in the second step after writing its invoices' lines.
    let inserts = 0;
    const dying = killable(t.db, (sql) => /insert into "?invoice_lines/.test(sql) && ++inserts === 2);
    const a = workerName();
    expect((await claimJob(dying, a))!.id).toBe(jobId);
    expect(await runStep(t.app.jobs, dying, a, jobId)).toBe('continued');
    const first = await runOf(runId);
    expect(first).toMatchObject({ state: 'running', clients_done: 1 });
    expect(await jobOf(jobId)).toMatchObject({ status: 'running', done: 1, total: clients.size });
    await expect(runStep(t.app.jobs, dying, a, jobId)).rejects.toThrow('connection terminated');
    // The dead step left nothing: the first client's invoices only, each with its lines, as the run counts them.
    const after = await billing([runId]);
    expect(after).toMatchObject({ invoices: first.invoice_count, lines: first.line_count, empty: 0 });
    expect(await runOf(runId)).toMatchObject({ clients_done: 1, invoice_count: first.invoice_count });

    // Resume takes the job up now (without waiting for the dead worker's lease); worker B finishes the run.
    await ok(await call(t.app, admin, 'POST', `/api/invoice_runs/${runId}/actions/resume`, {}));
    expect(await runNextJob(t.app.jobs, t.db, workerName())).toBe(jobId);
    expect(await jobOf(jobId)).toMatchObject({ status: 'done', done: clients.size, total: clients.size });
    const done = await runOf(runId);
    expect(done).toMatchObject({ state: 'done', clients_done: clients.size, line_count: lines });
    expect(done.finished_at).toBeTruthy();
    expect(await billing([runId])).toEqual({ lines, items: lines, invoices: preview.invoices.length, empty: 0 });
    const [{ total }] = await t.db.query<{ total: number }>(
      'select sum(total)::int as total from invoices where run_id = $1',
      [runId],
    );
    expect(Number(done.total)).toBe(total);
    // A finished run is not resumed, in words; the same run again finds nothing left to bill.
    const again = await call(t.app, admin, 'POST', `/api/invoice_runs/${runId}/actions/resume`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This run has finished.');
    expect(await ok(await generate({ background: true }))).toEqual({ run_id: null, invoices: [], lines: 0 });
  });

  it('bills each line once when runs overlap: two jobs and a run in the request, their workers racing', async () => {
    await releaseBilled();
    const preview = await ok(await generate({ preview: true }));
    const lines = preview.invoices.reduce((n: number, i: { lines: unknown[] }) => n + i.lines.length, 0);
    expect(lines).toBeGreaterThan(0);
    const answers = await Promise.all([
      generate({ background: true }),
      generate({ background: true, mode: 'Weekly' }),
      generate({ mode: 'monthly', from: addDaysToDate(from, 7), to }),
    ]);
    const runIds = answers.map((a) => a.json().data.run_id).filter((id): id is number => id != null);
    // Two workers take the queued runs at once, until nothing is due.
    const work = async (w: string) => {
      while ((await runNextJob(t.app.jobs, t.db, w)) !== null);
    };
    await Promise.all([work(workerName()), work(workerName())]);
    const runs = await Promise.all(runIds.map(runOf));
    expect(runs.map((r) => r.state)).toEqual(runIds.map(() => 'done'));
    const billed = await billing(runIds);
    expect(billed).toMatchObject({ lines, items: lines, empty: 0 });
    expect(runs.reduce((n, r) => n + Number(r.line_count), 0)).toBe(lines);
  });

  it('is read by a consultant, resumed only by an admin', async () => {
    const consultant = await loginAs(t.app, 'consultant');
    const [run] = await ok(await call(t.app, consultant, 'GET', '/api/invoice_runs'));
    expect(run).toHaveProperty('state');
    const res = await call(t.app, consultant, 'POST', `/api/invoice_runs/${run.id}/actions/resume`, {});
    expect(res.statusCode).toBe(403);
  });
});
