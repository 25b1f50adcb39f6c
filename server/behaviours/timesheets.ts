// What timesheets, their lines and signatures do on the server beyond their declarations (issue 17).
import { signingRefusal, type SigningMethod } from '../../core/domain/clients/settings.js';
import type { Row } from '../db/index.js';
import { HOURS_OF_PAID_MINUTES } from './shifts.js';
import { HttpError } from '../http.js';
import type { EngineContext, ResourceBehaviour, SaveEvent } from '../engine/context.js';
import { assessShift, iso } from '../services/booking.js';
import {
  generateTimesheets,
  lineStatusesOf,
  notifyAgency,
  priceLine,
  priceLines,
  emailSigningLink,
  requireSignature,
  sendForSignature,
  signedVia,
  timesheetOf,
  writerOf,
  type TimesheetOfLine,
} from '../services/timesheets.js';
import {
  clientDisputeRefusal,
  ownHoursRefusal,
  periodProblem,
  spansOverlap,
  type HeldForDispute,
} from '../../core/domain/timesheets/rules.js';
import { describeShiftTimes, shiftSpanProblem } from '../../core/domain/shifts/times.js';
import { formatDisplayDate } from '../../core/domain/time/agencyTime.js';
import { phoneSignRefusal, PHONE_SIGN_REFUSED } from '../../core/domain/timesheets/tolerance.js';
import {
  approverFor,
  approverInService,
  notifyPhoneSigned,
  toleranceFlagOf,
  verifyApproverPin,
} from '../services/phoneSignoff.js';
import { isStrictInstant } from '../engine/input.js';
import { revokeLinks } from '../engine/capability.js';
import type { Problems } from '../../core/engine/validate.js';
import { idsOf, textOf, type RecordValues } from '../../core/engine/types.js';
import type { ShiftRecord } from '../../core/resources/records.js';
import { paidLineRefusal } from '../../core/resources/timesheets/resource.js';
import type { PricedBand } from '../../core/domain/pricing/repricing.js';
import { recordsRefused, type Refused } from '../engine/updateMany.js';

const idOf = (r: Row) => Number(r.id);

const refuse = (status: number, message: string, field?: string) =>
  new HttpError(status, message, field ? { [field]: message } : undefined);

/** The lines of a timesheet named by an action's input, each in one of `states`; all of them when none are named. */
async function linesOf(
  ctx: EngineContext,
  timesheetId: number,
  ids: number[] | null | undefined,
  states: string[],
  field: string,
): Promise<Row[]> {
  const rows = await ctx.db.query(
    'select id, status from timesheet_lines where merchant_id = $1 and timesheet_id = $2 order by id',
    [ctx.principal.merchantId, timesheetId],
  );
  if (!ids?.length) return rows.filter((r) => states.includes(r.status));
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const chosen = [...new Set(ids.map(Number))].map((id) => byId.get(id));
  if (chosen.some((r) => !r)) throw refuse(422, 'Choose lines of this timesheet.', field);
  const wrong = chosen.filter((r) => !states.includes(r!.status));
  if (wrong.length)
    throw refuse(
      409,
      `${wrong.length} of the chosen lines cannot be changed now (already signed, disputed or verified).`,
      field,
    );
  return chosen as Row[];
}

/** A signature kept as given: who, how, from where, when. The lines it signs point at it. */
async function keepSignature(ctx: EngineContext, timesheetId: number, input: RecordValues, lines: number) {
  requireSignature(input.signature);
  const sig = await writerOf(ctx).create('timesheet_signatures', {
    timesheet_id: timesheetId,
    signer_name: input.signer_name,
    signature: input.signature,
    signed_via: signedVia(ctx),
    approver_id: input.approver_id ?? null,
    ip_address: ctx.ip ?? null,
    signed_at: ctx.now.toISOString(),
    line_count: lines,
  });
  return Number(sig.id);
}

/**
 * Refuses, naming each, the timesheets (one, or many at once: a bulk action) whose lines' states `why` refuses; one
 * read of the lines of all of them.
 */
/** A signature made a way the client does not allow (issue 35, the client's signing methods) is refused in words. */
async function requireSigningMethod(ctx: EngineContext, clientId: number, method: SigningMethod) {
  const [client] = await ctx.db.query<{ name: string; signing_methods: string[] }>(
    'select name, signing_methods from clients where merchant_id = $1 and id = $2',
    [ctx.principal.merchantId, clientId],
  );
  const refusal = client && signingRefusal(client.signing_methods, method, client.name);
  if (refusal) throw refuse(409, refusal);
}

async function refuseByLines(ctx: EngineContext, records: Row[], why: (lines: string[]) => string | null) {
  const statuses = await lineStatusesOf(
    ctx,
    records.map((r) => Number(r.id)),
  );
  const refused: Refused[] = records.flatMap((r) => {
    const words = why(statuses.get(Number(r.id)) ?? []);
    return words ? [{ row: r, why: words, status: 409 }] : [];
  });
  if (refused.length === 1 && records.length === 1) throw refuse(409, refused[0].why);
  if (refused.length) throw await recordsRefused(ctx, ctx.engine.compiled('timesheets'), records.length, refused);
}

