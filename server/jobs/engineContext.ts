// The engine context of work that runs outside a request (a job's step, a periodic job): the same writes, as the
// principal the work is done for, in the transaction it is given.
import type { Queryable } from '../db/index.js';
import type { Compiled } from '../engine/compile.js';
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { withEngine } from '../engine/handle.js';
import { agencyToday } from '../../core/domain/time/agencyTime.js';

let registry: Promise<Map<string, Compiled>> | null = null;
/**
 * The engine's compiled declarations, made once per process (a job has no app to ask). Imported when first asked:
 * the areas' behaviours import the services that queue these jobs.
 */
export function engineRegistry(): Promise<Map<string, Compiled>> {
  registry ??= Promise.all([
    import('../engine/routes.js'),
    import('../../core/resources/declarations.js'),
    import('../areas/index.js'),
  ]).then(([{ compileAll }, { declarations }, { behaviours }]) => compileAll(declarations, behaviours));
  return registry;
}

/** An engine context for `principal` in `db` (a job's transaction), on the agency's calendar at `now`. */
export async function jobContext(db: Queryable, queued: EnginePrincipal, now: Date): Promise<EngineContext> {
  const { agencyZone } = await import('../engine/routes.js');
  // A job queued before login types were renamed holds the agency's as the spec stores it ('admin').
  const principal = (queued.loginType as string) === 'admin' ? { ...queued, loginType: 'agency' as const } : queued;
  const timeZone = await agencyZone(db, principal.merchantId);
  return withEngine({ db, principal, now, timeZone, today: agencyToday(timeZone, now) }, await engineRegistry());
}
