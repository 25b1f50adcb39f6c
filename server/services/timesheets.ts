// Timesheets on the server (issue 17): generation from worked shifts, totals, pricing on actual times, signatures and
// the signing link. Every write goes through the engine (ctx.engine, createSet); the rules are core/domain/timesheets.
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { EngineContext, EngineHandle } from '../engine/context.js';
import { Params, scopeWhere } from '../engine/compile.js';
import { mintLink, reissueLinkToken } from '../engine/capability.js';
import { notify, letterheadOf } from '../notifications/notify.js';
import {
  absoluteLink,
  queueEmails,
  registerSecretLink,
  renderEmail,
  SECRET_PLACEHOLDER,
} from '../notifications/outbox.js';
import { priceShift, iso } from './booking.js';
import {
  addDaysToDate,
  daysBetween,
  dayOfWeek,
  formatDisplayDate,
  instantToZoned,
  isPlainDate,
} from '../../core/domain/time/agencyTime.js';
import { signatureProblem, stateFromLines, totalsOf, weekOf } from '../../core/domain/timesheets/rules.js';
import { SIGNING_PAGE, CLIENT_TIMESHEET_PAGE, agencyTimesheetPage } from '../../core/contracts/timesheets.js';

export const SIGNING_LINK = 'timesheet.sign';
export const signingPath = (token: string) => `${SIGNING_PAGE}/${token}`;

// The e-mail carries a placeholder; the worker asks for a fresh token as it sends it (only its hash is kept), and a
// link used, expired or replaced by a later submission gets none, so that e-mail is not sent.
registerSecretLink(SIGNING_LINK, { path: signingPath, mint: (db, ref) => reissueLinkToken(db, ref) });

/** Longest custom period: a quarter. */
const MAX_PERIOD_DAYS = 93;
/** A timesheet's lines are written by the staff member's phone through the system (they cannot see timesheets). */
export const writerOf = (ctx: EngineContext): EngineHandle =>
  ctx.principal.loginType === 'staff' ? ctx.engine.asSystem() : ctx.engine;

/** The sums of a timesheet's lines as stored on it; `revise` raises its revision (an amendment). */
export async function refreshTotals(ctx: EngineContext, timesheetIds: number[], revise: boolean) {
  if (timesheetIds.length === 0) return;
  const rows = await ctx.db.query(
    `select t.id, t.revision,
       coalesce((select json_agg(json_build_object('paid_minutes', l.paid_minutes, 'pay', l.pay, 'charge', l.charge,
          'on_costs', l.on_costs, 'margin', l.margin, 'status', l.status))
          from timesheet_lines l where l.merchant_id = t.merchant_id and l.timesheet_id = t.id), '[]'::json) as lines
       from timesheets t where t.merchant_id = $1 and t.id = any($2::int[]) order by t.id`,
    [ctx.principal.merchantId, timesheetIds],
  );
  for (const r of rows) {
    await writerOf(ctx).update('timesheets', r.id, {
      ...totalsOf(r.lines),
      ...(revise ? { revision: Number(r.revision ?? 0) + 1 } : {}),
    });
  }
}

/** A line's price on its actual times, as the shift's own price is made (card in force, own pay, rules, holidays). */
export async function priceLine(
  ctx: EngineContext,
  line: { client_id: number; site_id: number; job_role_id: number; candidate_id: number; sleep_in?: boolean },
  actual: { actual_start: string; actual_end: string; break_minutes?: number | null },
) {
  const p = await priceShift(
    ctx.db,
    ctx.principal.merchantId,
    {
      client_id: line.client_id,
      site_id: line.site_id,
      job_role_id: line.job_role_id,
      start: actual.actual_start,
      end: actual.actual_end,
      break_minutes: actual.break_minutes ?? null,
      sleep_in: !!line.sleep_in,
    },
    line.candidate_id,
  ).catch((e) => {
    // The quote names start/end; the line names its actual times.
    if (e instanceof HttpError && e.errors)
      throw new HttpError(
        e.status,
        e.message,
        Object.fromEntries(
          Object.entries(e.errors).map(([k, v]) => [
            k === 'start_at' ? 'actual_start' : k === 'end_at' ? 'actual_end' : k,
            v,
          ]),
        ),
      );
    throw e;
  });
  return {
    paid_minutes: p.paid_minutes,
    pay: p.pay,
    charge: p.charge,
    on_costs: p.on_costs,
    margin: p.margin,
    price_lines: p.price_lines,
    rate_card_id: p.rate_card_id,
    work_date: instantToZoned(new Date(actual.actual_start), ctx.timeZone).date,
  };
}

