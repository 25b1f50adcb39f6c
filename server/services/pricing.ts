// Quoting a shift from the agency's rate cards and rules, for the quote routes and the shifts behaviour alike.
import type { Queryable, Row } from '../db/index.js';
import { HttpError } from '../http.js';
import { DEFAULT_RULES, lateCancellationCharge, price } from '../../core/domain/pricing/price.js';
import { holidaySet, type HolidayOverride } from './holidays.js';
import {
  BAND_LABELS,
  BANDS,
  type Band,
  type BandRates,
  type Price,
  type PricingRules,
  type RateCard,
  type Region,
} from '../../core/domain/pricing/types.js';
import { addDaysToDate, DEFAULT_TIME_ZONE, instantToZoned } from '../../core/domain/time/agencyTime.js';
import { formatPounds } from '../../core/engine/money.js';
import {
  marginOf,
  onCostTable,
  wageFloorTable,
  wageWarning,
  type OnCostRate,
  type WageFloor,
} from '../../core/domain/pricing/oncosts.js';
import { isStrictInstant } from '../engine/input.js';

export interface QuoteRequest {
  client_id: number;
  site_id: number;
  job_role_id: number;
  candidate_id?: number | null;
  start: string;
  end: string;
  break_minutes?: number | null;
  sleep_in?: boolean;
}

/**
 * A priced shift as agency users see it: the domain's lines and totals, where totals.margin = charge − pay − on-costs.
 */
export interface Quote extends Price {
  on_costs: number;
  warnings: string[];
  rate_card_id: number | null;
}

/**
 * What a shift at a site is priced with besides its rates: the client's rules (or the agency's) and the site's region.
 */
interface PricingContext {
  siteName: string;
  /** The site's client (to check it is the client asked for). */
  siteClientId: number;
  rules: PricingRules;
  /** Flat pay and charge of a sleep-in, when the rules set them. */
  sleepIn: { pay: number; charge: number } | null;
  /** The region's bank holidays (library + the agency's overrides) between two dates, inclusive. */
  holidays(from: string, to: string): Set<string>;
}

/** Longest shift a quote prices: a day and a night's handover, never a week typed by mistake. */
const MAX_SHIFT_HOURS = 24;

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** A client_rules row as pricing reads it; the domain's defaults when there is none. */
function rulesFromRow(
  row: Row | null | undefined,
  timeZone: string,
): { rules: PricingRules; sleepIn: PricingContext['sleepIn'] } {
  if (!row) return { rules: { ...DEFAULT_RULES, timeZone }, sleepIn: null };
  const within = row.late_cancel_within_hours;
  const charged = row.late_cancel_charge_hours;
  const breaks = Array.isArray(row.break_rules) ? row.break_rules : [];
  return {
    rules: {
      timeZone,
      nightStart: row.night_start,
      nightEnd: row.night_end,
      weekendStart: { weekday: WEEKDAYS.indexOf(row.weekend_start_day), time: row.weekend_start_time },
      weekendEnd: { weekday: WEEKDAYS.indexOf(row.weekend_end_day), time: row.weekend_end_time },
      splitAtBoundaries: Boolean(row.split_at_boundaries),
      breakRules: breaks.map((b: any) => ({ minHours: Number(b.min_hours), breakMinutes: Number(b.break_minutes) })),
      minimumChargeHours: Number(row.minimum_charge_hours ?? 0),
      lateCancellation:
        within != null && charged != null && Number(charged) > 0
          ? { withinHours: Number(within), chargeHours: Number(charged) }
          : null,
    },
    sleepIn:
      row.sleep_in_pay != null && row.sleep_in_charge != null
        ? { pay: Number(row.sleep_in_pay), charge: Number(row.sleep_in_charge) }
        : null,
  };
}

/**
 * The rules of a client (or the agency's default), the agency's time zone and the site's region with the agency's
 * holiday overrides, in one statement. Null when the site is not the agency's.
 */
