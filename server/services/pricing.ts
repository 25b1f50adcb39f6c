// Quoting a shift from the agency's rate cards and rules, for the quote routes and the shifts behaviour alike.
import type { Queryable, Row } from '../db/index.js';
import type { RecordValues } from '../../core/engine/types.js';
import type { PricingRulesRecord } from '../../core/resources/records.js';
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
  row: PricingRulesRecord | null | undefined,
  timeZone: string,
): { rules: PricingRules; sleepIn: PricingContext['sleepIn'] } {
  if (!row) return { rules: { ...DEFAULT_RULES, timeZone }, sleepIn: null };
  const within = row.late_cancel_within_hours;
  const charged = row.late_cancel_charge_hours;
  // Kept as a list of { min_hours, break_minutes } (server/behaviours/clientRules.ts).
  const breaks: RecordValues[] = Array.isArray(row.break_rules) ? row.break_rules : [];
  return {
    rules: {
      timeZone,
      nightStart: row.night_start,
      nightEnd: row.night_end,
      weekendStart: { weekday: WEEKDAYS.indexOf(row.weekend_start_day), time: row.weekend_start_time },
      weekendEnd: { weekday: WEEKDAYS.indexOf(row.weekend_end_day), time: row.weekend_end_time },
      splitAtBoundaries: Boolean(row.split_at_boundaries),
      breakRules: breaks.map((b) => ({ minHours: Number(b.min_hours), breakMinutes: Number(b.break_minutes) })),
      minimumChargeHours: Number(row.minimum_charge_hours ?? 0),
      lateCancellation:
        within != null && charged != null && Number(charged) > 0
          ? {
              withinHours: Number(within),
              chargeHours: Number(charged),
              payHours: Number(row.late_cancel_pay_hours ?? 0),
            }
          : null,
    },
    sleepIn:
      row.sleep_in_pay != null && row.sleep_in_charge != null
        ? { pay: Number(row.sleep_in_pay), charge: Number(row.sleep_in_charge) }
        : null,
  };
}

/** The facts a set of quotes is priced from, read in one statement; each quote then picks its own (pricingFor). */
interface PricingFacts {
  timeZone: string;
  sites: Map<number, { name: string; client_id: number; region: Region }>;
  /** Each client's own rules; `null` keys the agency's default ones. */
  rules: Map<number | null, PricingRulesRecord>;
  overrides: HolidayOverride[];
  clients: Map<number, string>;
  jobRoles: Map<number, string>;
  /** Rate cards of the clients and roles asked about: a site's own first, then the newest first. */
  cards: Row[];
  /** The staff members' own pay rates: a role's own first, then the newest first. */
  own: Row[];
  /** Staff members of the agency (not deleted) asked about, and whether they are paid through PAYE. */
  paye: Map<number, boolean>;
  onCostRates: OnCostRate[];
  floors: WageFloor[];
}

const ids = (xs: (number | null | undefined)[]) => [...new Set(xs.filter((x): x is number => isId(x)))];

/**
 * Everything the quotes of a set of shifts read, in one statement whatever their number: the sites (the agency's,
 * live), the clients' rules and the agency's default ones, the sites' regions' holiday overrides, the client and job
 * role names, every live rate card of those clients and roles (all periods: each quote picks the one in force on its
 * date), the staff members' own pay rates and employment (PAYE), the on-cost rates and the wage floors.
 */
