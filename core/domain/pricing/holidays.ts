// Bank holidays per UK region, from the date-holidays library (its GB data has the regional days, the substitute
// days and the one-off days), plus the agency's own added and removed days.
import type Holidays from 'date-holidays';
import { dayOfWeek, isPlainDate } from '../time/agencyTime';
import type { Region } from './types';

export interface BankHoliday {
  date: string;
  name: string;
}

export interface HolidayOverride {
  date: string;
  region: Region;
  kind: 'add' | 'remove';
  name?: string;
}

/** England and Wales share their bank holidays, so England's data stands for both. */
const LIBRARY_STATE: Record<Region, string> = { england_wales: 'ENG', scotland: 'SCT', northern_ireland: 'NIR' };
const SUBSTITUTE_SUFFIX = ' (substitute day)';

/**
 * How to load the date-holidays library, handed in by the side that asks about bank holidays (the server:
 * server/services/holidays.ts). The library, with the time-zone data it brings, is about 100 ms of CPU to load, so it
 * is loaded with the first question instead of at start; core/ imports no Node (no createRequire) and its functions
 * stay synchronous, so it cannot load the package lazily by itself.
 */
let loadLibrary: (() => typeof Holidays) | undefined;
export function provideHolidayLibrary(load: () => typeof Holidays) {
  loadLibrary = load;
}

const calendars = new Map<Region, Holidays>();
// The library works each year out from its rules, which takes milliseconds: a quote must not pay that each time.
const byYear = new Map<string, readonly BankHoliday[]>();

/** The region's bank holidays in a year, by date. A holiday that falls on a weekend is listed on its substitute
 * weekday only (Boxing Day 2026 is Monday 28 December, not Saturday 26th). */
export function bankHolidays(region: Region, year: number): BankHoliday[] {
  const key = `${region}:${year}`;
  let days = byYear.get(key);
  if (!days) {
    days = computeBankHolidays(region, year);
    byYear.set(key, days);
  }
  return days.map((d) => ({ ...d }));
}

/**
 * The dates ('yyyy-MM-dd') from `from` to `to` (inclusive) that are holidays in the region: the library's, plus
 * the agency's added days, minus its removed ones (overrides for other regions are ignored).
 */
export function holidaySet(
  region: Region,
  from: string,
  to: string,
  overrides: readonly HolidayOverride[],
): Set<string> {
  if (!isPlainDate(from) || !isPlainDate(to)) throw new RangeError(`Not a date range: ${from} to ${to}`);
  const dates = new Set<string>();
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const day of bankHolidays(region, year)) if (day.date >= from && day.date <= to) dates.add(day.date);
  }
  for (const o of overrides) {
    if (o.region !== region || o.date < from || o.date > to) continue;
    if (o.kind === 'add') dates.add(o.date);
    else dates.delete(o.date);
  }
  return dates;
}

/** The region's holidays in a year with the agency's overrides applied, for the holiday calendar screen. */
export function bankHolidaysWithOverrides(
  region: Region,
  year: number,
  overrides: readonly HolidayOverride[],
): (BankHoliday & { source: 'library' | 'added' })[] {
  const mine = overrides.filter((o) => o.region === region && o.date.startsWith(`${year}-`));
  const removed = new Set(mine.filter((o) => o.kind === 'remove').map((o) => o.date));
  const days: (BankHoliday & { source: 'library' | 'added' })[] = bankHolidays(region, year)
    .filter((d) => !removed.has(d.date))
    .map((d) => ({ ...d, source: 'library' }));
  for (const o of mine) {
    if (o.kind === 'add' && !days.some((d) => d.date === o.date))
      days.push({ date: o.date, name: o.name ?? 'Agency holiday', source: 'added' });
  }
  return days.sort((a, b) => a.date.localeCompare(b.date));
}

function computeBankHolidays(region: Region, year: number): readonly BankHoliday[] {
  let calendar = calendars.get(region);
  if (!calendar) {
    // Only public (bank) holidays: the library also lists observances such as Mother's Day.
    if (!loadLibrary) throw new Error('No bank-holiday library: call provideHolidayLibrary first');
    const Library = loadLibrary();
    calendar = new Library('GB', LIBRARY_STATE[region], { types: ['public', 'bank'], languages: ['en'] });
    calendars.set(region, calendar);
  }
  const found = (calendar.getHolidays(year) || [])
    .filter((h) => h.type === 'public' || h.type === 'bank')
    .map((h) => ({ date: h.date.slice(0, 10), name: h.name, substitute: Boolean(h.substitute) }));
  // The library lists both the weekend day and its substitute, naming the substitute "<name> (substitute day)":
  // the weekend day is not a day off, so it goes.
  const substituted = new Set(
    found
      .filter((h) => h.substitute && h.name.endsWith(SUBSTITUTE_SUFFIX))
      .map((h) => h.name.slice(0, -SUBSTITUTE_SUFFIX.length)),
  );
  const isWeekend = (date: string) => dayOfWeek(date) >= 6;
  const days = found
    .filter((h) => h.substitute || !(isWeekend(h.date) && substituted.has(h.name)))
    .map(({ date, name }) => ({ date, name }));
  // One date, one entry (the library could list two names on one day).
  const unique = new Map<string, BankHoliday>();
  for (const d of days) if (!unique.has(d.date)) unique.set(d.date, d);
  return Object.freeze([...unique.values()].sort((a, b) => a.date.localeCompare(b.date)));
}
