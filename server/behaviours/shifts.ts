import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { EngineContext, ResourceBehaviour, SaveEvent } from '../engine/context.js';
import type { Problems } from '../../core/engine/validate.js';
import { textOf, type RecordValues } from '../../core/engine/types.js';
import { blockingChecks, overridableChecks } from '../../core/domain/booking/checks.js';
import { describeDates, describeShiftTimes } from '../../core/domain/shifts/times.js';
import { formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime.js';
import { notify } from '../notifications/notify.js';
import { checkShiftRequestQuota } from '../services/shiftRequests.js';
import { shiftRequestsBehaviour } from './shiftRequests.js';
import { asSentence } from '../../core/engine/text.js';
import {
  assessShift,
  cancellationCharge,
  DAY_MS,
  iso,
  priceShift,
  priceShifts,
  requestedByOf,
  shiftTimesOf,
  type ShiftTimes,
  type StaffFacts,
} from '../services/booking.js';
import { formatPounds } from '../../core/engine/money.js';

// Bookings of one staff member are taken one at a time (per agency and staff member), so that the rest and
// weekly-hours checks of two simultaneous bookings each see the other. The exclusion constraint stays the guarantee.
const BOOKING_LOCK = 8008;

/**
 * Books a staff member on a shift inside the action's transaction: the checks (hard refused; soft refused unless
 * an admin gives a reason), then the database's word on double booking, whose refusal becomes a 409 in words.
 * Answers what the action stores about the checks, and the facts it read.
 */
async function book(
  ctx: EngineContext,
  shift: ShiftTimes,
  candidateId: number,
  overrideReason: string | null | undefined,
) {
  const merchantId = ctx.principal.merchantId;
  await ctx.db.query('select pg_advisory_xact_lock($1, $2)', [BOOKING_LOCK, candidateId]);
  const a = await assessShift(ctx.db, merchantId, ctx.timeZone, shift, candidateId, ctx.today);
  const blocking = blockingChecks(a);
  if (blocking.length) {
    const words = blocking.map((c) => c.message).join(' ');
    // The bookings it clashes with go along, so the schedule can show one its filters hide.
    const clashes = blocking.flatMap((c) => (c.clash ? [c.clash] : []));
    throw new HttpError(
      409,
      `${a.name} cannot be booked on this shift. ${words}`,
      { candidate_id: words },
      clashes.length ? { clashes } : undefined,
    );
  }
  // Soft checks, and the hard ones an admin may override (pay below the legal minimum), need an admin's reason.
  const overridable = overridableChecks(a);
  let checks: Record<string, unknown> | null = null;
  if (overridable.length) {
    const words = overridable.map((c) => c.message).join(' ');
    if (ctx.principal.role !== 'admin')
      throw new HttpError(409, `${words} Only an admin can book ${a.name} anyway, with a reason.`, {
        candidate_id: words,
      });
    if (!overrideReason)
      throw new HttpError(422, `${words} Give a reason to book ${a.name} anyway.`, {
        override_reason: `${words} Give a reason to book them anyway.`,
      });
    checks = {
      overridden: overridable.map(({ code, message }) => ({ code, message })),
      by: ctx.principal.name,
      at: ctx.now.toISOString(),
    };
  }
  return { stored: { override_reason: checks ? overrideReason : null, booking_checks: checks }, facts: a.facts };
}

/**
 * A clash only the database sees (another booking not yet committed when the checks ran) refuses the engine's
 * write of the booking; this puts it in words, from the exclusion constraint's own report of it.
 */
async function doubleBooking(ctx: EngineContext, record: RecordValues, e: { code?: string; detail?: string }) {
  if (e.code !== '23P01' || record.candidate_id == null) return;
  const [who] = await ctx.db.query<{ name: string }>(
    `select first_name || ' ' || last_name as name from candidates where merchant_id = $1 and id = $2`,
    [ctx.principal.merchantId, record.candidate_id],
  );
  const name = who?.name ?? 'This staff member';
  // "… conflicts with existing key (…)=(1, 5, ["2026-12-01 08:00:00+00","2026-12-01 16:00:00+00"))."
  const clash = /existing key .*\["?([^",]+)"?,"?([^",)]+)"?\)\)/.exec(String(e.detail ?? ''));
  const range = clash && [
    Date.parse(clash[1].replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')),
    Date.parse(clash[2].replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')),
  ];
  const when =
    range && range.every(Number.isFinite)
      ? ` from ${describeShiftTimes(new Date(range[0]).toISOString(), new Date(range[1]).toISOString(), ctx.timeZone, formatDisplayDate).replace('–', ' to ')}`
      : ' at that time';
  return new HttpError(409, `${name} is already booked${when}.`, { candidate_id: `${name} is already booked${when}.` });
}

/**
 * A new price when the staff member changes (their own pay rate); the stored one stays if it can no longer be quoted.
 */
async function repriceOrKeep(ctx: EngineContext, shift: ShiftTimes, candidateId: number | null) {
  try {
    return await priceShift(ctx.db, ctx.principal.merchantId, shift, candidateId);
  } catch (e) {
    if (e instanceof HttpError && e.status === 422) return {};
    throw e;
  }
}

function checkTimes(start: string, end: string) {
  const ms = Date.parse(end) - Date.parse(start);
  if (ms <= 0)
    throw new HttpError(422, 'The shift must end after it starts.', { end: 'The shift must end after it starts.' });
  if (ms > DAY_MS)
    throw new HttpError(422, 'A shift lasts at most 24 hours.', { end: 'A shift lasts at most 24 hours.' });
}

interface ShiftNames {
  client: string;
  site: string;
  role: string;
  staff?: string | null;
}

/** The names a notification about a shift speaks of, read from the database (requests and cancellations). */
async function namesOf(ctx: EngineContext, row: Row): Promise<ShiftNames> {
  const [n] = await ctx.db.query<{ client: string; site: string; role: string; staff: string | null }>(
    `select cl.name as client, si.name as site, jr.name as role, c.first_name || ' ' || c.last_name as staff
       from shifts s join clients cl on cl.id = s.client_id join sites si on si.id = s.site_id join job_roles jr on jr.id = s.job_role_id
       left join candidates c on c.id = s.candidate_id where s.merchant_id = $1 and s.id = $2`,
    [ctx.principal.merchantId, row.id],
  );
  return n;
}

/** A notification's wording of a shift ('22 Nov 2026 20:00–08:00') and its e-mail placeholders. */
function noticeOf(n: ShiftNames, shift: { id?: number; start: string; end: string }, timeZone: string) {
  const from = instantToZoned(new Date(shift.start), timeZone);
  const to = instantToZoned(new Date(shift.end), timeZone);
  return {
    when: describeShiftTimes(shift.start, shift.end, timeZone, formatDisplayDate),
    data: {
      shift_id: shift.id,
      client_name: n.client,
      site_name: n.site,
      job_role: n.role,
      staff_name: n.staff ?? '',
      shift_date: formatDisplayDate(from.date),
      start_time: from.time,
      end_time: to.time,
    },
  };
}

/** Tells the agency, the client and the staff member booked (in their own words) that a shift was filled: assign,
 * or a drag onto another staff member. */
async function notifyFilled(ctx: EngineContext, clientId: number, shift: ShiftTimes, facts: StaffFacts) {
  const n = {
    client: facts.shift.clientName,
    site: facts.shift.siteName,
    role: facts.shift.jobRoleName,
    staff: facts.candidate.name,
  };
  const { when, data } = noticeOf(n, shift, ctx.timeZone);
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'shift.filled',
    title: 'Shift filled',
    body: `${n.staff} will work as ${n.role} at ${n.site} (${n.client}), ${when}.`,
    link: '/shift-list/assigned',
    clientLink: '/client/shift/assign-shift',
    data,
    audience: { agency: true, clientId, candidateId: facts.candidate.id },
    staffWords: {
      title: 'You are booked',
      body: `You are booked at ${n.site} (${n.client}) on ${when}, as ${n.role}.`,
    },
  });
}

