import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index.js';
import type { Compiled } from '../engine/compile.js';
import type { TotalCache } from '../engine/totals.js';
import { JobEngine } from './engineContext.js';
import { retryDelayMs } from './backoff.js';

/**
 * A job in the `jobs` table as a handler sees it. `state` is the handler's own place between steps (a cursor, the
 * last id done); it is stored with each step's work, so a resumed job starts exactly where the last committed
 * step left it.
 */
export interface JobRow<P = any, S = any> {
  id: number;
  merchant_id: number;
  kind: string;
  payload: P;
  status: 'queued' | 'running' | 'done' | 'failed';
  done: number;
  total: number | null;
  state: S;
  attempts: number;
  max_attempts: number;
  created_by: number | null;
}

/**
 * What one step answers: the new place, the progress, and whether the job is finished (with its result). `retry`
 * says the attempt failed but what the step wrote is its record of the failure and must be kept: the step's writes
 * and its state commit, and the job waits for the shared backoff (or fails once it used its attempts) with `retry`
 * as its error, as a step that throws does (whose writes are rolled back).
 */
export interface StepResult<S = any> {
  state: S;
  done: number;
  total?: number | null;
  finished?: boolean;
  result?: unknown;
  retry?: string;
}

/**
 * A kind of job, listed by its area (server/areas, `jobKinds`). `step` does one bounded piece of work in `tx`, the
 * transaction that also stores the progress it answers: either both commit or neither does, so no step is ever done
 * twice, whatever kills the process. `engine` gives the step's engine contexts (the app's compiled declarations).
 */
export interface JobKind<P = any, S = any, E = any> {
  kind: string;
  /**
   * Work outside any transaction, before the step (an SMTP send, a call to another service): it runs while the
   * job's lease is this worker's, and the step records what it answered. Nothing can make an outside call and its
   * record commit together: if the process dies between the two, the job is taken again once its lease runs out and
   * `effect` runs again (at least once; the kind makes a repeat harmless, as the e-mail's fixed Message-ID does).
   * Kept out of the transaction so that a slow outside call holds no database lock (on PGlite, the whole database).
   */
  effect?(db: Db, job: JobRow<P, S>): Promise<E>;
  step(tx: Queryable, job: JobRow<P, S>, engine: JobEngine, effect: E): Promise<StepResult<S>>;
  /** Attempts before the job fails for good (5 unless the kind says). */
  maxAttempts?: number;
}

/**
 * What a worker runs jobs with: the app's job kinds by name and its engine (compiled declarations and list totals),
 * so a job's writes are the app's and drop its cached list totals at commit (server/app.ts decorates `app.jobs`).
 */
export interface JobRuntime {
  jobKinds: ReadonlyMap<string, JobKind>;
  engine: Map<string, Compiled>;
  totals: TotalCache;
}

/**
 * Queues a job in the caller's transaction: it runs once that commits, never if it rolls back. `kind` is the kind
 * itself (its payload typed by it); the worker runs it only when an area lists it.
 */