/** Timesheets submitted: refused when one has no lines or a line still disputed. */
async function submitMany(ctx: EngineContext, records: Row[]) {
  await refuseByLines(ctx, records, (lines) =>
    lines.length === 0
      ? 'This timesheet has no lines to sign.'
      : lines.includes('disputed')
        ? 'A line is still disputed: amend it before submitting the timesheet again.'
        : null,
  );
  // Every line already signed (on the staff member's phone) or verified: its lines make it signed at once.
  return records.map(() => ({ submitted_at: ctx.now.toISOString() }));
}

/** Timesheets marked amended: refused while a line is still disputed. */
async function amendMany(ctx: EngineContext, records: Row[]) {
  await refuseByLines(ctx, records, (lines) => {
    const left = lines.filter((s) => s === 'disputed').length;
    return left
      ? `${left} line${left === 1 ? ' is' : 's are'} still disputed: amend their times (or verify them) first.`
      : null;
  });
  return [];
}

export const timesheetsBehaviour: ResourceBehaviour = {
  computed: {
    hours: () => HOURS_OF_PAID_MINUTES,
    signing_recipient: () =>
      `(select coalesce(c.timesheet_approver_email, c.email) from clients c where c.merchant_id = timesheets.merchant_id and c.id = timesheets.client_id)`,
    unsigned_lines: () => `(coalesce(line_count, 0) - coalesce(payable_lines, 0))`,
    signers: () =>
      `(select string_agg(distinct g.signer_name, ', ') from timesheet_signatures g where g.merchant_id = timesheets.merchant_id and g.timesheet_id = timesheets.id)`,
    staff_ids: () =>
      `(select coalesce(array_agg(distinct l.candidate_id), '{}') from timesheet_lines l where l.merchant_id = timesheets.merchant_id and l.timesheet_id = timesheets.id)`,
    // A dispute leaves its date; an amendment its note on the timesheet or on a line.
    was_disputed: () => `(disputed_at is not null)`,
    was_amended: () =>
      `(amendment_note is not null or exists (select 1 from timesheet_lines l where l.merchant_id = timesheets.merchant_id and l.timesheet_id = timesheets.id and l.amended_at is not null))`,
    client_name: () =>
      `(select c.name from clients c where c.merchant_id = timesheets.merchant_id and c.id = timesheets.client_id)`,
    site_name: () =>
      `(select s.name from sites s where s.merchant_id = timesheets.merchant_id and s.id = timesheets.site_id)`,
    // What the signing link's holder reviews (charge only): part of the content the link is bound to.
    review_lines: () => `(select coalesce(json_agg(json_build_object(
        'id', l.id, 'work_date', l.work_date, 'staff', ca.first_name || ' ' || ca.last_name, 'role', jr.name, 'site', s.name,
        'scheduled_start', l.scheduled_start, 'scheduled_end', l.scheduled_end, 'actual_start', l.actual_start,
        'actual_end', l.actual_end, 'break_minutes', l.break_minutes, 'hours', round(l.paid_minutes / 60.0, 2),
        'charge', l.charge, 'status', l.status, 'dispute_reason', l.dispute_reason) order by l.scheduled_start, l.id), '[]'::json)
      from timesheet_lines l
      left join candidates ca on ca.merchant_id = l.merchant_id and ca.id = l.candidate_id
      left join job_roles jr on jr.merchant_id = l.merchant_id and jr.id = l.job_role_id
      left join sites s on s.merchant_id = l.merchant_id and s.id = l.site_id
      where l.merchant_id = timesheets.merchant_id and l.timesheet_id = timesheets.id)`,
  },
  collection: {
    generate: (ctx, input) => generateTimesheets(ctx, input),
  },
  actions: {
    submit: async (ctx, r) => (await submitMany(ctx, [r]))[0],
    async approve(ctx, r, input) {
      // A client's manager signs in the panel, a link's holder by the link: each only where the client allows it.
      await requireSigningMethod(ctx, Number(r.client_id), ctx.principal.role === 'link' ? 'link' : 'panel');
      const approve = idsOf(input.line_ids);
      const dispute = idsOf(input.dispute_line_ids);
      if (approve.some((id) => dispute.includes(id)))
        throw refuse(422, 'A line cannot be approved and disputed at once.', 'dispute_line_ids');
      if (dispute.length && !input.dispute_reason)
        throw refuse(422, 'Say why the lines are disputed.', 'dispute_reason');
      const disputed = dispute.length ? await linesOf(ctx, Number(r.id), dispute, ['pending'], 'dispute_line_ids') : [];
      // Nothing named: every line awaiting signature, less those disputed.
      const signed = (
        await linesOf(ctx, Number(r.id), approve.length ? approve : null, ['pending'], 'line_ids')
      ).filter((l) => !dispute.includes(Number(l.id)));
      if (signed.length === 0 && disputed.length === 0)
        throw refuse(409, 'No line of this timesheet awaits a signature.');
      requireSignature(input.signature);
      if (signed.length) {
        const signatureId = await keepSignature(ctx, Number(r.id), input, signed.length);
        await ctx.engine.act('timesheet_lines', signed.map(idOf), 'approve_line', { signature_id: signatureId });
      }
      if (disputed.length)
        await ctx.engine.act('timesheet_lines', disputed.map(idOf), 'dispute_line', { reason: input.dispute_reason });
      if (signed.length)
        await notifyAgency(
          ctx,
          r,
          'timesheet.signed',
          `${input.signer_name} signed ${signed.length} line${signed.length === 1 ? '' : 's'} of timesheet ${r.number}.`,
          { signer_name: input.signer_name },
        );
      if (disputed.length)
        await notifyAgency(
          ctx,
          r,
          'timesheet.disputed',
          `${disputed.length} line${disputed.length === 1 ? '' : 's'} of timesheet ${r.number} disputed: ${input.dispute_reason}`,
          { reason: input.dispute_reason },
        );
    },
    async resend_link(ctx, r) {
      const { client } = await emailSigningLink(ctx, r, 'resend');
      if (client && !client.by_link)
        throw refuse(409, signingRefusal([...client.signing_methods], 'link', client.name)!);
      if (!client?.approver)
        throw refuse(
          409,
          'The client has no timesheet approver or e-mail address: add one on the client, then resend the link.',
        );
    },
    async dispute(ctx, r, input) {
      const lines = await linesOf(ctx, Number(r.id), idsOf(input.line_ids), ['pending', 'signed'], 'line_ids');
      // A line paid, on a pay run or invoiced stands as it is: the agency corrects it (a credit note, an adjustment).
      const words = clientDisputeRefusal(lines.length, await heldLines(ctx, lines));
      if (words) throw refuse(409, words, 'line_ids');
      await ctx.engine.act('timesheet_lines', lines.map(idOf), 'dispute_line', { reason: input.reason });
      await notifyAgency(
        ctx,
        r,
        'timesheet.disputed',
        `${lines.length} line${lines.length === 1 ? '' : 's'} of timesheet ${r.number} disputed: ${input.reason}`,
        { reason: input.reason },
      );
      return { disputed_at: ctx.now.toISOString() };
    },
    amend: async (ctx, r) => (await amendMany(ctx, [r]))[0],
    async verify(ctx, r, input) {
      const chosen = idsOf(input.line_ids).length > 0;
      const lines = await linesOf(ctx, Number(r.id), idsOf(input.line_ids), ['pending', 'disputed'], 'line_ids');
      if (lines.length === 0) throw refuse(409, 'Every line is already signed or verified.');
      // Verifying every unsigned line is said in so many lines, and the number confirmed must still be the count
      // (a line added since the dialog opened is not verified unseen).
      if (!chosen && Number(input.all_lines) !== lines.length) {
        const message = `Choose the lines to verify, or confirm all ${lines.length} unsigned line${lines.length === 1 ? '' : 's'} by typing ${lines.length}.`;
        throw new HttpError(422, message, { all_lines: message, line_ids: 'Choose the lines to verify.' });
      }
      await ctx.engine.act('timesheet_lines', lines.map(idOf), 'verify_line', { reason: input.reason });
    },
    async withdraw(ctx, r) {
      // The links sent for it stop working at once: the client signs what is sent again, not this version.
      await revokeLinks(ctx, ctx.engine.compiled('timesheets'), Number(r.id), 'approve');
      return { submitted_at: null };
    },
    async lock(_ctx, r) {
      // Its rollups: the lines it has, and how many of them are signed or verified.
      const unpaid = Number(r.line_count) - Number(r.payable_lines);
      if (Number(r.line_count) === 0 || unpaid)
        throw refuse(
          409,
          `${unpaid || 'No'} line${unpaid === 1 ? ' is' : 's are'} neither signed nor verified by the agency: it cannot be invoiced or paid yet.`,
        );
    },
  },
  // A bulk submit or amend: one read of the lines of every timesheet.
  actionsMany: { submit: submitMany, amend: amendMany },
  async afterSave(ctx, e) {
    if (e.action === 'submit' && e.row.status === 'submitted') await sendForSignature(ctx, e.row);
  },
};