/**
 * Tells the agency, the client and the staff member booked, if any, that a shift kept its staff member but moved
 * to other times (a drag on the schedule): the client's day and the worker's change as much as on a booking.
 */
async function notifyMoved(ctx: EngineContext, before: Row, after: Row) {
  const n = await namesOf(ctx, after);
  const was = noticeOf(n, shiftTimesOf(before), ctx.timeZone).when;
  const { when, data } = noticeOf(n, shiftTimesOf(after), ctx.timeZone);
  const booked = after.candidate_id != null ? Number(after.candidate_id) : null;
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'shift.moved',
    title: 'Shift moved',
    body: `The ${n.role} shift at ${n.site} (${n.client})${booked ? `, booked for ${n.staff},` : ''} has moved from ${was} to ${when}.`,
    link: booked ? '/shift-list/assigned' : '/shift-list/open',
    clientLink: booked ? '/client/shift/assign-shift' : '/client/shift/open-shift',
    audience: { agency: true, clientId: Number(after.client_id), candidateId: booked },
    data: { ...data, previous_when: was },
    staffWords: {
      title: 'Your shift has moved',
      body: `You are now booked at ${n.site} (${n.client}) on ${when}, as ${n.role}; it was ${was}.`,
    },
  });
}

/** What a staff member is told when they no longer work a shift. */
const offWords = (n: ShiftNames, when: string, why: string) => ({
  title: 'You are no longer booked',
  body: `You are no longer booked at ${n.site} (${n.client}) on ${when}: ${why}`,
});

