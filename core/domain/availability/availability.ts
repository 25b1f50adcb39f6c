// A staff member's availability, one state per day, as on the week grid (/staff/availability). Plain functions,
// shared by the grid in the browser and the API.
import { addDaysToDate, assertMonday, daysBetween } from '../time/agencyTime';

/** In the grid's cycling order. A day with no entry is "not set", which is not a state. */
export const AVAILABILITY_STATES = ['available', 'day', 'night', 'long_day', 'unavailable'] as const;
export type AvailabilityState = (typeof AVAILABILITY_STATES)[number];

export const AVAILABILITY_LABELS: Record<AvailabilityState, string> = {
  available: 'Available all day',
  day: 'Day',
  night: 'Night',
  long_day: 'Long day',
  unavailable: 'Unavailable',
};

export function isAvailabilityState(value: unknown): value is AvailabilityState {
  return typeof value === 'string' && (AVAILABILITY_STATES as readonly string[]).includes(value);
}

export interface AvailabilityEntry {
  candidate_id: number;
  date: string;
  status: AvailabilityState;
}

/**
 * The entries of the week starting `fromWeekStart`, moved to the week starting `toWeekStart` (same weekday,
 * same staff member, same state). Entries outside the source week are left out. Week starts must be Mondays.
 * Only the three fields are returned, so ids or versions of the source rows are never copied by mistake.
 */
export function copyWeek(
  entries: AvailabilityEntry[],
  fromWeekStart: string,
  toWeekStart: string,
): AvailabilityEntry[] {
  assertMonday(fromWeekStart);
  assertMonday(toWeekStart);
  const shift = daysBetween(fromWeekStart, toWeekStart);
  return entries
    .filter((e) => {
      const offset = daysBetween(fromWeekStart, e.date);
      return offset >= 0 && offset < 7;
    })
    .map((e) => ({ candidate_id: e.candidate_id, date: addDaysToDate(e.date, shift), status: e.status }));
}

/** The state a click or the keyboard moves a day to: not set → available → day → night → long day →
 * unavailable → not set. */
export function nextState(current: AvailabilityState | null): AvailabilityState | null {
  if (current === null) return AVAILABILITY_STATES[0];
  const i = AVAILABILITY_STATES.indexOf(current);
  return i === AVAILABILITY_STATES.length - 1 ? null : AVAILABILITY_STATES[i + 1];
}

/** The reverse of nextState, for stepping back through the cycle (Shift with the key). */
export function previousState(current: AvailabilityState | null): AvailabilityState | null {
  if (current === null) return AVAILABILITY_STATES[AVAILABILITY_STATES.length - 1];
  const i = AVAILABILITY_STATES.indexOf(current);
  return i === 0 ? null : AVAILABILITY_STATES[i - 1];
}
