import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, killable, loginAs, makeTestApp, type TestApp } from './helpers';
import { markFixture } from './auditCheck';
import { systemContext } from '../../server/engine/routes';
import { claimJob, runNextJob, runStep, workerName } from '../../server/jobs/queue';
import { GENERATION_JOB_THRESHOLD, generationStep } from '../../server/services/timesheets';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';

// Issue 17: a generation of more worked shifts than GENERATION_JOB_THRESHOLD runs as a job with progress. The
// request answers 202 and the job's id; each step puts the next shifts on timesheets in its own transaction, so a
// worker killed mid-step leaves nothing half done and the next worker never puts a shift on twice.
const TZ = 'Europe/London';
let t: TestApp;
let admin: string;
let merchantId: number;
let clientId: number;
let siteId: number;
let roleId: number;
let week: string;
let shiftIds: number[];

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40 });
  admin = await loginAs(t.app, 'admin');
  [{ client_id: clientId, merchant_id: merchantId }] = await t.db.query<{ client_id: number; merchant_id: number }>(
    `select client_id, merchant_id from users where email = 'client@demo.test'`,
  );
  [{ id: siteId }] = await t.db.query<{ id: number }>(
    'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [merchantId, clientId],
  );
  [{ id: roleId }] = await t.db.query<{ id: number }>(
    'select job_role_id as id from rate_cards where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [merchantId, clientId],
  );
  const staff = await t.db.query<{ id: number }>(
    'select id from candidates where merchant_id = $1 and deleted_at is null order by id limit 40',
    [merchantId],
  );
  // A week long past with two worked shifts a day for each of 40 staff members: 560, more than a request does.
  week = addDaysToDate(startOfWeekMonday(agencyToday(TZ)), -7 * 40);
  const planned = staff.flatMap((s) =>
    [0, 1, 2, 3, 4, 5, 6].flatMap((d) =>
      [
        ['07:00', '12:00'],
        ['13:00', '18:00'],
      ].map(([from, to]) => ({
        candidate: s.id,
        shift: {
          client_id: clientId,
          site_id: siteId,
          job_role_id: roleId,
          start_at: zonedDateTimeToInstant(addDaysToDate(week, d), from, TZ).toISOString(),
          end_at: zonedDateTimeToInstant(addDaysToDate(week, d), to, TZ).toISOString(),
        },
      })),
    ),
  );
  shiftIds = await t.db.transaction(async (tx) => {
    const ctx = await systemContext(t.app, tx, merchantId);
    const made = await ctx.engine.createMany(
      'shifts',
      planned.map((p) => p.shift),
    );
    // Booked directly: booking is not what this tests.
    await markFixture(tx);
    await tx.query(
      `update shifts s set candidate_id = x.candidate, status = 'assigned'
         from jsonb_to_recordset($1::jsonb) as x(id int, candidate int) where s.id = x.id`,
      [JSON.stringify(made.map((m, i) => ({ id: m.id, candidate: planned[i].candidate })))],
    );
    return made.map((m) => Number(m.id));
  });
});
afterAll(async () => {
  await t?.close();
});

const linesOfShifts = async () =>
  (
    await t.db.query<{ n: number; shifts: number }>(
      'select count(*)::int as n, count(distinct shift_id)::int as shifts from timesheet_lines where shift_id = any($1::int[])',
      [shiftIds],
    )
  )[0];
const progress = async (id: number) => (await call(t.app, admin, 'GET', `/api/jobs/${id}`)).json().data;

describe('a large generation', () => {
  it('answers 202 with a job; the job puts every shift on once, step by step, even when a worker dies mid-step', async () => {
    expect(shiftIds.length).toBeGreaterThan(GENERATION_JOB_THRESHOLD);
    const res = await call(t.app, admin, 'POST', '/api/timesheets/actions/generate', { week_start: week });
    expect(res.statusCode, res.body).toBe(202);
    const { job_id: jobId, shifts } = res.json().data;
    expect(shifts).toBe(shiftIds.length);
    // Nothing is generated in the request: the job does it.
    expect((await linesOfShifts()).n).toBe(0);
    expect(await progress(jobId)).toMatchObject({
      kind: 'timesheet-generation',
      status: 'queued',
      done: 0,
      total: 560,
    });

    const step = generationStep(560);
    // Worker A commits its first step, then dies in the second, after inserting that step's lines.
    let inserts = 0;
    const dying = killable(t.db, (sql) => /insert into "?timesheet_lines/.test(sql) && ++inserts === 2);
    const a = workerName();
    expect((await claimJob(dying, a))!.id).toBe(jobId);
    expect(await runStep(t.app.jobs, dying, a, jobId)).toBe('continued');
    expect(await progress(jobId)).toMatchObject({ status: 'running', done: step, total: 560 });
    await expect(runStep(t.app.jobs, dying, a, jobId)).rejects.toThrow('connection terminated');
    // The dead step left nothing: the lines of the first step only.
    expect(await linesOfShifts()).toEqual({ n: step, shifts: step });

    // Its lease runs out (moved, not waited for); worker B resumes where the last committed step left off.
    await t.db.query(`update jobs set locked_until = now() - interval '1 second' where id = $1`, [jobId]);
    expect(await runNextJob(t.app.jobs, t.db, workerName())).toBe(jobId);
    const done = await progress(jobId);
    expect(done).toMatchObject({ status: 'done', done: 560, total: 560 });
    expect(await linesOfShifts()).toEqual({ n: 560, shifts: 560 });
    // One client, one week: one timesheet, its totals its lines' sums, its lines audited as the admin's.
    expect(done.result.timesheets).toHaveLength(1);
    const ts = (await call(t.app, admin, 'GET', `/api/timesheets/${done.result.timesheets[0]}`)).json().data;
    const [sums] = await t.db.query<{ n: number; charge: number; pay: number }>(
      'select count(*)::int as n, sum(charge)::int as charge, sum(pay)::int as pay from timesheet_lines where timesheet_id = $1',
      [ts.id],
    );
    expect(ts).toMatchObject({ line_count: 560, charge: sums.charge, pay: sums.pay, status: 'draft', kind: 'weekly' });
    const [who] = await t.db.query<{ users: string[] }>(
      `select array_agg(distinct user_name) as users from audit_log where resource = 'timesheet_lines' and subject_id = $1`,
      [ts.id],
    );
    expect(who.users).toEqual(['Alex Morgan']);
    // Generating the week again finds nothing left, in the request.
    const again = await call(t.app, admin, 'POST', '/api/timesheets/actions/generate', { week_start: week });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.lines).toBe(0);
  });
});