/** Tells a staff member that they no longer work a shift (unassigned, or moved to someone else). */
async function notifyStaffOff(ctx: EngineContext, row: Row, candidateId: number, why: string) {
  const n = await namesOf(ctx, row);
  const { when, data } = noticeOf(n, shiftTimesOf(row), ctx.timeZone);
  const words = offWords(n, when, why);
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'shift.cancelled',
    ...words,
    link: null,
    audience: { candidateId },
    staffWords: words,
    data: { ...data, reason: why },
  });
}

const problem = (message: string) => ({ message });

/** An assign's or a move's reason to book despite the soft checks, when one was given. */
const overrideReasonOf = (input: RecordValues) =>
  typeof input.override_reason === 'string' ? input.override_reason : undefined;

/**
 * New shifts, one or many created together (their site within their client is declared): a client user's are
 * requests for their own client, each starting in the future, within the client's requests a day (counted once for
 * all of them); each is priced now, from one read of the rate cards and rules for all of them. Answers each
 * shift's problems by position.
 */
async function beforeCreate(ctx: EngineContext, events: SaveEvent[]): Promise<(Problems | undefined)[]> {
  const p = ctx.principal;
  const out: (Problems | undefined)[] = events.map(() => undefined);
  if (p.loginType === 'client') {
    for (const [i, { record }] of events.entries()) {
      record.requested_by_client = true;
      if (Number(record.client_id) !== p.clientId) out[i] = { client_id: problem('Choose your own organisation.') };
      else if (Date.parse(textOf(record.start_at)) < ctx.now.getTime())
        out[i] = { start_at: problem('A requested shift must start in the future.') };
    }
    if (out.some(Boolean)) return out;
    await checkShiftRequestQuota(ctx, p.clientId!, events.length);
  }
  const prices = await priceShifts(
    ctx.db,
    p.merchantId,
    events.map((e) => shiftTimesOf(e.record)),
    null,
  );
  for (const [i, price] of prices.entries()) {
    if (!(price instanceof HttpError)) Object.assign(events[i].record, price, { created_by: p.name });
    else if (price.status === 422 && price.errors)
      out[i] = Object.fromEntries(Object.entries(price.errors).map(([k, v]) => [k, problem(v)]));
    else throw price;
  }
  return out;
}

/**
 * Tells the agency of shifts a client requested: one in full ('Meadowbank asks for a nurse at Main House, 22 Nov
 * 2026 08:00–16:00'); several created together in one notice per site, role and times, their dates said once.
 */