/** The timesheet of a line, locked for the change (its state decides what may change). */
export async function timesheetOf(ctx: EngineContext, id: number): Promise<Row> {
  const [t] = await ctx.db.query(
    'select id, client_id, site_id, status, period_start::text as period_start, period_end::text as period_end, number from timesheets where merchant_id = $1 and id = $2 for update',
    [ctx.principal.merchantId, id],
  );
  if (!t) throw new HttpError(404, 'Timesheet not found.');
  return t;
}

export function requireSignature(value: unknown) {
  const problem = signatureProblem(value);
  if (problem) throw new HttpError(422, problem, { signature: problem });
}

export const signedVia = (ctx: EngineContext) =>
  ctx.principal.loginType === 'link' ? 'link' : ctx.principal.loginType === 'staff' ? 'phone' : 'panel';

// —— Generation ——

interface GenerateInput {
  week_start?: string | null;
  from?: string | null;
  to?: string | null;
  shift_ids?: number[] | null;
  client_id?: number | null;
}

function periodOf(input: GenerateInput) {
  if (input.week_start) {
    if (!isPlainDate(input.week_start) || dayOfWeek(input.week_start) !== 1)
      throw new HttpError(422, 'Choose a Monday: weeks start on Monday.', {
        week_start: 'Choose a Monday: weeks start on Monday.',
      });
    return { kind: 'weekly' as const, from: input.week_start, to: addDaysToDate(input.week_start, 6) };
  }
  if (input.from || input.to) {
    if (!input.from || !input.to)
      throw new HttpError(422, 'Give the first and the last day.', { [input.from ? 'to' : 'from']: 'Required' });
    if (input.to < input.from)
      throw new HttpError(422, 'The last day must be on or after the first.', {
        to: 'The last day must be on or after the first.',
      });
    if (daysBetween(input.from, input.to) >= MAX_PERIOD_DAYS)
      throw new HttpError(422, `A timesheet covers at most ${MAX_PERIOD_DAYS} days.`, {
        to: `A timesheet covers at most ${MAX_PERIOD_DAYS} days.`,
      });
    return { kind: 'custom' as const, from: input.from, to: input.to };
  }
  if (input.shift_ids?.length) return null;
  throw new HttpError(422, 'Choose a week, a range of days or shifts.', { week_start: 'Required' });
}

/**
 * Builds timesheets from worked shifts (booked and ended, not yet on any timesheet) in a fixed number of statements
 * whatever their number: the shifts in one query, the draft timesheets they join in one, a timesheet created per
 * client (or site) and period that has none, all the lines in one set-based create, the totals in one read. A
 * shift belongs to the week it starts in (the agency's calendar). Generations of one agency run one at a time (a
 * transaction-scoped advisory lock), and a shift's line is unique, so two racing never put a shift twice.
 * A staff member may generate only for their own shifts (their phone's end-of-shift entry): those go on the
 * weekly timesheet of their week.
 */
