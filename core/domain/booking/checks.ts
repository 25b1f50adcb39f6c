// The checks run when a staff member is booked on a shift (assign, drag on the schedule, suggested staff).
// Plain functions over facts the caller loads: no database, no clock. Every instant is compared as epoch
// milliseconds; the agency's time zone only enters where a rule speaks of a day or a week on the calendar.
//
// Hard checks refuse the booking, soft ones need an admin's override with a reason, info is shown only. A hard
// check marked `overridable` refuses it too, unless an admin overrides it with a reason (none is, since pay below the
// legal minimum for a PAYE worker became a plain hard check in issue 30.6).
import { assessCompliance, type ComplianceCategory, type ComplianceDocument } from '../compliance/compliance';
import { addDaysToDate, daysBetween, formatDisplayDate, isPlainDate, startOfWeekMonday } from '../time/agencyTime';
import {
  dateToDay,
  dayToDate,
  localDateTime,
  localDay,
  localInstant,
  mondayOfWeek,
  weekOfDay,
} from '../time/zoneClock';
import { formatPounds } from '../../engine/money';
import { type WageFloor } from '../pricing/oncosts';
import { minimumWageConsequence, minimumWageVerdict, type MinimumWageVerdict } from '../pricing/minimumWage';
import { BAND_LABELS, type Band } from '../pricing/types';
import { asSentence } from '../../engine/text';

/** Working Time Regulations 1998: consecutive hours' rest between two shifts. */
export const REST_HOURS = 11;
/** Working Time Regulations 1998: average weekly hours, over the reference period, unless opted out. */
export const WEEKLY_LIMIT_HOURS = 48;
export const REFERENCE_WEEKS = 17;
/** Agency Workers Regulations 2010: calendar weeks with the same hirer in the same role before equal treatment. */
export const AWR_QUALIFYING_WEEKS = 12;
/** A break of up to this many whole weeks pauses the AWR clock; a longer one resets it. */
export const AWR_MAX_BREAK_WEEKS = 6;

const HOUR_MS = 60 * 60 * 1000;
/** Local wall-clock hours that make a shift a night shift when most of it falls between them. */
const NIGHT_STARTS = '20:00';
const NIGHT_ENDS = '08:00';

export type CheckSeverity = 'hard' | 'soft' | 'info';

export type CheckCode =
  | 'not_approved_active'
  | 'job_role_mismatch'
  | 'document_missing'
  | 'document_unverified'
  | 'document_expired'
  | 'restricted_client'
  | 'restricted_site'
  | 'overlap'
  | 'unavailable'
  | 'availability_mismatch'
  | 'short_rest'
  | 'weekly_average'
  | 'above_max_hours'
  | 'below_minimum_wage'
  | 'awr';

export interface CheckResult {
  code: CheckCode;
  severity: CheckSeverity;
  /** A hard check an admin may override with a reason (never a soft or info one: those are overridable or shown). */
  overridable?: boolean;
  /** Plain English naming the problem, for the assign dialog and the 409/422 answer. */
  message: string;
  /** The booking an overlap clashes with: the schedule offers to open it when its filters hide it. */
  clash?: { shift_id: number; client_id: number; site_id: number | null; job_role_id: number };
}

/** An ISO 8601 instant ('2026-03-14T08:00:00.000Z'), or a Date as the database driver returns one. */
export type Instant = string | Date;

export interface Interval {
  /** The interval is half-open, [start, end). */
  start: Instant;
  end: Instant;
  /** Paid minutes (the elapsed time less the unpaid break) when known: the hours worked in a week count these. */
  paid_minutes?: number | null;
}

export interface BookingShift extends Interval {
  /** Absent for a shift not yet saved; when present, the same shift among otherShifts is ignored. */
  id?: number;
  client_id: number;
  site_id: number;
  job_role_id: number;
  /** Its price lines (the card's pay per band and the paid minutes): the minimum-wage check reads their pay rates. */
  price_lines?: { band: Band | 'flat'; pay_rate: number; minutes?: number; hours: number }[] | null;
}