async function loadPricing(db: Queryable, merchantId: number, reqs: Partial<QuoteRequest>[]): Promise<PricingFacts> {
  const sites = ids(reqs.map((r) => r.site_id));
  const clients = ids(reqs.map((r) => r.client_id));
  const roles = ids(reqs.map((r) => r.job_role_id));
  const candidates = ids(reqs.map((r) => r.candidate_id));
  const [row] = await db.query(
    `select m.time_zone,
       (select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name, 'client_id', s.client_id, 'region', s.region)), '[]'::json)
          from sites s where s.merchant_id = m.id and s.id = any($2::int[]) and s.deleted_at is null) as sites,
       (select coalesce(json_agg(r), '[]'::json) from client_rules r
         where r.merchant_id = m.id and (r.client_id = any($3::int[]) or r.client_id is null)) as rules,
       (select coalesce(json_agg(json_build_object('date', o.date, 'region', o.region, 'kind', o.kind, 'name', o.name)), '[]'::json)
          from holiday_overrides o where o.merchant_id = m.id
           and o.region in (select s.region from sites s where s.merchant_id = m.id and s.id = any($2::int[]))) as overrides,
       (select coalesce(json_agg(json_build_object('id', c.id, 'name', c.name)), '[]'::json)
          from clients c where c.merchant_id = m.id and c.id = any($3::int[]) and c.deleted_at is null) as clients,
       (select coalesce(json_agg(json_build_object('id', j.id, 'name', j.name)), '[]'::json)
          from job_roles j where j.merchant_id = m.id and j.id = any($4::int[])) as job_roles,
       (select coalesce(json_agg(c order by c.site_id nulls last, c.effective_from desc), '[]'::json) from rate_cards c
         where c.merchant_id = m.id and c.client_id = any($3::int[]) and c.job_role_id = any($4::int[])
           and (c.site_id is null or c.site_id = any($2::int[])) and c.deleted_at is null) as cards,
       (select coalesce(json_agg(cr order by cr.job_role_id nulls last, cr.effective_from desc), '[]'::json)
          from candidate_rates cr where cr.merchant_id = m.id and cr.candidate_id = any($5::int[])) as own,
       (select coalesce(json_agg(json_build_object('id', ca.id, 'paye', coalesce(et.paye, true))), '[]'::json)
          from candidates ca left join employment_types et on et.merchant_id = ca.merchant_id and et.id = ca.employment_type_id
         where ca.merchant_id = m.id and ca.id = any($5::int[]) and ca.deleted_at is null) as candidates,
       (select coalesce(json_agg(json_build_object('effective_from', oc.effective_from, 'employer_ni_percent', oc.employer_ni_percent, 'ni_threshold_weekly', oc.ni_threshold_weekly, 'holiday_pay_percent', oc.holiday_pay_percent)), '[]'::json)
          from on_cost_rates oc where oc.merchant_id = m.id) as on_costs,
       (select coalesce(json_agg(json_build_object('effective_from', w.effective_from, 'min_age', w.min_age, 'hourly', w.hourly)), '[]'::json)
          from wage_floors w where w.merchant_id = m.id) as floors
     from merchants m where m.id = $1`,
    [merchantId, sites, clients, roles, candidates],
  );
  return {
    timeZone: row?.time_zone || DEFAULT_TIME_ZONE,
    sites: new Map(
      (row?.sites ?? []).map((s: Row) => [
        Number(s.id),
        { name: s.name, client_id: Number(s.client_id), region: s.region },
      ]),
    ),
    rules: new Map(
      (row?.rules ?? []).map((r: PricingRulesRecord) => [r.client_id == null ? null : Number(r.client_id), r]),
    ),
    overrides: row?.overrides ?? [],
    clients: new Map((row?.clients ?? []).map((c: Row) => [Number(c.id), c.name])),
    jobRoles: new Map((row?.job_roles ?? []).map((j: Row) => [Number(j.id), j.name])),
    cards: row?.cards ?? [],
    own: row?.own ?? [],
    paye: new Map((row?.candidates ?? []).map((c: Row) => [Number(c.id), Boolean(c.paye)])),
    // An agency that never set its own tables prices with the domain's defaults.
    onCostRates: onCostTable(row?.on_costs),
    floors: wageFloorTable(row?.floors),
  };
}

