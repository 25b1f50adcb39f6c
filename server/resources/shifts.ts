import type { Queryable, Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import type { Problems } from '../../core/engine/validate.js';
import { assessBooking, blockingChecks, localDates, overridableChecks, type BookingAssessment, type BookingFacts } from '../../core/domain/booking/checks.js';
import { wageFloorTable } from '../../core/domain/pricing/oncosts.js';
import { BANDS } from '../../core/domain/pricing/types.js';
import { describeShiftTimes } from '../../core/domain/shifts/times.js';
import { agencyToday, formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime.js';
import { lateCancellation, quoteShift } from './rates.js';
import { cancellationTerms, type CancelParty } from '../../core/domain/pricing/price.js';
import { notify } from '../notifications/notify.js';
import { checkShiftRequestQuota } from './shiftRequests.js';
import { asSentence } from '../../core/engine/text.js';

/** A shift as the booking checks and pricing read it. */
export interface ShiftTimes {
  id?: number;
  client_id: number;
  site_id: number;
  job_role_id: number;
  start: string;
  end: string;
  break_minutes?: number | null;
  sleep_in?: boolean;
  /** As priced for these times (the week's hours count paid time). */
  paid_minutes?: number | null;
  /** As priced for these times (the minimum-wage check reads the pay per band). */
  price_lines?: BookingFacts['shift']['price_lines'];
}

const iso = (v: unknown) => new Date(v as string).toISOString();
export const shiftTimesOf = (r: Row): ShiftTimes => ({
  id: r.id,
  client_id: Number(r.client_id),
  site_id: Number(r.site_id),
  job_role_id: Number(r.job_role_id),
  start: iso(r.start_at),
  end: iso(r.end_at),
  break_minutes: r.break_minutes,
  sleep_in: r.sleep_in,
  paid_minutes: r.paid_minutes ?? null,
  price_lines: typeof r.price_lines === 'string' ? JSON.parse(r.price_lines) : (r.price_lines ?? null),
});

/** The booking facts of a staff member, and whether their pay is the card's (no own rates, PAYE on-costs). */
export type StaffFacts = BookingFacts & { pricedAsCard: boolean };

const DAY_MS = 24 * 3600_000;
/** Other shifts the checks read: from before the 17-week reference period (and a night overlapping the start) to a week after. */
const HISTORY_MS = 18 * 7 * DAY_MS;
const AHEAD_MS = 8 * DAY_MS;

/**
 * Everything the booking checks need about a shift and each of the given staff members, in one statement: the
 * staff member, the agency's document categories and their current documents, their restrictions at the client,
 * their assigned and closed shifts from 18 weeks before to a week after, their availability on the shift's dates,
 * their preferences, and the weeks they worked at this client in this role (the AWR count). Staff members who
 * are not the agency's are absent from the answer.
 */
export async function loadBookingFacts(db: Queryable, merchantId: number, timeZone: string, shift: ShiftTimes, candidateIds: number[]): Promise<Map<number, StaffFacts>> {
  const start = Date.parse(shift.start);
  const dates = localDates(shift, timeZone);
  const rows = await db.query(
    `select c.id, c.first_name, c.last_name, c.status, c.activated, c.job_role_id, jr.name as job_role_name,
       (select coalesce(json_agg(json_build_object('id', d.id, 'document_category_id', d.document_category_id, 'status', d.status, 'expiry_date', d.expiry_date, 'superseded', false)), '[]'::json)
          from candidate_documents d where d.merchant_id = $1 and d.candidate_id = c.id and d.deleted_at is null and d.current) as documents,
       (select coalesce(json_agg(json_build_object('client_id', r.client_id, 'site_id', r.site_id, 'reason', r.reason)), '[]'::json)
          from candidate_restrictions r where r.merchant_id = $1 and r.candidate_id = c.id and r.client_id = $3) as restrictions,
       (select coalesce(json_agg(json_build_object('id', o.id, 'client_id', o.client_id, 'site_id', o.site_id, 'job_role_id', o.job_role_id, 'start', o.start_at, 'end', o.end_at, 'paid_minutes', o.paid_minutes)), '[]'::json)
          from shifts o where o.merchant_id = $1 and o.candidate_id = c.id and o.status in ('assigned', 'closed') and o.deleted_at is null
           and o.start_at >= $6 and o.start_at < $7 and o.id <> $8) as other_shifts,
       (select coalesce(json_agg(json_build_object('date', a.date, 'status', a.status)), '[]'::json)
          from availability a where a.merchant_id = $1 and a.candidate_id = c.id and a.date = any($9::date[])) as availability,
       (select json_build_object('max_hours_per_week', p.max_hours_per_week, 'opted_out_48h', p.opted_out_48h)
          from candidate_preferences p where p.merchant_id = $1 and p.candidate_id = c.id) as preferences,
       (select coalesce(json_agg(json_build_object('start', w.first, 'end', w.first)), '[]'::json) from (
          select min(o.start_at) as first from shifts o
           where o.merchant_id = $1 and o.candidate_id = c.id and o.client_id = $3 and o.job_role_id = $5 and o.status in ('assigned', 'closed')
             and o.deleted_at is null and o.start_at < $10 and o.id <> $8
           group by date_trunc('week', o.start_at at time zone $11)) w) as awr_weeks,
       exists (select 1 from candidate_rates cr where cr.merchant_id = $1 and cr.candidate_id = c.id) as own_rates,
       c.date_of_birth::text as date_of_birth,
       (select row_to_json(cr) from candidate_rates cr
         where cr.merchant_id = $1 and cr.candidate_id = c.id and (cr.job_role_id = $5 or cr.job_role_id is null) and cr.effective_from <= $12::date
         order by cr.job_role_id nulls last, cr.effective_from desc limit 1) as own_pay,
       (select coalesce(json_agg(json_build_object('effective_from', w.effective_from, 'min_age', w.min_age, 'hourly', w.hourly)), '[]'::json)
          from wage_floors w where w.merchant_id = $1) as floors,
       coalesce((select et.paye from employment_types et where et.merchant_id = $1 and et.id = c.employment_type_id), true) as paye,
       cat.categories, names.client_name, names.site_name, names.shift_role_name
     from candidates c
     left join job_roles jr on jr.merchant_id = c.merchant_id and jr.id = c.job_role_id
     cross join (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'mandatory', mandatory, 'job_role_ids', job_role_ids)), '[]'::json) as categories
                   from document_categories where merchant_id = $1) cat
     cross join (select (select name from clients where merchant_id = $1 and id = $3) as client_name,
                        (select name from sites where merchant_id = $1 and id = $4) as site_name,
                        (select name from job_roles where merchant_id = $1 and id = $5) as shift_role_name) names
    where c.merchant_id = $1 and c.id = any($2::int[]) and c.deleted_at is null`,
    [merchantId, candidateIds, shift.client_id, shift.site_id, shift.job_role_id, new Date(start - HISTORY_MS).toISOString(), new Date(start + AHEAD_MS).toISOString(), shift.id ?? 0, dates, shift.start, timeZone, dates[0]],
  );
  const out = new Map<number, StaffFacts>();
  const today = agencyToday(timeZone);
  for (const r of rows) {
    out.set(Number(r.id), {
      timeZone,
      today,
      shift: { id: shift.id, client_id: shift.client_id, site_id: shift.site_id, job_role_id: shift.job_role_id, start: shift.start, end: shift.end, paid_minutes: shift.paid_minutes ?? null, price_lines: shift.price_lines ?? null, clientName: r.client_name, siteName: r.site_name, jobRoleName: r.shift_role_name },
      candidate: { id: Number(r.id), name: `${r.first_name} ${r.last_name}`, status: r.status, activated: r.activated, job_role_id: r.job_role_id == null ? null : Number(r.job_role_id), jobRoleName: r.job_role_name },
      compliance: { categories: r.categories, documents: r.documents },
      restrictions: r.restrictions,
      otherShifts: r.other_shifts,
      availability: r.availability,
      preferences: r.preferences,
      awrShifts: r.awr_weeks,
      wage: {
        covered: !!r.paye,
        dateOfBirth: r.date_of_birth ?? null,
        floors: wageFloorTable(r.floors),
        ownPay: r.own_pay ? Object.fromEntries(BANDS.map((b) => [b, r.own_pay[`pay_${b}`] == null ? null : Number(r.own_pay[`pay_${b}`])])) : null,
      },
      pricedAsCard: !r.own_rates && r.paye,
    });
  }
  return out;
}

const staffNotFound = () => new HttpError(422, 'Choose a staff member of the agency.', { candidate_id: 'Choose a staff member of the agency.' });

/** The booking checks of one staff member on a shift (422 when they are not the agency's). */
export async function assessShift(db: Queryable, merchantId: number, timeZone: string, shift: ShiftTimes, candidateId: number): Promise<BookingAssessment & { name: string; facts: StaffFacts }> {
  const facts = (await loadBookingFacts(db, merchantId, timeZone, shift, [candidateId])).get(candidateId);
  if (!facts) throw staffNotFound();
  return { ...assessBooking(facts), name: facts.candidate.name, facts };
}

// Bookings of one staff member are taken one at a time (per agency and staff member), so that the rest and
// weekly-hours checks of two simultaneous bookings each see the other. The exclusion constraint stays the guarantee.
const BOOKING_LOCK = 8008;

/**
 * Books a staff member on a shift inside the action's transaction: the checks (hard refused; soft refused unless
 * an admin gives a reason), then the database's word on double booking, whose refusal becomes a 409 in words.
 * Answers what the action stores about the checks, and the facts it read.
 */
async function book(ctx: EngineContext, shift: ShiftTimes, candidateId: number, overrideReason: string | null | undefined) {
  const merchantId = ctx.principal.merchantId;
  await ctx.db.query('select pg_advisory_xact_lock($1, $2)', [BOOKING_LOCK, candidateId]);
  const a = await assessShift(ctx.db, merchantId, ctx.timeZone, shift, candidateId);
  const blocking = blockingChecks(a);
  if (blocking.length) {
    const words = blocking.map((c) => c.message).join(' ');
    // The bookings it clashes with go along, so the schedule can show one its filters hide.
    const clashes = blocking.flatMap((c) => (c.clash ? [c.clash] : []));
    throw new HttpError(409, `${a.name} cannot be booked on this shift. ${words}`, { candidate_id: words }, clashes.length ? { clashes } : undefined);
  }
  // Soft checks, and the hard ones an admin may override (pay below the legal minimum), need an admin's reason.
  const overridable = overridableChecks(a);
  let checks: Record<string, unknown> | null = null;
  if (overridable.length) {
    const words = overridable.map((c) => c.message).join(' ');
    if (ctx.principal.role !== 'admin') throw new HttpError(409, `${words} Only an admin can book ${a.name} anyway, with a reason.`, { candidate_id: words });
    if (!overrideReason) throw new HttpError(422, `${words} Give a reason to book ${a.name} anyway.`, { override_reason: `${words} Give a reason to book them anyway.` });
    checks = { overridden: overridable.map(({ code, message }) => ({ code, message })), by: ctx.principal.name, at: new Date().toISOString() };
  }
  await claimTimes(ctx, shift, candidateId, a.name);
  return { stored: { override_reason: checks ? overrideReason : null, booking_checks: checks }, facts: a.facts };
}

/**
 * Writes the booking ahead of the engine's own write, so that a clash only the database sees (another booking
 * not yet committed when the checks ran) is refused here, in words, from the constraint's own report of it.
 */
async function claimTimes(ctx: EngineContext, shift: ShiftTimes, candidateId: number, name: string) {
  try {
    await ctx.db.query(
      `update shifts set status = 'assigned', candidate_id = $3, start_at = $4, end_at = $5 where merchant_id = $1 and id = $2`,
      [ctx.principal.merchantId, shift.id, candidateId, shift.start, shift.end],
    );
  } catch (e) {
    if ((e as { code?: string }).code !== '23P01') throw e;
    // "… conflicts with existing key (…)=(1, 5, ["2026-12-01 08:00:00+00","2026-12-01 16:00:00+00"))."
    const clash = /existing key .*\["?([^",]+)"?,"?([^",)]+)"?\)\)/.exec(String((e as { detail?: string }).detail ?? ''));
    const range = clash && [Date.parse(clash[1].replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')), Date.parse(clash[2].replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'))];
    const when = range && range.every(Number.isFinite)
      ? ` from ${describeShiftTimes(new Date(range[0]).toISOString(), new Date(range[1]).toISOString(), ctx.timeZone, formatDisplayDate).replace('–', ' to ')}`
      : ' at that time';
    throw new HttpError(409, `${name} is already booked${when}.`, { candidate_id: `${name} is already booked${when}.` });
  }
}