async function pricingContext(
  db: Queryable,
  merchantId: number,
  clientId: number,
  siteId: number,
): Promise<PricingContext | null> {
  const [row] = await db.query(
    `select s.id, s.name, s.client_id, s.region, m.time_zone,
       (select row_to_json(r) from client_rules r where r.merchant_id = m.id and (r.client_id = $2 or r.client_id is null)
         order by r.client_id nulls last limit 1) as rules,
       (select coalesce(json_agg(json_build_object('date', o.date, 'region', o.region, 'kind', o.kind, 'name', o.name)), '[]'::json)
          from holiday_overrides o where o.merchant_id = m.id and o.region = s.region) as overrides
       from merchants m join sites s on s.merchant_id = m.id and s.id = $3 and s.deleted_at is null
      where m.id = $1`,
    [merchantId, clientId, siteId],
  );
  if (!row) return null;
  const { rules, sleepIn } = rulesFromRow(row.rules, row.time_zone || DEFAULT_TIME_ZONE);
  const overrides: HolidayOverride[] = row.overrides ?? [];
  const region = row.region as Region;
  return {
    siteName: row.name,
    siteClientId: Number(row.client_id),
    rules,
    sleepIn,
    holidays: (from, to) => holidaySet(region, from, to, overrides),
  };
}

interface CardFacts {
  jobRoleName: string | null;
  clientName: string | null;
  card: Row | null;
  own: Row | null;
  candidateFound: boolean;
  paye: boolean;
  onCostRates: OnCostRate[];
  floors: WageFloor[];
}

/**
 * The rate card in force on `date` (the site's own over the client-wide one), the staff member's own pay rates
 * in force then (their role's over any role's), whether they are paid through PAYE, and the on-cost rates and
 * wage floors in force: one statement over the lookup indexes.
 */
async function cardFacts(db: Queryable, merchantId: number, req: QuoteRequest, date: string): Promise<CardFacts> {
  const candidateId = req.candidate_id ?? null;
  const [row] = await db.query(
    `select
       (select name from job_roles where merchant_id = $1 and id = $3) as job_role_name,
       (select name from clients where merchant_id = $1 and id = $2 and deleted_at is null) as client_name,
       (select row_to_json(c) from rate_cards c
         where c.merchant_id = $1 and c.client_id = $2 and c.job_role_id = $3 and (c.site_id = $4 or c.site_id is null)
           and c.effective_from <= $5::date and (c.effective_to is null or c.effective_to > $5::date) and c.deleted_at is null
         order by c.site_id nulls last, c.effective_from desc limit 1) as card,
       (select row_to_json(cr) from candidate_rates cr
         where $6::int is not null and cr.merchant_id = $1 and cr.candidate_id = $6 and (cr.job_role_id = $3 or cr.job_role_id is null)
           and cr.effective_from <= $5::date
         order by cr.job_role_id nulls last, cr.effective_from desc limit 1) as own,
       (select json_build_object('paye', coalesce(et.paye, true)) from candidates ca left join employment_types et on et.merchant_id = ca.merchant_id and et.id = ca.employment_type_id
         where $6::int is not null and ca.merchant_id = $1 and ca.id = $6 and ca.deleted_at is null) as candidate,
       (select coalesce(json_agg(json_build_object('effective_from', oc.effective_from, 'employer_ni_percent', oc.employer_ni_percent, 'ni_threshold_weekly', oc.ni_threshold_weekly, 'holiday_pay_percent', oc.holiday_pay_percent)), '[]'::json)
          from on_cost_rates oc where oc.merchant_id = $1) as on_costs,
       (select coalesce(json_agg(json_build_object('effective_from', w.effective_from, 'min_age', w.min_age, 'hourly', w.hourly)), '[]'::json)
          from wage_floors w where w.merchant_id = $1) as floors`,
    [merchantId, req.client_id, req.job_role_id, req.site_id, date, candidateId],
  );
  return {
    jobRoleName: row.job_role_name,
    clientName: row.client_name,
    card: row.card,
    own: row.own,
    candidateFound: Boolean(row.candidate),
    paye: row.candidate ? Boolean(row.candidate.paye) : true,
    // An agency that never set its own tables prices with the domain's defaults.
    onCostRates: onCostTable(row.on_costs),
    floors: wageFloorTable(row.floors),
  };
}