/**
 * The pricing context of a shift at a site: its client's rules (or the agency's default), the agency's time zone and
 * the site's region with the agency's holiday overrides. Null when the site is not the agency's (or is deleted).
 * Contexts and holiday sets are kept per client, site and date range: copies of one shift cost nothing more.
 */
function contexts(f: PricingFacts) {
  const made = new Map<string, PricingContext | null>();
  const holidays = new Map<string, Set<string>>();
  return (clientId: number, siteId: number): PricingContext | null => {
    const key = `${clientId}:${siteId}`;
    if (made.has(key)) return made.get(key)!;
    const site = f.sites.get(siteId);
    let ctx: PricingContext | null = null;
    if (site) {
      const { rules, sleepIn } = rulesFromRow(f.rules.get(clientId) ?? f.rules.get(null), f.timeZone);
      ctx = {
        siteName: site.name,
        siteClientId: site.client_id,
        rules,
        sleepIn,
        holidays: (from, to) => {
          const k = `${site.region}:${from}:${to}`;
          if (!holidays.has(k)) holidays.set(k, holidaySet(site.region, from, to, f.overrides));
          return holidays.get(k)!;
        },
      };
    }
    made.set(key, ctx);
    return ctx;
  };
}

/** The rate card in force on `date` for the shift's client, role and site: the site's own over the client-wide one. */
const cardOn = (f: PricingFacts, req: QuoteRequest, date: string): Row | null =>
  f.cards.find(
    (c) =>
      Number(c.client_id) === req.client_id &&
      Number(c.job_role_id) === req.job_role_id &&
      (c.site_id == null || Number(c.site_id) === req.site_id) &&
      c.effective_from <= date &&
      (c.effective_to == null || c.effective_to > date),
  ) ?? null;

/** The staff member's own pay rates in force on `date`: their role's over any role's. */
const ownOn = (f: PricingFacts, candidateId: number | null | undefined, jobRoleId: number, date: string): Row | null =>
  candidateId == null
    ? null
    : (f.own.find(
        (r) =>
          Number(r.candidate_id) === candidateId &&
          (r.job_role_id == null || Number(r.job_role_id) === jobRoleId) &&
          r.effective_from <= date,
      ) ?? null);

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
 * Prices a shift for the agency from the facts read for it: the rate card in force on the shift's date (in the
 * agency's time zone), the staff member's own pay, the client's rules and the site region's bank holidays; the margin
 * after on-costs and the warnings (pay below the wage floor). Refuses with 422 naming the field when it cannot be
 * priced.
 */
function quoteFrom(f: PricingFacts, contextOf: ReturnType<typeof contexts>, req: QuoteRequest): Quote {
  const problems = checkQuoteRequest(req);
  if (Object.keys(problems).length) throw new HttpError(422, Object.values(problems)[0], problems);
  const ctx = contextOf(req.client_id, req.site_id);
  if (!ctx)
    throw new HttpError(422, 'Choose one of the client’s sites.', { site_id: 'Choose one of the client’s sites.' });
  if (ctx.siteClientId !== req.client_id)
    throw new HttpError(422, `${ctx.siteName} is not a site of this client.`, {
      site_id: `${ctx.siteName} is not a site of this client.`,
    });
  const { date } = instantToZoned(new Date(req.start), ctx.rules.timeZone);
  const clientName = f.clients.get(req.client_id);
  const jobRoleName = f.jobRoles.get(req.job_role_id);
  if (!clientName) throw new HttpError(422, 'Choose a client.', { client_id: 'Choose a client.' });
  if (!jobRoleName) throw new HttpError(422, 'Choose a job role.', { job_role_id: 'Choose a job role.' });
  if (req.candidate_id != null && !f.paye.has(req.candidate_id))
    throw new HttpError(422, 'Choose a staff member of the agency.', {
      candidate_id: 'Choose a staff member of the agency.',
    });
  const card = cardOn(f, req, date);
  if (!card) {
    const message = `No rate card for ${jobRoleName} at ${ctx.siteName} on ${date}. Add one in Rates & Rules.`;
    throw new HttpError(422, message, { job_role_id: message });
  }
  let flat: { pay: number; charge: number } | null = null;
  if (req.sleep_in) {
    if (!ctx.sleepIn) {
      const message = `${clientName} has no sleep-in rate. Set one in Rates & Rules.`;
      throw new HttpError(422, message, { sleep_in: message });
    }
    flat = ctx.sleepIn;
  }
  const endDate = instantToZoned(new Date(req.end), ctx.rules.timeZone).date;
  const rates = ratesWithOwnPay(card, ownOn(f, req.candidate_id, req.job_role_id, date));
  const priced = price(
    { start: req.start, end: req.end, breakMinutes: req.break_minutes ?? null, flat },
    ctx.rules,
    rates,
    ctx.holidays(date, addDaysToDate(endDate, 1)),
  );
  const paye = req.candidate_id != null ? f.paye.get(req.candidate_id)! : true;
  const { onCosts, margin } = marginOf(priced.totals, date, paye, f.onCostRates);
  const warnings = flat ? [] : payWarnings(priced.lines, date, f.floors);
  return {
    ...priced,
    totals: { ...priced.totals, margin },
    on_costs: onCosts,
    warnings,
    rate_card_id: Number(card.id),
  };
}

