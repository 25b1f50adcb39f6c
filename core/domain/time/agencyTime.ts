// The agency's calendar and clock. Plain functions, free of Node-only APIs, so the browser can use them too.
//
// Two kinds of value, never mixed:
// - a plain date, 'yyyy-MM-dd' (a document's expiry, an availability day, "today"): a day on the calendar with no
//   time and no zone. Arithmetic on plain dates is done on UTC midnights, where every day has 24 hours, so a
//   DST change can never turn "add one day" into 23 or 25 hours, whatever the machine's zone.
// - an instant, a `Date` (a shift's start, stored as timestamptz). Converting between an instant and the
//   agency's wall clock is the only place a time zone enters.
import { addMonths } from 'date-fns/addMonths';
import { tz as tzContext, tzOffset } from '@date-fns/tz';

export const DEFAULT_TIME_ZONE = 'Europe/London';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An IANA zone name the runtime knows ('Europe/London', 'UTC'). UTC offsets such as '+01:00' are refused: an
 * agency's zone must follow its daylight-saving changes. */
export function isValidTimeZone(tz: unknown): tz is string {
  // An IANA name only: Node 24's Intl also takes a fixed offset ('+01:00'), which has no daylight saving.
  if (typeof tz !== 'string' || !/^[A-Za-z]/.test(tz)) return false;
  // Building a formatter costs ~50 µs, and pricing and booking checks ask thousands of times per request.
  if (knownZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    knownZones.add(tz);
    return true;
  } catch {
    return false;
  }
}
const knownZones = new Set<string>();

/** A real calendar date written 'yyyy-MM-dd' ('2026-02-30' is not one). */
export function isPlainDate(value: unknown): value is string {
  return typeof value === 'string' && parsePlainDate(value) !== null;
}

/** Today's date on the agency's calendar. 23:30 UTC on 31 March 2026 is already 1 April in London (BST). */
export function agencyToday(tz: string, now: Date = new Date()): string {
  return instantToZoned(now, tz).date;
}

/** The date n days later (n may be negative). */
export function addDaysToDate(date: string, n: number): string {
  return fromUtcMidnight(toUtcMidnight(date) + n * DAY_MS);
}

/** The date n months later, clamped to the end of a shorter month: 2025-01-31 + 1 month is 2025-02-28. */
export function addMonthsToDate(date: string, n: number): string {
  const shifted = addMonths(new Date(toUtcMidnight(date)), n, { in: tzContext('UTC') });
  return fromUtcMidnight(shifted.getTime());
}

/** Whole days from `from` to `to`: positive when `to` is later, 0 for the same date. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMidnight(to) - toUtcMidnight(from)) / DAY_MS);
}

/** ISO day of the week: 1 for Monday … 7 for Sunday. */
export function dayOfWeek(date: string): number {
  const sunday0 = new Date(toUtcMidnight(date)).getUTCDay();
  return sunday0 === 0 ? 7 : sunday0;
}

/** The Monday of the week holding `date` (weeks run Monday to Sunday, as on the availability grid). */
export function startOfWeekMonday(date: string): string {
  return addDaysToDate(date, 1 - dayOfWeek(date));
}

/** The seven dates of the week starting on `weekStart`, Monday first. A week start that is not a Monday is a
 * caller's bug (use startOfWeekMonday), so it throws rather than quietly answering another week. */
export function weekDates(weekStart: string): string[] {
  assertMonday(weekStart);
  return Array.from({ length: 7 }, (_, i) => addDaysToDate(weekStart, i));
}

/** Throws a RangeError unless `date` is a Monday. */
export function assertMonday(date: string): void {
  if (dayOfWeek(date) !== 1) throw new RangeError(`A week must start on a Monday; ${date} is not one.`);
}

/**
 * The instant at which the agency's wall clock shows `time` ('HH:mm') on `date`.
 *
 * Daylight saving makes some wall-clock times ambiguous; this follows the common convention (RFC 5545, and
 * Temporal's 'compatible' mode):
 * - a time that does not exist (01:30 on 29 March 2026 in London, when clocks jump from 01:00 to 02:00) is
 *   moved forward by the length of the jump: 02:30 BST, 01:30 UTC;
 * - a time that occurs twice (01:30 on 25 October 2026 in London, when clocks go back from 02:00 to 01:00)
 *   is the first of the two: 01:30 BST, 00:30 UTC.
 */
