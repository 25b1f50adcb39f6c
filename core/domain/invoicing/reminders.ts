// Overdue reminders (issue 32): the agency's schedule, in days after an invoice's due date, and which step an overdue
// invoice is due for. docs/decisions.md, "Issue 32.6".
import { addDaysToDate } from '../time/agencyTime';

/** At most this many steps: a schedule is a handful of reminders, not a daily nag. */
export const MAX_REMINDER_STEPS = 6;

/**
 * The schedule as typed ('7, 14, 30'): whole days after the due date, 1 to 365, each once, in increasing order.
 * Empty means no overdue reminders. Refused in words, as the settings screen shows them.
 */
export function parseReminderDays(text: string): { ok: true; days: number[] } | { ok: false; message: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) < 1 || Number(p) > 365))
    return {
      ok: false,
      message: 'List whole days after the due date, from 1 to 365, separated by commas (7, 14, 30).',
    };
  const days = parts.map(Number);
  if (days.some((d, i) => i > 0 && d <= days[i - 1]))
    return { ok: false, message: 'List each day once, from the first reminder to the last (7, 14, 30).' };
  if (days.length > MAX_REMINDER_STEPS) return { ok: false, message: `At most ${MAX_REMINDER_STEPS} reminders.` };
  return { ok: true, days };
}

/**
 * The step an overdue invoice is due a reminder for on `today` (the agency's), or null: the latest step whose day has
 * come (the due date plus its days), unless that step or a later one was sent already. An invoice found late (the
 * server was down, the schedule was added since) gets the latest step only, never a burst of the ones it missed.
 */
export function reminderStepDue(
  dueDate: string,
  today: string,
  steps: readonly number[],
  sent: readonly number[],
): number | null {
  const reached = steps.filter((d) => addDaysToDate(dueDate, d) <= today);
  const step = reached.at(-1);
  if (step === undefined) return null;
  return sent.some((s) => s >= step) ? null : step;
}

/**
 * An agency's schedule: the steps in days from the due date (negative: before it), in increasing order. The invoice
 * settings' days after due, with the ActivatePayment tab's own "days after due" and its reminder "days before due"
 * (both stored before the invoice settings existed, and still shown there): each a step of its own.
 */
export function scheduleOf(settings: {
  reminder_days: string;
  days_before_due: number;
  days_after_due: number;
}): number[] {
  const parsed = parseReminderDays(settings.reminder_days);
  const after = parsed.ok ? parsed.days : [];
  return [...new Set([-settings.days_before_due, settings.days_after_due, ...after])].sort((a, b) => a - b);
}