/** What the minimum-wage check needs of a staff member. */
export interface WageFacts {
  /**
   * They are on the agency's PAYE payroll (their employment type is PAYE, or they have none): pay below the minimum
   * refuses the booking. False for an umbrella, their own company, self-employed: a warning naming employmentType.
   */
  covered: boolean;
  /** Their employment type's name, for the warning ("Umbrella company"); null or absent when they have none. */
  employmentType?: string | null;
  /** Their date of birth; unknown is read as 21 or over (the adult rate, the highest floor). */
  dateOfBirth: string | null;
  /** The dated wage floors by age band. */
  floors: WageFloor[];
  /** Their own pay per band in force on the shift's date, over the card's in the price lines. */
  ownPay: Partial<Record<Band, number | null>> | null;
}

/** One of the staff member's other assigned or closed shifts. */
export interface BookedShift extends Interval {
  id: number;
  client_id: number;
  site_id?: number | null;
  job_role_id: number;
}

/** What assessCompliance needs besides today. */
export interface ComplianceInput {
  categories: ComplianceCategory[];
  documents: ComplianceDocument[];
  /** The role whose documents are required; defaults to the shift's job role (the work being booked). */
  jobRoleId?: number | null;
}

export interface AvailabilityDay {
  date: string;
  status: string;
}

export interface BookingPreferences {
  max_hours_per_week: number | null;
  opted_out_48h: boolean;
}

export interface BookingFacts {
  timeZone: string;
  /** Today on the agency's clock: a document already expired is said so, not "will have expired". Absent: not said. */
  today?: string;
  shift: BookingShift & { clientName: string; siteName: string; jobRoleName: string };
  candidate: {
    id: number;
    name: string;
    status: string;
    activated: boolean;
    job_role_id: number | null;
    jobRoleName?: string | null;
  };
  compliance: ComplianceInput;
  /** A null site_id restricts the staff member at every site of the client. */
  restrictions: { client_id: number; site_id: number | null; reason: string }[];
  /** Assigned and closed shifts from 17 weeks before the shift's week to 1 week after the shift. */
  otherShifts: BookedShift[];
  /** Entries for the shift's local dates (a night shift touches two). */
  availability: AvailabilityDay[];
  preferences: BookingPreferences | null;
  /** Worked or assigned shifts at this client in this job role, up to the shift (the shift itself may be left out). */
  awrShifts: Interval[];
  /** For the minimum-wage check; absent: not checked. */
  wage?: WageFacts | null;
}

export interface AwrCount {
  /** Qualifying calendar weeks counted so far (may pass 12). */
  weeks: number;
  /** weeks ≥ AWR_QUALIFYING_WEEKS: equal treatment applies. */
  qualified: boolean;
  /** No work in the week of asOf, after a break short enough to pause rather than reset. */
  paused: boolean;
  /** The Monday on which the latest break grew longer than 6 weeks and reset the count; null if never. */
  resetOn: string | null;
}

export interface BookingAssessment {
  hard: CheckResult[];
  soft: CheckResult[];
  info: CheckResult[];
  awr: AwrCount;
}

// ---------------------------------------------------------------------------------------------------------
// Intervals

/** Half-open intervals overlap when each starts before the other ends: 08:00 end and 08:00 start do not. */
export function overlaps(a: Interval, b: Interval): boolean {
  return overlapsMs(ms(a.start), ms(a.end), ms(b.start), ms(b.end));
}

function overlapsMs(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && bStart < aEnd;
}

/** Hours from the end of `earlier` to the start of `later` (negative when they overlap). Real elapsed time, so a
 * night across a clock change rests what the clock on the wall does not show. */
export function restBetween(earlier: Interval, later: Interval): number {
  return (ms(later.start) - ms(earlier.end)) / HOUR_MS;
}

/** Elapsed hours of an interval. */
export function durationHours(interval: Interval): number {
  return (ms(interval.end) - ms(interval.start)) / HOUR_MS;
}

