import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, killable, loginAs, makeTestApp, type TestApp } from './helpers';
import {
  claimJob,
  enqueueJob,
  jobRetryDelayMs,
  runNextJob as runNext,
  runStep as runOne,
  workerName,
  type JobKind,
  type JobRuntime,
} from '../../server/jobs/queue';
import { releasePeriodic, runDuePeriodic, takePeriodic, type PeriodicJob } from '../../server/jobs/periodic';
import { systemPrincipal } from '../../server/engine/handle';
import type { Db } from '../../server/db';

// Jobs with progress (issue 16 item 6): one queue, claimed with FOR UPDATE SKIP LOCKED, each step's work committed
// with its progress, retried with backoff, and read by the screens through GET /api/jobs/:id.
let t: TestApp;
let admin: string;
let otherAdmin: string;
let client: string;
let merchantA: number;
let adminId: number;

/**
 * The test kind: `total` steps, each inserting one side effect row (job, step) in the step's transaction. A step
 * listed in `failOnce` throws the first time it is tried (after doing its work, which is rolled back with it).
 */
const failOnce = new Set<string>();
const counted: JobKind<{ total: number }, { next: number }> = {
  kind: 'test-counted',
  async step(tx, job) {
    const step = job.state.next ?? 0;
    await tx.query('insert into job_test_effects (job_id, step) values ($1, $2)', [job.id, step]);
    const key = `${job.id}:${step}`;
    if (failOnce.has(key)) {
      failOnce.delete(key);
      throw new Error(`Step ${step} could not reach the printer.`);
    }
    return {
      state: { next: step + 1 },
      done: step + 1,
      total: job.payload.total,
      finished: step + 1 >= job.payload.total,
      result: step + 1 >= job.payload.total ? { steps: job.payload.total } : undefined,
    };
  },
};

/** A job that adds a client through the engine, as the system, in its one step. */
const addsClient: JobKind<{ name: string }> = {
  kind: 'test-adds-client',
  async step(tx, job, engine) {
    const ctx = await engine.context(tx, systemPrincipal(job.merchant_id), new Date());
    await ctx.engine.create('clients', { name: job.payload.name, billing_email: 'jobs@example.test' });
    return { state: {}, done: 1, total: 1, finished: true };
  },
};

/**
 * A kind that calls out: `effect` (outside the transaction) asks a counter that answers an error until `outage`
 * is over; the step keeps a record of every call, and answers `retry` (keep the record, try later) on an error.
 */
let outage = 0;
const callsOut: JobKind<Record<string, never>, Record<string, never>, string | null> = {
  kind: 'test-calls-out',
  maxAttempts: 3,
  effect: async () => (outage-- > 0 ? 'The tracker did not answer.' : null),
  async step(tx, job, _engine, error) {
    await tx.query('insert into job_test_effects (job_id, step) values ($1, $2)', [job.id, job.attempts]);
    return error ? { state: {}, done: 0, retry: error } : { state: {}, done: 1, total: 1, finished: true };
  },
};

/** The app's job runtime (its engine and list totals) with this file's kinds, as an area would list them. */
let rt: JobRuntime;
const runStep = (db: Db, worker: string, id: number) => runOne(rt, db, worker, id);
const runNextJob = (db: Db, worker: string) => runNext(rt, db, worker);

const effects = async (jobId: number) =>
  await t.db.query<{ step: number; n: number }>(
    'select step, count(*)::int as n from job_test_effects where job_id = $1 group by step order by step',
    [jobId],
  );
