// The demo's timesheets (issue 17): the past four weeks' worked shifts, each week further along, so that every
// timesheet screen a newcomer opens has something in it. Written as the product writes them, through the engine:
// generated, submitted, signed in the client panel, by the e-mailed link and on a staff member's phone, disputed,
// amended after a dispute, verified by the agency, reminded, locked; each step as the person who took it and at the
// time they took it, so each timesheet's history tells its story.
import type { Queryable } from '../db/index.js';
import type { Compiled } from '../engine/compile.js';
import type { SeedContext } from './context.js';
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { systemPrincipal, withEngine } from '../engine/handle.js';
import { principalFromUser } from '../engine/routes.js';
import { authUserOf } from '../auth/sessions.js';
import { actByLink, issueLinkToken } from '../engine/capability.js';
import { runCollectionAction } from '../engine/actions.js';
import { remindTimesheet, type Unsigned } from '../services/timesheetReminders.js';
import { demoSignature } from './signature.js';
import { DEMO_APPROVERS, seedDemoStaffShifts } from './staffMember.js';
import { bookedBreak } from '../../core/domain/timesheets/tolerance.js';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime.js';

/** Addresses of the documentation ranges (RFC 5737): where the demo's signatures came from. */
const ADDRESS = { panel: '203.0.113.24', link: '198.51.100.7', phone: '192.0.2.55' };
/**
 * What a step writes on the database's clock, re-dated to the step's own time (the engine's audit entries take the
 * context's clock already).
 */
const STAMPED = ['notifications', 'email_outbox'] as const;
type Ids = Record<(typeof STAMPED)[number], number>;
/** What had been written of each stamped table by the step that ended `at`. */
export interface StampMark {
  at: string;
  ids: Ids;
}

/** The latest id of each stamped table of the agency: a step's mark (redate). */
export const stampedIds = async (db: Queryable, m: number) =>
  (
    await db.query<Ids>(
      `select ${STAMPED.map((t) => `(select coalesce(max(id), 0) from ${t} where merchant_id = $1) as ${t}`).join(', ')}`,
      [m],
    )
  )[0];

/**
 * A story told through the engine, each step at its own time: `step` runs `fn` as `who` at `when` (from `ip`) and
 * marks what it wrote; `redated` then dates what the steps notified and e-mailed, and the rows of `tables`, when they
 * happened (redate).
 */
export async function datedStory(db: Queryable, m: number, tz: string, registry: Map<string, Compiled>) {
  const start = await stampedIds(db, m);
  const marks: StampMark[] = [];
  return {
    async step<T>(who: EnginePrincipal, when: Date, fn: (c: EngineContext) => Promise<T>, ip?: string): Promise<T> {
      const today = agencyToday(tz, when);
      const out = await fn(withEngine({ db, principal: who, now: when, timeZone: tz, today, ip }, registry));
      marks.push({ at: when.toISOString(), ids: await stampedIds(db, m) });
      return out;
    },
    redated: (tables?: string[]) => redate(db, m, start, marks, tables),
  };
}

/**
 * Four weeks of timesheets, oldest first: four weeks ago all signed (in the panel and by link) and locked, a
 * fortnight's custom timesheet signed by link; three weeks ago a dispute amended and signed again by its new link,
 * a panel signature, lines verified by the agency after a reminder; two weeks ago one line still disputed, some
 * awaiting signature (reminded), some not sent; last week drafts, one already sent, and a line signed on the staff
 * member's phone at the end of their shift.
 */
