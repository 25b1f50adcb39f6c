// Timesheet rules as plain functions (issue 17): a line's price on its actual times, the state its lines put the
// timesheet in (its totals are its lines' declared rollups), the week a shift belongs to and what a drawn signature
// must be.
import { price } from '../pricing/price';
import type { Price, PricingRules, RateCard } from '../pricing/types';
import { addDaysToDate, dayOfWeek, instantToZoned } from '../time/agencyTime';

/**
 * How long a timesheet may await its client's signature before the agency's dashboard lists it as needing a chase
 * (issue 34): a week, past the clients' own reminders (after 3 days by default, timesheet_reminder_days).
 */
export const AWAITING_SIGNATURE_DAYS = 7;

export interface ActualTimes {
  /** ISO instants. */
  actual_start: string;
  actual_end: string;
  break_minutes?: number | null;
  /** A sleep-in's flat pay and charge. */
  flat?: { pay: number; charge: number } | null;
}

/**
 * A line is priced on what was worked, not on what was booked: the actual start and end (a night that ran late
 * into the next band, a night across a clock change, a bank holiday from its midnight are all priced by `price`).
 */
export function priceActual(
  line: ActualTimes,
  rules: PricingRules,
  rates: RateCard,
  holidays: ReadonlySet<string>,
): Price {
  return price(
    {
      start: line.actual_start,
      end: line.actual_end,
      breakMinutes: line.break_minutes ?? null,
      flat: line.flat ?? null,
    },
    rules,
    rates,
    holidays,
  );
}

/** A line is payable (and invoiceable) once signed by the client or verified by the agency: pay is never withheld. */
export const isPayable = (status: string | undefined) => status === 'signed' || status === 'verified';

/** Where a timesheet's lines may still be changed (times amended, a line added): its lines' editableIn. */
export const AMENDABLE_STATES = ['draft', 'disputed', 'amended'];

/** The states whose lines decide the timesheet's: sent to the client, and signed or fully verified since. */
const SETTLED_BY_LINES = ['submitted', 'signed', 'verified'];

/**
 * The timesheet's state as its lines put it, declared once on its lines (`parent.lines.derive`) and kept by the
 * engine after every write of a line or of the timesheet: once sent to the client it is disputed while a line is,
 * signed (or fully verified) once every line is signed or verified, and awaiting signature again when a line no longer
 * is (a verification withdrawn). A draft, disputed, amended or locked timesheet keeps its state: its own actions move
 * it. Answers the fields to change, with the stamps that go with the new state, or nothing.
 */
export function timesheetFromLines(
  t: { status: string },
  lines: { status: string }[],
  now: string,
): Record<string, unknown> | undefined {
  if (!SETTLED_BY_LINES.includes(t.status)) return undefined;
  const state = stateFromLines(lines.map((l) => l.status));
  if (state === t.status) return undefined;
  const stamps = { signed: { signed_at: now }, disputed: { disputed_at: now }, submitted: { signed_at: null } };
  return { status: state, ...(state === 'verified' ? {} : stamps[state]) };
}

/**
 * The state a submitted timesheet's lines put it in: disputed while a line is; once every line is signed or
 * verified, fully verified when the agency verified them all (no client signed any: issue 29.11), else signed;
 * otherwise still awaiting signature.
 */
export function stateFromLines(statuses: string[]): 'submitted' | 'signed' | 'verified' | 'disputed' {
  if (statuses.includes('disputed')) return 'disputed';
  if (statuses.length > 0 && statuses.every(isPayable))
    return statuses.every((s) => s === 'verified') ? 'verified' : 'signed';
  return 'submitted';
}

/**
 * Whether a shift is one a generation of the period takes (server/services/timesheets.ts, in SQL): booked and worked
 * (assigned or closed, with a staff member, ended by `now`) and starting on a day from `from` to `to`, both
 * included, on the agency's calendar. The screens count and preview with it, so they show what generation does.
 */
export function workedInPeriod(
  shift: { status: string; start_at: string; end_at: string; candidate_id?: number | null },
  from: string,
  to: string,
  timeZone: string,
  now: number,
): boolean {
  if (!['assigned', 'closed'].includes(shift.status) || shift.candidate_id === null) return false;
  if (Date.parse(shift.end_at) > now) return false;
  const day = instantToZoned(new Date(shift.start_at), timeZone).date;
  return day >= from && day <= to;
}

/** The Monday of the week an instant starts in, on the agency's calendar: a shift belongs to the week it starts in. */
export function weekOf(instant: string, timeZone: string): string {
  const { date } = instantToZoned(new Date(instant), timeZone);
  return addDaysToDate(date, -((dayOfWeek(date) + 6) % 7));
}

/**
 * Why a line worked on `workDate` (the day its actual start falls on, the agency's calendar) cannot be on a timesheet
 * of `from` to `to`, in words, or null: a line stays within its timesheet's period (issue 29.4), so a week is
 * neither paid nor invoiced for another week's work.
 */
export function periodProblem(workDate: string, from: string, to: string): string | null {
  return workDate < from || workDate > to
    ? `This timesheet covers ${from} to ${to}: times starting on ${workDate} belong on that week's timesheet.`
    : null;
}

/** Whether two spans of work overlap: '[)' spans, so one ending at 08:00 and the next starting at 08:00 do not. */
export const spansOverlap = (a: { start: string; end: string }, b: { start: string; end: string }) =>
  Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);