/** Where the quote's field names differ from the shift's. */
const QUOTE_FIELDS: Record<string, string> = { start: 'start_at', end: 'end_at' };

/** The stored price of a shift: quoted pay, charge, on-costs and margin, with its lines (pence). */
export async function priceShift(db: Queryable, merchantId: number, shift: ShiftTimes, candidateId: number | null) {
  try {
    const q = await quoteShift(db, merchantId, { client_id: shift.client_id, site_id: shift.site_id, job_role_id: shift.job_role_id, candidate_id: candidateId, start: shift.start, end: shift.end, break_minutes: shift.break_minutes ?? null, sleep_in: !!shift.sleep_in });
    return {
      paid_minutes: Math.round(q.totals.hours * 60),
      pay: q.totals.pay,
      charge: q.totals.charge,
      on_costs: q.on_costs,
      margin: q.totals.charge - q.totals.pay - q.on_costs,
      price_lines: q.lines,
      rate_card_id: q.rate_card_id,
    };
  } catch (e) {
    if (e instanceof HttpError && e.errors) throw new HttpError(e.status, e.message, Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [QUOTE_FIELDS[k] ?? k, v])));
    throw e;
  }
}

/** A new price when the staff member changes (their own pay rate); the stored one stays if it can no longer be quoted. */
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
  if (ms <= 0) throw new HttpError(422, 'The shift must end after it starts.', { end: 'The shift must end after it starts.' });
  if (ms > DAY_MS) throw new HttpError(422, 'A shift lasts at most 24 hours.', { end: 'A shift lasts at most 24 hours.' });
}