export async function seedTimesheets(db: Queryable, ctx: SeedContext) {
  const m = ctx.merchantId;
  const tz = ctx.timeZone;
  const registry = ctx.engine;
  const generation = registry.get('timesheets')!;
  const realNow = new Date();
  const thisMonday = startOfWeekMonday(agencyToday(tz, realNow));
  /** An instant on the agency's clock, never later than now. */
  const at = (date: string, time: string) => {
    const i = zonedDateTimeToInstant(date, time, tz);
    return i > realNow ? realNow : i;
  };
  const users = await db.query<{
    id: number;
    name: string;
    merchant_id: number;
    kind: string;
    client_id: number | null;
    candidate_id: number | null;
    role: string;
    email: string;
  }>(
    `select id, name, merchant_id, kind, client_id, candidate_id, role, email from users
      where merchant_id = $1 and email = any($2::text[])`,
    [m, ['client@demo.test', 'client2@demo.test', 'staff@demo.test']],
  );
  const principal = (email: string) => {
    const u = users.find((x) => x.email === email);
    return u ? principalFromUser(authUserOf(u)) : null;
  };
  const admin: EnginePrincipal = { ...systemPrincipal(m), userId: ctx.adminId, name: ctx.adminName };
  const system = systemPrincipal(m);
  const [helen, david, staff] = ['client@demo.test', 'client2@demo.test', 'staff@demo.test'].map(principal);
  const [panelClient, secondClient] = ctx.clientIds;

  const story = await datedStory(db, m, tz, registry);
  const as = story.step;
  const generate = (who: EnginePrincipal, when: Date, input: Record<string, unknown>) =>
    as(who, when, (c) => runCollectionAction(c, generation, generation.actions.get('generate')!, input)) as Promise<{
      timesheets: number[];
      line_ids: number[];
    }>;
  const act = (who: EnginePrincipal, when: Date, id: number, action: string, input = {}, ip?: string) =>
    as(who, when, (c) => c.engine.act('timesheets', id, action, input), ip);
  const actOnLine = (who: EnginePrincipal, when: Date, id: number, action: string, input = {}, ip?: string) =>
    as(who, when, (c) => c.engine.act('timesheet_lines', id, action, input), ip);
  const signature = (name: string) => ({ signer_name: name, signature: demoSignature(name) });
  /** Signs a submitted timesheet through the link e-mailed with it, as the client's approver would. */
  async function signByLink(id: number, when: Date, body: Record<string, unknown>) {
    const [link] = await db.query<{ id: number }>(
      `select id from capability_links where merchant_id = $1 and resource = 'timesheets' and record_id = $2
        order by id desc limit 1`,
      [m, id],
    );
    const token = (await issueLinkToken(db, link.id, when))!;
    await as(system, when, () =>
      actByLink(db, registry, token, body, { action: 'approve' }, { now: when, ip: ADDRESS.link }),
    );
  }
  const sheets = async (ids: number[]) =>
    (
      await db.query(
        `select t.id, t.client_id, t.number, t.period_start::text as period_start, t.period_end::text as period_end,
                c.name as client_name
           from timesheets t join clients c on c.merchant_id = t.merchant_id and c.id = t.client_id
          where t.merchant_id = $1 and t.id = any($2::int[])
          order by t.client_id <> $3, t.client_id <> $4, t.id`,
        [m, ids, panelClient, secondClient],
      )
    ).map((r) => r as Unsigned);
  const linesOf = (id: number) =>
    db.query(
      'select id, status, actual_start, actual_end from timesheet_lines where merchant_id = $1 and timesheet_id = $2 order by scheduled_start, id',
      [m, id],
    );

  const [w1, w2, w3, w4] = [4, 3, 2, 1].map((back) => addDaysToDate(thisMonday, -7 * back));
  const after = (week: string, days: number, time: string) => at(addDaysToDate(week, days), time);

  // A hospital whose wards each sign their own hours, and a home that signs a fortnight at a time.
  const perSite = ctx.clientIds[ctx.clientIds.length - 1];
  const fortnightly = ctx.clientIds[2];
  await as(admin, after(w1, -3, '11:00'), (c) =>
    c.engine.update('clients', perSite, { timesheet_per: 'site' }, { reason: 'Each ward signs its own hours' }),
  );
  const custom = await generate(admin, after(w1, 14, '09:00'), {
    from: w1,
    to: addDaysToDate(w1, 13),
    client_id: fortnightly,
  });
  for (const t of await sheets(custom.timesheets)) {
    await act(admin, after(w1, 14, '10:00'), t.id, 'submit');
    await signByLink(t.id, after(w1, 15, '09:40'), signature('Margaret Hughes'));
  }

  // Each of the two panel clients' phone approvers, whose PIN its manager set (issue 29.1; README's demo logins).
  const approvers = new Map<number, { id: number; name: string; pin: string }>();
  for (const [clientId, manager, approver] of [
    [panelClient, helen, DEMO_APPROVERS[0]],
    [secondClient, david, DEMO_APPROVERS[1]],
  ] as const) {
    if (!manager) continue;
    const when = after(w1, -5, '10:00');
    const made = await as(manager, when, (c) =>
      c.engine.create('timesheet_approvers', {
        client_id: clientId,
        name: approver.name,
        job_title: approver.job_title,
      }),
    );
    await as(manager, when, (c) =>
      c.engine.act('timesheet_approvers', Number(made.id), 'set_pin', { pin: approver.pin }),
    );
    approvers.set(clientId, { id: Number(made.id), name: approver.name, pin: approver.pin });
  }

  // The demo staff member's own shifts (issue 29.18): past, upcoming, one just worked, an open one to ask for.
  await seedDemoStaffShifts(db, ctx);

  // On the staff member's phone, at the end of their last shift of last week: their times, then the client's
  // approver signs with their own PIN.
  if (staff?.candidateId) {
    const [shift] = await db.query(
      `select id, start_at, end_at, break_minutes, paid_minutes, sleep_in from shifts
        where merchant_id = $1 and candidate_id = $2 and status in ('assigned', 'closed') and start_at >= $3 and end_at <= $4
          and client_id = $5
        order by start_at desc limit 1`,
      [m, staff.candidateId, at(w4, '00:00'), at(thisMonday, '00:00'), panelClient],
    );
    if (shift) {
      const end = new Date(shift.end_at);
      const [lineId] = (await generate(staff, end, { shift_ids: [shift.id] })).line_ids;
      const entered = new Date(end.getTime() + 10 * 60_000);
      await actOnLine(staff, entered, lineId, 'record_times', {
        actual_start: new Date(shift.start_at).toISOString(),
        actual_end: new Date(end.getTime() + 15 * 60_000).toISOString(),
        // The break as booked, which the phone puts in for them (issue 29.2).
        break_minutes: bookedBreak({
          start: new Date(shift.start_at).toISOString(),
          end: end.toISOString(),
          break_minutes: shift.break_minutes,
          paid_minutes: shift.paid_minutes,
          sleep_in: shift.sleep_in,
        }),
      });
      const [line] = await db.query<{ client_id: number }>(
        'select t.client_id from timesheet_lines l join timesheets t on t.id = l.timesheet_id where l.id = $1',
        [lineId],
      );
      const approver = approvers.get(Number(line.client_id));
      if (approver) {
        const signed = new Date(entered.getTime() + 3 * 60_000);
        await actOnLine(
          staff,
          signed,
          lineId,
          'sign',
          { approver_id: approver.id, pin: approver.pin, signature: demoSignature(approver.name) },
          ADDRESS.phone,
        );
      }
    }
  }

  // Each week's timesheets, generated the Monday after.
  const weekly: Unsigned[][] = [];
  for (const w of [w1, w2, w3, w4])
    weekly.push(await sheets((await generate(admin, after(w, 7, '09:00'), { week_start: w })).timesheets));
  const [week1, week2, week3, week4] = weekly;

  // Four weeks ago: signed in the panel or by link, then closed by the agency.
  for (const [i, t] of week1.entries()) {
    await act(admin, after(w1, 7, '10:00'), t.id, 'submit');
    const when = after(w1, 8 + (i % 3), '14:30');
    if (t.client_id === panelClient && helen)
      await act(helen, when, t.id, 'approve', signature(helen.name), ADDRESS.panel);
    else await signByLink(t.id, when, signature(i % 2 ? 'Dr Priya Nair' : 'Margaret Hughes'));
    await act(admin, after(w1, 16, '16:00'), t.id, 'lock');
  }

  // Three weeks ago: a disputed line amended and the timesheet signed again by its new link; a panel signature; a
  // home that does not sign, reminded, then its lines verified by the agency; the others signed by link.
  for (const [i, t] of week2.entries()) {
    await act(admin, after(w2, 7, '10:00'), t.id, 'submit');
    if (t.client_id === panelClient && helen) {
      const [line] = await linesOf(t.id);
      await act(helen, after(w2, 8, '11:15'), t.id, 'dispute', {
        line_ids: [line.id],
        reason: 'Sent home at 14:00 by the ward, not at the end of the shift.',
      });
      const begun = new Date(line.actual_start).getTime();
      const ended = Math.max(begun + 4 * 3600_000, new Date(line.actual_end).getTime() - 2 * 3600_000);
      await actOnLine(admin, after(w2, 8, '15:20'), line.id, 'amend', {
        actual_start: new Date(begun).toISOString(),
        actual_end: new Date(ended).toISOString(),
        break_minutes: 0,
        note: 'Sent home early by the ward: confirmed with the staff member.',
      });
      await act(admin, after(w2, 8, '15:25'), t.id, 'amend', {
        note: 'The disputed line corrected to the hours worked.',
      });
      await act(admin, after(w2, 8, '15:30'), t.id, 'submit');
      await signByLink(t.id, after(w2, 9, '08:50'), signature('Helen Carter'));
    } else if (t.client_id === secondClient && david)
      await act(david, after(w2, 9, '16:05'), t.id, 'approve', signature(david.name), ADDRESS.panel);
    else if (i === 2) {
      await as(system, after(w2, 10, '10:00'), (c) => remindTimesheet(c, t));
      await act(admin, after(w2, 13, '12:00'), t.id, 'verify', {
        reason: "The home's signing-in sheet, checked with its manager by phone.",
        all_lines: (await linesOf(t.id)).filter((l) => l.status === 'pending').length,
      });
    } else await signByLink(t.id, after(w2, 8 + (i % 2), '13:10'), signature('Dr Priya Nair'));
  }

  // Two weeks ago: the panel's client signs all but one line in the panel and disputes that one (still disputed);
  // three others await their signature, and the rest are not sent yet (fewer steps keep the seed quick).
  const sent3 = week3.slice(0, 4);
  for (const t of sent3) {
    await act(admin, after(w3, 7, '10:00'), t.id, 'submit');
    const lines = await linesOf(t.id);
    if (t.client_id === panelClient && helen)
      await act(
        helen,
        after(w3, 9, '09:30'),
        t.id,
        'approve',
        {
          ...signature(helen.name),
          dispute_line_ids: [lines[lines.length - 1].id],
          dispute_reason: 'This staff member was not on the ward that night.',
        },
        ADDRESS.panel,
      );
  }
  // Reminded three days after they were sent, as the hourly job does.
  for (const t of sent3) await as(system, after(w3, 10, '10:00'), (c) => remindTimesheet(c, t));

  // Last week: drafts this morning, but the panel's client's, already sent.
  for (const t of week4.filter((x) => x.client_id === panelClient))
    await act(admin, after(w4, 7, '10:00'), t.id, 'submit');

  await story.redated();
}