/** The shift's neighbours among `others`: the one ending last at or before its start, and the one starting first
 * at or after its end. Overlapping shifts are neither (they are refused on their own). */
export function neighbours<T extends Interval>(shift: Interval, others: T[]): { previous: T | null; next: T | null } {
  const start = ms(shift.start);
  const end = ms(shift.end);
  let previous: T | null = null;
  let previousEnd = -Infinity;
  let next: T | null = null;
  let nextStart = Infinity;
  for (const other of others) {
    const oStart = ms(other.start);
    const oEnd = ms(other.end);
    if (oEnd <= start && oEnd > previousEnd) {
      previous = other;
      previousEnd = oEnd;
    } else if (oStart >= end && oStart < nextStart) {
      next = other;
      nextStart = oStart;
    }
  }
  return { previous, next };
}

// ---------------------------------------------------------------------------------------------------------
// Calendar weeks (Monday first, agency's local time)

/** The local Monday of the week an instant falls in. */
export function weekOf(instant: Instant, timeZone: string): string {
  return dayToDate(mondayOfWeek(weekOfDay(localDay(ms(instant), timeZone))));
}

/** The instant the local week starting `monday` begins (local midnight; DST-safe). */
export function weekStartInstant(monday: string, timeZone: string): number {
  return localInstant(monday, '00:00', timeZone);
}

/**
 * Hours of the shifts that START in [from, to). A shift belongs wholly to the week it starts in, as on a
 * timesheet: a Sunday night into Monday counts in the Sunday's week.
 */
export function hoursStartingBetween(shifts: Interval[], from: number, to: number): number {
  let total = 0;
  for (const s of shifts) {
    const start = ms(s.start);
    if (start >= from && start < to) total += paidMs(s);
  }
  return total / HOUR_MS;
}

/** The paid time of a shift (ms): its paid minutes when known, else its elapsed time. Unpaid breaks are not work. */
export function paidMs(s: Interval): number {
  return s.paid_minutes != null ? s.paid_minutes * 60_000 : ms(s.end) - ms(s.start);
}

/** Hours of the shifts starting in the local week that starts on `monday`. The suggested-staff ranking uses it. */
export function hoursInWeek(shifts: Interval[], monday: string, timeZone: string): number {
  return hoursStartingBetween(
    shifts,
    weekStartInstant(monday, timeZone),
    weekStartInstant(addDaysToDate(monday, 7), timeZone),
  );
}

/**
 * Working Time Regulations: the average weekly hours over the reference period as of a date, the week of asOf and
 * the REFERENCE_WEEKS − 1 before it (Monday to Sunday, local). A shift counts wholly in the week it starts in, for
 * its elapsed time (an unpaid break is still time at work). The booking check and the staff report both ask this.
 */
export function averageWeeklyHours(shifts: Interval[], asOf: string, timeZone: string): number {
  if (!isPlainDate(asOf)) throw new RangeError(`Not a date (yyyy-MM-dd): ${JSON.stringify(asOf)}`);
  const { from, to } = referencePeriod(asOf, timeZone);
  let total = 0;
  for (const s of shifts) {
    const start = ms(s.start);
    if (start >= from && start < to) total += ms(s.end) - start;
  }
  return total / HOUR_MS / REFERENCE_WEEKS;
}

