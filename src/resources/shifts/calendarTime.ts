/**
 * Times on the schedule are the agency's wall clock, whatever the browser's zone.
 *
 * FullCalendar can show a named time zone only through a plugin (luxon or moment), which the product does not
 * carry. Instead the calendar runs with `timeZone: 'UTC'` and is fed the agency's wall-clock readings written
 * without an offset ('2026-03-28T20:00:00'): it draws them as they are, and every Date it hands back (a drop, a
 * resize, the visible range) carries the wall clock in its UTC fields. These two functions are the only
 * crossing between instants (what the API speaks) and those readings; @date-fns/tz does the zone arithmetic.
 */
import { addDaysToDate, instantToZoned, zonedDateTimeToInstant } from '../../../core/domain/time/agencyTime';

/** An instant (ISO string or Date) as the agency's wall clock, for the calendar: 'yyyy-MM-ddTHH:mm:00'. */
export function toCalendarTime(instant: string | Date, tz: string): string {
  const z = instantToZoned(typeof instant === 'string' ? new Date(instant) : instant, tz);
  return `${z.date}T${z.time}:00`;
}

/** A Date the calendar handed back (wall clock in its UTC fields) as the instant it means, ISO. */
export function fromCalendarTime(wallClock: Date, tz: string): string {
  const iso = wallClock.toISOString();
  return zonedDateTimeToInstant(iso.slice(0, 10), iso.slice(11, 16), tz).toISOString();
}

/** The seven dates from `date` on: the "week from" shortcut of the create form. */
export const weekFrom = (date: string) => Array.from({ length: 7 }, (_, i) => addDaysToDate(date, i));

/** Dates added to a selection: each once, in calendar order. */
export const addDates = (chosen: string[], more: string[]) => [...new Set([...chosen, ...more])].sort();

export const removeDate = (chosen: string[], date: string) => chosen.filter((d) => d !== date);
