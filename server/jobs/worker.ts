import type { Db } from '../db/index.js';
import { runDuePeriodic, type PeriodicJob } from './periodic.js';
import { JOB_LEASE_MS, runNextJob, workerName, type JobRuntime } from './queue.js';

export interface JobWorkerOptions {
  /** How often to look for due jobs when the queue is empty. */
  pollMs?: number;
  leaseMs?: number;
}

/**
 * Each server process runs one: it takes due jobs from the queue (any process may take any job) and runs the
 * periodic jobs whose lease it gets. A job is run to its end before the next is taken.
 */
export class JobWorker {
  readonly name = workerName();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private stopping = false;

  /** `rt`: the app's job kinds, periodic jobs and engine (`app.jobs`, server/app.ts), listed by the areas. */
  constructor(
    private rt: JobRuntime & { periodic: PeriodicJob[] },
    private db: Db,
    private options: JobWorkerOptions = {},
  ) {}

  /** One round: every due job, then the due periodic jobs. */
  async tick() {
    try {
      // Until the queue has nothing due; a stopping worker finishes the job in hand and takes no other.
      while (
        !this.stopping &&
        (await runNextJob(this.rt, this.db, this.name, this.options.leaseMs ?? JOB_LEASE_MS)) !== null
      );
    } catch (e) {
      console.error('Running a job failed:', e);
    }
    await runDuePeriodic(this.rt, this.db, this.name, this.rt.periodic).catch((e) =>
      console.error('Periodic jobs failed:', e),
    );
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.timer = setTimeout(loop, this.options.pollMs ?? 1000);
      });
    };
    loop();
  }

  async stop() {
    this.stopped = true;
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