/** The reference period of asOf as instants [from, to): from the Monday 16 weeks before its week to the next Monday. */
export function referencePeriod(asOf: string, timeZone: string): { from: number; to: number } {
  const monday = startOfWeekMonday(asOf);
  return {
    from: weekStartInstant(addDaysToDate(monday, -7 * (REFERENCE_WEEKS - 1)), timeZone),
    to: weekStartInstant(addDaysToDate(monday, 7), timeZone),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Availability

export type AvailabilityFit = 'fits' | 'not_set' | 'unavailable' | 'mismatch';

/**
 * How the staff member's availability fits the shift.
 * - 'unavailable' when any local date the shift works on is marked unavailable (a night into a day off too);
 * - otherwise, by the entry on the start date: 'available' fits anything; 'day' and 'long_day' fit a day shift,
 *   'night' a night shift ('mismatch' when not); no entry is 'not_set'.
 * A shift is a night shift when most of its time falls between 20:00 and 08:00 local time.
 */
export function availabilityFit(shift: Interval, availability: AvailabilityDay[], timeZone: string): AvailabilityFit {
  const dates = localDates(shift, timeZone);
  const byDate = new Map(availability.map((a) => [a.date, a.status]));
  if (dates.some((d) => byDate.get(d) === 'unavailable')) return 'unavailable';
  const status = byDate.get(dates[0]);
  if (status === undefined) return 'not_set';
  if (status === 'available') return 'fits';
  const night = isNightShift(shift, timeZone);
  if (status === 'night') return night ? 'fits' : 'mismatch';
  if (status === 'day' || status === 'long_day') return night ? 'mismatch' : 'fits';
  return 'not_set';
}

/** The local dates on which the shift has working time, first to last (an end at midnight stays on the day). */
export function localDates(shift: Interval, timeZone: string): string[] {
  const start = ms(shift.start);
  const first = localDay(start, timeZone);
  const last = localDay(Math.max(start, ms(shift.end) - 1), timeZone);
  const dates: string[] = [];
  for (let day = first; day <= last; day++) dates.push(dayToDate(day));
  return dates;
}

/** Most of the shift's elapsed time lies between 20:00 and 08:00 on the agency's clock. */
export function isNightShift(shift: Interval, timeZone: string): boolean {
  const start = ms(shift.start);
  const end = ms(shift.end);
  let night = 0;
  // Each night window starts on one of the shift's dates or the evening before its first.
  const dates = localDates(shift, timeZone);
  for (const date of [addDaysToDate(dates[0], -1), ...dates]) {
    const from = localInstant(date, NIGHT_STARTS, timeZone);
    const to = localInstant(addDaysToDate(date, 1), NIGHT_ENDS, timeZone);
    night += Math.max(0, Math.min(end, to) - Math.max(start, from));
  }
  return night * 2 > end - start;
}

// ---------------------------------------------------------------------------------------------------------
// Agency Workers Regulations

/**
 * The AWR 12-week count as of a date. A calendar week (Monday–Sunday, local) with at least one shift starting in
 * it counts. A break of up to 6 whole weeks without work pauses the clock; once a 7th whole week passes without
 * work it resets to 0 (on the Monday after that 7th week). Shifts starting after asOf are ignored; the week of
 * asOf is still running, so it never counts towards a break.
 */
export function awrWeeks(shifts: Interval[], asOf: string, timeZone: string): AwrCount {
  const { counted, paused, resetOn } = awrRun(shifts, asOf, timeZone);
  return { weeks: counted.length, qualified: counted.length >= AWR_QUALIFYING_WEEKS, paused, resetOn };
}

/**
 * The Monday from which equal treatment applies under the AWR, as of a date: the Monday after the 12th week counted
 * (awrWeeks' weeks, since the last reset); not yet qualified, the earliest it can be, working every week from the
 * week of asOf on (that week too, when nothing has counted in it yet). Null when no week counts (never worked at that
 * client in that role, or reset by a long break).
 */
export function awrQualifyingDate(shifts: Interval[], asOf: string, timeZone: string): string | null {
  const { counted, asOfWeek } = awrRun(shifts, asOf, timeZone);
  if (counted.length === 0) return null;
  if (counted.length >= AWR_QUALIFYING_WEEKS) return dayToDate(mondayOfWeek(counted[AWR_QUALIFYING_WEEKS - 1] + 1));
  const next = counted[counted.length - 1] === asOfWeek ? asOfWeek + 1 : asOfWeek;
  return dayToDate(mondayOfWeek(next + AWR_QUALIFYING_WEEKS - counted.length));
}

/** The weeks (week numbers, ascending) counted since the last reset as of a date, with awrWeeks' pause and reset. */
function awrRun(shifts: Interval[], asOf: string, timeZone: string) {
  if (!isPlainDate(asOf)) throw new RangeError(`Not a date (yyyy-MM-dd): ${JSON.stringify(asOf)}`);
  const asOfDay = dateToDay(asOf);
  const asOfWeek = weekOfDay(asOfDay);
  const worked = new Set<number>();
  for (const s of shifts) {
    const day = localDay(ms(s.start), timeZone);
    if (day <= asOfDay) worked.add(weekOfDay(day));
  }
  const weeksWorked = [...worked].sort((a, b) => a - b);

  let counted: number[] = [];
  let resetOn: string | null = null;
  let last: number | null = null;
  for (const w of weeksWorked) {
    if (last !== null && w - last - 1 > AWR_MAX_BREAK_WEEKS) {
      counted = [];
      resetOn = resetMonday(last);
    }
    counted.push(w);
    last = w;
  }

  let paused = false;
  if (last !== null && last < asOfWeek) {
    const idleWeeks = asOfWeek - last - 1;
    if (idleWeeks > AWR_MAX_BREAK_WEEKS) {
      counted = [];
      resetOn = resetMonday(last);
    } else {
      paused = idleWeeks > 0;
    }
  }
  return { counted, paused, resetOn, asOfWeek };
}

/** The Monday starting the 8th week after the last one worked: the break has then passed 6 whole weeks. */
const resetMonday = (lastWorkedWeek: number) => dayToDate(mondayOfWeek(lastWorkedWeek + AWR_MAX_BREAK_WEEKS + 2));

export function describeAwr(awr: AwrCount, clientName: string, jobRoleName: string): string {
  const where = `at ${clientName} as ${jobRoleName}`;
  if (awr.qualified) {
    return `Agency Workers Regulations: ${awr.weeks} qualifying weeks ${where}; equal treatment applies.`;
  }
  const pausedNote = awr.paused ? ' (paused by a break)' : '';
  return `Agency Workers Regulations: week ${awr.weeks} of ${AWR_QUALIFYING_WEEKS} ${where}${pausedNote}.`;
}

// ---------------------------------------------------------------------------------------------------------
// The assessment

export function assessBooking(facts: BookingFacts): BookingAssessment {
  const { shift, candidate, timeZone } = facts;
  const name = candidate.name;
  const hard: CheckResult[] = [];
  const soft: CheckResult[] = [];
  const hardCheck = (code: CheckCode, message: string) => hard.push({ code, severity: 'hard', message });
  const softCheck = (code: CheckCode, message: string) => soft.push({ code, severity: 'soft', message });

  const start = ms(shift.start);
  const end = ms(shift.end);
  const dates = localDates(shift, timeZone);

  // Hard: who they are.
  if (candidate.status !== 'approved' || !candidate.activated) {
    const reasons = [
      ...(candidate.status !== 'approved' ? [`their status is ${candidate.status.replace(/_/g, ' ')}`] : []),
      ...(!candidate.activated ? ['they are not activated'] : []),
    ];
    hardCheck('not_approved_active', `${name} is not approved and active: ${reasons.join(' and ')}.`);
  }
  if (candidate.job_role_id !== shift.job_role_id) {
    hardCheck(
      'job_role_mismatch',
      candidate.job_role_id === null
        ? `${name} has no job role; this shift needs a ${shift.jobRoleName}.`
        : `${name} is ${article(candidate.jobRoleName ?? 'another job role')}, not ${article(shift.jobRoleName)}.`,
    );
  }

  // Hard: documents, on the last date the shift works (a night must be covered into its morning).
  const onDate = dates[dates.length - 1];
  const compliance = assessCompliance({
    jobRoleId: facts.compliance.jobRoleId ?? shift.job_role_id,
    categories: facts.compliance.categories,
    documents: facts.compliance.documents,
    today: onDate,
  });
  const awaitingCheck = new Set(
    facts.compliance.documents
      .filter((d) => !d.superseded && d.status === 'awaiting')
      .map((d) => d.document_category_id),
  );
  const unverified = compliance.missing.filter((c) => awaitingCheck.has(c.id));
  const missing = compliance.missing.filter((c) => !awaitingCheck.has(c.id));
  if (missing.length > 0) {
    hardCheck(
      'document_missing',
      `${name} is missing ${missing.length === 1 ? 'a mandatory document' : 'mandatory documents'} for ${shift.jobRoleName}: ${listOf(missing.map((c) => c.name))}.`,
    );
  }
  if (unverified.length > 0) {
    const items = listOf(unverified.map((c) => c.name));
    hardCheck('document_unverified', `${name}'s ${items} ${unverified.length === 1 ? 'is' : 'are'} not verified yet.`);
  }
  if (compliance.expired.length > 0) {
    // Already expired (before today) is said as a fact; expiring before the shift is said as what will be.
    const past = compliance.expired.filter((n) => facts.today !== undefined && n.expiry < facts.today);
    const coming = compliance.expired.filter((n) => !past.includes(n));
    const parts = [
      ...(past.length ? [listOf(past.map((n) => `${n.category.name} expired on ${formatDisplayDate(n.expiry)}`))] : []),
      ...(coming.length
        ? [
            `${listOf(coming.map((n) => `${n.category.name} (valid until ${formatDisplayDate(n.expiry)})`))} will have expired by ${formatDisplayDate(onDate)}`,
          ]
        : []),
    ];
    // A renewal uploaded beside the expired document (issue 30.2) is what the agency must check next.
    const renewing = compliance.expired.filter((n) => awaitingCheck.has(n.category.id)).map((n) => n.category.name);
    const renewal = renewing.length ? ` The renewal of ${listOf(renewing)} is not verified yet.` : '';
    hardCheck('document_expired', `${name}'s ${parts.join('; their ')}.${renewal}`);
  }

  // Hard: restrictions.
  for (const r of facts.restrictions) {
    if (r.client_id !== shift.client_id) continue;
    if (r.site_id === null) {
      hardCheck('restricted_client', `${name} is restricted at ${shift.clientName}: ${asSentence(r.reason)}`);
    } else if (r.site_id === shift.site_id) {
      hardCheck(
        'restricted_site',
        `${name} is restricted at ${shift.siteName} (${shift.clientName}): ${asSentence(r.reason)}`,
      );
    }
  }

  // Pay below the legal minimum for their age on the shift's date (minimumWageVerdict): refused for a PAYE worker,
  // with no override; a warning an admin confirms for anyone else, naming how they are employed.
  const belowMinimum = belowMinimumWage(shift, facts.wage, dates[0]);
  if (belowMinimum.length && facts.wage) {
    const employment = { paye: facts.wage.covered, name: facts.wage.employmentType ?? null };
    const message = `${name} would be paid ${listOf(belowMinimum.map((b) => b.text))}. ${minimumWageConsequence(belowMinimum[0].verdict, employment)}`;
    if (employment.paye) hardCheck('below_minimum_wage', message);
    else soft.push({ code: 'below_minimum_wage', severity: 'soft', message });
  }

  // One pass over their other shifts: overlaps (hard), neighbours for rest, and hours for the week limits.
  const weekMonday = startOfWeekMonday(dates[0]);
  const weekFrom = weekStartInstant(weekMonday, timeZone);
  const weekTo = weekStartInstant(addDaysToDate(weekMonday, 7), timeZone);
  // The preferred weekly maximum counts paid hours (44 h on the clock with four 30-minute breaks is 42 h of work).
  let weekMs = paidMs(shift);
  let previousEnd = -Infinity;
  let nextStart = Infinity;
  for (const other of facts.otherShifts) {
    if (shift.id !== undefined && other.id === shift.id) continue;
    const oStart = ms(other.start);
    const oEnd = ms(other.end);
    if (overlapsMs(start, end, oStart, oEnd)) {
      hard.push({
        code: 'overlap',
        severity: 'hard',
        message: `${name} is already booked ${describeTimes(other, timeZone)}, which overlaps this shift.`,
        clash: {
          shift_id: other.id,
          client_id: other.client_id,
          site_id: other.site_id ?? null,
          job_role_id: other.job_role_id,
        },
      });
    } else if (oEnd <= start) {
      if (oEnd > previousEnd) previousEnd = oEnd;
    } else if (oStart < nextStart) {
      nextStart = oStart;
    }
    if (oStart >= weekFrom && oStart < weekTo) weekMs += paidMs(other);
  }

  // Soft: availability.
  const fit = availabilityFit(shift, facts.availability, timeZone);
  if (fit === 'unavailable') {
    const days = dates.filter((d) => facts.availability.some((a) => a.date === d && a.status === 'unavailable'));
    softCheck('unavailable', `${name} is unavailable on ${listOf(days.map(formatDisplayDate))}.`);
  } else if (fit === 'mismatch') {
    const status = facts.availability.find((a) => a.date === dates[0])?.status ?? '';
    const kind = isNightShift(shift, timeZone) ? 'a night shift' : 'a day shift';
    softCheck(
      'availability_mismatch',
      `${name} is available for ${AVAILABILITY_WORDS[status] ?? status} on ${formatDisplayDate(dates[0])}; this is ${kind}.`,
    );
  }

  // Soft: rest before and after.
  const restBefore = (start - previousEnd) / HOUR_MS;
  if (restBefore < REST_HOURS) {
    softCheck(
      'short_rest',
      `${name} would have only ${formatHours(restBefore)} rest after their previous shift (at least ${REST_HOURS} hours).`,
    );
  }
  const restAfter = (nextStart - end) / HOUR_MS;
  if (restAfter < REST_HOURS) {
    softCheck(
      'short_rest',
      `${name} would have only ${formatHours(restAfter)} rest before their next shift (at least ${REST_HOURS} hours).`,
    );
  }

  // Soft: working time.
  const others = facts.otherShifts.filter((o) => shift.id === undefined || o.id !== shift.id);
  const average = averageWeeklyHours([shift, ...others], dates[0], timeZone);
  if (average > WEEKLY_LIMIT_HOURS && !facts.preferences?.opted_out_48h) {
    softCheck(
      'weekly_average',
      `${name} would average ${formatHours(average)} a week over the ${REFERENCE_WEEKS} weeks to ${formatDisplayDate(addDaysToDate(weekMonday, 6))}, above ${WEEKLY_LIMIT_HOURS} hours, and has not opted out.`,
    );
  }
  const max = facts.preferences?.max_hours_per_week ?? null;
  const weekHours = weekMs / HOUR_MS;
  if (max !== null && weekHours > max) {
    softCheck(
      'above_max_hours',
      `${name} would work ${formatHours(weekHours)} in the week of ${formatDisplayDate(weekMonday)}, above their preferred ${formatHours(max)}.`,
    );
  }

  // Info: AWR, counting this shift's week.
  const awr = awrWeeks([...facts.awrShifts, shift], dates[0], timeZone);
  const info: CheckResult[] = [
    { code: 'awr', severity: 'info', message: describeAwr(awr, shift.clientName, shift.jobRoleName) },
  ];

  return { hard, soft, info, awr };
}

/** No hard check failed. */
export function passesHard(assessment: Pick<BookingAssessment, 'hard'>): boolean {
  return assessment.hard.length === 0;
}

/** The hard checks nobody may override. */
export const blockingChecks = (assessment: Pick<BookingAssessment, 'hard'>) =>
  assessment.hard.filter((c) => !c.overridable);

/** What an admin must override with a reason: the overridable hard checks, then the soft ones. */
export const overridableChecks = (assessment: Pick<BookingAssessment, 'hard' | 'soft'>) => [
  ...assessment.hard.filter((c) => c.overridable),
  ...assessment.soft,
];

/**
 * The bands of a shift paid below the staff member's legal minimum on `date` ('£12.50 an hour (Weekday night), below
 * the National Living Wage of £12.71 an hour from 1 April 2026 at age 54'), each with its verdict; none when the shift
 * is a sleep-in (a flat allowance is lawful) or its lines are unknown.
 */
export function belowMinimumWage(
  shift: Pick<BookingShift, 'price_lines'>,
  wage: WageFacts | null | undefined,
  date: string,
): { text: string; verdict: MinimumWageVerdict }[] {
  if (!wage || !shift.price_lines?.length) return [];
  const employment = { paye: wage.covered, name: wage.employmentType ?? null };
  const out: { text: string; verdict: MinimumWageVerdict }[] = [];
  for (const line of shift.price_lines) {
    if (line.band === 'flat' || (line.minutes ?? Math.round(line.hours * 60)) <= 0) continue;
    const rate = wage.ownPay?.[line.band] ?? line.pay_rate;
    const verdict = minimumWageVerdict({
      payRate: rate,
      date,
      floors: wage.floors,
      dateOfBirth: wage.dateOfBirth,
      employment,
    });
    const text = verdict && `${formatPounds(rate)} an hour (${BAND_LABELS[line.band]}), ${verdict.below}`;
    if (verdict && text && !out.some((o) => o.text === text)) out.push({ text, verdict });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Suggested staff

export interface SuggestionCandidate {
  id: number;
  name: string;
  passesHard: boolean;
  /** Availability fits the shift (see availabilityFit: 'fits'). */
  available: boolean;
  /** The client or site prefers them. */
  preferred: boolean;
  /** The client or site would rather not have them (without restricting them). */
  avoided: boolean;
  hoursThisWeek: number;
}

/**
 * Staff who pass the hard checks, best first: available, then preferred (neutral before avoided), then fewest
 * hours this week, then by name (and id, so equal names keep a stable order).
 */
export function rankSuggestions<T extends SuggestionCandidate>(candidates: T[]): T[] {
  const preference = (c: T) => (c.preferred ? 0 : c.avoided ? 2 : 1);
  return candidates
    .filter((c) => c.passesHard)
    .sort(
      (a, b) =>
        Number(b.available) - Number(a.available) ||
        preference(a) - preference(b) ||
        a.hoursThisWeek - b.hoursThisWeek ||
        collator.compare(a.name, b.name) ||
        a.id - b.id,
    );
}

const collator = new Intl.Collator('en-GB', { sensitivity: 'base' });

// ---------------------------------------------------------------------------------------------------------
// Wording

const AVAILABILITY_WORDS: Record<string, string> = {
  day: 'day shifts only',
  long_day: 'long days only',
  night: 'night shifts only',
};

function ms(instant: Instant): number {
  const t = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (Number.isNaN(t)) throw new RangeError(`Not an instant: ${JSON.stringify(instant)}`);
  return t;
}

/** '14 Mar 2026 20:00–08:00' (the end's date is added when it is another day). */
function describeTimes(shift: Interval, timeZone: string): string {
  const from = localDateTime(ms(shift.start), timeZone);
  const to = localDateTime(ms(shift.end), timeZone);
  const endDate =
    to.date === from.date || daysBetween(from.date, to.date) === 1 ? '' : `${formatDisplayDate(to.date)} `;
  return `${formatDisplayDate(from.date)} ${from.time}–${endDate}${to.time}`;
}

/** '10 hours', '10 hours 59 minutes', '1 hour 30 minutes'; negative spans read as 0. */
export function formatHours(hours: number): string {
  const totalMinutes = Math.max(0, Math.round(hours * 60));
  const h = Math.floor(totalMinutes / 60);
  const m = totalMinutes % 60;
  const hoursText = `${h} ${h === 1 ? 'hour' : 'hours'}`;
  return m === 0 ? hoursText : `${hoursText} ${m} ${m === 1 ? 'minute' : 'minutes'}`;
}

/** 'A, B and C'. */
function listOf(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
