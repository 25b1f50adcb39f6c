// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  bulkRequestErrors,
  describeDates,
  describeShiftTimes,
  shiftInstants,
  shiftSpanProblem,
} from '../../../core/domain/shifts/times';
import { shifts } from '../../../core/resources/shifts/resource';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime';

const hours = (s: { start: string; end: string }) => (Date.parse(s.end) - Date.parse(s.start)) / 3600_000;

describe('shiftInstants: a shift from its date and wall-clock times in the agency’s zone', () => {
  it.each([
    ['a day', '2026-06-10', '08:00', '16:00', '2026-06-10T07:00:00.000Z', '2026-06-10T15:00:00.000Z', 8],
    ['a long summer day', '2026-07-15', '08:00', '20:00', '2026-07-15T07:00:00.000Z', '2026-07-15T19:00:00.000Z', 12],
    [
      'a winter night into the next day',
      '2026-01-14',
      '20:00',
      '08:00',
      '2026-01-14T20:00:00.000Z',
      '2026-01-15T08:00:00.000Z',
      12,
    ],
    [
      'the night the clocks go forward (11 hours)',
      '2026-03-28',
      '20:00',
      '08:00',
      '2026-03-28T20:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      11,
    ],
    [
      'the night the clocks go back (13 hours)',
      '2026-10-24',
      '20:00',
      '08:00',
      '2026-10-24T19:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
      13,
    ],
    [
      'New Year’s Eve into New Year’s Day',
      '2026-12-31',
      '20:00',
      '08:00',
      '2026-12-31T20:00:00.000Z',
      '2027-01-01T08:00:00.000Z',
      12,
    ],
    [
      'a short night into the new year',
      '2026-12-31',
      '22:00',
      '06:00',
      '2026-12-31T22:00:00.000Z',
      '2027-01-01T06:00:00.000Z',
      8,
    ],
    [
      'a start and end at the same time: 24 hours',
      '2026-06-10',
      '08:00',
      '08:00',
      '2026-06-10T07:00:00.000Z',
      '2026-06-11T07:00:00.000Z',
      24,
    ],
    [
      'a sleep-in ending at midnight',
      '2026-06-10',
      '22:00',
      '00:00',
      '2026-06-10T21:00:00.000Z',
      '2026-06-10T23:00:00.000Z',
      2,
    ],
  ])('%s', (_name, date, from, to, start, end, length) => {
    const s = shiftInstants(date, from, to, 'Europe/London');
    expect(s).toEqual({ start, end });
    expect(hours(s)).toBe(length);
  });

  it('reads the times in another zone as that zone’s clock', () => {
    expect(shiftInstants('2026-06-10', '08:00', '16:00', 'America/New_York')).toEqual({
      start: '2026-06-10T12:00:00.000Z',
      end: '2026-06-10T20:00:00.000Z',
    });
  });
});