export async function generateTimesheets(ctx: EngineContext, input: GenerateInput) {
  const merchantId = ctx.principal.merchantId;
  const staff = ctx.principal.loginType === 'staff';
  if (staff && !input.shift_ids?.length)
    throw new HttpError(422, 'Choose your shift.', { shift_ids: 'Choose your shift.' });
  const period = staff ? null : periodOf(input);
  await ctx.db.query('select pg_advisory_xact_lock(17017, $1)', [merchantId]);

  const shiftsC = ctx.engine.compiled('shifts');
  const p = new Params();
  const where = scopeWhere(shiftsC, ctx.principal, p.bind);
  const conds = [
    `s.status in ('assigned', 'closed')`,
    's.candidate_id is not null',
    `s.end_at <= ${p.bind(ctx.now.toISOString())}`,
    'not exists (select 1 from timesheet_lines l where l.merchant_id = s.merchant_id and l.shift_id = s.id)',
  ];
  const tz = p.bind(ctx.timeZone);
  if (period)
    conds.push(
      `(s.start_at at time zone ${tz})::date between ${p.bind(period.from)}::date and ${p.bind(period.to)}::date`,
    );
  if (input.shift_ids?.length) conds.push(`s.id = any(${p.bind(input.shift_ids)}::int[])`);
  if (input.client_id) conds.push(`s.client_id = ${p.bind(input.client_id)}`);
  // The caller's scope of shifts (a staff member: their own) inside, where its bare column names are the shift's.
  const shifts = await ctx.db.query(
    `select s.id, s.client_id, s.site_id, s.job_role_id, s.candidate_id, s.start_at, s.end_at, s.break_minutes,
            s.paid_minutes, s.pay, s.charge, s.on_costs, s.margin, s.price_lines, s.rate_card_id,
            (s.start_at at time zone ${tz})::date::text as work_date, c.timesheet_per
       from (select * from shifts where ${where}) s join clients c on c.merchant_id = s.merchant_id and c.id = s.client_id
      where ${conds.join(' and ')} order by s.client_id, s.start_at, s.id`,
    p.values,
  );
  if (input.shift_ids?.length && shifts.length < new Set(input.shift_ids).size) {
    const message =
      'Some of the chosen shifts cannot go on a timesheet: they are not yours, not worked yet, or already on a timesheet.';
    if (staff || shifts.length === 0) throw new HttpError(409, message, { shift_ids: message });
  }
  if (shifts.length === 0) return { timesheets: [], lines: 0, line_ids: [], job_id: null };

  // Each shift's timesheet: its client (or site), and its week (weekly) or the chosen period (custom).
  const groups = new Map<
    string,
    { client_id: number; site_id: number | null; from: string; to: string; kind: string; shifts: Row[] }
  >();
  for (const s of shifts) {
    const site = s.timesheet_per === 'site' ? Number(s.site_id) : null;
    let from: string;
    let to: string;
    let kind: string;
    if (period) ({ from, to, kind } = period);
    else if (staff) {
      from = weekOf(iso(s.start_at), ctx.timeZone);
      to = addDaysToDate(from, 6);
      kind = 'weekly';
    } else {
      // Chosen shifts: one custom timesheet per client (or site) over the days they span.
      from = shifts.reduce((m, x) => (x.work_date < m ? x.work_date : m), shifts[0].work_date);
      to = shifts.reduce((m, x) => (x.work_date > m ? x.work_date : m), shifts[0].work_date);
      kind = 'custom';
    }
    const key = `${s.client_id}|${site ?? ''}|${from}|${to}|${kind}`;
    const g = groups.get(key) ?? { client_id: Number(s.client_id), site_id: site, from, to, kind, shifts: [] };
    g.shifts.push(s);
    groups.set(key, g);
  }
  // The draft timesheets they join, in one read; the others are created (one per client or site, not per shift).
  const list = [...groups.values()];
  const open = await ctx.db.query(
    `select t.id, t.client_id, t.site_id, t.period_start::text as period_start, t.period_end::text as period_end, t.kind
       from timesheets t join jsonb_to_recordset($2::jsonb) as g(client_id int, site_id int, "from" date, "to" date, kind text)
         on t.client_id = g.client_id and t.site_id is not distinct from g.site_id and t.period_start = g."from"
        and t.period_end = g."to" and t.kind = g.kind
      where t.merchant_id = $1 and t.status = 'draft'`,
    [
      merchantId,
      JSON.stringify(
        list.map((g) => ({ client_id: g.client_id, site_id: g.site_id, from: g.from, to: g.to, kind: g.kind })),
      ),
    ],
  );
  const existing = new Map(
    open.map((t) => [`${t.client_id}|${t.site_id ?? ''}|${t.period_start}|${t.period_end}|${t.kind}`, Number(t.id)]),
  );
  const writer = writerOf(ctx);
  const ids = new Map<string, number>();
  for (const [key, g] of groups) {
    const id =
      existing.get(key) ??
      Number(
        (
          await writer.create(
            'timesheets',
            { client_id: g.client_id, site_id: g.site_id, kind: g.kind, period_start: g.from, period_end: g.to },
            { reason: 'Generated from worked shifts' },
          )
        ).id,
      );
    ids.set(key, id);
  }
  const lines = [...groups.entries()].flatMap(([key, g]) =>
    g.shifts.map((s) => ({
      timesheet_id: ids.get(key),
      shift_id: Number(s.id),
      candidate_id: Number(s.candidate_id),
      site_id: Number(s.site_id),
      job_role_id: Number(s.job_role_id),
      work_date: s.work_date,
      scheduled_start: iso(s.start_at),
      scheduled_end: iso(s.end_at),
      scheduled_break: s.break_minutes,
      // What was booked is what was worked until someone says otherwise (the staff member, or an amendment).
      actual_start: iso(s.start_at),
      actual_end: iso(s.end_at),
      break_minutes: s.break_minutes,
      paid_minutes: s.paid_minutes,
      pay: s.pay,
      charge: s.charge,
      on_costs: s.on_costs,
      margin: s.margin,
      price_lines: s.price_lines,
      rate_card_id: s.rate_card_id,
      status: 'pending',
    })),
  );
  let created: Row[];
  try {
    created = await writer.createSet('timesheet_lines', lines, { reason: 'Generated from worked shifts' });
  } catch (e) {
    if ((e as { code?: string }).code === '23505')
      throw new HttpError(409, 'Another generation put some of these shifts on a timesheet meanwhile. Generate again.');
    throw e;
  }
  await refreshTotals(ctx, [...new Set(ids.values())], false);
  return {
    timesheets: [...new Set(ids.values())],
    lines: created.length,
    line_ids: created.map((r) => Number(r.id)),
    job_id: null,
  };
}

