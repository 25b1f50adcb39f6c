// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test as propertyTest } from '@fast-check/vitest';
import {
  EXPIRED_LOOKBACK_DAYS,
  reminderDue,
  reminderKey,
  REMINDER_DAYS,
} from '../../../core/domain/notifications/documentReminders';
import { addDaysToDate } from '../../../core/domain/time/agencyTime';
import { retryDelayMs } from '../../../server/jobs/backoff';
import {
  fillPlaceholders,
  unknownPlaceholders,
  eventDefinition,
  EVENTS,
} from '../../../core/domain/notifications/events';

const today = '2026-03-15';
const expiringIn = (days: number) => addDaysToDate(today, days);

describe('reminderDue: the reminder a document is due today (60, 30, 7 days ahead, or expired)', () => {
  it.each([
    [null, null, 'no expiry: never'],
    [61, null, 'more than 60 days left'],
    [60, 60, 'exactly 60 days left'],
    [31, 60, 'between 60 and 31 days'],
    [30, 30, 'exactly 30 days'],
    [8, 30, 'between 30 and 8 days'],
    [7, 7, 'exactly 7 days'],
    [1, 7, 'one day left'],
    [0, 7, 'the expiry day itself: still good, 7-day reminder'],
    [-1, 'expired', 'the day after the expiry'],
    [-EXPIRED_LOOKBACK_DAYS, 'expired', 'at the end of the look-back'],
    [-EXPIRED_LOOKBACK_DAYS - 1, null, 'expired long ago: not told again'],
  ] as const)('%s days left → %s (%s)', (left, expected, _why) => {
    expect(reminderDue(left === null ? null : expiringIn(left), today)).toBe(expected);
  });

  it('keys each document and threshold apart', () => {
    expect(reminderKey(12, 30)).toBe('document:12:30');
    expect(reminderKey(12, 'expired')).toBe('document:12:expired');
  });

  propertyTest.prop([fc.integer({ min: -400, max: 400 })])(
    'a later day never brings back an earlier (larger) threshold',
    (left) => {
      const urgency = (t: ReturnType<typeof reminderDue>) =>
        t === null ? -1 : t === 'expired' ? REMINDER_DAYS.length + 1 : REMINDER_DAYS.indexOf(t) + 1;
      const now = reminderDue(expiringIn(left), today);
      const tomorrow = reminderDue(expiringIn(left), addDaysToDate(today, 1));
      if (now !== null && tomorrow !== null) expect(urgency(tomorrow)).toBeGreaterThanOrEqual(urgency(now));
    },
  );
});

describe('retryDelayMs: the queue’s backoff (e-mail and every other job)', () => {
  it.each([
    [1, 10_000],
    [2, 20_000],
    [3, 40_000],
    [7, 640_000],
    [8, 900_000],
    [50, 900_000],
  ])('after %i attempts waits %i ms', (attempts, ms) => expect(retryDelayMs(attempts)).toBe(ms));
});

describe('templates', () => {
  it('fill %{placeholders}, leaving unknown values empty', () => {
    expect(fillPlaceholders('%{a} and %{b}', { a: 'One', b: 2 })).toBe('One and 2');
    expect(fillPlaceholders('%{missing}!', {})).toBe('!');
  });
  it('name placeholders an event does not know', () => {
    const e = eventDefinition('shift.filled');
    expect(unknownPlaceholders('%{staff_name} %{agency_name} %{nope} %{nope}', e)).toEqual(['nope']);
  });
  it('default templates use only the placeholders their event knows', () => {
    for (const e of EVENTS) expect(unknownPlaceholders(e.subject + e.body, e), e.key).toEqual([]);
  });
});
