// Recruitment's data retention (issue 35): an application that did not end in a hire is erased once the agency's
// retention period has passed since its last change, with its CV, by a daily job, through the engine and in the
// audit trail. Hired applications are kept: they are the staff member's record of how they were recruited.
import type { Db } from '../db/index.js';
import { systemPrincipal } from '../engine/handle.js';
import type { JobEngine } from '../jobs/engineContext.js';
import { DEFAULT_RETENTION_MONTHS } from '../../core/resources/recruitment/settings.js';

/** How often the job looks: once a day is all a period counted in months needs. */
export const RETENTION_EVERY_MS = 24 * 60 * 60_000;
/** Applications erased in one transaction: a first run over years of applicants does not hold one open for long. */
const BATCH = 500;

/** The applications of one agency past its retention at `now`: not hired, last changed before now − its months. */
const PAST_RETENTION = `select a.id from job_applications a
  where a.merchant_id = $1 and a.stage <> 'hired' and a.updated_at < $2::timestamptz - make_interval(months => $3)
  order by a.id limit ${BATCH}`;

/**
 * Erases every agency's applications past its retention (server/areas/recruitment.ts runs it daily): each batch one
 * engine deleteMany as the product itself ("system" in the audit trail, one row of the trail per set), its reason
 * saying why, past the lock of a rejected (final) application. Answers how many were erased.
 */
export async function eraseExpiredApplications(db: Db, engine: JobEngine, now: Date = new Date()): Promise<number> {
  const agencies = await db.query<{ merchant_id: number; months: number }>(
    `select m.id as merchant_id, coalesce(s.retention_months, $2)::int as months
       from merchants m left join recruitment_settings s on s.merchant_id = m.id
      where exists (select 1 from job_applications a where a.merchant_id = m.id and a.stage <> 'hired'
                       and a.updated_at < $1::timestamptz - make_interval(months => coalesce(s.retention_months, $2)))
      order by m.id`,
    [now, DEFAULT_RETENTION_MONTHS],
  );
  let erased = 0;
  for (const { merchant_id: merchantId, months } of agencies) {
    const reason = `Not hired, and last changed more than ${months} ${months === 1 ? 'month' : 'months'} ago: erased under the agency's data retention`;
    for (;;) {
      const done = await db.transaction(async (tx) => {
        const ids = (await tx.query<{ id: number }>(PAST_RETENTION, [merchantId, now, months])).map((r) => r.id);
        if (ids.length === 0) return 0;
        const ctx = await engine.context(tx, systemPrincipal(merchantId), now);
        await ctx.engine.deleteMany('job_applications', ids, { reason, overrideLock: 'Data retention' });
        return ids.length;
      });
      erased += done;
      if (done < BATCH) break;
    }
  }
  return erased;
}
