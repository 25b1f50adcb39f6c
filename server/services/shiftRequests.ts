import type { EngineContext } from '../engine/context.js';
import { HttpError } from '../http.js';
import { zonedDateTimeToInstant } from '../../core/domain/time/agencyTime.js';
import { DEFAULT_SHIFT_REQUESTS_PER_DAY } from '../../core/domain/shifts/times.js';

/**
 * Refuses (429, in words) a client user's request for `adding` more shifts when their client would pass the
 * shifts it may request today (the agency's day): `max_shift_requests_per_day` of the client's pricing rules,
 * else of the agency's default rules, else DEFAULT_SHIFT_REQUESTS_PER_DAY. Call inside the write's transaction,
 * before inserting: the client's row stays locked until it commits, so concurrent requests are counted one
 * after the other and cannot all slip under the limit.
 */
export async function checkShiftRequestQuota(ctx: EngineContext, clientId: number, adding: number): Promise<void> {
  const merchantId = ctx.principal.merchantId;
  // Not FOR UPDATE: the shifts' foreign key on the client (FOR KEY SHARE) must not wait on it.
  await ctx.db.query('select 1 from clients where merchant_id = $1 and id = $2 for no key update', [
    merchantId,
    clientId,
  ]);
  // A statement of its own, after the lock: it sees every request committed before the lock was granted.
  const [{ cap, used }] = await ctx.db.query<{ cap: number; used: number }>(
    `select coalesce((select max_shift_requests_per_day from client_rules where merchant_id = $1 and client_id = $2),
                     (select max_shift_requests_per_day from client_rules where merchant_id = $1 and client_id is null), $4)::int as cap,
            (select count(*) from shifts where merchant_id = $1 and client_id = $2 and requested_by_client and created_at >= $3)::int as used`,
    [
      merchantId,
      clientId,
      zonedDateTimeToInstant(ctx.today, '00:00', ctx.timeZone).toISOString(),
      DEFAULT_SHIFT_REQUESTS_PER_DAY,
    ],
  );
  if (used + adding <= cap) return;
  const left = Math.max(0, cap - used);
  const shifts = (n: number) => `${n} shift${n === 1 ? '' : 's'}`;
  throw new HttpError(
    429,
    left === 0
      ? `Your organisation has requested ${shifts(used)} today, the most the agency takes in a day (${cap}). Request more tomorrow, or ask the agency.`
      : `Your organisation can request ${shifts(left)} more today (the agency takes at most ${cap} a day, and ${used} are requested); this asks for ${adding}. Request fewer, or ask the agency.`,
  );
}
