// Timesheets on the server (issue 17): generation from worked shifts, totals, pricing on actual times, signatures and
// the signing link. Every write goes through the engine (ctx.engine, createMany); the rules are core/domain/timesheets.
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { EngineContext, EngineHandle, EnginePrincipal } from '../engine/context.js';
import { Accepted } from '../engine/actions.js';
import { enqueueJob, type JobKind } from '../jobs/queue.js';
import { Params, scopeWhere } from '../engine/compile.js';
import { createLink, issueLinkToken, revokeLinks } from '../engine/capability.js';
import { notify, letterheadOf } from '../notifications/notify.js';
import {
  absoluteLink,
  queueEmails,
  renderEmail,
  SECRET_PLACEHOLDER,
  type SecretLink,
} from '../notifications/outbox.js';
import { priceShifts, iso } from './booking.js';
import { repricingNote, type PricedBand } from '../../core/domain/pricing/repricing.js';
import {
  addDaysToDate,
  daysBetween,
  dayOfWeek,
  formatDisplayDate,
  instantToZoned,
  isPlainDate,
} from '../../core/domain/time/agencyTime.js';
import { signatureProblem } from '../../core/domain/timesheets/rules.js';
import {
  groupShifts,
  placeGroups,
  type ExistingTimesheet,
  type ShiftToPlace,
} from '../../core/domain/timesheets/generation.js';
import { SIGNING_PAGE, clientTimesheetPage, agencyTimesheetPage } from '../../core/contracts/timesheets.js';
import type { TimesheetRecord } from '../../core/resources/records.js';

export const SIGNING_LINK = 'timesheet.sign';
export const signingPath = (token: string) => `${SIGNING_PAGE}/${token}`;

/**
 * The signing link, listed by the timesheets area (SIGNING_LINK). The e-mail carries a placeholder; the sender asks
 * for a fresh token as it sends it (only its hash is kept), and a link used, expired or replaced by a later submission
 * gets none, so that e-mail is not sent.
 */
export const signingLink: SecretLink = { path: signingPath, mint: (db, ref) => issueLinkToken(db, ref) };

/** Longest custom period: a quarter. */
const MAX_PERIOD_DAYS = 93;
/** A timesheet's lines are written by the staff member's phone through the system (they cannot see timesheets). */
export const writerOf = (ctx: EngineContext): EngineHandle =>
  ctx.principal.loginType === 'staff' ? ctx.engine.asSystem() : ctx.engine;

/** A line as it is priced: its timesheet's client, where, what, who, and whether it is a sleep-in. */
export interface LineToPrice {
  client_id: number;
  site_id: number;
  job_role_id: number;
  candidate_id: number;
  sleep_in?: boolean;
  /** Its shift's price lines as booked: a line paying other rates says why (repricing_note). */
  booked?: readonly PricedBand[] | null;
}
type Actual = { actual_start: string; actual_end: string; break_minutes?: number | null };

/**
 * The price of a line as stored: the shift's stored price for these times, the date it was worked on, and why its
 * rates differ from its shift's as booked (null when they do not).
 */
export type LinePrice = Awaited<ReturnType<typeof priceShifts>>[number] & {
  work_date: string;
  repricing_note: string | null;
};

/**
 * Lines priced on their actual times as a shift's own price is made (card in force, own pay, rules, holidays), all
 * from one read of the rate cards and rules: each answer is the price, or the 422 naming the line's field that
 * refuses it.
 */
export async function priceLines(
  ctx: EngineContext,
  lines: { line: LineToPrice; actual: Actual }[],
): Promise<(LinePrice | HttpError)[]> {
  const prices = await priceShifts(
    ctx.db,
    ctx.principal.merchantId,
    lines.map(({ line, actual }) => ({
      client_id: line.client_id,
      site_id: line.site_id,
      job_role_id: line.job_role_id,
      start: actual.actual_start,
      end: actual.actual_end,
      break_minutes: actual.break_minutes ?? null,
      sleep_in: !!line.sleep_in,
    })),
    lines.map(({ line }) => line.candidate_id),
  );
  return prices.map((p, i) => {
    // The quote names start/end; the line names its actual times.
    if (p instanceof HttpError)
      return p.errors
        ? new HttpError(
            p.status,
            p.message,
            Object.fromEntries(
              Object.entries(p.errors).map(([k, v]) => [
                k === 'start_at' ? 'actual_start' : k === 'end_at' ? 'actual_end' : k,
                v,
              ]),
            ),
          )
        : p;
    return {
      ...p,
      work_date: instantToZoned(new Date(lines[i].actual.actual_start), ctx.timeZone).date,
      repricing_note: repricingNote(lines[i].line.booked, p.price_lines),
    };
  });
}