/** What of a shift a line's checks and prices read. */
type ShiftOfLine = Pick<
  ShiftRecord,
  | 'id'
  | 'client_id'
  | 'site_id'
  | 'job_role_id'
  | 'candidate_id'
  | 'status'
  | 'start_at'
  | 'end_at'
  | 'break_minutes'
  | 'sleep_in'
  | 'price_lines'
>;

/** The bands a shift was priced in, as pricing stored them (its price_lines): a line's repricing compares them. */
const bookedOf = (shift: ShiftOfLine | undefined) => (shift?.price_lines ?? null) as readonly PricedBand[] | null;

/** A line's facts the checks and prices read, with its timesheet's client. */
async function lineFacts(ctx: EngineContext, record: RecordValues) {
  const t = await timesheetOf(ctx, Number(record.timesheet_id));
  const [shift] = record.shift_id
    ? await ctx.db.query<ShiftOfLine>(
        'select id, client_id, site_id, job_role_id, candidate_id, status, start_at, end_at, break_minutes, sleep_in, price_lines, paid_minutes from shifts where merchant_id = $1 and id = $2',
        [ctx.principal.merchantId, record.shift_id],
      )
    : [];
  return { t, shift: shift as ShiftOfLine | undefined };
}

/** Why times cannot be a line's, by field (none when they can). */
function timesProblems(input: RecordValues): Record<string, string> {
  const problems: Record<string, string> = {};
  const { actual_start: start, actual_end: end } = input;
  if (!isStrictInstant(start)) problems.actual_start = 'Give the start as a date and time.';
  if (!isStrictInstant(end)) problems.actual_end = 'Give the end as a date and time.';
  else if (isStrictInstant(start)) {
    const span = shiftSpanProblem(start, end);
    const ms = Date.parse(end) - Date.parse(start);
    if (span) problems.actual_end = span;
    else if (input.break_minutes != null && Number(input.break_minutes) * 60_000 >= ms)
      problems.break_minutes = 'The break must be shorter than the time worked.';
  }
  return problems;
}