// —— Submission, signing link, notifications ——

const periodWords = (t: Row) =>
  `${formatDisplayDate(String(t.period_start))} to ${formatDisplayDate(String(t.period_end))}`;

/**
 * E-mails the client's approver a signing link for the submitted timesheet (single-use, expiring after the client's
 * days, bound to what it shows: an amendment after sending needs a new link), and tells the client's users.
 */
export async function sendForSignature(ctx: EngineContext, t: Row) {
  const merchantId = ctx.principal.merchantId;
  const [client] = await ctx.db.query(
    'select name, coalesce(timesheet_approver_email, email) as approver, coalesce(timesheet_link_days, 7) as days from clients where merchant_id = $1 and id = $2',
    [merchantId, t.client_id],
  );
  const period = periodWords(t);
  if (client?.approver) {
    const c = ctx.engine.compiled('timesheets');
    const link = await mintLink(ctx, c, Number(t.id), {
      action: 'approve',
      purpose: `Sign timesheet ${t.number} (${period})`,
      recipient: client.approver,
      deliveredVia: 'email',
      lifetimeHours: Number(client.days) * 24,
      bindContent: true,
    });
    const letterhead = await letterheadOf(ctx.db, merchantId);
    const mail = renderEmail(
      letterhead,
      `Timesheet ${t.number} to sign`,
      `Hello,\n\nTimesheet ${t.number} of ${client.name} for ${period} is ready for your signature. Review the hours and sign, or dispute a line, here (the link works once, for ${client.days} days):\n\n${absoluteLink(signingPath(SECRET_PLACEHOLDER))}\n\n${letterhead.name}`,
    );
    await queueEmails(ctx.db, [
      {
        merchantId,
        recipient: client.approver,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        event: 'timesheet.submitted',
        secret: { kind: SIGNING_LINK, ref: link.id },
      },
    ]);
  }
  await notify(ctx.db, {
    merchantId,
    event: 'timesheet.submitted',
    title: 'Timesheet to sign',
    body: `Timesheet ${t.number} for ${period} is ready for your signature.`,
    link: agencyTimesheetPage(Number(t.id)),
    clientLink: CLIENT_TIMESHEET_PAGE,
    audience: { clientId: Number(t.client_id) },
    data: { client_name: client?.name ?? '', number: t.number, period },
  });
}

export async function notifyAgency(
  ctx: EngineContext,
  t: Row,
  event: 'timesheet.signed' | 'timesheet.disputed',
  words: string,
  data: Record<string, unknown>,
) {
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event,
    title: event === 'timesheet.signed' ? 'Timesheet signed' : 'Timesheet disputed',
    body: words,
    link: agencyTimesheetPage(Number(t.id)),
    audience: { agency: true },
    data: { number: t.number, ...data },
  });
}

/** The statuses of a timesheet's lines, for the state they put it in. */
export async function lineStatuses(ctx: EngineContext, timesheetId: number): Promise<string[]> {
  const rows = await ctx.db.query<{ status: string }>(
    'select status from timesheet_lines where merchant_id = $1 and timesheet_id = $2',
    [ctx.principal.merchantId, timesheetId],
  );
  return rows.map((r) => r.status);
}
export { stateFromLines };
