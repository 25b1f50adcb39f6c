// Booking a staff member on a shift, for the shifts behaviour, the shift routes and the demo seed alike: the facts
// the booking checks read, the checks, the stored price and the late-cancellation charge.
import type { Queryable, Row } from '../db/index.js';
import type { RecordValues } from '../../core/engine/types.js';
import { HttpError } from '../http.js';
import type { EngineContext } from '../engine/context.js';
import {
  assessBooking,
  localDates,
  type BookingAssessment,
  type BookingFacts,
} from '../../core/domain/booking/checks.js';
import { wageFloorTable } from '../../core/domain/pricing/oncosts.js';
import { BANDS } from '../../core/domain/pricing/types.js';
import { lateCancellation, quoteShifts, type Quote } from './pricing.js';
import { cancellationTerms, type CancelParty } from '../../core/domain/pricing/price.js';

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

/** A stored timestamp as the API writes it. */
export const iso = (v: unknown) => new Date(v as string).toISOString();
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

export const DAY_MS = 24 * 3600_000;
/**
 * Other shifts the checks read: from before the 17-week reference period (and a night overlapping the start) to a week
 * after.
 */
const HISTORY_MS = 18 * 7 * DAY_MS;
const AHEAD_MS = 8 * DAY_MS;

/**
 * Everything the booking checks need about a shift and each of the given staff members, in one statement: the
 * staff member, the agency's document categories and their current documents, their restrictions at the client,
 * their assigned and closed shifts from 18 weeks before to a week after, their availability on the shift's dates,
 * their preferences, and the weeks they worked at this client in this role (the AWR count). Staff members who
 * are not the agency's are absent from the answer.
 */