function checkTimes(input: RecordValues): asserts input is RecordValues & ActualInput {
  const problems = timesProblems(input);
  if (Object.keys(problems).length) throw new HttpError(422, Object.values(problems)[0], problems);
}

/** A span of work for a staff member, `except` their line being changed. */
interface Span {
  candidate_id: number;
  start: string;
  end: string;
  except?: number | null;
}

/**
 * For each span, why it cannot be worked, in words, or undefined: another line of the same staff member (on any
 * timesheet) overlaps it, which would pay and charge the same hours twice (issue 29.4). One statement for any
 * number of spans; the exclusion constraint timesheet_lines_no_overlap holds it against racing writes.
 */
async function overlapProblems(ctx: EngineContext, spans: Span[]): Promise<(string | undefined)[]> {
  if (spans.length === 0) return [];
  const found = await ctx.db.query(
    `select distinct on (x.i) x.i, l.actual_start, l.actual_end, t.number,
            (select c.first_name || ' ' || c.last_name from candidates c where c.merchant_id = l.merchant_id and c.id = l.candidate_id) as name
       from jsonb_to_recordset($2::jsonb) as x(i int, candidate_id int, s timestamptz, e timestamptz, except_id int)
       join timesheet_lines l on l.merchant_id = $1 and l.candidate_id = x.candidate_id and l.id is distinct from x.except_id
        and l.actual_start is not null and l.actual_end is not null
        and tstzrange(l.actual_start, l.actual_end) && tstzrange(x.s, x.e)
       join timesheets t on t.merchant_id = l.merchant_id and t.id = l.timesheet_id
      order by x.i, l.actual_start`,
    [
      ctx.principal.merchantId,
      JSON.stringify(
        spans.map((s, i) => ({ i, candidate_id: s.candidate_id, s: s.start, e: s.end, except_id: s.except ?? null })),
      ),
    ],
  );
  const out: (string | undefined)[] = spans.map(() => undefined);
  for (const f of found) out[f.i] = overlapWords(ctx, f.name, iso(f.actual_start), iso(f.actual_end), f.number);
  // Spans given together (lines added in one request) must not overlap one another either.
  spans.forEach((a, i) => {
    const j = spans.findIndex((b, k) => k < i && b.candidate_id === a.candidate_id && spansOverlap(a, b));
    if (!out[i] && j >= 0) out[i] = overlapWords(ctx, null, spans[j].start, spans[j].end, null);
  });
  return out;
}

const overlapWords = (ctx: EngineContext, name: string | null, start: string, end: string, number: string | null) =>
  `${name ?? 'This staff member'} already has a line from ${describeShiftTimes(start, end, ctx.timeZone, formatDisplayDate).replace('–', ' to ')}${number ? ` on timesheet ${number}` : ''}: one person's lines cannot overlap, or the same hours would be paid and charged twice.`;

type ActualInput = { actual_start: string; actual_end: string; break_minutes?: number | null };

