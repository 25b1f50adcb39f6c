// Chasing unsigned timesheets (issue 17): a submitted timesheet still unsigned after its client's reminder days is
// reminded to the client's users, and its approver gets a new signing link by e-mail, again after as many days; each
// reminder is stamped through the engine.
import type { Db } from '../db/index.js';
import { notify } from '../notifications/notify.js';
import type { EngineContext } from '../engine/context.js';
import { systemPrincipal } from '../engine/handle.js';
import type { JobEngine } from '../jobs/engineContext.js';
import { formatDisplayDate } from '../../core/domain/time/agencyTime.js';
import { clientTimesheetPage } from '../../core/contracts/timesheets.js';
import { emailSigningLink } from './timesheets.js';

/** A submitted timesheet as a reminder names it. */
export interface Unsigned {
  id: number;
  client_id: number;
  client_name: string;
  number: string;
  period_start: string;
  period_end: string;
}

/**
 * Reminds the client's users of one unsigned timesheet and e-mails its approver a new signing link, as `ctx`'s
 * principal (the system, for the job) at `ctx.now`: its `reminded_at` is stamped through the engine (audited 'Reminder
 * sent'). One that was signed or disputed since it was found due is left alone. Answers whether it reminded.
 */
export async function remindTimesheet(ctx: EngineContext, t: Unsigned): Promise<boolean> {
  const [now] = await ctx.db.query('select status from timesheets where merchant_id = $1 and id = $2 for update', [
    ctx.principal.merchantId,
    t.id,
  ]);
  if (now?.status !== 'submitted') return false;
  const period = `${formatDisplayDate(t.period_start)} to ${formatDisplayDate(t.period_end)}`;
  await ctx.engine.update('timesheets', t.id, { reminded_at: ctx.now.toISOString() }, { reason: 'Reminder sent' });
  // After the stamp: the new link is bound to the timesheet as it reads once reminded.
  await emailSigningLink(ctx, t, 'reminder');
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'timesheet.reminder',
    title: 'Timesheet awaiting your signature',
    body: `Timesheet ${t.number} for ${period} is still awaiting your signature.`,
    clientLink: clientTimesheetPage(t.id),
    audience: { clientId: Number(t.client_id) },
    data: { client_name: t.client_name, number: t.number, period },
    dedupeKey: `timesheet.reminder:${t.id}:${ctx.now.toISOString().slice(0, 10)}`,
  });
  return true;
}

/**
 * The periodic job: every submitted timesheet unsigned for its client's reminder days since it was submitted (or
 * last reminded), each reminded in a transaction of its own. Answers how many were reminded.
 */
export async function remindUnsignedTimesheets(db: Db, engine: JobEngine, now: Date = new Date()): Promise<number> {
  const due = await db.query<Unsigned & { merchant_id: number }>(
    `select t.id, t.merchant_id, t.client_id, t.number, t.period_start::text as period_start, t.period_end::text as period_end,
            c.name as client_name
       from timesheets t join clients c on c.merchant_id = t.merchant_id and c.id = t.client_id
      where t.status = 'submitted'
        and coalesce(t.reminded_at, t.submitted_at) <= $1::timestamptz - make_interval(days => coalesce(c.timesheet_reminder_days, 3))
      order by t.id limit 500`,
    [now.toISOString()],
  );
  let reminded = 0;
  for (const t of due)
    await db.transaction(async (tx) => {
      if (await remindTimesheet(await engine.context(tx, systemPrincipal(t.merchant_id), now), t)) reminded++;
    });
  return reminded;
}