export async function enqueueJob<P>(
  db: Queryable,
  job: {
    merchantId: number;
    kind: JobKind<P>;
    payload?: P;
    createdBy?: number | null;
    total?: number | null;
    maxAttempts?: number;
  },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into jobs (merchant_id, kind, payload, created_by, total, max_attempts) values ($1, $2, $3, $4, $5, $6) returning id`,
    [
      job.merchantId,
      job.kind.kind,
      JSON.stringify(job.payload ?? {}),
      job.createdBy ?? null,
      job.total ?? null,
      job.maxAttempts ?? job.kind.maxAttempts ?? 5,
    ],
  );
  return row.id;
}

/** The wait before the next attempt after a failure: the backoff of every queue (server/jobs/backoff.ts). */
export { retryDelayMs as jobRetryDelayMs } from './backoff.js';

/** A claimed job is its worker's for this long, renewed by every step; a dead worker's job is taken again after it. */
export const JOB_LEASE_MS = 60_000;

/** A name for this worker in locked_by: the process and a random part (two workers in one process differ). */
export const workerName = () => `${process.pid}-${randomBytes(4).toString('hex')}`;

const JOB_COLUMNS = 'id, merchant_id, kind, payload, status, done, total, state, attempts, max_attempts, created_by';

const ms = (n: number) => `make_interval(secs => ${Number(n) / 1000})`;

/**
 * Takes the next due job for `worker`: a queued one whose time has come, or a running one whose worker's lease
 * ran out (it died). Rows another worker holds are skipped (FOR UPDATE SKIP LOCKED), so workers share the queue.
 */
export async function claimJob(db: Queryable, worker: string, leaseMs = JOB_LEASE_MS): Promise<JobRow | null> {
  const [row] = await db.query<JobRow>(
    `update jobs j set status = 'running', locked_by = $1, locked_until = now() + ${ms(leaseMs)}, attempts = j.attempts + 1, updated_at = now()
      where j.id = (select id from jobs where status in ('queued', 'running') and run_after <= now() and (locked_until is null or locked_until < now())
                     order by run_after, id limit 1 for update skip locked)
      returning ${JOB_COLUMNS.replace(/(\w+)/g, 'j.$1')}`,
    [worker],
  );
  return row ?? null;
}

export type StepOutcome = 'continued' | 'finished' | 'lost' | 'retry' | 'failed';
const OUTCOME_OF = { running: 'continued', done: 'finished', queued: 'retry', failed: 'failed' } as const;

/**
 * Runs one step of a claimed job. The step's work and its progress commit together, and only while the job is
 * still this worker's (the row is locked and its locked_by checked first): a worker whose lease ran out and was
 * taken over can no longer commit anything. The kind's `effect`, if any, runs first, outside the transaction, while
 * the lease is this worker's. A failing step is rolled back whole; a step that answers `retry` commits its record
 * of the failure; either way the job waits for the backoff (or fails once it used its attempts), with the error
 * kept for the screen.
 */
export async function runStep(
  rt: JobRuntime,
  db: Db,
  worker: string,
  jobId: number,
  leaseMs = JOB_LEASE_MS,
): Promise<StepOutcome> {
  const engine = new JobEngine(rt);
  const mine = `select ${JOB_COLUMNS} from jobs where id = $1 and locked_by = $2 and status = 'running'`;
  try {
    let effect: unknown;
    const [leased] = await db.query<JobRow>(mine, [jobId, worker]);
    if (!leased) return 'lost';
    const kind = rt.jobKinds.get(leased.kind);
    if (!kind) throw new Error(`No handler for jobs of kind ${leased.kind}.`);
    if (kind.effect) effect = await kind.effect(db, leased);
    const outcome = await db.transaction(async (tx) => {
      const [job] = await tx.query<JobRow>(`${mine} for update`, [jobId, worker]);
      if (!job) return 'lost' as const;
      const r = await kind.step(tx, job, engine, effect);
      const retry = r.retry !== undefined && !r.finished;
      // A failed attempt whose record is kept: back to the queue after the backoff, or failed for good.
      const status = r.finished ? 'done' : retry ? (job.attempts >= job.max_attempts ? 'failed' : 'queued') : 'running';
      await tx.query(
        `update jobs set state = $2, done = $3, total = coalesce($4, total), updated_at = now(), status = $5,
                locked_until = case when $5 = 'running' then now() + ${ms(leaseMs)} end,
                locked_by = case when $5 = 'running' then locked_by end,
                run_after = case when $5 = 'queued' then now() + ${ms(retryDelayMs(job.attempts))} else run_after end,
                result = case when $5 = 'done' then $6::jsonb else result end,
                finished_at = case when $5 in ('done', 'failed') then now() end, error = $7
          where id = $1`,
        [
          jobId,
          JSON.stringify(r.state ?? {}),
          r.done,
          r.total ?? null,
          status,
          JSON.stringify(r.result ?? null),
          retry ? r.retry!.slice(0, 500) : null,
        ],
      );
      return OUTCOME_OF[status];
    });
    // Committed: lists counting what the step wrote count it from now on, in every process.
    engine.committed();
    return outcome;
  } catch (e) {
    const message = ((e as Error)?.message ?? String(e)).slice(0, 500);
    const [job] = await db.query<{ attempts: number; max_attempts: number }>(
      'select attempts, max_attempts from jobs where id = $1 and locked_by = $2',
      [jobId, worker],
    );
    if (!job) return 'lost';
    const failed = job.attempts >= job.max_attempts;
    await db.query(
      `update jobs set status = $3, error = $4, locked_by = null, locked_until = null, run_after = now() + ${ms(retryDelayMs(job.attempts))},
              updated_at = now(), finished_at = ${failed ? 'now()' : 'null'}
        where id = $1 and locked_by = $2`,
      [jobId, worker, failed ? 'failed' : 'queued', message],
    );
    return failed ? 'failed' : 'retry';
  }
}

/**
 * Takes a job up again now (an invoice run's Resume): a dead worker's lease given up and, after a failure for good,
 * its attempts anew; a finished job is left alone. A worker still holding it loses it at its next step (runStep reads
 * locked_by under the row's lock, which this update waits for), so no step is done twice.
 */
export async function requeueJob(db: Queryable, merchantId: number, jobId: number): Promise<void> {
  await db.query(
    `update jobs set status = 'queued', locked_by = null, locked_until = null, run_after = now(), attempts = 0,
            error = null, finished_at = null, updated_at = now()
      where id = $1 and merchant_id = $2 and status <> 'done'`,
    [jobId, merchantId],
  );
}

/** Claims the next due job and runs it step by step to its end (or its failure); answers the job's id, or null. */
export async function runNextJob(
  rt: JobRuntime,
  db: Db,
  worker: string,
  leaseMs = JOB_LEASE_MS,
): Promise<number | null> {
  const job = await claimJob(db, worker, leaseMs);
  if (!job) return null;
  for (;;) {
    const outcome = await runStep(rt, db, worker, job.id, leaseMs);
    if (outcome !== 'continued') return job.id;
  }
}