/** A drawn signature as the browser's signature pad gives it, at most this long (about 150 kB of PNG). */
export const SIGNATURE_MAX_CHARS = 200_000;
/**
 * A signature pad's largest image, in pixels (issue 29.19): the pad draws at most this wide and tall. A PNG compresses
 * a blank 6000×6000 image into 140 kB, but every print decodes it whole (0.5 GB each), so the size is checked on the
 * image's own header, not on its length.
 */
export const SIGNATURE_MAX_WIDTH = 2000;
export const SIGNATURE_MAX_HEIGHT = 1000;
export const SIGNATURE_PATTERN = '^data:image/png;base64,[A-Za-z0-9+/]+={0,2}$';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PREFIX = 'data:image/png;base64,';

/** The first bytes of base64 text (enough to read a file's signature). */
function firstBytes(b64: string, n: number): number[] {
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of b64) {
    const v = BASE64.indexOf(ch);
    if (v < 0) break;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
      if (out.length === n) break;
    }
  }
  return out;
}

/**
 * Why a drawn signature cannot be kept, in words, or null: it must be a PNG image as a data URL (what the
 * signature pad gives), of a sensible size, and not blank.
 */
export function signatureProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return 'Draw your signature (a PNG image).';
  if (value.length > SIGNATURE_MAX_CHARS) return 'The signature is too large. Clear it and sign again.';
  const b64 = value.slice(PREFIX.length);
  if (b64.length < 60 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return 'Draw your signature (a PNG image).';
  // The signature, then the first chunk (IHDR), whose data starts with the width and height (4 bytes each).
  const head = firstBytes(b64, 24);
  if (head.length < 24 || head.slice(0, 8).some((b, i) => b !== PNG_MAGIC[i]))
    return 'Draw your signature (a PNG image).';
  if (String.fromCharCode(...head.slice(12, 16)) !== 'IHDR') return 'Draw your signature (a PNG image).';
  const [width, height] = [readUint32(head, 16), readUint32(head, 20)];
  if (width === 0 || height === 0) return 'Draw your signature (a PNG image).';
  if (width > SIGNATURE_MAX_WIDTH || height > SIGNATURE_MAX_HEIGHT)
    return `The signature image is ${width} × ${height} pixels; a signature is at most ${SIGNATURE_MAX_WIDTH} × ${SIGNATURE_MAX_HEIGHT}. Clear it and sign again.`;
  return null;
}

const readUint32 = (bytes: number[], at: number) =>
  ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];

/**
 * Whoever is paid for hours never approves them (signs, or verifies as the agency): the person approving is the staff
 * member when one of their e-mail addresses (the user's own, or a signing link's recipient) is one of the staff
 * member's (their record's, or their phone login's). Compared without case or surrounding spaces; an empty address
 * matches nothing. Answers the refusal in words, or null.
 */
export function ownHoursRefusal(
  approverEmails: (string | null | undefined)[],
  staffEmails: (string | null | undefined)[],
) {
  const norm = (list: (string | null | undefined)[]) =>
    list.map((e) => (e ?? '').trim().toLowerCase()).filter((e) => e.length > 0);
  const staff = new Set(norm(staffEmails));
  return norm(approverEmails).some((e) => staff.has(e))
    ? 'These are your own hours: someone else must sign or verify them.'
    : null;
}

/** A line the client chose to dispute that the agency already holds: on an invoice (issued: its number), or on pay. */
export interface HeldForDispute {
  /** The issued invoice billing it (its number); null when a draft bills it or nothing does. */
  invoice: string | null;
  /** A draft invoice bills it (the client does not see drafts, so it is not named). */
  draft: boolean;
  /** Paid, or on a pay run not yet finalised. */
  paid: boolean;
}

/**
 * Why a client's dispute of some of `chosen` lines is refused: lines already invoiced or paid stand as they are, and
 * the agency corrects them (an issued invoice never changes: a credit note; a draft is corrected before it is issued;
 * pay by an adjustment). Each line is said once, by the first of those that holds it; an issued invoice is named, since
 * the client has it. Null when nothing is held.
 */
export function clientDisputeRefusal(chosen: number, held: HeldForDispute[]): string | null {
  const subject = (n: number) => (chosen === 1 ? 'This line is' : `${n} of the chosen lines ${n === 1 ? 'is' : 'are'}`);
  const them = (n: number) => (n === 1 ? 'it' : 'them');
  const issued = held.filter((h) => h.invoice);
  const drafts = held.filter((h) => !h.invoice && h.draft);
  const paid = held.filter((h) => !h.invoice && !h.draft && h.paid);
  const numbers = [...new Set(issued.map((h) => h.invoice!))].sort();
  const named =
    numbers.length === 1
      ? `invoice ${numbers[0]}`
      : `invoices ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
  const words = [
    issued.length && `${subject(issued.length)} on ${named}: ask the agency for a credit note.`,
    drafts.length &&
      `${subject(drafts.length)} on an invoice the agency is preparing: ask the agency to correct ${them(drafts.length)} before it is issued.`,
    paid.length &&
      `${subject(paid.length)} already on the staff member’s pay: ask the agency to correct ${them(paid.length)}.`,
  ].filter(Boolean);
  return words.length ? words.join(' ') : null;
}