/** One line priced on its actual times (priceLines of one); refuses with the 422 naming the field. */
export async function priceLine(ctx: EngineContext, line: LineToPrice, actual: Actual): Promise<LinePrice> {
  const [p] = await priceLines(ctx, [{ line, actual }]);
  if (p instanceof HttpError) throw p;
  return p;
}

/** What of a timesheet its lines' checks read. */
export type TimesheetOfLine = Pick<
  TimesheetRecord,
  'id' | 'client_id' | 'site_id' | 'status' | 'period_start' | 'period_end' | 'number'
>;

/** The timesheet of a line, locked for the change (its state decides what may change). */
export async function timesheetOf(ctx: EngineContext, id: number): Promise<TimesheetOfLine> {
  const [t] = await ctx.db.query<TimesheetOfLine>(
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
  /** The clients chosen in the confirmation (issue 29.14); none: every client. */
  client_ids?: number[] | null;
  /** Say what it would do (the shifts per client), doing nothing. */
  preview?: boolean | null;
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

/** What a generation puts on timesheets: the period (null: each shift's week, a staff member's) and a narrowing. */
interface Plan {
  period: { kind: 'weekly' | 'custom'; from: string; to: string } | null;
  shift_ids?: number[] | null;
  client_id?: number | null;
  client_ids?: number[] | null;
}

/**
 * A generation of more worked shifts than this runs as a job with progress (the request answers 202 and its id);
 * this many or fewer are generated in the request.
 */
export const GENERATION_JOB_THRESHOLD = 500;
/**
 * Shifts a generation job puts on timesheets per step (each step one transaction): a fifth of the run, so its
 * progress moves in visible steps, but at least 250 (a step's statements are the same for 1 shift or 2,000, so
 * fewer steps cost less) and at most 2,000 (a step's transaction stays short).
 */
export const generationStep = (total: number) => Math.min(2000, Math.max(250, Math.ceil(total / 5)));
const GENERATED = 'Generated from worked shifts';

/**
 * Worked shifts of the plan (booked and ended by `now`, not yet on any timesheet) within the caller's scope of
 * shifts, in the order they go on timesheets: `select` columns of `s` (the shift) and `c` (its client), at most
 * `limit` rows.
 */
function workedShiftsQuery(ctx: EngineContext, plan: Plan, select: (tz: string) => string, limit?: number) {
  const p = new Params();
  const where = scopeWhere(ctx.engine.compiled('shifts'), ctx.principal, p.bind);
  const conds = [
    `s.status in ('assigned', 'closed')`,
    's.candidate_id is not null',
    `s.end_at <= ${p.bind(ctx.now.toISOString())}`,
    'not exists (select 1 from timesheet_lines l where l.merchant_id = s.merchant_id and l.shift_id = s.id)',
  ];
  const tz = p.bind(ctx.timeZone);
  if (plan.period)
    conds.push(
      `(s.start_at at time zone ${tz})::date between ${p.bind(plan.period.from)}::date and ${p.bind(plan.period.to)}::date`,
    );
  if (plan.shift_ids?.length) conds.push(`s.id = any(${p.bind(plan.shift_ids)}::int[])`);
  if (plan.client_id) conds.push(`s.client_id = ${p.bind(plan.client_id)}`);
  if (plan.client_ids?.length) conds.push(`s.client_id = any(${p.bind(plan.client_ids)}::int[])`);
  // The caller's scope of shifts (a staff member: their own) inside, where its bare column names are the shift's.
  const sql = `select ${select(tz)}
       from (select * from shifts where ${where}) s join clients c on c.merchant_id = s.merchant_id and c.id = s.client_id
      where ${conds.join(' and ')}${limit === undefined ? '' : ` order by s.client_id, s.start_at, s.id limit ${p.bind(limit)}`}`;
  return ctx.db.query(sql, p.values);
}

const workedShifts = (ctx: EngineContext, plan: Plan, limit: number) =>
  workedShiftsQuery(
    ctx,
    plan,
    (tz) => `s.id, s.client_id, s.site_id, s.job_role_id, s.candidate_id, s.start_at,
            (s.start_at at time zone ${tz})::date::text as work_date, c.timesheet_per`,
    limit,
  );

/**
 * Puts worked shifts on timesheets in a fixed number of statements whatever their number: the timesheets of their
 * clients and periods in one read, the missing ones (one per client or site and period, never per shift) in one
 * engine createMany, all the lines in another (the lines' hook reads their shifts and prices them in set form, and
 * the engine brings their timesheets' totals along in two statements). Which shifts share a timesheet and which
 * timesheet they join are the domain's (groupShifts, placeGroups). Answers the timesheets added to and the lines made.
 */
async function addToTimesheets(ctx: EngineContext, plan: Plan, shifts: Row[]) {
  const groups = groupShifts(
    shifts.map((s): Row & ShiftToPlace => ({
      ...s,
      id: Number(s.id),
      client_id: Number(s.client_id),
      site_id: Number(s.site_id),
      start_at: iso(s.start_at),
    })),
    plan.period,
    ctx.timeZone,
  );
  const existing = await ctx.db.query<ExistingTimesheet>(
    `select t.id, t.client_id, t.site_id, t.period_start::text as period_start, t.period_end::text as period_end, t.kind,
            t.status
       from timesheets t join jsonb_to_recordset($2::jsonb) as g(client_id int, site_id int, "from" date, "to" date, kind text)
         on t.client_id = g.client_id and t.site_id is not distinct from g.site_id and t.period_start = g."from"
        and t.period_end = g."to" and t.kind = g.kind
      where t.merchant_id = $1
      order by t.id`,
    [
      ctx.principal.merchantId,
      JSON.stringify(
        groups.map((g) => ({ client_id: g.client_id, site_id: g.site_id, from: g.from, to: g.to, kind: g.kind })),
      ),
    ],
  );
  const places = placeGroups(groups, existing);
  const writer = writerOf(ctx);
  const missing = groups.flatMap((_, i) => (places[i].timesheet_id === null ? [i] : []));
  const made = await writer.createMany(
    'timesheets',
    missing.map((i) => ({
      client_id: groups[i].client_id,
      site_id: groups[i].site_id,
      kind: groups[i].kind,
      period_start: groups[i].from,
      period_end: groups[i].to,
      supplement_of: places[i].supplement_of,
    })),
    { reason: GENERATED },
  );
  const ids = places.map((p) => p.timesheet_id);
  missing.forEach((i, k) => (ids[i] = Number(made[k].id)));
  // Only what says which line it is: the lines' hook takes the times from the shift (as booked) and prices them.
  const lines = groups.flatMap((g, i) =>
    g.shifts.map((s) => ({
      timesheet_id: ids[i],
      shift_id: Number(s.id),
      candidate_id: Number(s.candidate_id),
      site_id: Number(s.site_id),
      job_role_id: Number(s.job_role_id),
    })),
  );
  const created = await writer.createMany('timesheet_lines', lines, { reason: GENERATED });
  return { timesheets: [...new Set(ids as number[])], line_ids: created.map((r) => Number(r.id)) };
}

/**
 * Builds timesheets from worked shifts (booked and ended, not yet on any timesheet). A shift belongs to the week it
 * starts in (the agency's calendar). Up to GENERATION_JOB_THRESHOLD shifts are put on timesheets in the request;
 * more start a job that does it in steps (answered 202 with its id, its progress at GET /api/jobs/:id). Generations
 * of one agency run one at a time (a transaction-scoped advisory lock, also taken by each step of a job), and a
 * shift's line is unique, so two racing never put a shift twice. A staff member may generate only for their own
 * shifts (their phone's end-of-shift entry): those go on the weekly timesheet of their week.
 */
export async function generateTimesheets(ctx: EngineContext, input: GenerateInput) {
  const staff = ctx.principal.loginType === 'staff';
  if (staff && !input.shift_ids?.length)
    throw new HttpError(422, 'Choose your shift.', { shift_ids: 'Choose your shift.' });
  const plan: Plan = {
    period: staff ? null : periodOf(input),
    shift_ids: input.shift_ids,
    client_id: input.client_id,
    client_ids: input.client_ids,
  };
  if (input.preview && !staff) return previewOf(ctx, plan);
  await ctx.db.query('select pg_advisory_xact_lock(17017, $1)', [ctx.principal.merchantId]);
  const shifts = await workedShifts(ctx, plan, GENERATION_JOB_THRESHOLD + 1);
  if (input.shift_ids?.length && shifts.length < new Set(input.shift_ids).size) {
    const message =
      'Some of the chosen shifts cannot go on a timesheet: they are not yours, not worked yet, or already on a timesheet.';
    if (staff || shifts.length === 0) throw new HttpError(409, message, { shift_ids: message });
  }
  // Chosen shifts (by the agency): one custom timesheet per client (or site) over the days they span.
  if (!plan.period && !staff && shifts.length) plan.period = { kind: 'custom', ...(await spanOf(ctx, plan)) };
  if (shifts.length > GENERATION_JOB_THRESHOLD) return new Accepted(await startGeneration(ctx, plan));
  if (shifts.length === 0) return { timesheets: [], lines: 0, line_ids: [], job_id: null };
  const made = await addToTimesheets(ctx, plan, shifts);
  return { ...made, lines: made.line_ids.length, job_id: null };
}

/**
 * What a generation would take, per client, without taking it: the confirmation of the week's generation names the
 * number of worked shifts and lets the user choose the clients (issue 29.14). Counted by the query that generates.
 */
async function previewOf(ctx: EngineContext, plan: Plan) {
  const rows = await workedShiftsQuery(
    ctx,
    plan,
    // One row per client (the query has no grouping of its own: a window over its rows, then distinct).
    () => `distinct s.client_id, c.name as client_name, (count(*) over (partition by s.client_id))::int as shifts`,
  );
  const clients = rows
    .map((r) => ({ client_id: Number(r.client_id), name: String(r.client_name), shifts: Number(r.shifts) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    preview: clients,
    shifts: clients.reduce((n, c) => n + c.shifts, 0),
    timesheets: [],
    lines: 0,
    line_ids: [],
  };
}

/** The first and last day of the plan's worked shifts still on no timesheet. */
async function spanOf(ctx: EngineContext, plan: Plan): Promise<{ from: string; to: string }> {
  const [span] = await workedShiftsQuery(
    ctx,
    plan,
    (tz) =>
      `min((s.start_at at time zone ${tz})::date)::text as "from", max((s.start_at at time zone ${tz})::date)::text as "to"`,
  );
  return span as { from: string; to: string };
}

interface GenerationJob {
  plan: Plan;
  /** Who asked (the audit trail names them on every line) and when: the shifts ended by then are the run's. */
  principal: EnginePrincipal;
  now: string;
  /** Shifts per step (generationStep of the run's total). */
  step: number;
}

/**
 * Queues a large generation in the request's transaction (it runs once that commits), with its number of shifts as
 * the total to show progress against.
 */
async function startGeneration(ctx: EngineContext, plan: Plan) {
  const p = ctx.principal;
  const [{ n }] = await countShifts(ctx, plan);
  const job_id = await enqueueJob(ctx.db, {
    merchantId: p.merchantId,
    kind: timesheetGeneration,
    payload: { plan, principal: p, now: ctx.now.toISOString(), step: generationStep(n) } satisfies GenerationJob,
    createdBy: p.userId || null,
    total: n,
  });
  return { job_id, shifts: n, timesheets: [], lines: 0, line_ids: [] };
}

const countShifts = (ctx: EngineContext, plan: Plan) => workedShiftsQuery(ctx, plan, () => 'count(*)::int as n');

/**
 * A large generation, `step` shifts a step. Each step takes the plan's shifts still on no timesheet, so a
 * step rolled back (a killed process) is simply done again by the next, and a committed one is never repeated: its
 * lines, and the unique index on a line's shift, say those shifts are done.
 */
export const timesheetGeneration: JobKind<GenerationJob, { timesheets?: number[] }> = {
  kind: 'timesheet-generation',
  async step(tx, job, engine) {
    const ctx = await engine.context(tx, job.payload.principal, new Date(job.payload.now));
    await tx.query('select pg_advisory_xact_lock(17017, $1)', [ctx.principal.merchantId]);
    const shifts = await workedShifts(ctx, job.payload.plan, job.payload.step);
    const made = shifts.length
      ? await addToTimesheets(ctx, job.payload.plan, shifts)
      : { timesheets: [], line_ids: [] };
    const timesheets = [...new Set([...(job.state.timesheets ?? []), ...made.timesheets])];
    const done = job.done + made.line_ids.length;
    // Done when a step found fewer than it could take, or the run's count is reached (no empty last step).
    const finished = shifts.length < job.payload.step || (job.total !== null && done >= job.total);
    return {
      state: { timesheets },
      done,
      // Shifts worked meanwhile in the plan's period (entered late, ended before the run) go on too.
      total: Math.max(job.total ?? 0, done),
      finished,
      result: finished ? { timesheets, lines: done } : undefined,
    };
  },
};

// —— Submission, signing link, notifications ——

const periodWords = (t: Row) =>
  `${formatDisplayDate(String(t.period_start))} to ${formatDisplayDate(String(t.period_end))}`;

/**
 * E-mails the client's approver a signing link for the submitted timesheet (single-use, expiring after the client's
 * days, bound to what it shows: an amendment after sending needs a new link), and tells the client's users.
 */
export async function sendForSignature(ctx: EngineContext, t: Row) {
  const { client, period } = await emailSigningLink(ctx, t, 'submitted');
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'timesheet.submitted',
    title: 'Timesheet to sign',
    body: `Timesheet ${t.number} for ${period} is ready for your signature.`,
    link: agencyTimesheetPage(Number(t.id)),
    clientLink: clientTimesheetPage(Number(t.id)),
    audience: { clientId: Number(t.client_id) },
    data: { client_name: client?.name ?? '', number: t.number, period },
  });
}

/**
 * E-mails the client's approver (the client's timesheet approver, else its e-mail address) a new signing link, through
 * the outbox. A new link replaces the earlier ones, whatever the occasion (a submission again after an amendment, a
 * reminder, the agency's resend): they stop working, even for reading the timesheet (issue 29.5). The link works
 * until every line is signed or a line disputed (a partial approval keeps it), for the client's days.
 */
export async function emailSigningLink(ctx: EngineContext, t: Row, occasion: 'submitted' | 'reminder' | 'resend') {
  const merchantId = ctx.principal.merchantId;
  const [client] = await ctx.db.query(
    // No link where the client does not sign by link (issue 35): its users sign in their panel or on a phone.
    `select name, case when 'link' = any(signing_methods) then coalesce(timesheet_approver_email, email) end as approver,
            coalesce(timesheet_link_days, 7) as days, 'link' = any(signing_methods) as by_link, signing_methods
       from clients where merchant_id = $1 and id = $2`,
    [merchantId, t.client_id],
  );
  const period = periodWords(t);
  if (client?.approver) {
    const c = ctx.engine.compiled('timesheets');
    await revokeLinks(ctx, c, Number(t.id), 'approve');
    const link = await createLink(ctx, c, Number(t.id), {
      action: 'approve',
      purpose: `Sign timesheet ${t.number} (${period})`,
      recipient: client.approver,
      deliveredVia: 'email',
      lifetimeHours: Number(client.days) * 24,
      bindContent: true,
    });
    const letterhead = await letterheadOf(ctx.db, merchantId);
    const opening = {
      reminder: `Timesheet ${t.number} of ${client.name} for ${period} is still awaiting your signature. Links sent before no longer work; use this one`,
      resend: `Here is a new link to timesheet ${t.number} of ${client.name} for ${period}. Links sent before no longer work; use this one`,
      submitted: `Timesheet ${t.number} of ${client.name} for ${period} is ready for your signature. Review the hours and sign, or dispute a line, here`,
    }[occasion];
    const subject = {
      reminder: `Reminder: timesheet ${t.number} to sign`,
      resend: `New link: timesheet ${t.number} to sign`,
      submitted: `Timesheet ${t.number} to sign`,
    }[occasion];
    const mail = renderEmail(
      letterhead,
      subject,
      `Hello,\n\n${opening} (the link works for ${client.days} days, until every line is signed or one is disputed):\n\n${absoluteLink(signingPath(SECRET_PLACEHOLDER))}\n\n${letterhead.name}`,
    );
    await queueEmails(ctx.db, [
      {
        merchantId,
        recipient: client.approver,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        event: occasion === 'reminder' ? 'timesheet.reminder' : 'timesheet.submitted',
        secret: { kind: SIGNING_LINK, ref: link.id },
      },
    ]);
  }
  return { client, period };
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

/** The states of the lines of each timesheet (none for one without lines), in one read for any number of them. */
export async function lineStatusesOf(ctx: EngineContext, timesheetIds: number[]): Promise<Map<number, string[]>> {
  const rows = await ctx.db.query<{ timesheet_id: number; status: string }>(
    'select timesheet_id, status from timesheet_lines where merchant_id = $1 and timesheet_id = any($2::int[])',
    [ctx.principal.merchantId, timesheetIds],
  );
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const id = Number(r.timesheet_id);
    out.set(id, [...(out.get(id) ?? []), r.status]);
  }
  return out;
}