/** New actual times, priced: what an amendment or the staff member's own entry stores. */
async function timesPatch(ctx: EngineContext, r: Row, input: RecordValues) {
  checkTimes(input);
  const { t, shift } = await lineFacts(ctx, r);
  const priced = await priceLine(
    ctx,
    {
      client_id: Number(t.client_id),
      site_id: Number(r.site_id),
      job_role_id: Number(r.job_role_id),
      candidate_id: Number(r.candidate_id),
      sleep_in: !!shift?.sleep_in,
      booked: bookedOf(shift),
    },
    input,
  );
  const outside = periodProblem(priced.work_date, t.period_start, t.period_end);
  if (outside) throw refuse(422, outside, 'actual_start');
  const [clash] = await overlapProblems(ctx, [
    { candidate_id: Number(r.candidate_id), start: input.actual_start, end: input.actual_end, except: Number(r.id) },
  ]);
  if (clash) throw refuse(409, clash, 'actual_start');
  return {
    t,
    patch: {
      actual_start: input.actual_start,
      actual_end: input.actual_end,
      break_minutes: input.break_minutes ?? null,
      ...priced,
      // Beyond the client's tolerance of the booking: not signed on the phone, flagged for the agency (issue 29.1).
      outside_tolerance: await toleranceFlagOf(ctx, Number(t.client_id), shift, input as ActualInput),
    },
  };
}

const asProblems = (byField: Record<string, string>): Problems =>
  Object.fromEntries(Object.entries(byField).map(([k, message]) => [k, { message }]));

/**
 * New lines, one added by hand or many from a generation run, in a fixed number of statements for any number: their
 * timesheets (locked), shifts and sites are read once each and all are priced from one read of the rate cards.
 * A line names a worked shift of its timesheet's client (its staff member's, assigned or closed) or none; without
 * times it is its shift as booked (what generation makes), and with other times, or without a shift, it is an
 * amendment: it needs a note, and a line without a shift passes the hard booking checks as any booking would. Each
 * is priced on its actual times and must fall within its timesheet's period, which must still take lines (a draft,
 * disputed or amended). Answers each line's problems by position.
 */
async function beforeCreateLines(ctx: EngineContext, events: SaveEvent[]): Promise<(Problems | undefined)[]> {
  const m = ctx.principal.merchantId;
  const records = events.map((e) => e.record);
  const ids = (k: string) => [...new Set(records.map((r) => r[k]).filter((v) => v != null))].map(Number);
  // One after another: a transaction's connection runs one statement at a time.
  const timesheets = await ctx.db.query<TimesheetOfLine>(
    'select id, client_id, site_id, status, period_start::text as period_start, period_end::text as period_end, number from timesheets where merchant_id = $1 and id = any($2::int[]) order by id for update',
    [m, ids('timesheet_id')],
  );
  const shifts = await ctx.db.query<ShiftOfLine>(
    'select id, client_id, site_id, job_role_id, candidate_id, status, start_at, end_at, break_minutes, sleep_in, price_lines from shifts where merchant_id = $1 and id = any($2::int[])',
    [m, ids('shift_id')],
  );
  const sites = await ctx.db.query('select id, client_id from sites where merchant_id = $1 and id = any($2::int[])', [
    m,
    ids('site_id'),
  ]);
  const byId = <R extends Row>(rows: R[]) => new Map(rows.map((r) => [Number(r.id), r]));
  const [tsOf, shiftOf, siteOf] = [byId(timesheets), byId(shifts), byId(sites)];
  const out: (Problems | undefined)[] = records.map(() => undefined);
  const toPrice: { i: number; t: TimesheetOfLine; shift?: ShiftOfLine }[] = [];
  for (const [i, r] of records.entries()) {
    // A timesheet that takes no lines now was refused by the engine (its lines' editableIn).
    const t = tsOf.get(Number(r.timesheet_id))!;
    const site = siteOf.get(Number(r.site_id));
    if (
      !site ||
      Number(site.client_id) !== Number(t.client_id) ||
      (t.site_id && Number(t.site_id) !== Number(r.site_id))
    ) {
      out[i] = { site_id: { message: 'Choose a site this timesheet covers.' } };
      continue;
    }
    const shift = r.shift_id == null ? undefined : shiftOf.get(Number(r.shift_id));
    if (shift) {
      if (
        Number(shift.client_id) !== Number(t.client_id) ||
        Number(shift.candidate_id) !== Number(r.candidate_id) ||
        !['assigned', 'closed'].includes(shift.status)
      ) {
        out[i] = { shift_id: { message: 'Choose a worked shift of this staff member at this client.' } };
        continue;
      }
      r.scheduled_start = iso(shift.start_at);
      r.scheduled_end = iso(shift.end_at);
      r.scheduled_break = shift.break_minutes;
      r.job_role_id = shift.job_role_id;
      if (!r.actual_start && !r.actual_end) {
        // What was booked is what was worked until someone says otherwise (the staff member, or an amendment).
        r.actual_start = r.scheduled_start;
        r.actual_end = r.scheduled_end;
        r.break_minutes = r.scheduled_break;
      }
    }
    const asBooked =
      shift &&
      Date.parse(textOf(r.actual_start)) === Date.parse(textOf(r.scheduled_start)) &&
      Date.parse(textOf(r.actual_end)) === Date.parse(textOf(r.scheduled_end)) &&
      (r.break_minutes ?? null) === (r.scheduled_break ?? null);
    if (!asBooked && !r.amendment_note) {
      out[i] = { amendment_note: { message: 'Say why this line is added (an amendment needs a note).' } };
      continue;
    }
    if (!r.actual_start || !r.actual_end) {
      out[i] = { actual_start: { message: 'Give the times worked.' } };
      continue;
    }
    const wrong = timesProblems(r);
    if (Object.keys(wrong).length) {
      out[i] = asProblems(wrong);
      continue;
    }
    if (!shift) {
      // Work that had no shift: the staff member must have been able to be booked on it (rare: one at a time).
      const checks = await assessShift(
        ctx.db,
        m,
        ctx.timeZone,
        {
          client_id: Number(t.client_id),
          site_id: Number(r.site_id),
          job_role_id: Number(r.job_role_id),
          start: textOf(r.actual_start),
          end: textOf(r.actual_end),
          break_minutes: r.break_minutes == null ? null : Number(r.break_minutes),
        },
        Number(r.candidate_id),
        ctx.today,
      );
      if (checks.hard.length) {
        const words = checks.hard.map((c: { message: string }) => c.message).join(' ');
        throw new HttpError(409, `${checks.name} cannot have worked this: ${words}`, { candidate_id: words });
      }
    }
    toPrice.push({ i, t, shift });
  }
  const prices = await priceLines(
    ctx,
    toPrice.map(({ i, t, shift }) => ({
      line: {
        client_id: Number(t.client_id),
        site_id: Number(records[i].site_id),
        job_role_id: Number(records[i].job_role_id),
        candidate_id: Number(records[i].candidate_id),
        sleep_in: !!shift?.sleep_in,
        booked: bookedOf(shift),
      },
      actual: records[i] as { actual_start: string; actual_end: string; break_minutes?: number | null },
    })),
  );
  for (const [k, { i, t }] of toPrice.entries()) {
    const priced = prices[k];
    if (priced instanceof HttpError) {
      if (priced.status !== 422 || !priced.errors) throw priced;
      out[i] = asProblems(priced.errors);
    } else if (periodProblem(priced.work_date, t.period_start, t.period_end))
      out[i] = { actual_start: { message: periodProblem(priced.work_date, t.period_start, t.period_end)! } };
    else {
      const r = records[i];
      Object.assign(r, priced);
      if (r.amendment_note) {
        r.amended_at = ctx.now.toISOString();
        r.amended_by = ctx.principal.name;
      }
    }
  }
  // Priced and in their period: none may overlap another line of the same staff member (issue 29.4).
  const fine = toPrice.filter(({ i }) => !out[i]).map(({ i }) => i);
  const clashes = await overlapProblems(
    ctx,
    fine.map((i) => ({
      candidate_id: Number(records[i].candidate_id),
      start: textOf(records[i].actual_start),
      end: textOf(records[i].actual_end),
    })),
  );
  fine.forEach((i, k) => {
    if (clashes[k]) out[i] = { actual_start: { message: clashes[k]! } };
  });
  return out;
}

