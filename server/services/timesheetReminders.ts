// Chasing unsigned timesheets (issue 17): a submitted timesheet still unsigned after its client's reminder days is
// reminded to the client's users, again after as many days; each reminder is stamped through the engine.
import type { Db } from '../db/index.js';
import { notify } from '../notifications/notify.js';
import { withEngine } from '../engine/handle.js';
import { systemPrincipal } from '../engine/handle.js';
import { agencyToday, DEFAULT_TIME_ZONE, formatDisplayDate } from '../../core/domain/time/agencyTime.js';
import type { Compiled } from '../engine/compile.js';
import { CLIENT_TIMESHEET_PAGE } from '../../core/contracts/timesheets.js';

let registry: Map<string, Compiled> | null = null;
/** The engine's compiled declarations, made once (a job has no app to ask). */
async function engineRegistry(): Promise<Map<string, Compiled>> {
  if (!registry) {
    const [{ compileAll }, { declarations }, { behaviours }] = await Promise.all([
      import('../engine/routes.js'),
      import('../../core/resources/declarations.js'),
      import('../areas/index.js'),
    ]);
    registry = compileAll(declarations, behaviours);
  }
  return registry;
}

export async function remindUnsignedTimesheets(db: Db, now: Date = new Date()): Promise<number> {
  const due = await db.query(
    `select t.id, t.merchant_id, t.client_id, t.number, t.period_start::text as period_start, t.period_end::text as period_end,
            c.name as client_name, m.time_zone
       from timesheets t join clients c on c.merchant_id = t.merchant_id and c.id = t.client_id
       join merchants m on m.id = t.merchant_id
      where t.status = 'submitted'
        and coalesce(t.reminded_at, t.submitted_at) <= $1::timestamptz - make_interval(days => coalesce(c.timesheet_reminder_days, 3))
      order by t.id limit 500`,
    [now.toISOString()],
  );
  if (due.length === 0) return 0;
  const reg = await engineRegistry();
  for (const t of due) {
    await db.transaction(async (tx) => {
      const timeZone = t.time_zone || DEFAULT_TIME_ZONE;
      const ctx = withEngine(
        { db: tx, principal: systemPrincipal(t.merchant_id), now, timeZone, today: agencyToday(timeZone, now) },
        reg,
      );
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