async function notifyRequested(ctx: EngineContext, rows: Row[]) {
  const merchantId = ctx.principal.merchantId;
  if (rows.length === 1) {
    const n = await namesOf(ctx, rows[0]);
    const { when, data } = noticeOf(n, shiftTimesOf(rows[0]), ctx.timeZone);
    await notify(ctx.db, {
      merchantId,
      event: 'shift.requested',
      title: 'Shift requested',
      body: `${n.client} asks for ${article(n.role)} at ${n.site}, ${when}.`,
      link: '/shift-list/open',
      clientLink: '/client/shift/open-shift',
      audience: { agency: true },
      data,
    });
    return;
  }
  const [names] = await ctx.db.query<Record<'clients' | 'sites' | 'roles', Record<string, string>>>(
    `select (select json_object_agg(id, name) from clients where merchant_id = $1 and id = any($2::int[])) as clients,
            (select json_object_agg(id, name) from sites where merchant_id = $1 and id = any($3::int[])) as sites,
            (select json_object_agg(id, name) from job_roles where merchant_id = $1 and id = any($4::int[])) as roles`,
    [merchantId, ...(['client_id', 'site_id', 'job_role_id'] as const).map((k) => [...new Set(rows.map((r) => r[k]))])],
  );
  const groups = new Map<string, { row: Row; from: string; to: string; dates: Set<string>; ids: number[] }>();
  for (const row of rows) {
    const start = instantToZoned(new Date(iso(row.start_at)), ctx.timeZone);
    const to = instantToZoned(new Date(iso(row.end_at)), ctx.timeZone).time;
    const key = [row.client_id, row.site_id, row.job_role_id, start.time, to].join('|');
    if (!groups.has(key)) groups.set(key, { row, from: start.time, to, dates: new Set(), ids: [] });
    groups.get(key)!.dates.add(start.date);
    groups.get(key)!.ids.push(Number(row.id));
  }
  for (const g of groups.values()) {
    const n = g.ids.length;
    const shifts = `${n} ${names.roles?.[g.row.job_role_id]} shift${n === 1 ? '' : 's'}`;
    const dates = describeDates([...g.dates].sort(), formatDisplayDate);
    await notify(ctx.db, {
      merchantId,
      event: 'shift.requested',
      title: 'Shifts requested',
      body: `${ctx.principal.name} (${names.clients?.[g.row.client_id]}) requests ${shifts} at ${names.sites?.[g.row.site_id]} ${dates}, ${g.from}–${g.to}.`,
      link: '/shift-list/open',
      audience: { agency: true },
      data: { shift_ids: g.ids },
    });
  }
}
const sentenceOf = (text: string) =>
  String(text ?? '')
    .trim()
    .replace(/[.!?]$/, '');
const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/**
 * Paid hours from paid minutes, as a float8 division: the same value JavaScript's minutes / 60 gives (numeric's
 * `/ 60.0` then a cast differed in the last digit for some odd minutes, 62 among them), and cheap enough to sum over a
 * year of shifts: the numeric division was about half a report's CPU at a million shifts (docs/decisions.md
 * "Issue 34 — the dashboard and reports at a million shifts"). Shifts, timesheets and their lines read it.
 */
export const HOURS_OF_PAID_MINUTES = '(paid_minutes / 60::float8)';

