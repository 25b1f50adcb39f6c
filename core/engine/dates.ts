// Per-function imports: the server loads these at start, and the date-fns index costs ~200 ms to load.
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { addYears } from 'date-fns/addYears';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { parseISO } from 'date-fns/parseISO';

export const DATE_FORMAT = 'yyyy-MM-dd';
export const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm';
/** A wall-clock time, 24-hour (a shift's start and end on the request form, as templates store them). */
export const TIME_FORMAT = 'HH:mm';

/**
 * What "today" is for date limits: the server passes the agency's date as 'yyyy-MM-dd' (agencyToday: its time
 * zone decides, not the machine's); the browser may pass its current Date, whose local day is the user's today.
 */
export type Today = Date | string;

/** The last limits resolved against a day given as text (the server's "today"), by limit and day. */
const resolved = new Map<string, Date | undefined>();

/** Resolves a declared limit ('today', '2026-01-01', '-16y', '+30d', '+6m') to a date, relative to `now`. */
export function resolveLimit(limit: string | undefined, now: Today = new Date()): Date | undefined {
  if (!limit) return undefined;
  // The server validates every date field of every record against the agency's today: a create of thousands asks
  // the same few limits again and again. A copy each time, so no caller can change the one kept.
  if (typeof now === 'string') {
    const key = `${limit}|${now}`;
    if (!resolved.has(key)) {
      if (resolved.size > 100) resolved.clear();
      resolved.set(key, resolveLimitOn(limit, now));
    }
    const d = resolved.get(key);
    return d && new Date(d.getTime());
  }
  return resolveLimitOn(limit, now);
}

function resolveLimitOn(limit: string, now: Today): Date | undefined {
  if (limit === 'today') return startOfDay(now);
  const rel = /^([+-]\d+)([dmy])$/.exec(limit);
  if (rel) {
    const n = Number(rel[1]);
    const base = startOfDay(now);
    return rel[2] === 'd' ? addDays(base, n) : rel[2] === 'm' ? addMonths(base, n) : addYears(base, n);
  }
  const d = parseISO(limit);
  return isValid(d) ? d : undefined;
}

/** Local midnight of the day `now` names. A malformed day string is a programming error, not a user's. */
function startOfDay(now: Today): Date {
  if (typeof now === 'string') {
    const d = parseStrictDate(now);
    if (!d) throw new Error(`"today" must be a yyyy-MM-dd date, got ${JSON.stringify(now)}`);
    return d;
  }
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

const ISO_DAY = /^(\d{4})-(\d\d)-(\d\d)$/;

/** A typed date is accepted only when it parses in the input format and writes back identically (no 2026-02-31). */
export function parseStrictDate(text: string, fmt = DATE_FORMAT): Date | null {
  // The API's own format, read by hand: date-fns' parse and format cost ~20 µs a date, and a create of thousands of
  // records reads a few per record (each limit resolves "today" too). The same answer: local midnight, or null.
  if (fmt === DATE_FORMAT) {
    const m = ISO_DAY.exec(text);
    if (!m) return null;
    const [year, month, day] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
    const d = new Date(2000, 0, 1);
    d.setFullYear(year, month, day);
    // Year 0 does not exist in the calendar date-fns reads (1 BC is followed by AD 1).
    return year > 0 && d.getFullYear() === year && d.getMonth() === month && d.getDate() === day ? d : null;
  }
  const d = parse(text, fmt, new Date(2000, 0, 1));
  return isValid(d) && format(d, fmt) === text ? d : null;
}

export const formatDate = (d: Date) => format(d, DATE_FORMAT);

/** An ISO 8601 date-time as the API takes it: a date, 'T', hh:mm[:ss[.fraction]] and an optional Z or ±hh:mm offset. */
const INSTANT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:Z|[+-](\d\d):?(\d\d))?$/;

/**
 * A date-time is accepted only when each part exists: JavaScript's Date turns 2027-02-30T08:00Z into 2 March
 * and 24:00 into the next day, so a typed or sent value is checked part by part before it is read as an instant.
 * Without an offset it is read as Date reads it (local time in a browser).
 */
export function parseStrictInstant(text: string): Date | null {
  const m = INSTANT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = m.slice(1);
  if (!parseStrictDate(`${year}-${month}-${day}`)) return null;
  if (
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59 ||
    Number(offsetHours) > 23 ||
    Number(offsetMinutes) > 59
  )
    return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}