/**
 * Dates what each step wrote to when it happened: the notifications and e-mails (sent then, as the
 * rest of the demo's) written up to each mark, and each timesheet, line and signature created and last changed
 * when its history says. The engine stamps the database's clock, which is the seed's today.
 */
export async function redate(
  db: Queryable,
  m: number,
  start: Ids,
  marks: StampMark[],
  tables = ['timesheets', 'timesheet_lines', 'timesheet_signatures'],
) {
  for (const table of STAMPED) {
    const ranges = marks
      .map((mk, i) => ({ lo: i ? marks[i - 1].ids[table] : start[table], hi: mk.ids[table], at: mk.at }))
      .filter((r) => r.hi > r.lo);
    if (ranges.length === 0) continue;
    await db.query(
      `update ${table} x set created_at = r.at${table === 'notifications' ? '' : ', updated_at = r.at'}
         from jsonb_to_recordset($2::jsonb) as r(lo int, hi int, at timestamptz)
        where x.merchant_id = $1 and x.id > r.lo and x.id <= r.hi`,
      [m, JSON.stringify(ranges)],
    );
  }
  await db.query(
    `update email_outbox set status = 'sent', attempts = 1, sent_at = created_at, next_attempt_at = created_at,
            message_id = '<demo-timesheet-' || id || '@staffing.local>'
      where merchant_id = $1 and id > $2 and status = 'queued'`,
    [m, start.email_outbox],
  );
  for (const table of tables)
    await db.query(
      `update ${table} x set created_at = a.first, updated_at = a.last
         from (select record_id, min(created_at) as first, max(created_at) as last from audit_log
                where merchant_id = $1 and resource = $2 group by record_id) a
        where x.merchant_id = $1 and x.id = a.record_id`,
      [m, table],
    );
}
