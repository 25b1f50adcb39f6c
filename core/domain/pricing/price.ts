// Pricing a shift: a pure function of the shift, the client's rules, the rates and the site region's holidays.
// Free of Node-only APIs and of the database, so the quote endpoint, the shift screens and the bench share it.
//
// How a shift is cut into lines:
// - The band of an instant is read on the agency's wall clock (rules.timeZone): a bank holiday (its local date is
//   in `holidays`) beats the weekend (Saturday's rates before Sunday 00:00, Sunday's after) beats the night band
//   beats the weekday day.
// - Every wall-clock time where the band can change (midnight, night start and end, weekend start and end) is
//   turned into an instant for each local date the shift touches. Consecutive pieces with the same band merge.
//   Working in instants is what makes a 20:00–08:00 night 11 h or 13 h across a daylight-saving change.
// - The unpaid break is shared between the lines in proportion to their length (whole minutes, largest remainder
//   first, so the minutes taken off always add up to the break). A break has no fixed place in a shift, and
//   taking it all from one band would move money between bands depending on where it was assumed to fall.
// - Every line is paid and charged its paid minutes × rate, rounded once to the penny: round(minutes × rate / 60).
//   Rounding the hours first (3 h 50 min as 3.83 h) lost or added pence on every line (£114.90 for £115.00).
//   Hours are shown to 2 dp, shared out the same way (largest remainder in hundredths), so the lines' hours
//   always add up to the shift's paid hours; the totals are exact sums of the lines.
// - A minimum charge adds one top-up line (no hours worked, no pay) charging the shortfall at the start band's
//   charge rate: pay stays the hours worked, and the invoice shows why it is more.
//
// Wall-clock conversions use @date-fns/tz's tzOffset. When the zone's offset is the same at both ends of a shift
// (every shift but those crossing a daylight-saving change), that one offset converts the whole shift: pricing
// 100,000 shifts must take under a second, and time/zoneClock.ts remembers each zone's offset per UTC day, which
// shifts share. Across a change, each boundary time is placed at every instant the clock shows it (none
// in a skipped hour, two in a repeated one) and the change itself is a cut, so a boundary inside the skipped hour
// takes effect when the clocks jump past it.
import { tzOffset, tzScan } from '@date-fns/tz';
import { offsetMinutes } from '../time/zoneClock';
import { amountForMinutes } from '../../engine/money';
import type { Band, Price, PriceLine, PricingRules, RateCard, ShiftToPrice } from './types';

