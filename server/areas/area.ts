import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/index.js';
import type { ResourceBehaviour } from '../engine/context.js';
import type { JobKind } from '../jobs/queue.js';
import type { PeriodicJob } from '../jobs/periodic.js';
import type { SecretLink } from '../notifications/outbox.js';
import type { SeedContext } from '../seed/context.js';
import type { ResourceDeclaration } from '../../core/engine/types.js';

/** Background work on a timer (server/jobs/periodic.ts). */
export type Job = PeriodicJob;

/**
 * One area of the product as the server serves it, listed once in server/areas/index.ts: everything the area adds
 * is named here and nowhere else, and nothing registers itself when its module is imported. The app reads the list
 * through registryOf (server/areas/registry.ts) and hands what it made to the job worker, the notifications and the
 * seed, which never import the list themselves.
 */
export interface ServerArea {
  name: string;
  /** Its entities (core/resources/<area>/): each declaration is listed by exactly one area. */
  declarations: ResourceDeclaration[];
  /** What the server does beyond each declaration of the area (hooks, action effects, computed fields), by name. */
  behaviours?: Record<string, ResourceBehaviour>;
  /** Its calls beyond CRUD, registered in this order after the engine's routes. */
  routes?: ((app: FastifyInstance) => Promise<void>)[];
  /** The kinds of queued job (with progress) it starts; the worker runs only the kinds an area lists. */
  jobKinds?: JobKind[];
  /** Its single-use links sent by e-mail, by kind: the sender mints their tokens as it sends (notifications/outbox). */
  links?: Record<string, SecretLink>;
  /** Its work on a timer. */
  jobs?: PeriodicJob[];
  /** The demo agency's data of the area; areas seed in the order of the list. */
  seed?: (db: Queryable, ctx: SeedContext) => Promise<unknown>;
  /**
   * Its demo data covers the year of history too (the invoices bill it, so their numbers follow their dates): seeded
   * after the history, not in the list's order.
   */
  seedsAfterHistory?: boolean;
}