/**
 * Prices many shifts at once (a bulk create, a generation run): the facts of all of them in one statement, then
 * each priced on its own. Each answer is the quote, or the HttpError (422, naming the field) that refuses it.
 */
const QUOTE_FIELDS = [
  'client_id',
  'site_id',
  'job_role_id',
  'candidate_id',
  'start',
  'end',
  'break_minutes',
  'sleep_in',
] as const satisfies readonly (keyof QuoteRequest)[];

export async function quoteShifts(
  db: Queryable,
  merchantId: number,
  reqs: QuoteRequest[],
): Promise<(Quote | HttpError)[]> {
  if (reqs.length === 0) return [];
  const f = await loadPricing(db, merchantId, reqs);
  const contextOf = contexts(f);
  // Copies of one shift (staff needed) cost the same: each distinct request is priced once.
  const quoted = new Map<string, Quote | HttpError>();
  return reqs.map((req) => {
    // Keyed by what prices a shift only: a caller's other properties may be anything (a deeply nested array would
    // overflow JSON.stringify's stack).
    const key = JSON.stringify(QUOTE_FIELDS.map((f) => req[f]));
    if (!quoted.has(key))
      try {
        quoted.set(key, quoteFrom(f, contextOf, req));
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        quoted.set(key, e);
      }
    return quoted.get(key)!;
  });
}

/** Prices one shift (quoteShifts of one); refuses with 422 naming the field when it cannot be priced. */
export async function quoteShift(db: Queryable, merchantId: number, req: QuoteRequest): Promise<Quote> {
  const [q] = await quoteShifts(db, merchantId, [req]);
  if (q instanceof HttpError) throw q;
  return q;
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
): Promise<{ hours: number; charge: number; payHours: number; pay: number } | null> {
  const req = { ...shift, candidate_id: null };
  // The worker's own pay rates, when they have them, price what the rule pays them; the charge is the card's.
  const f = await loadPricing(db, merchantId, [shift]);
  const ctx = contexts(f)(shift.client_id, shift.site_id);
  if (!ctx || !ctx.rules.lateCancellation) return null;
  const { date } = instantToZoned(new Date(shift.start), ctx.rules.timeZone);
  const card = cardOn(f, req, date);
  if (!card) return null;
  const rates = ratesWithOwnPay(card, ownOn(f, shift.candidate_id, shift.job_role_id, date));
  return lateCancellationCharge(
    { start: shift.start, end: shift.end, breakMinutes: shift.break_minutes ?? null },
    ctx.rules,
    rates,
    ctx.holidays(date, date),
    cancelledAt,
  );
}