/** The agency's defaults, used where a client has no rules of its own. */
export const DEFAULT_RULES: Omit<PricingRules, 'timeZone'> = {
  nightStart: '20:00',
  nightEnd: '08:00',
  // Saturday 00:00 → Monday 00:00: Saturday's rates all Saturday, Sunday's all Sunday.
  weekendStart: { weekday: 6, time: '00:00' },
  weekendEnd: { weekday: 1, time: '00:00' },
  splitAtBoundaries: true,
  // 30 unpaid minutes once a shift reaches 6 hours (the Working Time Regulations ask for at least 20 minutes
  // when the working day is longer than 6 hours; 30 is what care homes commonly deduct).
  breakRules: [{ minHours: 6, breakMinutes: 30 }],
  minimumChargeHours: 0,
  // Cancelled less than 24 hours before the start: 4 hours are charged.
  lateCancellation: { withinHours: 24, chargeHours: 4 },
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MINUTES = 7 * 24 * 60;
/** Longest shift converted with one offset: two daylight-saving changes are months apart. */
const ONE_OFFSET_MAX_MS = 7 * DAY_MS;

/** Prices a shift into lines per band and their totals, in integer pence. Throws a RangeError on a shift that
 * does not end after it starts or on times that are not instants. */
export function price(
  shift: ShiftToPrice,
  rules: PricingRules,
  rateCard: RateCard,
  holidays: ReadonlySet<string>,
): Price {
  const start = parseInstant(shift.start, 'start');
  const end = parseInstant(shift.end, 'end');
  if (end <= start) throw new RangeError('A shift must end after it starts.');

  if (shift.flat) {
    // A sleep-in is paid and charged its flat amounts whatever its hours (lawful: minimum wage is due only for
    // time awake for work). No break and no minimum charge apply; the line's "rates" are the flat amounts.
    const hours = roundHours(end - start);
    const line: PriceLine = {
      band: 'flat',
      start: iso(start),
      end: iso(end),
      hours,
      minutes: Math.round((end - start) / MINUTE_MS),
      pay_rate: shift.flat.pay,
      charge_rate: shift.flat.charge,
      pay: shift.flat.pay,
      charge: shift.flat.charge,
    };
    return { lines: [line], totals: totalsOf([line]) };
  }

  const ruleClock = ruleClockOf(rules);
  const clock = clockFor(rules.timeZone, start, end);
  const bandAt = bandReader(ruleClock, holidays, clock);
  const pieces = rules.splitAtBoundaries
    ? splitByBand(start, end, ruleClock, clock, bandAt)
    : [{ band: bandAt(start), start, end }];

  const durationMinutes = Math.round((end - start) / MINUTE_MS);
  const breakMinutes = Math.min(durationMinutes, Math.max(0, breakMinutesFor(shift, rules, durationMinutes / 60)));
  const pieceMinutes = pieces.map((p) => Math.round((p.end - p.start) / MINUTE_MS));
  const breakShares = shareOut(breakMinutes, pieceMinutes);
  const paidMinutes = pieceMinutes.map((m, i) => m - breakShares[i]);
  const totalHundredths = Math.round((sum(paidMinutes) * 100) / 60);
  const hundredths = shareOut(
    totalHundredths,
    paidMinutes.map((m) => (m * 100) / 60),
  );

  const lines: PriceLine[] = pieces.map((p, i) => {
    const payRate = rateCard.pay[p.band];
    const chargeRate = rateCard.charge[p.band];
    return {
      band: p.band,
      start: iso(p.start),
      end: iso(p.end),
      hours: hundredths[i] / 100,
      minutes: paidMinutes[i],
      pay_rate: payRate,
      charge_rate: chargeRate,
      pay: amountForMinutes(paidMinutes[i], payRate),
      charge: amountForMinutes(paidMinutes[i], chargeRate),
    };
  });

  const shortfallMinutes = Math.round(rules.minimumChargeHours * 60) - sum(paidMinutes);
  if (shortfallMinutes > 0) {
    const band = pieces[0].band;
    const chargeRate = rateCard.charge[band];
    lines.push({
      band,
      start: iso(end),
      end: iso(end),
      hours: 0,
      minutes: 0,
      pay_rate: rateCard.pay[band],
      charge_rate: chargeRate,
      pay: 0,
      charge: amountForMinutes(shortfallMinutes, chargeRate),
      minimum_charge_hours: Math.round((shortfallMinutes * 100) / 60) / 100,
    });
  }

  return { lines, totals: totalsOf(lines) };
}

/**
 * The charge for cancelling a shift at `cancelledAt` (an ISO instant), or null when none is due: no late-cancellation
 * rule, or cancelled at least `withinHours` before the start. A cancellation after the start is late too.
 * The hours are charged at the charge rate of the band the shift starts in; the rule's `payHours` are paid to the
 * worker at the pay rate of that band (`payHours` and `pay` 0 when the rule pays nothing).
 */
export function lateCancellationCharge(
  shift: ShiftToPrice,
  rules: PricingRules,
  rateCard: RateCard,
  holidays: ReadonlySet<string>,
  cancelledAt: string,
): { hours: number; charge: number; payHours: number; pay: number } | null {
  const rule = rules.lateCancellation;
  if (!rule || rule.chargeHours <= 0) return null;
  const start = parseInstant(shift.start, 'start');
  const cancelled = parseInstant(cancelledAt, 'cancelledAt');
  if (start - cancelled >= rule.withinHours * HOUR_MS) return null;
  const band = bandReader(ruleClockOf(rules), holidays, clockFor(rules.timeZone, start, start))(start);
  const payHours = rule.payHours ?? 0;
  return {
    hours: rule.chargeHours,
    charge: amountForMinutes(Math.round(rule.chargeHours * 60), rateCard.charge[band]),
    payHours,
    pay: amountForMinutes(Math.round(payHours * 60), rateCard.pay[band]),
  };
}

/** The band in force at an instant: the one a shift starting then is rated by when it is not split. */
export function bandAt(instant: string, rules: PricingRules, holidays: ReadonlySet<string>): Band {
  const ms = parseInstant(instant, 'instant');
  return bandReader(ruleClockOf(rules), holidays, clockFor(rules.timeZone, ms, ms))(ms);
}

/** The unpaid break: the shift's own when given, else the rule with the largest minHours the shift reaches. */
export function breakMinutesFor(
  shift: Pick<ShiftToPrice, 'breakMinutes'>,
  rules: Pick<PricingRules, 'breakRules'>,
  shiftHours: number,
): number {
  if (shift.breakMinutes !== undefined && shift.breakMinutes !== null) return shift.breakMinutes;
  let best: { minHours: number; breakMinutes: number } | null = null;
  for (const rule of rules.breakRules) {
    if (rule.minHours <= shiftHours && (!best || rule.minHours > best.minHours)) best = rule;
  }
  return best ? best.breakMinutes : 0;
}

type Piece = { band: Band; start: number; end: number };

/** Rules read into minutes once (pricing many shifts with the same rules is the common case). Keyed by the rules
 * object, which pricing treats as a value: a caller changing a rules object in place gets its old reading. */
interface RuleClock {
  nightStart: number;
  nightEnd: number;
  weekendStart: number;
  weekendLength: number;
  /** Sunday 00:00, counted from the weekend's start: before it Saturday's rates, from it Sunday's. */
  sundayFromStart: number;
  /** Every wall-clock time where the band can change. */
  boundaries: { time: string; minute: number }[];
}

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const ruleClocks = new WeakMap<PricingRules, RuleClock>();

function ruleClockOf(rules: PricingRules): RuleClock {
  let clock = ruleClocks.get(rules);
  if (clock) return clock;
  const times = [rules.nightStart, rules.nightEnd, rules.weekendStart.time, rules.weekendEnd.time];
  for (const time of times)
    if (!TIME_PATTERN.test(time)) throw new RangeError(`Not a time (HH:mm): ${JSON.stringify(time)}`);
  for (const p of [rules.weekendStart, rules.weekendEnd]) {
    if (!Number.isInteger(p.weekday) || p.weekday < 0 || p.weekday > 6)
      throw new RangeError(`Not a weekday (0–6): ${p.weekday}`);
  }
  const weekendStart = weekMinute(rules.weekendStart.weekday, minutesOf(rules.weekendStart.time));
  const weekendEnd = weekMinute(rules.weekendEnd.weekday, minutesOf(rules.weekendEnd.time));
  clock = {
    nightStart: minutesOf(rules.nightStart),
    nightEnd: minutesOf(rules.nightEnd),
    weekendStart,
    weekendLength: (weekendEnd - weekendStart + WEEK_MINUTES) % WEEK_MINUTES,
    sundayFromStart: (WEEK_MINUTES - weekendStart) % WEEK_MINUTES,
    boundaries: [...new Set(['00:00', ...times])].map((time) => ({ time, minute: minutesOf(time) })),
  };
  ruleClocks.set(rules, clock);
  return clock;
}

function splitByBand(
  start: number,
  end: number,
  rules: RuleClock,
  clock: Clock,
  bandAt: (ms: number) => Band,
): Piece[] {
  const cuts: number[] = [];
  const lastDay = dayOf(clock.wall(end));
  for (let day = dayOf(clock.wall(start)); day <= lastDay; day += DAY_MS) {
    for (const boundary of rules.boundaries) {
      if (clock.offset !== null) {
        const at = day + boundary.minute * MINUTE_MS - clock.offset;
        if (at > start && at < end) cuts.push(at);
      } else {
        for (const at of clock.instants(day, boundary)) if (at > start && at < end) cuts.push(at);
      }
    }
  }
  for (const at of clock.changes) if (at > start && at < end) cuts.push(at);
  cuts.sort((a, b) => a - b);
  cuts.push(end);

  const pieces: Piece[] = [];
  let from = start;
  for (const to of cuts) {
    if (to <= from) continue; // two boundary times on one instant
    const band = bandAt(from);
    const last = pieces[pieces.length - 1];
    if (last && last.band === band) last.end = to;
    else pieces.push({ band, start: from, end: to });
    from = to;
  }
  return pieces;
}

/** The agency's wall clock over a span of time. A wall reading is kept as milliseconds "as if UTC" (its UTC fields
 * are the wall clock's fields), so dates and weekdays come from plain UTC arithmetic. */
interface Clock {
  /** The offset (ms) when it is the same all through the span; null when the span crosses a change. */
  offset: number | null;
  wall(instant: number): number;
  /** The instants the wall clock shows a boundary's time on the day starting at wall reading `day`: none when
   * the clocks skip it, two when they show it twice. */
  instants(day: number, boundary: { time: string; minute: number }): number[];
  /** The clock changes in the span: the band can change there too (a boundary inside a skipped hour, or a
   * repeated hour that goes back before a boundary). */
  changes: number[];
}

const NO_CHANGES: number[] = [];

function clockFor(tz: string, start: number, end: number): Clock {
  // offsetMinutes refuses a zone the runtime does not know (RangeError).
  const offset = offsetMinutes(start, tz) * MINUTE_MS;
  if (end - start <= ONE_OFFSET_MAX_MS && offsetMinutes(end, tz) * MINUTE_MS === offset) {
    return {
      offset,
      wall: (ms) => ms + offset,
      instants: (day, b) => [day + b.minute * MINUTE_MS - offset],
      changes: NO_CHANGES,
    };
  }
  return {
    offset: null,
    wall: (ms) => ms + offsetMinutes(ms, tz) * MINUTE_MS,
    instants: (day, b) =>
      remembered(`${tz} ${day} ${b.minute}`, () => wallTimeInstants(tz, day + b.minute * MINUTE_MS)),
    // The scan starts a day early: tzScan finds no change that falls in the first hours of the span it is given
    // (from 00:00 UTC it missed London's 01:00 UTC change of 31 March 2030).
    changes: remembered(`${tz} ${dayOf(start)}–${dayOf(end)}`, () =>
      tzScan(tz, { start: new Date(dayOf(start) - DAY_MS), end: new Date(dayOf(end) + DAY_MS) }).map((c) =>
        exactChange(tz, c.date.getTime()),
      ),
    ),
  };
}

/** tzScan names the first whole UTC hour after a change, but some zones change on the half hour (Lord Howe Island
 * at 15:30 UTC): the exact minute is found by halving the hour before. */
function exactChange(tz: string, hourAfter: number): number {
  const after = tzOffset(tz, new Date(hourAfter));
  let lo = hourAfter - HOUR_MS; // still the old offset
  let hi = hourAfter;
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
    if (tzOffset(tz, new Date(mid)) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The instants at which the zone's clock shows `wall`. A zone changes its offset at most once in a day around
 * any wall time, so the offsets a day before and a day after are the only candidates (as zonedDateTimeToInstant). */
function wallTimeInstants(tz: string, wall: number): number[] {
  const candidates = [tzOffset(tz, new Date(wall - DAY_MS)), tzOffset(tz, new Date(wall + DAY_MS))];
  const real = candidates
    .map((o) => wall - o * MINUTE_MS)
    .filter((at) => wall - tzOffset(tz, new Date(at)) * MINUTE_MS === at);
  return [...new Set(real)];
}

const KEPT = 50_000;

// Around a clock change, the conversions every shift across it asks for again.
const nearChanges = new Map<string, number[]>();

function remembered(key: string, work: () => number[]): number[] {
  let found = nearChanges.get(key);
  if (found === undefined) {
    found = work();
    if (nearChanges.size >= KEPT) nearChanges.clear();
    nearChanges.set(key, found);
  }
  return found;
}

function bandReader(r: RuleClock, holidays: ReadonlySet<string>, clock: Clock): (ms: number) => Band {
  return (ms) => {
    const wall = clock.wall(ms);
    if (holidays.size > 0 && holidays.has(dateOf(wall))) return 'bank_holiday';
    const day = Math.floor(wall / DAY_MS);
    const minute = Math.floor((wall - day * DAY_MS) / MINUTE_MS);
    const weekday = (((day + 4) % 7) + 7) % 7; // 1 January 1970 was a Thursday
    const fromWeekendStart = (weekMinute(weekday, minute) - r.weekendStart + WEEK_MINUTES) % WEEK_MINUTES;
    if (fromWeekendStart < r.weekendLength) return fromWeekendStart < r.sundayFromStart ? 'saturday' : 'sunday';
    const night =
      r.nightStart <= r.nightEnd
        ? minute >= r.nightStart && minute < r.nightEnd
        : minute >= r.nightStart || minute < r.nightEnd;
    return night ? 'weekday_night' : 'weekday_day';
  };
}

/** Splits `total` (a whole number) across parts in proportion to `weights`, largest remainder first, so the
 * shares are whole and always add up to `total`. Ties go to the earlier part. */
function shareOut(total: number, weights: number[]): number[] {
  if (weights.length === 1) return [total];
  const weightSum = sum(weights);
  if (total === 0) return weights.map(() => 0);
  if (weightSum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const exact = weights.map((w) => (total * w) / weightSum);
  const shares = exact.map(Math.floor);
  let left = total - sum(shares);
  const order = exact.map((x, i) => ({ i, rest: x - shares[i] })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; left > 0; k++, left--) shares[order[k % order.length].i]++;
  return shares;
}

function totalsOf(lines: PriceLine[]): Price['totals'] {
  let hundredths = 0;
  let pay = 0;
  let charge = 0;
  for (const l of lines) {
    hundredths += Math.round(l.hours * 100);
    pay += l.pay;
    charge += l.charge;
  }
  return { hours: hundredths / 100, pay, charge, margin: charge - pay };
}

// An instant must say its offset: Date.parse reads '2026-01-07T09:00' in the machine's zone, not the agency's.
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function parseInstant(value: string, name: string): number {
  const ms = typeof value === 'string' && INSTANT_PATTERN.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new RangeError(`Not an instant (${name}): ${JSON.stringify(value)}`);
  return ms;
}

// Dates and ISO strings are written by the thousand for a handful of distinct days: Date#toISOString was a third
// of the time of pricing 100,000 shifts, so each day's 'yyyy-MM-dd' is written once and the time appended.
const dayNames = new Map<number, string>();
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

function dateOf(wall: number): string {
  const day = Math.floor(wall / DAY_MS);
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayNames.size >= KEPT) dayNames.clear();
    dayNames.set(day, name);
  }
  return name;
}

function iso(ms: number): string {
  const inDay = ms - Math.floor(ms / DAY_MS) * DAY_MS;
  const millis = inDay % 1000;
  const h = Math.floor(inDay / HOUR_MS);
  const m = Math.floor((inDay % HOUR_MS) / MINUTE_MS);
  const sec = Math.floor((inDay % MINUTE_MS) / 1000);
  const ms3 = millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : `${millis}`;
  return `${dateOf(ms)}T${TWO_DIGITS[h]}:${TWO_DIGITS[m]}:${TWO_DIGITS[sec]}.${ms3}Z`;
}
const roundHours = (ms: number) => Math.round((ms * 100) / HOUR_MS) / 100;
const dayOf = (wall: number) => Math.floor(wall / DAY_MS) * DAY_MS;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const weekMinute = (weekday: number, minute: number) => weekday * 24 * 60 + minute;
function sum(xs: number[]): number {
  let total = 0;
  for (const x of xs) total += x;
  return total;
}

/** Who asked for a shift to be cancelled, or 'no_show': nobody asked, the booked staff member did not turn up. */
export type CancelParty = 'client' | 'agency' | 'worker' | 'no_show';
export const CANCEL_PARTIES: readonly CancelParty[] = ['client', 'agency', 'worker', 'no_show'];

export interface CancellationFacts {
  /** ISO instants of the shift, and of the cancellation. */
  start: string;
  end: string;
  at: string;
  /** A staff member is booked on it. */
  booked: boolean;
  requestedBy: CancelParty;
  /** The cancellation is made by one of the client's own users (not the agency on its behalf). */
  byClientUser: boolean;
}

/**
 * Whether a shift may be cancelled now, and whether the client's late-cancellation rule may charge for it.
 * - A no-show is of a booked shift only, and may be recorded once the shift has started or ended (the home often
 *   says so the next day); it is never charged, and the staff member is paid nothing for it.
 * - A shift that has ended cannot otherwise be cancelled (worked, or unfilled: it is deleted instead, never charged).
 * - A client's user cannot cancel a shift under way (the worker is on site): the agency records it if it must.
 * - Only the client's own cancellation of a booked shift is chargeable; an agency or worker cancellation, or an
 *   unfilled shift, never charges the client. Whether it is late is the rule's own (lateCancellationCharge).
 */
export function cancellationTerms(
  f: CancellationFacts,
): { allowed: true; chargeable: boolean } | { allowed: false; reason: string } {
  const at = parseInstant(f.at, 'at');
  if (f.requestedBy === 'no_show') {
    if (!f.booked)
      return { allowed: false, reason: 'Nobody is booked on this shift, so there is no one to be a no-show.' };
    if (parseInstant(f.start, 'start') > at)
      return { allowed: false, reason: 'This shift has not started yet: a no-show is recorded once it has.' };
    return { allowed: true, chargeable: false };
  }
  if (parseInstant(f.end, 'end') <= at) {
    return {
      allowed: false,
      reason: f.booked
        ? 'This shift has ended: close it once worked, it cannot be cancelled.'
        : 'This shift has passed unfilled: delete it instead; it cannot be cancelled or charged.',
    };
  }
  if (f.byClientUser && parseInstant(f.start, 'start') <= at) {
    return { allowed: false, reason: 'This shift has already started. Please call the agency to end it early.' };
  }
  return { allowed: true, chargeable: f.requestedBy === 'client' && f.booked };
}