/** Raises the revision of timesheets whose lines were amended, each by an engine write of the timesheet. */
async function revise(ctx: EngineContext, ids: unknown[]) {
  const rows = await ctx.db.query(
    'select id, revision from timesheets where merchant_id = $1 and id = any($2::int[]) order by id',
    [ctx.principal.merchantId, [...new Set(ids.map(Number))]],
  );
  for (const t of rows)
    await writerOf(ctx).update(
      'timesheets',
      Number(t.id),
      { revision: Number(t.revision ?? 0) + 1 },
      {
        reason: 'A line was amended',
      },
    );
}

/** Two writes racing past overlapProblems: the exclusion constraint refuses the second, said in words. */
async function overlapRefused(ctx: EngineContext, e: SaveEvent, error: { code?: string }) {
  if (error.code !== '23P01') return;
  const words = overlapWords(ctx, null, textOf(e.record.actual_start), textOf(e.record.actual_end), null).replace(
    /^This staff member already has a line from/,
    'Another line of this staff member was just saved over',
  );
  return new HttpError(409, words, { actual_start: words });
}

/** The invoice billing a line (of timesheet_lines), as a read shows it: its number, else 'Draft n'. */
const BILLED_ON = `(select coalesce(i.number, 'Draft ' || i.id) from invoice_lines il
        join invoices i on i.merchant_id = il.merchant_id and i.id = il.invoice_id
       where il.merchant_id = timesheet_lines.merchant_id and il.timesheet_line_id = timesheet_lines.id
         and il.released_at is null limit 1)`;
/** The number of the issued invoice billing a line (of timesheet_lines); null for a draft or nothing. */
const BILLED_NUMBER = `(select i.number from invoice_lines il
        join invoices i on i.merchant_id = il.merchant_id and i.id = il.invoice_id
       where il.merchant_id = timesheet_lines.merchant_id and il.timesheet_line_id = timesheet_lines.id
         and il.released_at is null limit 1)`;