const job = async (id: number) => (await t.db.query('select * from jobs where id = $1', [id]))[0];
const queue = (total: number) =>
  enqueueJob(t.db, { merchantId: merchantA, kind: counted, payload: { total }, createdBy: adminId });

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, otherAdmin, client] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'otherAdmin'),
    loginAs(t.app, 'client'),
  ]);
  const me = (await t.app.sessions.resolve(admin))!;
  merchantA = me.merchant_id;
  adminId = me.id;
  rt = { ...t.app.jobs, jobKinds: new Map<string, JobKind>([counted, addsClient, callsOut].map((k) => [k.kind, k])) };
  await t.db.query(
    'create table job_test_effects (id serial primary key, job_id integer not null, step integer not null)',
  );
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/jobs/:id', () => {
  it('shows the progress each committed step made, then the result', async () => {
    const id = await queue(3);
    const read = async () => (await call(t.app, admin, 'GET', `/api/jobs/${id}`)).json().data;
    expect(await read()).toMatchObject({ id, kind: 'test-counted', status: 'queued', done: 0, total: null });
    const worker = workerName();
    expect((await claimJob(t.db, worker))!.id).toBe(id);
    expect(await runStep(t.db, worker, id)).toBe('continued');
    expect(await read()).toMatchObject({ status: 'running', done: 1, total: 3 });
    expect(await runStep(t.db, worker, id)).toBe('continued');
    expect(await read()).toMatchObject({ status: 'running', done: 2, total: 3 });
    expect(await runStep(t.db, worker, id)).toBe('finished');
    expect(await read()).toMatchObject({ status: 'done', done: 3, total: 3, result: { steps: 3 }, error: null });
  });

  it("answers 404 for another agency's job, for a client user's look at the agency's, and for one that does not exist", async () => {
    const id = await queue(1);
    expect((await call(t.app, otherAdmin, 'GET', `/api/jobs/${id}`)).statusCode).toBe(404);
    expect((await call(t.app, client, 'GET', `/api/jobs/${id}`)).statusCode).toBe(404);
    expect((await call(t.app, admin, 'GET', '/api/jobs/2147483647')).statusCode).toBe(404);
    expect((await call(t.app, admin, 'GET', '/api/jobs/abc')).statusCode).toBe(422);
    expect((await call(t.app, admin, 'GET', `/api/jobs/${id}`)).statusCode).toBe(200);
    // Run to its end: the later tests claim their own jobs from an empty queue.
    expect(await runNextJob(t.db, workerName())).toBe(id);
  });
});

describe('a worker that dies mid-way', () => {
  it('leaves its uncommitted step undone; once its lease runs out another worker resumes, and no step is done twice', async () => {
    const id = await queue(5);
    // Worker A commits steps 0 and 1, then dies inside step 2, after its side effect and before the commit.
    const dying = killable(
      t.db,
      (sql, params) => sql.startsWith('insert into job_test_effects') && (params as number[])[1] === 2,
    );
    const a = workerName();
    expect((await claimJob(dying, a))!.id).toBe(id);
    expect(await runStep(dying, a, id)).toBe('continued');
    expect(await runStep(dying, a, id)).toBe('continued');
    await expect(runStep(dying, a, id)).rejects.toThrow('connection terminated');
    expect(await job(id)).toMatchObject({ status: 'running', done: 2, locked_by: a });
    expect((await effects(id)).map((e) => e.step)).toEqual([0, 1]);

    // While the lease lasts, nobody else takes the job.
    const b = workerName();
    expect(await runNextJob(t.db, b)).toBeNull();
    // The lease runs out (its time is moved, not waited for); worker B takes the job and finishes it.
    await t.db.query(`update jobs set locked_until = now() - interval '1 second' where id = $1`, [id]);
    expect(await runNextJob(t.db, b)).toBe(id);
    expect(await job(id)).toMatchObject({ status: 'done', done: 5, attempts: 2, locked_by: null });
    expect(await effects(id)).toEqual([0, 1, 2, 3, 4].map((step) => ({ step, n: 1 })));
    // Worker A, were it only slow, can commit nothing now: the job is no longer its.
    expect(await runStep(t.db, a, id)).toBe('lost');
    expect(await effects(id)).toHaveLength(5);
  });
});