describe('shiftSpanProblem: the one rule of what a shift may span, booked or worked', () => {
  // Wall-clock times through shiftInstants, then the span's rule: DST days in Europe/London included.
  it.each([
    ['a day', '2026-06-10', '08:00', '16:00', null],
    ['a night into the next day', '2026-01-14', '20:00', '08:00', null],
    ['the night the clocks go forward: 11 hours', '2026-03-28', '20:00', '08:00', null],
    ['the night the clocks go back: 13 hours', '2026-10-24', '20:00', '08:00', null],
    ['24 hours on an ordinary day', '2026-06-10', '08:00', '08:00', null],
    ['24 on the clock as the clocks go forward: 23 hours', '2026-03-28', '20:00', '20:00', null],
    [
      '24 on the clock as the clocks go back: 25 hours',
      '2026-10-24',
      '20:00',
      '20:00',
      'A shift lasts at most 24 hours.',
    ],
  ])('%s', (_name, date, from, to, problem) => {
    const s = shiftInstants(date, from, to, 'Europe/London');
    expect(shiftSpanProblem(s.start, s.end)).toBe(problem);
  });

  it('refuses an end at or before the start, and leaves unreadable times to the field checks', () => {
    expect(shiftSpanProblem('2026-06-10T08:00:00Z', '2026-06-10T08:00:00Z')).toBe(
      'The shift must end after it starts.',
    );
    expect(shiftSpanProblem('2026-06-10T08:00:00Z', '2026-06-10T07:00:00Z')).toBe(
      'The shift must end after it starts.',
    );
    expect(shiftSpanProblem('soon', '2026-06-10T07:00:00Z')).toBeNull();
  });

  it('is the rule the shift declaration applies', () => {
    const back = shiftInstants('2026-10-24', '20:00', '20:00', 'Europe/London');
    expect(shifts.rules!({ start_at: back.start, end_at: back.end })).toEqual({
      end_at: 'A shift lasts at most 24 hours.',
    });
    const night = shiftInstants('2026-10-24', '20:00', '08:00', 'Europe/London');
    expect(shifts.rules!({ start_at: night.start, end_at: night.end })).toEqual({});
  });
});

describe('describeShiftTimes', () => {
  it.each([
    ['2026-10-24T19:00:00.000Z', '2026-10-25T08:00:00.000Z', '24 Oct 2026 20:00–08:00'],
    ['2026-06-10T07:00:00.000Z', '2026-06-10T15:00:00.000Z', '10 Jun 2026 08:00–16:00'],
  ])('%s → %s', (start, end, words) => {
    expect(describeShiftTimes(start, end, 'Europe/London', formatDisplayDate)).toBe(words);
  });
});

describe('describeDates', () => {
  it.each([
    [['2026-12-10'], 'on 10 Dec 2026'],
    [['2026-12-10', '2026-12-12'], 'on 10 Dec 2026 and 12 Dec 2026'],
    [['2026-12-10', '2026-12-11', '2026-12-14'], 'on 3 dates from 10 Dec 2026 to 14 Dec 2026'],
  ])('%j → %s', (dates, words) => {
    expect(describeDates(dates, formatDisplayDate)).toBe(words);
  });
});

describe('bulkRequestErrors: a refused bulk request named by its fields and dates', () => {
  const SHARED = new Set(['client_id', 'site_id', 'job_role_id']);
  // Dates asked as ['2030-01-12', '2030-01-10'], two staff each, created in date order.
  const shifts = [
    { date: '2030-01-10', place: 1 },
    { date: '2030-01-10', place: 1 },
    { date: '2030-01-12', place: 0 },
    { date: '2030-01-12', place: 0 },
  ];
  const errorsOf = (refusals: { row: number; errors: Record<string, string> }[]) =>
    bulkRequestErrors(refusals, shifts, SHARED, formatDisplayDate);

  it('names a problem every shift has by the request’s field, once, and no date', () => {
    const site = { site_id: 'Choose one of the client’s sites.' };
    expect(errorsOf([0, 1, 2, 3].map((row) => ({ row, errors: site })))).toEqual(site);
  });

  it('names the dates a problem refuses by their place in the request, in words with the date', () => {
    const past = { start_at: 'A requested shift must start in the future.' };
    expect(
      errorsOf([
        { row: 0, errors: past },
        { row: 1, errors: past },
      ]),
    ).toEqual({
      'dates[1]': '10 Jan 2030: A requested shift must start in the future.',
    });
  });

  it('names a shared field’s problem of some dates by the field and by each date', () => {
    const noCard = { job_role_id: 'No rate card for Nurse at Main House on 2030-01-12. Add one in Rates & Rules.' };
    expect(
      errorsOf([
        { row: 2, errors: noCard },
        { row: 3, errors: noCard },
      ]),
    ).toEqual({
      job_role_id: noCard.job_role_id,
      'dates[0]': `12 Jan 2030: ${noCard.job_role_id}`,
    });
  });
});