/** The pay run holding a line (of timesheet_lines) by an unreleased payslip line: its state and id ('draft 12'). */
const HELD_BY_RUN = `(select r.state || ' ' || r.id from payslip_lines pl
        join payslips p on p.merchant_id = pl.merchant_id and p.id = pl.payslip_id
        join pay_runs r on r.merchant_id = p.merchant_id and r.id = p.pay_run_id
       where pl.merchant_id = timesheet_lines.merchant_id and pl.timesheet_line_id = timesheet_lines.id
         and pl.released_at is null and r.state <> 'cancelled' limit 1)`;

/**
 * Which of a timesheet's `lines` a pay run or an invoice holds (paid, on a run, or billed), and how: one read. The
 * client's dispute says so in its own words (clientDisputeRefusal) before the lines' guards would in the agency's.
 */
async function heldLines(ctx: EngineContext, lines: Row[]): Promise<HeldForDispute[]> {
  if (!lines.length) return [];
  const rows = await ctx.db.query<{ invoice: string | null; billed: boolean; paid: boolean }>(
    `select * from (select ${BILLED_NUMBER} as invoice, ${BILLED_ON} is not null as billed,
            paid_in_run is not null or ${HELD_BY_RUN} is not null as paid
       from timesheet_lines where merchant_id = $1 and id = any($2::int[]) order by id) held
      where billed or paid`,
    [ctx.principal.merchantId, lines.map(idOf)],
  );
  // Billed with no number: a draft bills it.
  return rows.map((r) => ({ invoice: r.invoice, draft: r.billed && !r.invoice, paid: r.paid }));
}

/**
 * Refuses, in words, lines the principal is paid for (whoever is paid never approves their own hours): the user's
 * e-mail, or a signing link's recipient, is the staff member's (their record's or their phone login's). One read for
 * the set; every approving path (a client's signature, the agency's verification, line by line or a timesheet at
 * once) comes through the lines' approve_line, verify_line and verify.
 */
async function refuseOwnHours(ctx: EngineContext, lines: Row[]) {
  const rows = await ctx.db.query<{ id: number; staff: string | null; login: string | null; approver: string | null }>(
    `select l.id, c.email as staff, su.email as login, (select u.email from users u where u.id = $3) as approver
       from timesheet_lines l
       join candidates c on c.merchant_id = l.merchant_id and c.id = l.candidate_id
       left join users su on su.merchant_id = l.merchant_id and su.candidate_id = l.candidate_id
      where l.merchant_id = $1 and l.id = any($2::int[]) order by l.id`,
    [ctx.principal.merchantId, lines.map(idOf), ctx.principal.link ? null : ctx.principal.userId],
  );
  for (const r of rows) {
    const words = ownHoursRefusal([r.approver, ctx.principal.link?.recipient], [r.staff, r.login]);
    if (words) throw refuse(409, words);
  }
}

/** The effects that approve lines (a client's signature, the agency's verification), each refusing one's own hours. */
const approvingLines = {
  async verify(ctx: EngineContext, lines: Row[], input: RecordValues) {
    await refuseOwnHours(ctx, lines);
    const stamp = {
      verified_reason: input.reason,
      verified_evidence: input.evidence ?? null,
      verified_by: ctx.principal.name,
      verified_at: ctx.now.toISOString(),
    };
    return lines.map(() => stamp);
  },
  async approve_line(ctx: EngineContext, lines: Row[]) {
    await refuseOwnHours(ctx, lines);
    return lines.map(() => ({ signed_at: ctx.now.toISOString() }));
  },
  async verify_line(ctx: EngineContext, lines: Row[], input: RecordValues) {
    await refuseOwnHours(ctx, lines);
    const stamp = {
      verified_reason: input.reason,
      verified_by: ctx.principal.name,
      verified_at: ctx.now.toISOString(),
    };
    return lines.map(() => stamp);
  },
};

