import { addDaysToDate, instantToZoned, zonedDateTimeToInstant } from '../time/agencyTime';

/**
 * Most shifts one bulk create makes (dates × staff needed): a month of a large home's rota, never a typo's ten
 * thousand.
 */
export const MAX_BULK_SHIFTS = 500;

/**
 * Shifts a client's users may request per day when neither the client's pricing rules nor the agency's default ones
 * say.
 */
export const DEFAULT_SHIFT_REQUESTS_PER_DAY = 100;

/**
 * A shift's instants from its date and wall-clock times in the agency's time zone. A shift whose end is not after
 * its start on the clock ends the next day (20:00–08:00 is a night; 08:00–08:00 is 24 hours), so its length
 * follows the clocks: a 20:00–08:00 night is 11 hours when they go forward and 13 when they go back.
 */
export function shiftInstants(
  date: string,
  startTime: string,
  endTime: string,
  timeZone: string,
): { start: string; end: string } {
  const start = zonedDateTimeToInstant(date, startTime, timeZone);
  const endDate = endTime <= startTime ? addDaysToDate(date, 1) : date;
  const end = zonedDateTimeToInstant(endDate, endTime, timeZone);
  return { start: start.toISOString(), end: end.toISOString() };
}

/** The longest a shift (as booked or as worked) may last: a 24-hour shift is the longest any agency books. */
export const MAX_SHIFT_MS = 24 * 3600_000;

/**
 * Why a span cannot be a shift's, as booked or as worked (null when it can): it ends after it starts and lasts at
 * most 24 hours. Instants, so a same-time shift on the night the clocks go back (25 hours) is refused in words
 * rather than by the database's check.
 */
export function shiftSpanProblem(start: string, end: string): string | null {
  const [from, to] = [Date.parse(start), Date.parse(end)];
  if (!Number.isFinite(from) || !Number.isFinite(to)) return null;
  if (to <= from) return 'The shift must end after it starts.';
  if (to - from > MAX_SHIFT_MS) return 'A shift lasts at most 24 hours.';
  return null;
}

/** The shift's date and times on the agency's clock, as people read them: '22 Nov 2026 20:00–08:00'. */
export function describeShiftTimes(
  start: string,
  end: string,
  timeZone: string,
  formatDate: (d: string) => string,
): string {
  const from = instantToZoned(new Date(start), timeZone);
  const to = instantToZoned(new Date(end), timeZone);
  return `${formatDate(from.date)} ${from.time}–${to.date === from.date || to.date === addDaysToDate(from.date, 1) ? '' : `${formatDate(to.date)} `}${to.time}`;
}

/**
 * The dates of a request of several shifts, as people read them: 'on 10 Dec 2026', 'on 10 Dec 2026 and
 * 12 Dec 2026', 'on 5 dates from 10 Dec 2026 to 14 Dec 2026'. `dates` are yyyy-MM-dd, sorted and distinct.
 */
export function describeDates(dates: string[], formatDate: (d: string) => string): string {
  if (dates.length <= 2) return `on ${dates.map(formatDate).join(' and ')}`;
  return `on ${dates.length} dates from ${formatDate(dates[0])} to ${formatDate(dates[dates.length - 1])}`;
}

/**
 * The field errors of a refused bulk request (its dates × staff needed), from the refusals of its shifts by position
 * (`shifts[i]`: the date of the i-th shift and that date's place in the request's list). A problem every shift has
 * is the request's own (its client, site, role): named by the request's field, once. Any other is a date's: named as
 * `dates[k]`, in words with the date ("12 Jan 2030: A requested shift must start in the future."), and, when it is
 * about one of the request's `shared` fields, by that field too.
 */
export function bulkRequestErrors(
  refusals: { row: number; errors: Record<string, string> }[],
  shifts: { date: string; place: number }[],
  shared: ReadonlySet<string>,
  formatDate: (d: string) => string,
): Record<string, string> {
  const rowsOf = new Map<string, number[]>();
  for (const r of refusals)
    for (const [field, message] of Object.entries(r.errors)) {
      const key = JSON.stringify([field, message]);
      rowsOf.set(key, [...(rowsOf.get(key) ?? []), r.row]);
    }
  const errors: Record<string, string> = {};
  for (const [key, rows] of rowsOf) {
    const [field, message] = JSON.parse(key) as [string, string];
    if (shared.has(field)) {
      errors[field] ??= message;
      if (rows.length === shifts.length) continue;
    }
    for (const row of rows) errors[`dates[${shifts[row].place}]`] ??= `${formatDate(shifts[row].date)}: ${message}`;
  }
  return errors;
}