export function zonedDateTimeToInstant(date: string, time: string, tz: string): Date {
  assertTimeZone(tz);
  const t = TIME_PATTERN.exec(time);
  if (!t) throw new RangeError(`Not a time (HH:mm): ${JSON.stringify(time)}`);
  // The wall-clock reading written as if it were UTC; subtracting the zone's offset then gives the instant.
  const wall = toUtcMidnight(date) + (Number(t[1]) * 60 + Number(t[2])) * MINUTE_MS;
  // A zone changes its offset at most once in a day around any wall time, so the offsets a day before and a
  // day after are the only candidates. A candidate is real when the zone shows that offset at that instant.
  const offsetBefore = tzOffset(tz, new Date(wall - DAY_MS));
  const offsetAfter = tzOffset(tz, new Date(wall + DAY_MS));
  const real = [offsetBefore, offsetAfter]
    .map((offset) => ({ offset, instant: wall - offset * MINUTE_MS }))
    .filter(({ offset, instant }) => tzOffset(tz, new Date(instant)) === offset)
    .map(({ instant }) => instant);
  if (real.length > 0) return new Date(Math.min(...real)); // twice: the first
  // In the gap: read the time with the offset in force before the jump, which lands after it.
  return new Date(wall - offsetBefore * MINUTE_MS);
}

const HOUR_MS = 60 * MINUTE_MS;
const hourOffsets = new Map<string, Map<number, number>>();

/**
 * The zone's offset from UTC in minutes at `ms`. A zone changes its offset at most once in an hour, so when the
 * offsets at an hour's first and last millisecond are the same it holds for the whole hour, and is kept for it: an
 * export of 100,000 times asks the runtime's zone data about once an hour of them, not once each.
 */
function offsetAt(tz: string, ms: number): number {
  let hours = hourOffsets.get(tz);
  if (!hours) hourOffsets.set(tz, (hours = new Map()));
  const hour = Math.floor(ms / HOUR_MS);
  const kept = hours.get(hour);
  if (kept !== undefined) return kept;
  const first = tzOffset(tz, new Date(hour * HOUR_MS));
  if (tzOffset(tz, new Date((hour + 1) * HOUR_MS - 1)) !== first) return tzOffset(tz, new Date(ms));
  if (hours.size >= 100_000) hours.clear();
  hours.set(hour, first);
  return first;
}

/** What the agency's calendar and wall clock show at `instant` (seconds are dropped). */
export function instantToZoned(instant: Date, tz: string): { date: string; time: string } {
  assertTimeZone(tz);
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Not an instant: Invalid Date');
  // The wall clock is the instant moved by the zone's offset, read as UTC.
  const z = new Date(ms + offsetAt(tz, ms) * MINUTE_MS);
  return {
    date: `${pad(z.getUTCFullYear(), 4)}-${pad(z.getUTCMonth() + 1, 2)}-${pad(z.getUTCDate(), 2)}`,
    time: `${pad(z.getUTCHours(), 2)}:${pad(z.getUTCMinutes(), 2)}`,
  };
}

/** A date for people to read: '3 Nov 2026'. */
export function formatDisplayDate(date: string): string {
  const p = parseOrThrow(date);
  return `${p.day} ${MONTHS[p.month - 1]} ${p.year}`;
}

function assertTimeZone(tz: string): void {
  if (!isValidTimeZone(tz)) throw new RangeError(`Unknown time zone: ${JSON.stringify(tz)}`);
}

function parsePlainDate(text: string): { year: number; month: number; day: number } | null {
  const m = DATE_PATTERN.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day); // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999
  // A day past the month's end rolls over (2026-02-30 → March): only a date that survives unchanged is real.
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return { year, month, day };
}

function parseOrThrow(date: string) {
  const p = parsePlainDate(date);
  if (!p) throw new RangeError(`Not a date (yyyy-MM-dd): ${JSON.stringify(date)}`);
  return p;
}

/** Milliseconds of the date's UTC midnight. */
function toUtcMidnight(date: string): number {
  const { year, month, day } = parseOrThrow(date);
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

function fromUtcMidnight(ms: number): string {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) throw new RangeError('The date falls outside the years 0000–9999.');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