export const shiftsBehaviour: ResourceBehaviour = {
  computed: {
    // A shift that ended with nobody booked was never worked: 'unfilled', not 'open'.
    state: () =>
      `case when deleted_at is not null then 'deleted' when status = 'open' and end_at <= now() then 'unfilled' else status end`,
    candidate_name: () =>
      `(select c.first_name || ' ' || c.last_name from candidates c where c.merchant_id = shifts.merchant_id and c.id = shifts.candidate_id)`,
    hours: () => HOURS_OF_PAID_MINUTES,
    cancellation_hours: () => `(cancellation_minutes / 60::float8)`,
    // The shift's name (titles, references, refusals): when, on the agency's clock, and where.
    summary:
      () => `(select to_char(shifts.start_at at time zone m.time_zone, 'FMDD Mon YYYY, HH24:MI') || ' at ' || si.name
      from merchants m, sites si where m.id = shifts.merchant_id and si.merchant_id = shifts.merchant_id and si.id = shifts.site_id)`,
    // The phone page's where and what (staff only: the panels read the references).
    site_name: () =>
      `(select si.name from sites si where si.merchant_id = shifts.merchant_id and si.id = shifts.site_id)`,
    site_address: () =>
      `(select si.address from sites si where si.merchant_id = shifts.merchant_id and si.id = shifts.site_id)`,
    job_role_name: () =>
      `(select j.name from job_roles j where j.merchant_id = shifts.merchant_id and j.id = shifts.job_role_id)`,
  },
  computedFilters: {
    state: (value, bind) =>
      value === 'deleted'
        ? 'deleted_at is not null'
        : value === 'unfilled'
          ? `status = 'open' and end_at <= now() and deleted_at is null`
          : `status = ${bind(value)} and deleted_at is null`,
  },

  async beforeSave(ctx, e): Promise<Problems | void> {
    if (!e.stored) return (await beforeCreate(ctx, [e]))[0];
  },
  beforeSaveMany: beforeCreate,

  async afterSave(ctx, { stored, row, action }) {
    const merchantId = ctx.principal.merchantId;
    if (!stored && row.requested_by_client) await notifyRequested(ctx, [row]);
    if (action === 'cancel') {
      const n = await namesOf(ctx, row);
      const { when, data } = noticeOf(n, shiftTimesOf(row), ctx.timeZone);
      const charge = row.cancellation_charge
        ? ` A late-cancellation charge of ${formatPounds(Number(row.cancellation_charge))} applies.`
        : '';
      const asked =
        row.cancel_requested_by === 'agency'
          ? ''
          : row.cancel_requested_by === 'no_show'
            ? ' because the staff member did not turn up'
            : ` at the ${row.cancel_requested_by === 'worker' ? 'staff member' : 'client'}’s request`;
      // The staff member booked, if any, is told in their own words (and never of the client's charge).
      const booked = stored?.status === 'assigned' && row.candidate_id != null ? Number(row.candidate_id) : null;
      await notify(ctx.db, {
        merchantId,
        event: 'shift.cancelled',
        title: 'Shift cancelled',
        body: `The ${n.role} shift at ${n.site} (${n.client}), ${when}, was cancelled by ${ctx.principal.name}${asked}: ${asSentence(textOf(row.cancel_reason))}${charge}`,
        link: '/shift-list/deleted',
        clientLink: '/client/shift/deleted-shift',
        audience: { agency: true, clientId: Number(row.client_id), candidateId: booked },
        data: { ...data, reason: row.cancel_reason },
        staffWords: offWords(n, when, `the shift was cancelled (${sentenceOf(textOf(row.cancel_reason))}).`),
      });
    }
    if (action === 'unassign' && stored?.candidate_id != null)
      await notifyStaffOff(ctx, stored, Number(stored.candidate_id), 'you were taken off the shift.');
    if (action === 'move' && stored) {
      const sameStaff =
        (stored.candidate_id == null ? null : Number(stored.candidate_id)) ===
        (row.candidate_id == null ? null : Number(row.candidate_id));
      // Given to someone else: the one taken off is told here, the one booked (and the client) by the booking.
      if (!sameStaff && stored.candidate_id != null)
        await notifyStaffOff(ctx, stored, Number(stored.candidate_id), 'the shift was given to someone else.');
      const retimed = iso(stored.start_at) !== iso(row.start_at) || iso(stored.end_at) !== iso(row.end_at);
      if (sameStaff && retimed) await notifyMoved(ctx, stored, row);
    }
  },

  async afterSaveMany(ctx, events) {
    const requested = events.filter((e) => e.row.requested_by_client).map((e) => e.row);
    if (requested.length) await notifyRequested(ctx, requested);
  },

  refusedByDatabase: (ctx, e, error) => doubleBooking(ctx, e.record, error),

  actions: {
    async assign(ctx, record, input) {
      const shift = shiftTimesOf(record);
      const candidateId = Number(input.candidate_id);
      const { stored, facts } = await book(ctx, shift, candidateId, overrideReasonOf(input));
      await notifyFilled(ctx, shift.client_id, shift, facts);
      // Their own pay rates or another employment (no PAYE on-costs) change the price; otherwise it stands as quoted.
      return { ...stored, ...(facts.pricedAsCard ? {} : await repriceOrKeep(ctx, shift, candidateId)) };
    },

    async unassign(ctx, record) {
      return repriceOrKeep(ctx, shiftTimesOf(record), null);
    },

    /** A shift is closed (worked, ready for its timesheet) once it has ended. */
    async close(ctx, record) {
      if (Date.parse(iso(record.end_at)) > ctx.now.getTime()) {
        const when = describeShiftTimes(iso(record.start_at), iso(record.end_at), ctx.timeZone, formatDisplayDate);
        throw new HttpError(409, `Shift ${record.id} (${when}) has not ended yet; close it once it has been worked.`);
      }
    },

    async cancel(ctx, record, input) {
      const p = ctx.principal;
      if (input.waive_charge && p.loginType !== 'agency')
        throw new HttpError(422, 'Only the agency can waive a late-cancellation charge.', {
          waive_charge: 'Only the agency can waive a late-cancellation charge.',
        });
      const at = ctx.now.toISOString();
      const requestedBy = requestedByOf(ctx, input);
      const outcome = await cancellationCharge(ctx.db, p.merchantId, record, at, requestedBy, p.loginType === 'client');
      if (!outcome.allowed) throw new HttpError(409, outcome.reason);
      const rule = outcome.late;
      const late = input.waive_charge ? null : rule;
      return {
        cancelled_at: at,
        cancelled_by: p.name,
        cancel_requested_by: requestedBy,
        cancellation_minutes: late ? Math.round(late.hours * 60) : null,
        cancellation_charge: late ? late.charge : null,
        cancellation_rule_charge: rule ? rule.charge : null,
        // What the agency's rule pays the worker, priced now as the charge is; paid only while the client is charged.
        cancellation_pay: rule && rule.pay > 0 ? rule.pay : null,
        cancellation_pay_hours: rule && rule.pay > 0 ? rule.payHours : null,
        cancellation_charge_reason: rule && input.waive_charge ? `Waived when cancelled: ${input.reason}` : null,
        cancellation_charge_changed_by: rule && input.waive_charge ? p.name : null,
      };
    },

    /** The agency waives (0) or changes a cancellation's charge, with its reason; the rule's own charge is kept. */
    async change_charge(ctx, record, input) {
      const charge = Number(input.charge);
      return {
        cancellation_charge: charge > 0 ? charge : null,
        cancellation_rule_charge: record.cancellation_rule_charge ?? record.cancellation_charge ?? null,
        cancellation_charge_reason: input.reason,
        cancellation_charge_changed_by: ctx.principal.name,
      };
    },

    /** A drag on the schedule: new times, perhaps another staff member; the checks run again for whoever is booked. */
    async move(ctx, record, input) {
      const start = iso(input.start);
      const end = iso(input.end);
      checkTimes(start, end);
      const moved = { ...shiftTimesOf(record), start, end };
      const candidateId =
        input.candidate_id != null
          ? Number(input.candidate_id)
          : record.candidate_id != null
            ? Number(record.candidate_id)
            : null;
      const priced = await priceShift(ctx.db, ctx.principal.merchantId, moved, candidateId);
      if (candidateId === null) return { start_at: start, end_at: end, ...priced };
      const shift = { ...moved, paid_minutes: priced.paid_minutes, price_lines: priced.price_lines };
      const { stored, facts } = await book(ctx, shift, candidateId, overrideReasonOf(input));
      // The same staff member at new times is told with the client, after the save (afterSave, notifyMoved).
      if (Number(record.candidate_id) !== candidateId) await notifyFilled(ctx, shift.client_id, shift, facts);
      return { start_at: start, end_at: end, status: 'assigned', candidate_id: candidateId, ...stored, ...priced };
    },
  },
};

