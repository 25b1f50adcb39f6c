import { describe, expect, it } from 'vitest';
import { parseReminderDays, reminderStepDue, scheduleOf } from '../../../core/domain/invoicing/reminders';

describe('the reminder schedule as typed', () => {
  it.each([
    ['7, 14, 30', [7, 14, 30]],
    [' 7,14 ,30 ', [7, 14, 30]],
    ['', []],
    ['1', [1]],
    ['365', [365]],
  ])('%j is %j', (text, days) => expect(parseReminderDays(text)).toEqual({ ok: true, days }));

  it.each([
    ['0', /from 1 to 365/],
    ['366', /from 1 to 365/],
    ['7.5', /whole days/],
    ['-7', /whole days/],
    ['seven', /whole days/],
    ['14, 7', /each day once, from the first reminder to the last/],
    ['7, 7', /each day once/],
    ['1, 2, 3, 4, 5, 6, 7', /At most 6 reminders/],
  ])('refuses %j in words', (text, words) => {
    const r = parseReminderDays(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(words);
  });
});

describe('which step a reminder is due for', () => {
  const due = '2026-03-27';
  const steps = [-3, 7, 14, 30];
  it.each([
    ['2026-03-23', [], null, 'before the first step'],
    ['2026-03-24', [], -3, 'three days before due'],
    ['2026-03-24', [-3], null, 'never twice for a step'],
    ['2026-04-02', [-3], null, 'due passed, but the 7-day step not yet (BST changes nothing: dates only)'],
    ['2026-04-03', [-3], 7, 'seven days after due'],
    ['2026-04-10', [-3, 7], 14, 'fourteen days after due'],
    ['2026-05-06', [-3], 30, 'found late: the latest step only'],
    ['2026-05-06', [-3, 30], null, 'the last step sent: nothing more'],
    ['2026-04-10', [30], null, 'an earlier step after a later one was sent: never'],
  ] as [string, number[], number | null, string][])('on %s with %j sent: %j (%s)', (today, sent, step) =>
    expect(reminderStepDue(due, today, steps, sent)).toBe(step),
  );
  it('sends nothing without a schedule', () => expect(reminderStepDue(due, '2027-01-01', [], [])).toBeNull());
});

describe('an agency’s schedule', () => {
  it('joins the invoice settings’ days with the ActivatePayment days before and after due', () => {
    expect(scheduleOf({ reminder_days: '7, 14, 30', days_before_due: 3, days_after_due: 7 })).toEqual([-3, 7, 14, 30]);
    expect(scheduleOf({ reminder_days: '14', days_before_due: 0, days_after_due: 10 })).toEqual([0, 10, 14]);
  });
  it('keeps the ActivatePayment steps when the saved days cannot be read', () =>
    expect(scheduleOf({ reminder_days: 'x', days_before_due: 3, days_after_due: 7 })).toEqual([-3, 7]));
});