describe('a failing step', () => {
  it('is rolled back whole, retried after the backoff, and the error is shown meanwhile', async () => {
    const id = await queue(3);
    failOnce.add(`${id}:1`);
    const worker = workerName();
    expect(await runNextJob(t.db, worker)).toBe(id);
    const waiting = await job(id);
    expect(waiting).toMatchObject({
      status: 'queued',
      done: 1,
      attempts: 1,
      locked_by: null,
      error: 'Step 1 could not reach the printer.',
    });
    // The backoff: about jobRetryDelayMs(1) from now, and the job is not taken before.
    const [{ wait }] = await t.db.query<{ wait: number }>(
      `select extract(epoch from run_after - now()) * 1000 as wait from jobs where id = $1`,
      [id],
    );
    expect(Number(wait)).toBeGreaterThan(jobRetryDelayMs(1) - 5_000);
    expect(Number(wait)).toBeLessThanOrEqual(jobRetryDelayMs(1));
    expect((await call(t.app, admin, 'GET', `/api/jobs/${id}`)).json().data).toMatchObject({
      status: 'queued',
      done: 1,
      error: 'Step 1 could not reach the printer.',
    });
    expect(await runNextJob(t.db, worker)).toBeNull();
    // Its time comes: the job goes on from step 1, which is done once in all (the failed try left nothing).
    await t.db.query('update jobs set run_after = now() where id = $1', [id]);
    expect(await runNextJob(t.db, worker)).toBe(id);
    expect(await job(id)).toMatchObject({ status: 'done', done: 3, attempts: 2, error: null });
    expect(await effects(id)).toEqual([0, 1, 2].map((step) => ({ step, n: 1 })));
  });

  it('fails the job for good once it used its attempts, saying why', async () => {
    const id = await enqueueJob(t.db, {
      merchantId: merchantA,
      kind: counted,
      payload: { total: 2 },
      createdBy: adminId,
      maxAttempts: 1,
    });
    failOnce.add(`${id}:0`);
    expect(await runNextJob(t.db, workerName())).toBe(id);
    expect(await job(id)).toMatchObject({ status: 'failed', done: 0, error: 'Step 0 could not reach the printer.' });
    expect(await effects(id)).toEqual([]);
  });

  it('answered as a failed attempt (`retry`), keeps what it wrote, waits the backoff and fails at its kind’s attempts', async () => {
    const wait = async (id: number) =>
      (
        await t.db.query<{ ms: number }>(
          'select (extract(epoch from run_after - updated_at) * 1000)::int as ms from jobs where id = $1',
          [id],
        )
      )[0].ms;
    const worker = workerName();
    outage = 1;
    const id = await enqueueJob(t.db, { merchantId: merchantA, kind: callsOut });
    expect(await job(id)).toMatchObject({ max_attempts: 3 });
    expect(await runNextJob(t.db, worker)).toBe(id);
    expect(await job(id)).toMatchObject({ status: 'queued', attempts: 1, error: 'The tracker did not answer.' });
    expect(await wait(id)).toBe(jobRetryDelayMs(1));
    // The failed attempt's record is kept (a thrown step's would be rolled back).
    expect(await effects(id)).toEqual([{ step: 1, n: 1 }]);
    await t.db.query('update jobs set run_after = now() where id = $1', [id]);
    expect(await runNextJob(t.db, worker)).toBe(id);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2, error: null });
    expect(await effects(id)).toEqual([1, 2].map((step) => ({ step, n: 1 })));

    outage = 3;
    const doomed = await enqueueJob(t.db, { merchantId: merchantA, kind: callsOut });
    for (const attempt of [1, 2]) {
      expect(await runNextJob(t.db, worker)).toBe(doomed);
      expect(await wait(doomed)).toBe(jobRetryDelayMs(attempt));
      await t.db.query('update jobs set run_after = now() where id = $1', [doomed]);
    }
    expect(await runNextJob(t.db, worker)).toBe(doomed);
    expect(await job(doomed)).toMatchObject({ status: 'failed', attempts: 3, error: 'The tracker did not answer.' });
    expect(await effects(doomed)).toEqual([1, 2, 3].map((step) => ({ step, n: 1 })));
  });

  it('the backoff doubles from 10 s and stops growing at 15 minutes', () => {
    expect([1, 2, 3, 4].map(jobRetryDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(jobRetryDelayMs(20)).toBe(15 * 60_000);
  });
});