const bandRates = (row: Row, prefix: 'pay' | 'charge'): BandRates =>
  Object.fromEntries(BANDS.map((b) => [b, Number(row[`${prefix}_${b}`])])) as BandRates;

/** The card's rates with the staff member's own pay where they set one (a band left empty keeps the card's). */
function ratesWithOwnPay(card: Row, own: Row | null): RateCard {
  const pay = bandRates(card, 'pay');
  if (own) for (const b of BANDS) if (own[`pay_${b}`] != null) pay[b as Band] = Number(own[`pay_${b}`]);
  return { pay, charge: bandRates(card, 'charge') };
}

const isId = (v: unknown) => Number.isInteger(v) && (v as number) > 0 && (v as number) <= 2 ** 31 - 1;

/** Field problems of a quote request that need no database: ids, instants, the length and the break. */
function checkQuoteRequest(req: Partial<QuoteRequest>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!isId(req.client_id)) errors.client_id = 'Choose a client.';
  if (!isId(req.site_id)) errors.site_id = 'Choose a site.';
  if (!isId(req.job_role_id)) errors.job_role_id = 'Choose a job role.';
  if (req.candidate_id != null && !isId(req.candidate_id)) errors.candidate_id = 'Choose a staff member, or none.';
  if (!isStrictInstant(req.start)) errors.start = 'Give the start as a date and time.';
  if (!isStrictInstant(req.end)) errors.end = 'Give the end as a date and time.';
  if (!errors.start && !errors.end) {
    const ms = Date.parse(req.end!) - Date.parse(req.start!);
    if (ms <= 0) errors.end = 'The shift must end after it starts.';
    else if (ms > MAX_SHIFT_HOURS * 3_600_000) errors.end = `A shift can last at most ${MAX_SHIFT_HOURS} hours.`;
    else if (req.break_minutes != null && Number.isInteger(req.break_minutes) && req.break_minutes * 60_000 >= ms)
      errors.break_minutes = 'The break must be shorter than the shift.';
  }
  if (
    req.break_minutes != null &&
    (!Number.isInteger(req.break_minutes) || req.break_minutes < 0 || req.break_minutes > 240)
  )
    errors.break_minutes = 'The break is a whole number of minutes from 0 to 240.';
  if (req.sleep_in != null && typeof req.sleep_in !== 'boolean') errors.sleep_in = 'Sleep-in is yes or no.';
  return errors;
}

/** One warning per band paid below the wage floor on the shift's date: "Weekday night pay £11.00 an hour: below …". */
function payWarnings(lines: Price['lines'], date: string, floors: WageFloor[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.band === 'flat' || line.hours <= 0) continue;
    const warning = wageWarning(line.pay_rate, date, floors);
    const text =
      warning &&
      `${BAND_LABELS[line.band]} pay ${formatPounds(line.pay_rate)} an hour: ${warning[0].toLowerCase()}${warning.slice(1)}.`;
    if (text && !out.includes(text)) out.push(text);
  }
  return out;
}

/**
 * Prices a shift for the agency: the rate card in force on the shift's date (in the agency's time zone), the
 * staff member's own pay, the client's rules and the site region's bank holidays; the margin after on-costs and
 * the warnings (pay below the wage floor). Refuses with 422 naming the field when a request cannot be priced.
 */
