// The agency's calendar for instants, fast enough to run for every staff member suggested for a shift and every
// shift priced: the one place the zones' offsets are remembered (isValidTimeZone remembers which zones exist).
// agencyTime.ts gives the answers; this module gives the same answers about seven times faster (under 1 µs against
// 4–8 µs, measured with tsx) by remembering offsets per UTC day and wall-clock instants per (zone, date, time).
// A property test holds these equal to agencyTime's.
import { tzOffset } from '@date-fns/tz';
import { isValidTimeZone, zonedDateTimeToInstant } from './agencyTime';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
/** Day 4 after the epoch, 1970-01-05, was a Monday. */
const FIRST_MONDAY = 4;
/** Caches hold at most this many entries each, then start again: enough for any one request's shifts. */
const CACHE_LIMIT = 20_000;

// Per zone: the offset (minutes) in force all through a UTC day, or NaN when it changes during that day.
const dayOffsets = new Map<string, Map<number, number>>();

/** The zone's UTC offset in minutes at the instant (60 for London in summer). */
export function offsetMinutes(ms: number, tz: string): number {
  let days = dayOffsets.get(tz);
  if (!days) {
    // Checked once per zone, when its cache is made (isValidTimeZone remembers the zones it has seen).
    if (!isValidTimeZone(tz)) throw new RangeError(`Unknown time zone: ${JSON.stringify(tz)}`);
    days = new Map();
    dayOffsets.set(tz, days);
  }
  const utcDay = Math.floor(ms / DAY_MS);
  let offset = days.get(utcDay);
  if (offset === undefined) {
    // Real zones change their offset at most once a day, so equal ends mean one offset throughout.
    const atStart = tzOffset(tz, new Date(utcDay * DAY_MS));
    const atEnd = tzOffset(tz, new Date((utcDay + 1) * DAY_MS - 1));
    offset = atStart === atEnd ? atStart : NaN;
    if (days.size >= CACHE_LIMIT) days.clear();
    days.set(utcDay, offset);
  }
  return Number.isNaN(offset) ? tzOffset(tz, new Date(ms)) : offset;
}

/** The agency's calendar day of an instant, counted in days from 1970-01-01. */
export function localDay(ms: number, tz: string): number {
  return Math.floor((ms + offsetMinutes(ms, tz) * MINUTE_MS) / DAY_MS);
}

/** The agency's date and wall-clock time at an instant, as agencyTime's instantToZoned gives them. */
export function localDateTime(ms: number, tz: string): { date: string; time: string } {
  const iso = new Date(ms + offsetMinutes(ms, tz) * MINUTE_MS).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** Day number → 'yyyy-MM-dd'. */
export function dayToDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 'yyyy-MM-dd' (already validated) → day number. */
export function dateToDay(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/** Weeks numbered from the epoch's first Monday: the week holding a day. */
export function weekOfDay(day: number): number {
  return Math.floor((day - FIRST_MONDAY) / 7);
}

/** The Monday (day number) of a numbered week. */
export function mondayOfWeek(week: number): number {
  return week * 7 + FIRST_MONDAY;
}

const wallInstants = new Map<string, number>();

/** zonedDateTimeToInstant in epoch milliseconds, remembered: a shift's week and night boundaries are the same for
 * every staff member assessed against it. */
export function localInstant(date: string, time: string, tz: string): number {
  const key = `${tz}|${date}|${time}`;
  let ms = wallInstants.get(key);
  if (ms === undefined) {
    ms = zonedDateTimeToInstant(date, time, tz).getTime();
    if (wallInstants.size >= CACHE_LIMIT) wallInstants.clear();
    wallInstants.set(key, ms);
  }
  return ms;
}
