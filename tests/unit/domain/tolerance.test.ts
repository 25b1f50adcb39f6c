// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  bookedBreak,
  DEFAULT_TOLERANCE,
  differences,
  durationWords,
  outsideTolerance,
  phoneSignRefusal,
  toleranceFlag,
  type BookedAndWorked,
} from '../../../core/domain/timesheets/tolerance';

// Issue 29.1: hours entered on the phone beyond the client's tolerance of the booking are not signed there.
const booked = (actual: Partial<BookedAndWorked>): BookedAndWorked => ({
  scheduled_start: '2026-03-04T08:00:00.000Z',
  scheduled_end: '2026-03-04T16:00:00.000Z',
  booked_break: 30,
  actual_start: '2026-03-04T08:00:00.000Z',
  actual_end: '2026-03-04T16:00:00.000Z',
  break_minutes: 30,
  ...actual,
});

describe('the client’s tolerance of the booking (15 min early, 60 min late, no shorter break by default)', () => {
  it.each([
    ['as booked', {}, []],
    ['15 minutes early: within', { actual_start: '2026-03-04T07:45:00.000Z' }, []],
    ['16 minutes early', { actual_start: '2026-03-04T07:44:00.000Z' }, [['early_start', 16, 15]]],
    ['60 minutes late finishing: within', { actual_end: '2026-03-04T17:00:00.000Z' }, []],
    ['61 minutes late finishing', { actual_end: '2026-03-04T17:01:00.000Z' }, [['late_finish', 61, 60]]],
    ['a late start costs nothing more', { actual_start: '2026-03-04T10:00:00.000Z' }, []],
    ['an early finish costs nothing more', { actual_end: '2026-03-04T12:00:00.000Z' }, []],
    ['a longer break costs nothing more', { break_minutes: 60 }, []],
    ['a break of 0 for 30 booked', { break_minutes: 0 }, [['short_break', 30, 0]]],
    ['no break entered keeps the booked one', { break_minutes: null }, []],
    [
      'the issue’s 00:30–23:29 for 08:00–16:00',
      { actual_start: '2026-03-04T00:30:00.000Z', actual_end: '2026-03-04T23:29:00.000Z' },
      [
        ['early_start', 450, 15],
        ['late_finish', 449, 60],
      ],
    ],
  ] as const)('%s', (_name, actual, expected) => {
    const found = outsideTolerance(booked(actual as Partial<BookedAndWorked>));
    expect(found.map((e) => [e.kind, e.minutes, e.allowed])).toEqual(expected);
  });

  it.each([
    [{ early_start_minutes: 0, late_finish_minutes: 0, short_break_minutes: 0 }, 3],
    [{ early_start_minutes: 120, late_finish_minutes: 120, short_break_minutes: 30 }, 0],
    [{ early_start_minutes: 120, late_finish_minutes: 30, short_break_minutes: 30 }, 1],
  ])('a client’s own tolerance %o: %i exceptions for 1 h early, 1 h late, no break', (tolerance, count) => {
    const l = booked({
      actual_start: '2026-03-04T07:00:00.000Z',
      actual_end: '2026-03-04T17:00:00.000Z',
      break_minutes: 0,
    });
    expect(outsideTolerance(l, tolerance)).toHaveLength(count);
  });

  it('differences are signed: earlier and shorter are negative', () => {
    expect(
      differences(
        booked({ actual_start: '2026-03-04T07:50:00.000Z', actual_end: '2026-03-04T16:20:00.000Z', break_minutes: 20 }),
      ),
    ).toEqual({ start: -10, end: 20, break: -10 });
    expect(DEFAULT_TOLERANCE).toEqual({ early_start_minutes: 15, late_finish_minutes: 60, short_break_minutes: 0 });
  });

  it('the flag says each difference and what was allowed', () => {
    expect(toleranceFlag([])).toBeNull();
    expect(
      toleranceFlag([
        { kind: 'early_start', minutes: 450, allowed: 15 },
        { kind: 'short_break', minutes: 30, allowed: 0 },
      ]),
    ).toBe(
      'Outside the client’s tolerance: started 7 h 30 min before the booking (15 min allowed); break 30 min shorter than booked (0 min allowed).',
    );
    expect([durationWords(0), durationWords(60), durationWords(449)]).toEqual(['0 min', '1 h', '7 h 29 min']);
  });
});

describe('the break a booking was priced with', () => {
  const shift = { start: '2026-03-04T08:00:00.000Z', end: '2026-03-04T16:00:00.000Z' };
  it.each([
    ['its own break', { break_minutes: 45, paid_minutes: 435 }, 45],
    ['the break rules’ (elapsed less paid)', { break_minutes: null, paid_minutes: 450 }, 30],
    ['no rule reached', { break_minutes: null, paid_minutes: 480 }, 0],
    ['a sleep-in has none', { break_minutes: null, paid_minutes: 0, sleep_in: true }, 0],
    ['not priced', { break_minutes: null, paid_minutes: null }, 0],
  ])('%s', (_name, b, expected) => {
    expect(bookedBreak({ ...shift, ...b })).toBe(expected);
  });
});

describe('what the phone may sign', () => {
  const line = { status: 'pending', dispute_reason: null, outside_tolerance: null, timesheet_status: 'draft' };
  it.each([
    ['a pending line of a draft, within tolerance', {}, null],
    ['already signed', { status: 'signed' }, 'done'],
    ['verified by the agency', { status: 'verified' }, 'done'],
    ['disputed by the client', { status: 'disputed' }, 'disputed'],
    ['disputed once, amended back to pending', { dispute_reason: 'Not here' }, 'disputed'],
    ['outside the client’s tolerance', { outside_tolerance: 'Outside…' }, 'outside_tolerance'],
    ['its timesheet sent to the client', { timesheet_status: 'submitted' }, 'sent'],
    ['its timesheet amended after a dispute', { timesheet_status: 'amended' }, 'sent'],
  ])('%s', (_name, over, expected) => {
    expect(phoneSignRefusal({ ...line, ...over })).toBe(expected);
  });
});
