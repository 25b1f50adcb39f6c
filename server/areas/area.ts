import type { FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../db/index.js';
import type { ResourceBehaviour } from '../engine/context.js';
import type { SeedContext } from '../seed/context.js';

/**
 * Background work on a timer, run by the job worker (server/jobs/periodic.ts) at most once per `everyMs` across
 * every server process: a lease row decides which process runs it. It gets the pool, not a transaction: it opens
 * its own transactions.
 */
export interface Job {
  name: string;
  everyMs: number;
  run: (db: Db) => Promise<unknown>;
}

/**
 * One area of the product as the server serves it, registered once in server/areas/index.ts; its declarations
 * are in core/resources/<area>/.
 */
export interface ServerArea {
  /** What the server does beyond each declaration of the area (hooks, action effects, computed fields), by name. */
  behaviours?: Record<string, ResourceBehaviour>;
  /** Its calls beyond CRUD, registered in this order after the engine's routes. */
  routes?: ((app: FastifyInstance) => Promise<void>)[];
  jobs?: Job[];
  /** The demo agency's data of the area; areas seed in the order of the list. */
  seed?: (db: Queryable, ctx: SeedContext) => Promise<unknown>;
}