export const timesheetLinesBehaviour: ResourceBehaviour = {
  prepare: { sign: verifyApproverPin },
  computed: {
    candidate_name: () =>
      `(select c.first_name || ' ' || c.last_name from candidates c where c.merchant_id = timesheet_lines.merchant_id and c.id = timesheet_lines.candidate_id)`,
    site_name: () =>
      `(select s.name from sites s where s.merchant_id = timesheet_lines.merchant_id and s.id = timesheet_lines.site_id)`,
    job_role_name: () =>
      `(select j.name from job_roles j where j.merchant_id = timesheet_lines.merchant_id and j.id = timesheet_lines.job_role_id)`,
    summary: () =>
      `(coalesce(to_char(work_date, 'YYYY-MM-DD'), '') || ' ' || (select c.first_name || ' ' || c.last_name from candidates c where c.merchant_id = timesheet_lines.merchant_id and c.id = timesheet_lines.candidate_id))`,
    hours: () => HOURS_OF_PAID_MINUTES,
    payable: () => `(status in ('signed', 'verified'))`,
    signed_by: () =>
      `(select g.signer_name from timesheet_signatures g where g.merchant_id = timesheet_lines.merchant_id and g.id = timesheet_lines.signature_id)`,
    timesheet_status: () =>
      `(select t.status from timesheets t where t.merchant_id = timesheet_lines.merchant_id and t.id = timesheet_lines.timesheet_id)`,
    // The invoice billing the line while it does (a released line, of a voided draft or credited to re-bill, is not).
    billed_on: () => BILLED_ON,
    // The pay run whose payslip holds the line while one does (a cancelled run's lines are released).
    held_by_run: () => HELD_BY_RUN,
    // The client's approvers with a PIN who may sign this line (theirs for every site, or for the line's).
    approvers: () => `(select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'job_title', a.job_title)
        order by a.name, a.id), '[]'::json)
      from timesheets t join timesheet_approvers a on a.merchant_id = t.merchant_id and a.client_id = t.client_id
      where t.merchant_id = timesheet_lines.merchant_id and t.id = timesheet_lines.timesheet_id
        and ${approverInService('a')} and a.pin_hash is not null
        and (a.site_id is null or a.site_id = timesheet_lines.site_id))`,
  },
  computedFilters: {
    payable: (value) => (value === 'true' ? `status in ('signed', 'verified')` : `status in ('pending', 'disputed')`),
  },
  async beforeSave(ctx, e): Promise<Problems | void> {
    if (!e.stored && !e.action) return (await beforeCreateLines(ctx, [e]))[0];
    // A line paid by a finalised pay run holds for every writer (its actions say so in their guards).
    const paid = e.stored && !e.action ? paidLineRefusal(e.stored) : null;
    if (paid) throw new HttpError(409, paid);
  },
  beforeSaveMany: beforeCreateLines,
  refusedByDatabase: overlapRefused,
  // The timesheet's totals and state follow its lines (their declaration's rollups and derive). An amendment also
  // raises its revision: a signing link sent before it no longer signs it. A line as booked is no amendment.
  async afterSaveMany(ctx, events) {
    await revise(
      ctx,
      events.filter((e) => e.row.amendment_note).map((e) => e.row.timesheet_id),
    );
  },
  async afterSave(ctx, e) {
    const amended = e.stored ? e.action === 'amend' || e.action === 'record_times' : !!e.row.amendment_note;
    if (amended) await revise(ctx, [e.row.timesheet_id]);
  },
  actions: {
    async record_times(ctx, r, input) {
      const { patch } = await timesPatch(ctx, r, input);
      if (Date.parse(textOf(input.actual_end)) > ctx.now.getTime() + 15 * 60_000)
        throw refuse(422, 'Enter your times once the shift has ended.', 'actual_end');
      return { ...patch, times_recorded_at: ctx.now.toISOString() };
    },
    // One of the client's approvers signs on the staff member's phone with their own PIN (checked by the prepare
    // below, before the transaction): only a line the client has not been asked about yet (issue 29.1).
    async sign(ctx, r, input) {
      // What was sent is checked before the state it meets (a bad signature is said as such, whatever the line's).
      requireSignature(input.signature);
      const { t } = await lineFacts(ctx, r);
      await requireSigningMethod(ctx, Number(t.client_id), 'phone');
      const refusal = phoneSignRefusal({
        status: textOf(r.status),
        dispute_reason: textOf(r.dispute_reason),
        outside_tolerance: textOf(r.outside_tolerance),
        timesheet_status: t.status,
      });
      if (refusal) throw refuse(409, PHONE_SIGN_REFUSED[refusal]);
      const approver = await approverFor(ctx, r, Number(t.client_id), input);
      const signatureId = await keepSignature(
        ctx,
        Number(t.id),
        { signature: input.signature, signer_name: approver.name, approver_id: approver.id },
        1,
      );
      await notifyPhoneSigned(ctx, t, r, approver);
      return { signature_id: signatureId, signed_at: ctx.now.toISOString() };
    },
    async amend(ctx, r, input) {
      const { patch } = await timesPatch(ctx, r, input);
      return {
        ...patch,
        amendment_note: input.note,
        amended_at: ctx.now.toISOString(),
        amended_by: ctx.principal.name,
      };
    },
    verify: async (ctx, r, input) => (await approvingLines.verify(ctx, [r], input))[0],
    async withdraw_verification() {
      // The verification's reason, author and evidence stay in the audit entry of the verify action.
      return { verified_reason: null, verified_by: null, verified_at: null, verified_evidence: null };
    },
    approve_line: async (ctx, r) => (await approvingLines.approve_line(ctx, [r]))[0],
    verify_line: async (ctx, r, input) => (await approvingLines.verify_line(ctx, [r], input))[0],
  },
  // A line signed or verified (one, or many at once): never by the person paid for it, one read for the set.
  actionsMany: approvingLines,
};
