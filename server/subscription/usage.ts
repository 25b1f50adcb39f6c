// Issue 35, subscription: what an agency uses against its plan's limits, and the refusal of the write that would take
// it over one. The check runs in the engine's hooks (afterSave of staff, users and clients), so it holds for every
// writer: a request, a bulk action, another hook, a job. See docs/decisions.md, "Issue 35 — subscription and plan
// limits".
import type { Queryable } from '../db/index.js';
import type { EngineContext } from '../engine/context.js';
import type { RecordValues } from '../../core/engine/types.js';
import { HttpError } from '../http.js';
import { planOf, type Plan } from './plans.js';

export interface Usage {
  active_staff: number;
  users: number;
  clients: number;
  storage_bytes: number;
}

/**
 * What each limit counts, as SQL of the agency's rows ($1): staff approved and active; agency users who may sign in
 * (invited or active: an invitation holds a seat); clients whose status is active; the bytes of its stored files.
 */
const COUNTS = {
  active_staff: `select count(*)::int from candidates
     where merchant_id = $1 and status = 'approved' and activated and deleted_at is null`,
  users: `select count(*)::int from users where merchant_id = $1 and kind = 'admin' and active`,
  clients: `select count(*)::int from clients where merchant_id = $1 and status = 'active' and deleted_at is null`,
} as const;
export type Counted = keyof typeof COUNTS;

/** The agency's usage, in one statement. */
export async function usageOf(db: Queryable, merchantId: number): Promise<Usage> {
  const [row] = await db.query<Usage>(
    `select (${COUNTS.active_staff}) as active_staff, (${COUNTS.users}) as users, (${COUNTS.clients}) as clients,
            (select coalesce(sum(size), 0)::bigint from files where merchant_id = $1) as storage_bytes`,
    [merchantId],
  );
  return { ...row, storage_bytes: Number(row.storage_bytes) };
}

/** The agency's plan, from its settings row (none yet: the default plan). */
export async function agencyPlan(db: Queryable, merchantId: number): Promise<Plan> {
  const [row] = await db.query<{ plan: string | null }>('select plan from agency_settings where merchant_id = $1', [
    merchantId,
  ]);
  return planOf(row?.plan);
}

/** Whether a record counts against its limit, by what it is stored as. */
export const counts: Record<Counted, (r: RecordValues) => boolean> = {
  active_staff: (r) => r.status === 'approved' && r.activated === true && !r.deleted_at,
  users: (r) => r.kind === 'admin' && r.active === true,
  clients: (r) => r.status === 'active' && !r.deleted_at,
};

const REFUSALS: Record<Counted, (plan: Plan, limit: number) => string> = {
  active_staff: (p, n) =>
    `Your plan (${p.name}) allows ${n} active staff: upgrade the plan or deactivate someone first.`,
  users: (p, n) =>
    `Your plan (${p.name}) allows ${n} agency ${n === 1 ? 'user' : 'users'}: upgrade the plan or deactivate a user first.`,
  clients: (p, n) =>
    `Your plan (${p.name}) allows ${n} active ${n === 1 ? 'client' : 'clients'}: upgrade the plan or make a client inactive first.`,
};

// Advisory lock keys (with the agency) under which a limit is counted: two activations at once are counted one
// after the other, so the second sees the first and neither slips past the limit.
const LOCK: Record<Counted, number> = { active_staff: 35101, users: 35102, clients: 35103 };

/**
 * Refuses (422, in words naming the plan and its limit) a write that has just made a record count (`row`, stored
 * before as `stored`, if at all) when the agency is now over its plan's limit. Called after the write, in its
 * transaction, so the count includes this record and any others the same write made count (a bulk activation);
 * the refusal rolls them all back. A write that makes nothing count more is never refused, whatever the usage: an
 * agency over a lowered limit keeps working, warned by its subscription page.
 */
export async function refuseOverLimit(
  ctx: EngineContext,
  what: Counted,
  stored: RecordValues | undefined,
  row: RecordValues,
): Promise<void> {
  if (!counts[what](row) || (stored && counts[what](stored))) return;
  const m = ctx.principal.merchantId;
  const plan = await agencyPlan(ctx.db, m);
  const limit = plan.limits[what];
  if (limit === null) return;
  await ctx.db.query('select pg_advisory_xact_lock($1, $2)', [LOCK[what], m]);
  const [{ count }] = await ctx.db.query<{ count: number }>(`select (${COUNTS[what]}) as count`, [m]);
  if (count > limit) throw new HttpError(422, REFUSALS[what](plan, limit));
}