describe("a job's writes in list totals", () => {
  const clientsTotal = async () => (await call(t.app, admin, 'GET', '/api/clients')).json().total_count;

  it('count a client a job added at once, though the total before it was cached', async () => {
    const before = await clientsTotal();
    // Read twice: the second answer is the cached total.
    expect(await clientsTotal()).toBe(before);
    const id = await enqueueJob(t.db, { merchantId: merchantA, kind: addsClient, payload: { name: 'Added by a job' } });
    expect(await runNextJob(t.db, workerName())).toBe(id);
    expect(await clientsTotal()).toBe(before + 1);
  });

  it('count a client a periodic job added at once, as it ends', async () => {
    const before = await clientsTotal();
    const job: PeriodicJob = {
      name: `test-adds-client-${Date.now()}`,
      everyMs: 60_000,
      run: (db, engine) =>
        db.transaction(async (tx) => {
          const ctx = await engine.context(tx, systemPrincipal(merchantA), new Date());
          await ctx.engine.create('clients', { name: 'Added on a timer', billing_email: 'jobs@example.test' });
        }),
    };
    expect(await runDuePeriodic(rt, t.db, workerName(), [job])).toEqual([job.name]);
    expect(await clientsTotal()).toBe(before + 1);
  });

  it('leave a kind no area lists unrun, failing it in words', async () => {
    const id = await enqueueJob(t.db, { merchantId: merchantA, kind: addsClient, payload: { name: 'Never' } });
    const listed = rt;
    rt = { ...rt, jobKinds: new Map() };
    try {
      expect(await runNextJob(t.db, workerName())).toBe(id);
    } finally {
      rt = listed;
    }
    expect(await job(id)).toMatchObject({ status: 'queued', error: 'No handler for jobs of kind test-adds-client.' });
    await t.db.query(`update jobs set status = 'failed', locked_by = null where id = $1`, [id]);
  });
});

describe('periodic jobs', () => {
  it('run once per interval across processes: of workers asking at once, one gets the lease', async () => {
    const name = `test-periodic-${Date.now()}`;
    let runs = 0;
    const jobs = [{ name, everyMs: 60_000, run: async () => void (runs += 1) }];
    const ran = await Promise.all([1, 2, 3, 4].map(() => runDuePeriodic(rt, t.db, workerName(), jobs)));
    expect(ran.flat()).toEqual([name]);
    expect(runs).toBe(1);
    // Within the interval nobody runs it again, whoever asks.
    expect(await runDuePeriodic(rt, t.db, workerName(), jobs)).toEqual([]);
    // Once the interval has passed, it runs again (once).
    await t.db.query(`update periodic_leases set last_run_at = now() - interval '61 seconds' where name = $1`, [name]);
    expect((await Promise.all([1, 2].map(() => runDuePeriodic(rt, t.db, workerName(), jobs)))).flat()).toEqual([name]);
    expect(runs).toBe(2);
  });

  it('a run in progress holds its lease: nobody else starts it, even when its interval passes, until it is given back or runs out', async () => {
    const job = { name: `test-held-${Date.now()}`, everyMs: 1_000 };
    const a = workerName();
    expect(await takePeriodic(t.db, job, a)).toBe(true);
    await t.db.query(`update periodic_leases set last_run_at = now() - interval '1 hour' where name = $1`, [job.name]);
    expect(await takePeriodic(t.db, job, workerName())).toBe(false);
    await releasePeriodic(t.db, job.name, a);
    expect(await takePeriodic(t.db, job, workerName())).toBe(true);
  });
});
