import type { Db } from '../db/index.js';
import { JobEngine } from './engineContext.js';
import type { JobRuntime } from './queue.js';

/**
 * Work the product does on a timer, whoever asked for nothing, listed by its area (server/areas, `jobs`). Each runs
 * at most once per `everyMs` across every server process on the database (the lease row in periodic_leases decides
 * which process), so a run never has to guard against a twin running beside it. It gets the pool, not a
 * transaction: it opens its own transactions, and takes its engine contexts from `engine` (the app's).
 */
export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: (db: Db, engine: JobEngine) => Promise<unknown>;
}

/** How long a process may run one periodic job before another may take it (it died). */
export const PERIODIC_LEASE_MS = 10 * 60_000;

/**
 * Takes the lease of a periodic job when its interval has passed since its last run and nobody holds it:
 * one statement, so of several processes asking at once exactly one gets it (the row's lock orders them).
 */
export async function takePeriodic(
  db: Db,
  job: Pick<PeriodicJob, 'name' | 'everyMs'>,
  worker: string,
  leaseMs = PERIODIC_LEASE_MS,
): Promise<boolean> {
  const rows = await db.query(
    `insert into periodic_leases as l (name, locked_by, locked_until, last_run_at) values ($1, $2, now() + make_interval(secs => $4::double precision / 1000), now())
     on conflict (name) do update set locked_by = $2, locked_until = excluded.locked_until, last_run_at = now()
      where l.last_run_at <= now() - make_interval(secs => $3::double precision / 1000) and (l.locked_until is null or l.locked_until < now())
     returning name`,
    [job.name, worker, job.everyMs, leaseMs],
  );
  return rows.length > 0;
}

/** Gives the lease back after a run (the next run still waits for the interval, counted from its start). */
export async function releasePeriodic(db: Db, name: string, worker: string) {
  await db.query(
    'update periodic_leases set locked_by = null, locked_until = null where name = $1 and locked_by = $2',
    [name, worker],
  );
}

/**
 * Runs every periodic job of `jobs` that is due and whose lease this worker got, on the app's engine (`rt`); what a
 * run wrote shows in list totals as it ends. A failing job never stops the others.
 */
export async function runDuePeriodic(rt: JobRuntime, db: Db, worker: string, jobs: PeriodicJob[]): Promise<string[]> {
  const ran: string[] = [];
  for (const job of jobs) {
    if (!(await takePeriodic(db, job, worker))) continue;
    const engine = new JobEngine(rt);
    try {
      await job.run(db, engine);
      ran.push(job.name);
    } catch (e) {
      console.error(`Periodic job ${job.name} failed:`, e);
    } finally {
      // Each of its transactions has ended, committed or not: dropping a total too many is harmless.
      engine.committed();
      await releasePeriodic(db, job.name, worker);
    }
  }
  return ran;
}
