import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, killable, loginAs, makeTestApp, type TestApp } from './helpers';
import { claimJob, runNextJob, runStep, workerName } from '../../server/jobs/queue';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';

// Issue 33: a pay run as a job with progress, a batch of staff a transaction (one staff member a step here, so the
// demo's few staff make a run of several steps). A worker killed mid-step leaves no half-made payslip, Resume
// finishes the run, and runs that race over one period pay each line once. (A real server process killed with
// SIGKILL on PostgreSQL: pay-run-kill.test.ts.)
let t: TestApp;
let admin: string;
let merchantId: number;
const today = agencyToday('Europe/London');
const from = addDaysToDate(today, -35);
const to = addDaysToDate(today, -4);

beforeAll(async () => {
  process.env.PAY_RUN_STEP_STAFF = '1';
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
  [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
}, 600_000);
afterAll(async () => {
  delete process.env.PAY_RUN_STEP_STAFF;
  await t?.close();
});

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const generate = (body: Record<string, unknown>) =>
  call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', { frequency: 'weekly', from, to, ...body });
const runOf = async (id: number) => ok(await call(t.app, admin, 'GET', `/api/pay_runs/${id}`));
const jobOf = async (id: number) => ok(await call(t.app, admin, 'GET', `/api/jobs/${id}`));
const work = async (w = workerName()) => {
  while ((await runNextJob(t.app.jobs, t.db, w)) !== null);
};

/** Every line the demo's runs paid released by hand (a fixture, not what is tested): payable again. */
async function releasePaid() {
  await fixtureWrite(
    t.db,
    'update payslip_lines set released_at = now() where merchant_id = $1 and released_at is null',
    [merchantId],
  );
}

/** What the runs paid: each timesheet line at most once, and every payslip of a run has lines. */
async function paid(runIds: number[]) {
  const [r] = await t.db.query<{ lines: number; items: number; payslips: number; empty: number }>(
    `select (select count(*)::int from payslip_lines l join payslips p on p.id = l.payslip_id
              where p.pay_run_id = any($1::int[]) and l.released_at is null and l.timesheet_line_id is not null) as lines,
            (select count(distinct l.timesheet_line_id)::int from payslip_lines l join payslips p on p.id = l.payslip_id
              where p.pay_run_id = any($1::int[]) and l.released_at is null) as items,
            (select count(*)::int from payslips where pay_run_id = any($1::int[])) as payslips,
            (select count(*)::int from payslips p where p.pay_run_id = any($1::int[])
                and not exists (select 1 from payslip_lines l where l.payslip_id = p.id)) as empty`,
    [runIds],
  );
  return r;
}

/** The timesheet lines a preview's payslips pay (their holiday pay, deductions and adjustments pay none). */
type PreviewLine = { timesheet_line_id: number | null };
const linesPaid = (slip: { lines: PreviewLine[] }) => slip.lines.filter((l) => l.timesheet_line_id != null).length;
const payLines = (preview: { payslips: { lines: PreviewLine[] }[] }) =>
  preview.payslips.reduce((n, p) => n + linesPaid(p), 0);

describe('a pay run in the background', () => {
  it('is a job with progress, a batch of staff a step; a worker killed mid-step leaves no half-made payslip and Resume finishes it', async () => {
    await releasePaid();
    // The demo's own queued jobs (its e-mails) are run first, so the worker below takes the run's job.
    await work();
    const preview = await ok(await generate({ preview: true }));
    expect(preview.payslips.length).toBeGreaterThanOrEqual(3);
    const lines = payLines(preview);

    const started = await ok(await generate({ background: true }), 202);
    expect(started).toMatchObject({ staff: preview.payslips.length });
    const { run_id: runId, job_id: jobId } = started;
    // Nothing paid in the request: the run's row says who, what and how far.
    expect(await runOf(runId)).toMatchObject({
      state: 'draft',
      progress: 'running',
      period_start: from,
      period_end: to,
      started_by: 'Alex Morgan',
      candidates_done: 0,
      staff_total: preview.payslips.length,
      staff_count: 0,
      job_id: jobId,
    });
    expect(await jobOf(jobId)).toMatchObject({ kind: 'pay-run', status: 'queued', done: 0 });
    // Not approved while it is being made.
    const early = await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/approve`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/still being made/);

    // Worker A pays the first staff member, then dies in the second step after writing its payslip's lines.
    let inserts = 0;
    const dying = killable(t.db, (sql) => /insert into "?payslip_lines/.test(sql) && ++inserts === 2);
    const a = workerName();
    expect((await claimJob(dying, a))!.id).toBe(jobId);
    expect(await runStep(t.app.jobs, dying, a, jobId)).toBe('continued');
    const first = await runOf(runId);
    expect(first).toMatchObject({ progress: 'running', candidates_done: 1, staff_count: 1 });
    expect(await jobOf(jobId)).toMatchObject({ status: 'running', done: 1, total: preview.payslips.length });
    await expect(runStep(t.app.jobs, dying, a, jobId)).rejects.toThrow('connection terminated');
    // The dead step left nothing: the first staff member's payslip alone, with its lines.
    const after = await paid([runId]);
    expect(after).toMatchObject({ payslips: 1, empty: 0 });
    expect(after.lines).toBe(linesPaid(preview.payslips[0]));
    expect(await runOf(runId)).toMatchObject({ candidates_done: 1, staff_count: 1 });

    // Resume takes the job up now (without waiting for the dead worker's lease); worker B finishes the run.
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/resume`, {}));
    expect(await runNextJob(t.app.jobs, t.db, workerName())).toBe(jobId);
    const n = preview.payslips.length;
    expect(await jobOf(jobId)).toMatchObject({ status: 'done', done: n, total: n });
    const done = await runOf(runId);
    expect(done).toMatchObject({
      state: 'draft',
      progress: 'done',
      candidates_done: n,
      staff_count: n,
      gross: preview.gross,
      net: preview.net,
      employer_costs: preview.employer_costs,
    });
    expect(done.finished_at).toBeTruthy();
    expect(await paid([runId])).toEqual({ lines, items: lines, payslips: n, empty: 0 });
    // A finished run is not resumed, in words; the same period again finds nothing left to pay.
    const again = await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/resume`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This run has finished.');
    expect(await ok(await generate({ background: true }))).toEqual({ run_id: null, payslips: [], lines: 0 });
    // The preview now holds every line back, naming the run that pays it.
    const held = (await ok(await generate({ preview: true }))).held_back as { reason: string; pay_run_id: number }[];
    expect(held.filter((h) => h.reason === 'on_run')).toHaveLength(lines);
    expect(held.filter((h) => h.reason === 'on_run').every((h) => h.pay_run_id === runId)).toBe(true);
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/approve`, {}));
  });

  it('pays each line once when runs race: two jobs and a run in the request, their workers racing', async () => {
    await releasePaid();
    const preview = await ok(await generate({ preview: true }));
    const lines = payLines(preview);
    expect(lines).toBeGreaterThan(0);
    const answers = await Promise.all([
      generate({ background: true }),
      generate({ background: true, frequency: 'monthly' }),
      generate({ from: addDaysToDate(from, 7), to, candidate_ids: [preview.payslips[1].candidate_id] }),
    ]);
    const runIds = answers.map((a) => a.json().data.run_id).filter((id): id is number => id != null);
    expect(runIds.length).toBeGreaterThanOrEqual(1);
    // Two workers take the queued runs at once, until nothing is due.
    await Promise.all([work(), work()]);
    const runs = await Promise.all(runIds.map(runOf));
    expect(runs.map((r) => r.progress)).toEqual(runIds.map(() => 'done'));
    expect(await paid(runIds)).toMatchObject({ lines, items: lines, empty: 0 });
    const [{ twice }] = await t.db.query<{ twice: number }>(
      `select count(*)::int as twice from (select timesheet_line_id from payslip_lines
        where merchant_id = $1 and released_at is null and timesheet_line_id is not null
        group by timesheet_line_id having count(*) > 1) x`,
      [merchantId],
    );
    expect(twice).toBe(0);
  });

  it('stops at its next step once cancelled, its lines released; resumed only by an admin', async () => {
    await releasePaid();
    const { run_id: runId, job_id: jobId } = await ok(await generate({ background: true }), 202);
    const w = workerName();
    expect((await claimJob(t.db, w))!.id).toBe(jobId);
    expect(await runStep(t.app.jobs, t.db, w, jobId)).toBe('continued');
    const consultant = await loginAs(t.app, 'consultant');
    expect((await call(t.app, consultant, 'POST', `/api/pay_runs/${runId}/actions/resume`, {})).statusCode).toBe(403);
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/cancel`, { reason: 'Wrong period' }));
    expect(await runStep(t.app.jobs, t.db, w, jobId)).toBe('finished');
    const run = await runOf(runId);
    expect(run).toMatchObject({ state: 'cancelled', progress: 'done', candidates_done: 1, staff_count: 1 });
    expect((await paid([runId])).lines).toBe(0);
  });
});