export async function loadBookingFacts(
  db: Queryable,
  merchantId: number,
  timeZone: string,
  shift: ShiftTimes,
  candidateIds: number[],
  today: string,
): Promise<Map<number, StaffFacts>> {
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
       (select et.name from employment_types et where et.merchant_id = $1 and et.id = c.employment_type_id) as employment_type,
       cat.categories, names.client_name, names.site_name, names.shift_role_name
     from candidates c
     left join job_roles jr on jr.merchant_id = c.merchant_id and jr.id = c.job_role_id
     cross join (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'mandatory', mandatory, 'job_role_ids', job_role_ids)), '[]'::json) as categories
                   from document_categories where merchant_id = $1) cat
     cross join (select (select name from clients where merchant_id = $1 and id = $3) as client_name,
                        (select name from sites where merchant_id = $1 and id = $4) as site_name,
                        (select name from job_roles where merchant_id = $1 and id = $5) as shift_role_name) names
    where c.merchant_id = $1 and c.id = any($2::int[]) and c.deleted_at is null`,
    [
      merchantId,
      candidateIds,
      shift.client_id,
      shift.site_id,
      shift.job_role_id,
      new Date(start - HISTORY_MS).toISOString(),
      new Date(start + AHEAD_MS).toISOString(),
      shift.id ?? 0,
      dates,
      shift.start,
      timeZone,
      dates[0],
    ],
  );
  const out = new Map<number, StaffFacts>();
  for (const r of rows) {
    out.set(Number(r.id), {
      timeZone,
      today,
      shift: {
        id: shift.id,
        client_id: shift.client_id,
        site_id: shift.site_id,
        job_role_id: shift.job_role_id,
        start: shift.start,
        end: shift.end,
        paid_minutes: shift.paid_minutes ?? null,
        price_lines: shift.price_lines ?? null,
        clientName: r.client_name,
        siteName: r.site_name,
        jobRoleName: r.shift_role_name,
      },
      candidate: {
        id: Number(r.id),
        name: `${r.first_name} ${r.last_name}`,
        status: r.status,
        activated: r.activated,
        job_role_id: r.job_role_id == null ? null : Number(r.job_role_id),
        jobRoleName: r.job_role_name,
      },
      compliance: { categories: r.categories, documents: r.documents },
      restrictions: r.restrictions,
      otherShifts: r.other_shifts,
      availability: r.availability,
      preferences: r.preferences,
      awrShifts: r.awr_weeks,
      wage: {
        covered: !!r.paye,
        employmentType: r.employment_type ?? null,
        dateOfBirth: r.date_of_birth ?? null,
        floors: wageFloorTable(r.floors),
        ownPay: r.own_pay
          ? Object.fromEntries(
              BANDS.map((b) => [b, r.own_pay[`pay_${b}`] == null ? null : Number(r.own_pay[`pay_${b}`])]),
            )
          : null,
      },
      pricedAsCard: !r.own_rates && r.paye,
    });
  }
  return out;
}

const staffNotFound = () =>
  new HttpError(422, 'Choose a staff member of the agency.', { candidate_id: 'Choose a staff member of the agency.' });

/** The booking checks of one staff member on a shift (422 when they are not the agency's). */
export async function assessShift(
  db: Queryable,
  merchantId: number,
  timeZone: string,
  shift: ShiftTimes,
  candidateId: number,
  today: string,
): Promise<BookingAssessment & { name: string; facts: StaffFacts }> {
  const facts = (await loadBookingFacts(db, merchantId, timeZone, shift, [candidateId], today)).get(candidateId);
  if (!facts) throw staffNotFound();
  return { ...assessBooking(facts), name: facts.candidate.name, facts };
}

/** Where the quote's field names differ from the shift's. */
const QUOTE_FIELDS: Record<string, string> = { start: 'start_at', end: 'end_at' };

/** The stored price of a shift: quoted pay, charge, on-costs and margin, with its lines (pence). */
const storedPrice = (q: Quote) => ({
  paid_minutes: Math.round(q.totals.hours * 60),
  pay: q.totals.pay,
  charge: q.totals.charge,
  on_costs: q.on_costs,
  margin: q.totals.charge - q.totals.pay - q.on_costs,
  price_lines: q.lines,
  rate_card_id: q.rate_card_id,
});

export type StoredPrice = ReturnType<typeof storedPrice>;

/** A quote's refusal with the shift's field names (start_at, not start). */
const asShiftError = (e: HttpError) =>
  e.errors
    ? new HttpError(
        e.status,
        e.message,
        Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [QUOTE_FIELDS[k] ?? k, v])),
      )
    : e;

/**
 * The stored prices of many shifts (a bulk create, a generation run's timesheet lines), from one read of the rate
 * cards and rules: each answer is the price, or the HttpError (422, naming the shift's field) that refuses that shift.
 * `candidateId` is the staff member of every shift, or of each by position (their own pay rates and on-costs).
 */
export async function priceShifts(
  db: Queryable,
  merchantId: number,
  shifts: ShiftTimes[],
  candidateId: number | null | (number | null)[],
) {
  const quotes = await quoteShifts(
    db,
    merchantId,
    shifts.map((shift, i) => ({
      client_id: shift.client_id,
      site_id: shift.site_id,
      job_role_id: shift.job_role_id,
      candidate_id: Array.isArray(candidateId) ? candidateId[i] : candidateId,
      start: shift.start,
      end: shift.end,
      break_minutes: shift.break_minutes ?? null,
      sleep_in: !!shift.sleep_in,
    })),
  );
  return quotes.map((q) => (q instanceof HttpError ? asShiftError(q) : storedPrice(q)));
}

/** The stored price of one shift (priceShifts of one); refuses with 422 naming the field when it cannot be priced. */
export async function priceShift(db: Queryable, merchantId: number, shift: ShiftTimes, candidateId: number | null) {
  const [p] = await priceShifts(db, merchantId, [shift], candidateId);
  if (p instanceof HttpError) throw p;
  return p;
}

/**
 * What cancelling a shift at `at`, at the request of `requestedBy`, would do: refused (with the reason in words), or
 * allowed with the client's late-cancellation charge when the rule applies to it (null: no charge).
 */
export async function cancellationCharge(
  db: Queryable,
  merchantId: number,
  r: Row,
  at: string,
  requestedBy: CancelParty,
  byClientUser: boolean,
) {
  const s = shiftTimesOf(r);
  const terms = cancellationTerms({
    start: s.start,
    end: s.end,
    at,
    booked: r.status === 'assigned' && r.candidate_id != null,
    requestedBy,
    byClientUser,
  });
  if (!terms.allowed) return { allowed: false as const, reason: terms.reason, late: null };
  const late = terms.chargeable
    ? await lateCancellation(db, merchantId, { ...s, candidate_id: r.candidate_id ?? null }, at)
    : null;
  return { allowed: true as const, reason: null, late };
}

/**
 * Who asked for a cancellation: a client's user always speaks for the client; an agency user says (the agency by
 * default).
 */
export function requestedByOf(ctx: EngineContext, input: RecordValues): CancelParty {
  if (ctx.principal.loginType === 'client') return 'client';
  return (input.requested_by as CancelParty | null) ?? 'agency';
}