/**
 * What cancelling a shift at `at`, at the request of `requestedBy`, would do: refused (with the reason in words), or
 * allowed with the client's late-cancellation charge when the rule applies to it (null: no charge).
 */
export async function cancellationCharge(db: Queryable, merchantId: number, r: Row, at: string, requestedBy: CancelParty, byClientUser: boolean) {
  const s = shiftTimesOf(r);
  const terms = cancellationTerms({ start: s.start, end: s.end, at, booked: r.status === 'assigned' && r.candidate_id != null, requestedBy, byClientUser });
  if (!terms.allowed) return { allowed: false as const, reason: terms.reason, late: null };
  const late = terms.chargeable ? await lateCancellation(db, merchantId, { ...s, candidate_id: r.candidate_id ?? null }, at) : null;
  return { allowed: true as const, reason: null, late };
}

/** Who asked for a cancellation: a client's user always speaks for the client; an agency user says (the agency by default). */
export function requestedByOf(ctx: EngineContext, input: Record<string, any>): CancelParty {
  if (ctx.principal.loginType === 'client') return 'client';
  return (input.requested_by as CancelParty | null) ?? 'agency';
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
    data: { shift_id: shift.id, client_name: n.client, site_name: n.site, job_role: n.role, staff_name: n.staff ?? '', shift_date: formatDisplayDate(from.date), start_time: from.time, end_time: to.time },
  };
}

