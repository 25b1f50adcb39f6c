// Chasing unsigned timesheets (issue 17): a submitted timesheet still unsigned after its client's reminder days is
// reminded to the client's users, again after as many days; each reminder is stamped through the engine.
import type { Db } from '../db/index.js';
import { notify } from '../notifications/notify.js';
import { systemPrincipal } from '../engine/handle.js';
import { jobContext } from '../jobs/engineContext.js';
import { formatDisplayDate } from '../../core/domain/time/agencyTime.js';
import { CLIENT_TIMESHEET_PAGE } from '../../core/contracts/timesheets.js';

export async function remindUnsignedTimesheets(db: Db, now: Date = new Date()): Promise<number> {
  const due = await db.query(
    `select t.id, t.merchant_id, t.client_id, t.number, t.period_start::text as period_start, t.period_end::text as period_end,
            c.name as client_name
       from timesheets t join clients c on c.merchant_id = t.merchant_id and c.id = t.client_id
      where t.status = 'submitted'
        and coalesce(t.reminded_at, t.submitted_at) <= $1::timestamptz - make_interval(days => coalesce(c.timesheet_reminder_days, 3))
      order by t.id limit 500`,
    [now.toISOString()],
  );
  if (due.length === 0) return 0;
  for (const t of due) {
    await db.transaction(async (tx) => {
      const ctx = await jobContext(tx, systemPrincipal(t.merchant_id), now);
      const period = `${formatDisplayDate(t.period_start)} to ${formatDisplayDate(t.period_end)}`;
      await ctx.engine.update('timesheets', t.id, { reminded_at: now.toISOString() }, { reason: 'Reminder sent' });
      await notify(tx, {
        merchantId: t.merchant_id,
        event: 'timesheet.reminder',
        title: 'Timesheet awaiting your signature',
        body: `Timesheet ${t.number} for ${period} is still awaiting your signature.`,
        clientLink: CLIENT_TIMESHEET_PAGE,
        audience: { clientId: Number(t.client_id) },
        data: { client_name: t.client_name, number: t.number, period },
        dedupeKey: `timesheet.reminder:${t.id}:${now.toISOString().slice(0, 10)}`,
      });
    });
  }
  return due.length;
}
