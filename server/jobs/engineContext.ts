// The engine context of work that runs outside a request (a job's step, a periodic job): the same writes, as the
// principal the work is done for, in the transaction it is given, on the app's own compiled declarations.
import type { Queryable } from '../db/index.js';
import type { Compiled } from '../engine/compile.js';
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { withEngine } from '../engine/handle.js';
import { agencyZone } from '../engine/routes.js';
import type { TotalCache } from '../engine/totals.js';
import { agencyToday } from '../../core/domain/time/agencyTime.js';

/**
 * The engine of one piece of work outside a request (a job's step, a periodic job's run): its contexts write
 * through the app's registry (`engine`), and note the tables they wrote, so that once the work has committed
 * (`committed`) the app's cached list totals of those tables drop at once, here and in every other process, as a
 * request's do.
 */
export class JobEngine {
  private written: { merchantId: number; tables: Set<string> }[] = [];

  constructor(private app: { engine: Map<string, Compiled>; totals: TotalCache }) {}

  /** An engine context for `principal` in `db` (the work's transaction), on the agency's calendar at `now`. */
  async context(db: Queryable, queued: EnginePrincipal, now: Date): Promise<EngineContext> {
    // A job queued before login types were renamed holds the agency's as the spec stores it ('admin').
    const principal = (queued.loginType as string) === 'admin' ? { ...queued, loginType: 'agency' as const } : queued;
    const timeZone = await agencyZone(db, principal.merchantId);
    const touched = new Set<string>();
    this.written.push({ merchantId: principal.merchantId, tables: touched });
    return withEngine({ db, principal, now, timeZone, today: agencyToday(timeZone, now), touched }, this.app.engine);
  }

  /** The work's writes are committed: the totals of what they wrote are stale. */
  committed() {
    for (const { merchantId, tables } of this.written)
      for (const table of tables) this.app.totals.changed(table, merchantId);
    this.written = [];
  }
}