/** Tells the agency, the client and the staff member booked (in their own words) that a shift was filled: assign,
 * or a drag onto another staff member. */
async function notifyFilled(ctx: EngineContext, clientId: number, shift: ShiftTimes, facts: StaffFacts) {
  const n = { client: facts.shift.clientName, site: facts.shift.siteName, role: facts.shift.jobRoleName, staff: facts.candidate.name };
  const { when, data } = noticeOf(n, shift, ctx.timeZone);
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId, event: 'shift.filled', title: 'Shift filled', body: `${n.staff} will work as ${n.role} at ${n.site} (${n.client}), ${when}.`,
    link: '/shift-list/assigned', clientLink: '/client/shift/assign-shift', data,
    audience: { agency: true, clientId, candidateId: facts.candidate.id },
    staffWords: { title: 'You are booked', body: `You are booked at ${n.site} (${n.client}) on ${when}, as ${n.role}.` },
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
    merchantId: ctx.principal.merchantId, event: 'shift.moved', title: 'Shift moved',
    body: `The ${n.role} shift at ${n.site} (${n.client})${booked ? `, booked for ${n.staff},` : ''} has moved from ${was} to ${when}.`,
    link: booked ? '/shift-list/assigned' : '/shift-list/open', clientLink: booked ? '/client/shift/assign-shift' : '/client/shift/open-shift',
    audience: { agency: true, clientId: Number(after.client_id), candidateId: booked },
    data: { ...data, previous_when: was },
    staffWords: { title: 'Your shift has moved', body: `You are now booked at ${n.site} (${n.client}) on ${when}, as ${n.role}; it was ${was}.` },
  });
}

/** What a staff member is told when they no longer work a shift. */
const offWords = (n: ShiftNames, when: string, why: string) => ({ title: 'You are no longer booked', body: `You are no longer booked at ${n.site} (${n.client}) on ${when}: ${why}` });