export async function quoteShift(db: Queryable, merchantId: number, req: QuoteRequest): Promise<Quote> {
  const problems = checkQuoteRequest(req);
  if (Object.keys(problems).length) throw new HttpError(422, Object.values(problems)[0], problems);
  const ctx = await pricingContext(db, merchantId, req.client_id, req.site_id);
  if (!ctx)
    throw new HttpError(422, 'Choose one of the client’s sites.', { site_id: 'Choose one of the client’s sites.' });
  if (ctx.siteClientId !== req.client_id)
    throw new HttpError(422, `${ctx.siteName} is not a site of this client.`, {
      site_id: `${ctx.siteName} is not a site of this client.`,
    });
  const { date } = instantToZoned(new Date(req.start), ctx.rules.timeZone);
  const facts = await cardFacts(db, merchantId, req, date);
  if (!facts.clientName) throw new HttpError(422, 'Choose a client.', { client_id: 'Choose a client.' });
  if (!facts.jobRoleName) throw new HttpError(422, 'Choose a job role.', { job_role_id: 'Choose a job role.' });
  if (req.candidate_id != null && !facts.candidateFound)
    throw new HttpError(422, 'Choose a staff member of the agency.', {
      candidate_id: 'Choose a staff member of the agency.',
    });
  if (!facts.card) {
    const message = `No rate card for ${facts.jobRoleName} at ${ctx.siteName} on ${date}. Add one in Rates & Rules.`;
    throw new HttpError(422, message, { job_role_id: message });
  }
  let flat: { pay: number; charge: number } | null = null;
  if (req.sleep_in) {
    if (!ctx.sleepIn) {
      const message = `${facts.clientName} has no sleep-in rate. Set one in Rates & Rules.`;
      throw new HttpError(422, message, { sleep_in: message });
    }
    flat = ctx.sleepIn;
  }
  const endDate = instantToZoned(new Date(req.end), ctx.rules.timeZone).date;
  const rates = ratesWithOwnPay(facts.card, facts.own);
  const priced = price(
    { start: req.start, end: req.end, breakMinutes: req.break_minutes ?? null, flat },
    ctx.rules,
    rates,
    ctx.holidays(date, addDaysToDate(endDate, 1)),
  );
  const { onCosts, margin } = marginOf(priced.totals, date, facts.paye, facts.onCostRates);
  const warnings = flat ? [] : payWarnings(priced.lines, date, facts.floors);
  return {
    ...priced,
    totals: { ...priced.totals, margin },
    on_costs: onCosts,
    warnings,
    rate_card_id: Number(facts.card.id),
  };
}

/** A quote as a client sees it: what it is charged, per line and in total; never pay, margin, on-costs or warnings. */
export function chargeOnly(q: Quote) {
  return {
    lines: q.lines.map((l) => ({
      band: l.band,
      start: l.start,
      end: l.end,
      hours: l.hours,
      minutes: l.minutes,
      charge_rate: l.charge_rate,
      charge: l.charge,
      ...(l.minimum_charge_hours !== undefined ? { minimum_charge_hours: l.minimum_charge_hours } : {}),
    })),
    totals: { hours: q.totals.hours, charge: q.totals.charge },
    warnings: [],
  };
}

/**
 * The late-cancellation charge of a shift cancelled at `cancelledAt`, by its client's rule and the card in force
 * on its date; null when the rule does not apply (or the client has no card to charge by).
 */
export async function lateCancellation(
  db: Queryable,
  merchantId: number,
  shift: {
    client_id: number;
    site_id: number;
    job_role_id: number;
    candidate_id: number | null;
    start: string;
    end: string;
    break_minutes?: number | null;
    sleep_in?: boolean;
  },
  cancelledAt: string,
): Promise<{ hours: number; charge: number } | null> {
  const ctx = await pricingContext(db, merchantId, shift.client_id, shift.site_id);
  if (!ctx || !ctx.rules.lateCancellation) return null;
  const { date } = instantToZoned(new Date(shift.start), ctx.rules.timeZone);
  const facts = await cardFacts(db, merchantId, { ...shift, candidate_id: null }, date);
  if (!facts.card) return null;
  const rates = ratesWithOwnPay(facts.card, null);
  return lateCancellationCharge(
    { start: shift.start, end: shift.end, breakMinutes: shift.break_minutes ?? null },
    ctx.rules,
    rates,
    ctx.holidays(date, date),
    cancelledAt,
  );
}
