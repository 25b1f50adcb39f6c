// When a staff document's expiry is worth telling the agency about. Plain functions on 'yyyy-MM-dd' dates;
// "today" is the agency's today, passed in.
import { daysBetween } from '../time/agencyTime';

/** Days ahead of an expiry that a reminder is sent (domain rules: commonly 60, 30 and 7), largest first. */
export const REMINDER_DAYS = [60, 30, 7] as const;
export type ReminderThreshold = (typeof REMINDER_DAYS)[number] | 'expired';

/**
 * Expired documents are told about within this many days of their expiry; older ones were told about when
 * they expired (or predate the reminders), and a first run over an agency's history must not flood it.
 */
export const EXPIRED_LOOKBACK_DAYS = 30;

/**
 * The reminder a document is due today: the nearest threshold it has reached (a document uploaded 5 days
 * before its expiry gets the 7-day reminder only, not the 60- and 30-day ones as well), 'expired' from the
 * day after its expiry, or null (no expiry, more than 60 days left, or expired long ago). Each document and
 * threshold is notified once: the caller keys the notification by document and threshold.
 */
export function reminderDue(expiry: string | null, today: string): ReminderThreshold | null {
  if (expiry === null) return null;
  const left = daysBetween(today, expiry);
  if (left < 0) return -left <= EXPIRED_LOOKBACK_DAYS ? 'expired' : null;
  let due: ReminderThreshold | null = null;
  for (const d of REMINDER_DAYS) if (left <= d) due = d;
  return due;
}

/** The notification's dedupe key: one per document and threshold. */
export const reminderKey = (documentId: number, threshold: ReminderThreshold) => `document:${documentId}:${threshold}`;