/** Tells a staff member that they no longer work a shift (unassigned, or moved to someone else). */
async function notifyStaffOff(ctx: EngineContext, row: Row, candidateId: number, why: string) {
  const n = await namesOf(ctx, row);
  const { when, data } = noticeOf(n, shiftTimesOf(row), ctx.timeZone);
  const words = offWords(n, when, why);
  await notify(ctx.db, { merchantId: ctx.principal.merchantId, event: 'shift.cancelled', ...words, link: null, audience: { candidateId }, staffWords: words, data: { ...data, reason: why } });
}

const problem = (message: string) => ({ message });
const sentenceOf = (text: string) => String(text ?? '').trim().replace(/[.!?]$/, '');
const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

export const shiftsBehaviour: ResourceBehaviour = {
  computed: {
    // A shift that ended with nobody booked was never worked: 'unfilled', not 'open'.
    state: () => `case when deleted_at is not null then 'deleted' when status = 'open' and end_at <= now() then 'unfilled' else status end`,
    candidate_name: () => `(select c.first_name || ' ' || c.last_name from candidates c where c.merchant_id = shifts.merchant_id and c.id = shifts.candidate_id)`,
    hours: () => `(paid_minutes / 60.0)::float8`,
    cancellation_hours: () => `(cancellation_minutes / 60.0)::float8`,
    // The shift's name (titles, references, refusals): when, on the agency's clock, and where.
    summary: () => `(select to_char(shifts.start_at at time zone m.time_zone, 'FMDD Mon YYYY, HH24:MI') || ' at ' || si.name
      from merchants m, sites si where m.id = shifts.merchant_id and si.merchant_id = shifts.merchant_id and si.id = shifts.site_id)`,
  },
  computedFilters: {
    state: (value, bind) =>
      value === 'deleted' ? 'deleted_at is not null' : value === 'unfilled' ? `status = 'open' and end_at <= now() and deleted_at is null` : `status = ${bind(value)} and deleted_at is null`,
  },

  /** A new shift: its site must be the client's; a client user's is a request for their own client; it is priced now. */
  async beforeSave(ctx, { stored, record }): Promise<Problems | void> {
    if (stored) return;
    const p = ctx.principal;
    if (p.loginType === 'client') {
      record.requested_by_client = true;
      if (Number(record.client_id) !== p.clientId) return { client_id: problem('Choose your own organisation.') };
      if (Date.parse(record.start_at) < Date.now()) return { start_at: problem('A requested shift must start in the future.') };
      await checkShiftRequestQuota(ctx, p.clientId!, 1);
    }
    record.created_by = p.name;
    const [site] = await ctx.db.query('select client_id from sites where merchant_id = $1 and id = $2 and deleted_at is null', [p.merchantId, record.site_id]);
    if (!site || Number(site.client_id) !== Number(record.client_id)) return { site_id: problem('Choose one of the client’s sites.') };
    try {
      Object.assign(record, await priceShift(ctx.db, p.merchantId, shiftTimesOf(record), null));
    } catch (e) {
      if (e instanceof HttpError && e.status === 422 && e.errors) return Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, problem(v)]));
      throw e;
    }
  },

  async afterSave(ctx, { stored, row, action }) {
    const merchantId = ctx.principal.merchantId;
    if (!stored && row.requested_by_client) {
      const n = await namesOf(ctx, row);
      const { when, data } = noticeOf(n, shiftTimesOf(row), ctx.timeZone);
      await notify(ctx.db, { merchantId, event: 'shift.requested', title: 'Shift requested', body: `${n.client} asks for ${article(n.role)} at ${n.site}, ${when}.`, link: '/shift-list/open', clientLink: '/client/shift/open-shift', audience: { agency: true }, data });
    }
    if (action === 'cancel') {
      const n = await namesOf(ctx, row);
      const { when, data } = noticeOf(n, shiftTimesOf(row), ctx.timeZone);
      const charge = row.cancellation_charge ? ` A late-cancellation charge of £${(Number(row.cancellation_charge) / 100).toFixed(2)} applies.` : '';
      const asked = row.cancel_requested_by === 'agency' ? '' : ` at the ${row.cancel_requested_by === 'worker' ? 'staff member' : 'client'}’s request`;
      // The staff member booked, if any, is told in their own words (and never of the client's charge).
      const booked = stored?.status === 'assigned' && row.candidate_id != null ? Number(row.candidate_id) : null;
      await notify(ctx.db, {
        merchantId, event: 'shift.cancelled', title: 'Shift cancelled', body: `The ${n.role} shift at ${n.site} (${n.client}), ${when}, was cancelled by ${ctx.principal.name}${asked}: ${asSentence(row.cancel_reason)}${charge}`,
        link: '/shift-list/deleted', clientLink: '/client/shift/deleted-shift', audience: { agency: true, clientId: Number(row.client_id), candidateId: booked }, data: { ...data, reason: row.cancel_reason },
        staffWords: offWords(n, when, `the shift was cancelled (${sentenceOf(row.cancel_reason)}).`),
      });
    }
    if (action === 'unassign' && stored?.candidate_id != null) await notifyStaffOff(ctx, stored, Number(stored.candidate_id), 'you were taken off the shift.');
    if (action === 'move' && stored) {
      const sameStaff = (stored.candidate_id == null ? null : Number(stored.candidate_id)) === (row.candidate_id == null ? null : Number(row.candidate_id));
      // Given to someone else: the one taken off is told here, the one booked (and the client) by the booking.
      if (!sameStaff && stored.candidate_id != null) await notifyStaffOff(ctx, stored, Number(stored.candidate_id), 'the shift was given to someone else.');
      const retimed = iso(stored.start_at) !== iso(row.start_at) || iso(stored.end_at) !== iso(row.end_at);
      if (sameStaff && retimed) await notifyMoved(ctx, stored, row);
    }
  },

  actions: {
    async assign(ctx, record, input) {
      const shift = shiftTimesOf(record);
      const candidateId = Number(input.candidate_id);
      const { stored, facts } = await book(ctx, shift, candidateId, input.override_reason);
      await notifyFilled(ctx, shift.client_id, shift, facts);
      // Their own pay rates or another employment (no PAYE on-costs) change the price; otherwise it stands as quoted.
      return { ...stored, ...(facts.pricedAsCard ? {} : await repriceOrKeep(ctx, shift, candidateId)) };
    },

    async unassign(ctx, record) {
      return repriceOrKeep(ctx, shiftTimesOf(record), null);
    },

    /** A shift is closed (worked, ready for its timesheet) once it has ended. */
    async close(ctx, record) {
      if (Date.parse(iso(record.end_at)) > Date.now()) {
        const when = describeShiftTimes(iso(record.start_at), iso(record.end_at), ctx.timeZone, formatDisplayDate);
        throw new HttpError(409, `Shift ${record.id} (${when}) has not ended yet; close it once it has been worked.`);
      }
    },

    async cancel(ctx, record, input) {
      const p = ctx.principal;
      if (input.waive_charge && p.loginType !== 'admin') throw new HttpError(422, 'Only the agency can waive a late-cancellation charge.', { waive_charge: 'Only the agency can waive a late-cancellation charge.' });
      const at = new Date().toISOString();
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

    async remove(ctx) {
      return { deleted_at: new Date().toISOString(), deleted_by: ctx.principal.name };
    },

    /** A drag on the schedule: new times, perhaps another staff member; the checks run again for whoever is booked. */
    async move(ctx, record, input) {
      const start = iso(input.start);
      const end = iso(input.end);
      checkTimes(start, end);
      const moved = { ...shiftTimesOf(record), start, end };
      const candidateId = input.candidate_id != null ? Number(input.candidate_id) : record.candidate_id != null ? Number(record.candidate_id) : null;
      const priced = await priceShift(ctx.db, ctx.principal.merchantId, moved, candidateId);
      if (candidateId === null) return { start_at: start, end_at: end, ...priced };
      const shift = { ...moved, paid_minutes: priced.paid_minutes, price_lines: priced.price_lines };
      const { stored, facts } = await book(ctx, shift, candidateId, input.override_reason);
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
const upcoming = (n: number, state: string) => (n === 1 ? `a future shift is ${state}` : `${n} future shifts are ${state}`);
const shiftDeleteBlockers: ResourceBehaviour['deleteBlockers'] = {
  candidate_id: { where: `${UPCOMING} and status = 'assigned'`, describe: (n) => upcoming(n, 'booked for them'), advice: 'Unassign or cancel them first.' },
  client_id: { where: `${UPCOMING} and status in ('open', 'assigned')`, describe: (n) => upcoming(n, 'still on the schedule'), advice: 'Cancel or delete them first.' },
  site_id: { where: `${UPCOMING} and status in ('open', 'assigned')`, describe: (n) => upcoming(n, 'still on the schedule there'), advice: 'Cancel or delete them first.' },
};

export const shiftBehaviours: Record<string, ResourceBehaviour> = { shifts: { ...shiftsBehaviour, deleteBlockers: shiftDeleteBlockers } };
