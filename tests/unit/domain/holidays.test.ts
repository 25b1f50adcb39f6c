// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  bankHolidays,
  bankHolidaysWithOverrides,
  holidaySet,
  type HolidayOverride,
} from '../../../core/domain/pricing/holidays';
import { REGIONS, type Region } from '../../../core/domain/pricing/types';
import { dayOfWeek } from '../../../core/domain/time/agencyTime';

const isHoliday = (region: Region, date: string) =>
  bankHolidays(region, Number(date.slice(0, 4))).some((d) => d.date === date);

describe('bankHolidays', () => {
  it.each([
    // [date, England & Wales, Scotland, Northern Ireland, why]
    ['2026-11-30', false, true, false, 'St Andrew’s Day: Scotland only'],
    [
      '2026-07-13',
      false,
      false,
      true,
      'the Battle of the Boyne’s substitute (12 July is a Sunday): Northern Ireland only',
    ],
    ['2026-07-12', false, false, false, 'the Sunday it replaces is no holiday'],
    ['2026-12-28', true, true, true, 'Boxing Day’s substitute'],
    ['2026-12-26', false, false, false, 'Boxing Day itself, a Saturday'],
    ['2026-12-25', true, true, true, 'Christmas Day'],
    ['2026-01-02', false, true, false, '2 January: Scotland only'],
    ['2027-01-04', false, true, false, '2 January 2027 is a Saturday: Scotland takes Monday the 4th'],
    ['2026-03-17', false, false, true, 'St Patrick’s Day: Northern Ireland only'],
    ['2026-04-06', true, false, true, 'Easter Monday: not in Scotland'],
    ['2026-08-03', false, true, false, 'the first Monday of August: Scotland’s summer holiday'],
    ['2026-08-31', true, false, true, 'the last Monday of August elsewhere'],
    ['2022-06-03', true, true, true, 'a one-off: the Platinum Jubilee'],
    ['2022-09-19', true, true, true, 'a one-off: the Queen’s funeral'],
    ['2023-05-08', true, true, true, 'a one-off: the Coronation'],
    ['2026-03-15', false, false, false, 'Mother’s Day is an observance, not a bank holiday'],
  ])('%s: England & Wales %s, Scotland %s, Northern Ireland %s (%s)', (date, ew, sct, nir) => {
    expect([
      isHoliday('england_wales', date),
      isHoliday('scotland', date),
      isHoliday('northern_ireland', date),
    ]).toEqual([ew, sct, nir]);
  });

  it('lists England and Wales’s eight days of 2026 with their names', () => {
    expect(bankHolidays('england_wales', 2026)).toEqual([
      { date: '2026-01-01', name: "New Year's Day" },
      { date: '2026-04-03', name: 'Good Friday' },
      { date: '2026-04-06', name: 'Easter Monday' },
      { date: '2026-05-04', name: 'Early May bank holiday' },
      { date: '2026-05-25', name: 'Spring bank holiday' },
      { date: '2026-08-31', name: 'Summer bank holiday' },
      { date: '2026-12-25', name: 'Christmas Day' },
      { date: '2026-12-28', name: 'Boxing Day (substitute day)' },
    ]);
  });

  it.each(REGIONS)(
    'in %s, no holiday falls on a weekend from 2015 to 2035 (substitutes replace them), dates are sorted and unique',
    (region) => {
      for (let year = 2015; year <= 2035; year++) {
        const dates = bankHolidays(region, year).map((d) => d.date);
        expect(dates.filter((d) => dayOfWeek(d) >= 6)).toEqual([]);
        expect(dates).toEqual([...new Set(dates)].sort());
        expect(dates.every((d) => d.startsWith(`${year}-`))).toBe(true);
        expect(dates.length).toBeGreaterThanOrEqual(8);
      }
    },
  );

  it('answers a copy: changing it changes nothing next time', () => {
    const first = bankHolidays('scotland', 2026);
    first.pop();
    first[0].name = 'changed';
    expect(bankHolidays('scotland', 2026)).toContainEqual({ date: '2026-12-28', name: 'Boxing Day (substitute day)' });
    expect(bankHolidays('scotland', 2026)[0].name).toBe("New Year's Day");
  });
});

describe('holidaySet', () => {
  const overrides: HolidayOverride[] = [
    { date: '2026-06-15', region: 'england_wales', kind: 'add', name: 'Founders’ day' },
    { date: '2026-05-04', region: 'england_wales', kind: 'remove' },
    { date: '2026-06-16', region: 'scotland', kind: 'add' },
  ];

  it('holds the dates in the range, across years', () => {
    expect([...holidaySet('scotland', '2026-11-01', '2027-01-10', [])]).toEqual([
      '2026-11-30',
      '2026-12-25',
      '2026-12-28',
      '2027-01-01',
      '2027-01-04',
    ]);
  });

  it('includes both ends of the range', () => {
    expect([...holidaySet('england_wales', '2026-12-25', '2026-12-28', [])]).toEqual(['2026-12-25', '2026-12-28']);
  });

  it('adds and removes the agency’s days for its own region only', () => {
    const set = holidaySet('england_wales', '2026-01-01', '2026-12-31', overrides);
    expect(set.has('2026-06-15')).toBe(true);
    expect(set.has('2026-05-04')).toBe(false);
    expect(set.has('2026-06-16')).toBe(false);
    expect(set.has('2026-05-25')).toBe(true);
    expect(holidaySet('scotland', '2026-01-01', '2026-12-31', overrides).has('2026-06-16')).toBe(true);
  });

  it('ignores overrides outside the range', () => {
    expect(holidaySet('england_wales', '2026-07-01', '2026-07-31', overrides).size).toBe(0);
  });

  it('refuses a range that is not dates', () => {
    expect(() => holidaySet('england_wales', '2026-13-01', '2026-12-31', [])).toThrow(RangeError);
  });
});

describe('bankHolidaysWithOverrides', () => {
  it('lists a year’s days for the calendar screen, marking the agency’s additions', () => {
    const days = bankHolidaysWithOverrides('england_wales', 2026, [
      { date: '2026-06-15', region: 'england_wales', kind: 'add', name: 'Founders’ day' },
      { date: '2026-06-17', region: 'england_wales', kind: 'add' },
      { date: '2026-05-04', region: 'england_wales', kind: 'remove' },
      { date: '2027-06-15', region: 'england_wales', kind: 'add' },
      { date: '2026-06-16', region: 'scotland', kind: 'add' },
    ]);
    expect(days.map((d) => `${d.date} ${d.source} ${d.name}`)).toEqual([
      "2026-01-01 library New Year's Day",
      '2026-04-03 library Good Friday',
      '2026-04-06 library Easter Monday',
      '2026-05-25 library Spring bank holiday',
      '2026-06-15 added Founders’ day',
      '2026-06-17 added Agency holiday',
      '2026-08-31 library Summer bank holiday',
      '2026-12-25 library Christmas Day',
      '2026-12-28 library Boxing Day (substitute day)',
    ]);
  });
});
