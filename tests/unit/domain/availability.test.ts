// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  AVAILABILITY_LABELS,
  AVAILABILITY_STATES,
  copyWeek,
  isAvailabilityState,
  nextState,
  previousState,
  type AvailabilityEntry,
  type AvailabilityState,
} from '../../../core/domain/availability/availability';
import { addDaysToDate, dayOfWeek, daysBetween, startOfWeekMonday } from '../../../core/domain/time/agencyTime';
import { plainDate } from './arbitraries';

describe('states', () => {
  it('are the five of the grid with their English labels', () => {
    expect(AVAILABILITY_STATES).toEqual(['available', 'day', 'night', 'long_day', 'unavailable']);
    expect(AVAILABILITY_STATES.map((s) => AVAILABILITY_LABELS[s])).toEqual([
      'Available all day',
      'Day',
      'Night',
      'Long day',
      'Unavailable',
    ]);
  });

  it.each([
    ['available', true],
    ['long_day', true],
    ['Long day', false],
    ['', false],
    [null, false],
    [1, false],
  ])('isAvailabilityState(%j) is %s', (value, ok) => {
    expect(isAvailabilityState(value)).toBe(ok);
  });

  it.each([
    [null, 'available'],
    ['available', 'day'],
    ['day', 'night'],
    ['night', 'long_day'],
    ['long_day', 'unavailable'],
    ['unavailable', null],
  ] as const)('nextState(%s) is %s, previousState goes back', (current, next) => {
    expect(nextState(current)).toBe(next);
    expect(previousState(next)).toBe(current);
  });

  it('six clicks bring a day back to where it started', () => {
    for (const start of [null, ...AVAILABILITY_STATES]) {
      let s: AvailabilityState | null = start;
      for (let i = 0; i < 6; i++) s = nextState(s);
      expect(s).toBe(start);
    }
  });
});

describe('copyWeek', () => {
  const FROM = '2026-03-23'; // Monday; the week holds the London clock change on Sunday 29th
  const TO = '2026-03-30';
  const e = (candidate_id: number, date: string, status: AvailabilityState): AvailabilityEntry => ({
    candidate_id,
    date,
    status,
  });

  it('moves the source week to the target week, keeping staff, weekday and state', () => {
    const entries = [
      e(1, '2026-03-22', 'night'), // Sunday before: not in the week
      e(1, '2026-03-23', 'day'),
      e(1, '2026-03-29', 'unavailable'),
      e(2, '2026-03-25', 'long_day'),
      e(2, '2026-03-30', 'available'), // the target week already: not copied again
    ];
    expect(copyWeek(entries, FROM, TO)).toEqual([
      e(1, '2026-03-30', 'day'),
      e(1, '2026-04-05', 'unavailable'),
      e(2, '2026-04-01', 'long_day'),
    ]);
  });

  it('copies to any later or earlier week, and an empty week to nothing', () => {
    expect(copyWeek([e(3, '2026-03-27', 'day')], FROM, '2026-12-28')).toEqual([e(3, '2027-01-01', 'day')]);
    expect(copyWeek([e(3, '2026-03-27', 'day')], FROM, '2026-03-16')).toEqual([e(3, '2026-03-20', 'day')]);
    expect(copyWeek([], FROM, TO)).toEqual([]);
  });

  it('copies only the three fields, never a source row id', () => {
    const row = { id: 77, version: 3, ...e(1, '2026-03-24', 'day') };
    expect(copyWeek([row], FROM, TO)).toEqual([e(1, '2026-03-31', 'day')]);
  });

  it('refuses week starts that are not Mondays', () => {
    expect(() => copyWeek([], '2026-03-24', TO)).toThrow(RangeError);
    expect(() => copyWeek([], FROM, '2026-03-29')).toThrow(RangeError);
  });

  const entry = (around: string) =>
    fc.record({
      candidate_id: fc.integer({ min: 1, max: 5 }),
      date: fc.integer({ min: -10, max: 16 }).map((n) => addDaysToDate(around, n)),
      status: fc.constantFrom(...AVAILABILITY_STATES),
    });
  const weeksAndEntries = fc
    .tuple(plainDate('2000-01-01', '2099-12-31'), fc.integer({ min: -60, max: 60 }))
    .chain(([d, weeks]) => {
      const from = startOfWeekMonday(d);
      return fc.tuple(
        fc.constant(from),
        fc.constant(addDaysToDate(from, weeks * 7)),
        fc.array(entry(from), { maxLength: 30 }),
      );
    });

  test.prop([weeksAndEntries])(
    'keeps the count of the source week, each weekday, staff member and state',
    ([from, to, entries]) => {
      const inSource = entries.filter((x) => daysBetween(from, x.date) >= 0 && daysBetween(from, x.date) < 7);
      const copied = copyWeek(entries, from, to);
      expect(copied).toHaveLength(inSource.length);
      copied.forEach((c, i) => {
        expect(dayOfWeek(c.date)).toBe(dayOfWeek(inSource[i].date));
        expect(daysBetween(to, c.date)).toBe(daysBetween(from, inSource[i].date));
        expect([c.candidate_id, c.status]).toEqual([inSource[i].candidate_id, inSource[i].status]);
      });
    },
  );
});
