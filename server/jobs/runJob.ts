// A run made as a resumable job (an invoice run, a pay run): the request queues it and records the job on the run;
// each step, one transaction with the job's progress, takes the agency's run lock, reads the run, does a batch of its
// work and records the run's progress with it. A step rolled back by a killed process leaves nothing of its batch and
// is done again by the next worker; a committed one is never repeated. Each kind says only what its run is, what a
// step does, and where a kill test may hold a step.
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { Accepted } from '../engine/actions.js';
import { enqueueJob, type JobKind } from './queue.js';

export interface RunJob {
  run_id: number;
  /** Who started the run: the audit trail names them on everything a step writes. */
  principal: EnginePrincipal;
}

/** Takes the advisory lock `lock` of the agency: its runs (and each step of a run's job) take turns. */
export const lockRuns = (ctx: EngineContext, lock: number) =>
  ctx.db.query('select pg_advisory_xact_lock($1, $2)', [lock, ctx.principal.merchantId]);

/**
 * Queues the run's job in the caller's transaction (it runs once that commits), records it on the run and answers the
 * request's 202 with the run, its job and `answer` (what it will make).
 */
export async function queueRun(
  ctx: EngineContext,
  run: { kind: JobKind<RunJob>; resource: string; id: number; total: number; reason: string },
  answer: Record<string, unknown>,
) {
  const p = ctx.principal;
  const job_id = await enqueueJob(ctx.db, {
    merchantId: p.merchantId,
    kind: run.kind,
    payload: { run_id: run.id, principal: p },
    createdBy: p.userId || null,
    total: run.total,
  });
  await ctx.engine.update(run.resource, run.id, { job_id }, { reason: run.reason });
  return new Accepted({ run_id: run.id, job_id, ...answer });
}

/** A run's progress as a step reads it: `done` of `total` items (staff, clients) made. */
export interface RunProgress {
  done: number;
  total: number;
}

/**
 * The job kind of a run. `work` does one step's batch of the run read by `read`, answering how many items it took and
 * the run's fields that change with its progress, or null when the run is to stop (cancelled while being made). With
 * the environment variable `pause.env` set (a kill test; never in production), each step after the first waits once
 * its batch is written, before it commits, while another session holds advisory lock `pause.lock` of the agency.
 */
export function runJob<R extends RunProgress>(spec: {
  kind: string;
  resource: string;
  lock: number;
  pause: { env: string; lock: number };
  /** The run's column of items done (its progress). */
  doneField: string;
  /** The audit reason of a step: `${label} ${run}: ${item} ${done} of ${total}`. */
  label: string;
  item: string;
  read(ctx: EngineContext, runId: number): Promise<R>;
  work(ctx: EngineContext, run: R, runId: number): Promise<{ taken: number; fields?: Record<string, unknown> } | null>;
}): JobKind<RunJob, Record<string, never>> {
  return {
    kind: spec.kind,
    async step(tx, job, engine) {
      const ctx = await engine.context(tx, job.payload.principal, new Date());
      const runId = job.payload.run_id;
      await lockRuns(ctx, spec.lock);
      const run = await spec.read(ctx, runId);
      const result = { run_id: runId };
      const made = await spec.work(ctx, run, runId);
      if (!made) return { state: {}, done: run.done, total: run.total, finished: true, result };
      if (process.env[spec.pause.env] && run.done > 0) await lockRuns(ctx, spec.pause.lock);
      const done = Math.min(run.total, run.done + made.taken);
      const finished = done >= run.total;
      await ctx.engine.update(
        spec.resource,
        runId,
        { [spec.doneField]: done, ...made.fields, ...(finished ? { finished_at: ctx.now.toISOString() } : {}) },
        { reason: `${spec.label} ${runId}: ${spec.item} ${done} of ${run.total}` },
      );
      return { state: {}, done, total: run.total, finished, result: finished ? result : undefined };
    },
  };
}