/**
 * A shift still to be worked keeps its client, site and staff member: deleting one of them is refused, listing the
 * shifts, until they are cancelled, unassigned or deleted (each with its own audit entry and notifications).
 * Worked, cancelled and deleted shifts keep the deleted record for the history.
 */
const UPCOMING = `deleted_at is null and end_at > now()`;
const upcoming = (n: number, state: string) =>
  n === 1 ? `a future shift is ${state}` : `${n} future shifts are ${state}`;
const shiftDeleteBlockers: ResourceBehaviour['deleteBlockers'] = {
  candidate_id: {
    where: `${UPCOMING} and status = 'assigned'`,
    describe: (n) => upcoming(n, 'booked for them'),
    advice: 'Unassign or cancel them first.',
  },
  client_id: {
    where: `${UPCOMING} and status in ('open', 'assigned')`,
    describe: (n) => upcoming(n, 'still on the schedule'),
    advice: 'Cancel or delete them first.',
  },
  site_id: {
    where: `${UPCOMING} and status in ('open', 'assigned')`,
    describe: (n) => upcoming(n, 'still on the schedule there'),
    advice: 'Cancel or delete them first.',
  },
};

export const shiftBehaviours: Record<string, ResourceBehaviour> = {
  shifts: { ...shiftsBehaviour, deleteBlockers: shiftDeleteBlockers },
  shift_requests: shiftRequestsBehaviour,
};
