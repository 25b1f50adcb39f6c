/**
 * Times on the schedule are the agency's wall clock, whatever the browser's zone.
 *
 * FullCalendar can show a named time zone only through a plugin (luxon or moment), which the product does not
 * carry. Instead the calendar runs with `timeZone: 'UTC'` and is fed the agency's wall-clock readings written
 * without an offset ('2026-03-28T20:00:00'): it draws them as they are, and every Date it hands back (a drop, a
 * resize, the visible range) carries the wall clock in its UTC fields. These two functions are the only
 * crossing between instants (what the API speaks) and those readings; @date-fns/tz does the zone arithmetic.
 */
import { addDaysToDate, instantToZoned, zonedDateTimeToInstant } from '../../../server/domain/time/agencyTime';

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

/** The calendar's wall-clock Date as its plain date, 'yyyy-MM-dd'. */
export const calendarDate = (wallClock: Date) => wallClock.toISOString().slice(0, 10);

/**
 * A shift's start and end instants from a date and wall-clock times in the agency's zone. An end at or before
 * the start is on the next day (a night, 20:00–08:00); across a clock change the hours are the real ones.
 */
export function shiftInstants(date: string, startTime: string, endTime: string, tz: string): { start: string; end: string } {
  const endDate = endTime <= startTime ? addDaysToDate(date, 1) : date;
  return {
    start: zonedDateTimeToInstant(date, startTime, tz).toISOString(),
    end: zonedDateTimeToInstant(endDate, endTime, tz).toISOString(),
  };
}

/** The seven dates from `date` on: the "week from" shortcut of the create form. */
export const weekFrom = (date: string) => Array.from({ length: 7 }, (_, i) => addDaysToDate(date, i));

/** Dates added to a selection: each once, in calendar order. */
export const addDates = (chosen: string[], more: string[]) => [...new Set([...chosen, ...more])].sort();

export const removeDate = (chosen: string[], date: string) => chosen.filter((d) => d !== date);

/** Moves an event by the same offset (a drag keeps its length): the new end from the new start. */
export function movedEnd(oldStart: string, oldEnd: string, newStart: string): string {
  return new Date(Date.parse(newStart) + (Date.parse(oldEnd) - Date.parse(oldStart))).toISOString();
}
