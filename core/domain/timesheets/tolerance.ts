// Issue 29.1–29.3: how far the hours a staff member enters may differ from the booking and still be signed on their
// phone by the client's approver. Beyond the client's tolerance the line goes to the client with the timesheet (the
// client stays the authority over hours), and the agency sees the difference flagged on the line.

/** A client's tolerance of the booking, in minutes (clients' timesheet_* settings). */
export interface Tolerance {
  /** A start this much earlier than booked is still within it. */
  early_start_minutes: number;
  /** A finish this much later than booked is still within it. */
  late_finish_minutes: number;
  /** A break this much shorter than booked is still within it (0: no shorter break). */
  short_break_minutes: number;
}

/** What a client tolerates when it has not said: 15 minutes early, an hour late, no shorter break. */
export const DEFAULT_TOLERANCE: Tolerance = {
  early_start_minutes: 15,
  late_finish_minutes: 60,
  short_break_minutes: 0,
};

/** A line's booked and actual times (ISO instants) and breaks (minutes; null break: the client's break rules). */
export interface BookedAndWorked {
  scheduled_start: string;
  scheduled_end: string;
  /** The break the booking was priced with (its own, else what the break rules gave it). */
  booked_break: number;
  actual_start: string;
  actual_end: string;
  /** The break entered; null leaves the booked one. */
  break_minutes: number | null;
}

/** How the actual times differ from the booking, in minutes: positive is later (start, finish) or longer (break). */
export interface Differences {
  start: number;
  end: number;
  break: number;
}

const minutesBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 60_000);

export function differences(l: BookedAndWorked): Differences {
  return {
    start: minutesBetween(l.scheduled_start, l.actual_start),
    end: minutesBetween(l.scheduled_end, l.actual_end),
    break: l.break_minutes == null ? 0 : l.break_minutes - l.booked_break,
  };
}

export type ExceptionKind = 'early_start' | 'late_finish' | 'short_break';

/** One way the actual times go beyond the client's tolerance: by how many minutes, and what was allowed. */
export interface ToleranceException {
  kind: ExceptionKind;
  minutes: number;
  allowed: number;
}

/**
 * Where the actual times go beyond the client's tolerance (none: the approver may sign them on the phone). Only what
 * would raise the hours counts: a start earlier, a finish later or a break shorter than the booking by more than the
 * client allows. A late start or an early finish costs the client nothing more and stays within.
 */
export function outsideTolerance(l: BookedAndWorked, t: Tolerance = DEFAULT_TOLERANCE): ToleranceException[] {
  const d = differences(l);
  const out: ToleranceException[] = [];
  if (-d.start > t.early_start_minutes)
    out.push({ kind: 'early_start', minutes: -d.start, allowed: t.early_start_minutes });
  if (d.end > t.late_finish_minutes) out.push({ kind: 'late_finish', minutes: d.end, allowed: t.late_finish_minutes });
  if (-d.break > t.short_break_minutes)
    out.push({ kind: 'short_break', minutes: -d.break, allowed: t.short_break_minutes });
  return out;
}

/** Minutes as people say them: 45 min, 2 h, 7 h 29 min. */
export function durationWords(minutes: number): string {
  const m = Math.abs(Math.round(minutes));
  const h = Math.floor(m / 60);
  const rest = m % 60;
  if (h === 0) return `${rest} min`;
  return rest ? `${h} h ${rest} min` : `${h} h`;
}

const EXCEPTION_WORDS: Record<ExceptionKind, string> = {
  early_start: 'started %{minutes} before the booking',
  late_finish: 'finished %{minutes} after the booking',
  short_break: 'break %{minutes} shorter than booked',
};

/**
 * The flag the agency and the client read on the line, in words ("Outside the client's tolerance: started 7 h 30 min
 * before the booking (15 min allowed); …"), or null when there is none.
 */
export function toleranceFlag(exceptions: ToleranceException[]): string | null {
  if (exceptions.length === 0) return null;
  const parts = exceptions.map(
    (e) =>
      `${EXCEPTION_WORDS[e.kind].replace('%{minutes}', durationWords(e.minutes))} (${durationWords(e.allowed)} allowed)`,
  );
  return `Outside the client’s tolerance: ${parts.join('; ')}.`;
}

/**
 * The break a booking was priced with: its own when it has one, else the minutes its price took off (the client's
 * break rules), which is the elapsed time less the paid minutes. A sleep-in has none.
 */
export function bookedBreak(b: {
  start: string;
  end: string;
  break_minutes: number | null;
  paid_minutes: number | null;
  sleep_in?: boolean | null;
}): number {
  if (b.break_minutes != null) return b.break_minutes;
  if (b.sleep_in || b.paid_minutes == null) return 0;
  return Math.max(0, minutesBetween(b.start, b.end) - b.paid_minutes);
}

/** Why a line cannot be signed on the staff member's phone, or null when the client's approver may sign it there. */
export type PhoneSignRefusal = 'done' | 'disputed' | 'outside_tolerance' | 'sent';

/**
 * The phone signs only what the client has not yet been asked about: a line awaiting signature on a timesheet not yet
 * sent to the client, within the client's tolerance, never disputed by the client (a line the client disputed is
 * settled by the client alone, in their panel or by the link, even once the agency has amended it).
 */
export function phoneSignRefusal(l: {
  status: string;
  dispute_reason?: string | null;
  outside_tolerance?: string | null;
  timesheet_status: string;
}): PhoneSignRefusal | null {
  if (l.status === 'disputed' || l.dispute_reason) return 'disputed';
  if (l.status !== 'pending') return 'done';
  if (l.outside_tolerance) return 'outside_tolerance';
  if (l.timesheet_status !== 'draft') return 'sent';
  return null;
}

/** The server's refusal of a phone signature, in words. */
export const PHONE_SIGN_REFUSED: Record<PhoneSignRefusal, string> = {
  done: 'This line is already signed or verified.',
  disputed: 'The client disputed this line: only the client can sign it now, in their panel or by the signing link.',
  outside_tolerance:
    'These times differ from the booking by more than the client allows: the line goes to the client to sign with the timesheet.',
  sent: 'This timesheet has been sent to the client: the client signs it in their panel or by the signing link.',
};
