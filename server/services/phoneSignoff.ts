// Issue 29.1: hours signed on a staff member's phone by one of the client's approvers, with a PIN of their own. The
// PIN is checked before the action's transaction (a hash takes a tenth of a second, and a wrong try must be counted
// even though the action is then refused); the action then checks the approver is the line's client's and records
// them as the signer.
import type { Row } from '../db/index.js';
import type { RecordValues } from '../../core/engine/types.js';
import { HttpError } from '../http.js';
import type { EngineContext } from '../engine/context.js';
import { LoginThrottle } from '../auth/throttle.js';
import { decoyHash, verifyPassword } from '../auth/passwords.js';
import { notify } from '../notifications/notify.js';
import { iso } from './booking.js';
import {
  bookedBreak,
  DEFAULT_TOLERANCE,
  outsideTolerance,
  toleranceFlag,
  type Tolerance,
} from '../../core/domain/timesheets/tolerance.js';
import { formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime.js';
import { agencyTimesheetPage, CLIENT_TIMESHEET_PAGE } from '../../core/contracts/timesheets.js';

/**
 * Wrong PINs, throttled as sign-ins are (server/auth/throttle.ts), in their own namespace: five tries per approver from
 * one address in 15 minutes (then 429 until the window ends), ten per approver from all the addresses they are not
 * known at (a PIN is shorter than a password), and twenty failures from one address for approvers not known there.
 */
const pinThrottle = new LoginThrottle({ namespace: 'approver-pin:', perAccountAnywhere: 10 });

/**
 * The SQL condition of an approver (alias `a`) who may sign on a phone now: not removed and, when they are one of the
 * client's colleagues, not deactivated (issue 35).
 */
export const approverInService = (a: string) =>
  `${a}.deleted_at is null and (${a}.user_id is null or exists (select 1 from users u where u.id = ${a}.user_id and u.active))`;

const WRONG_PIN = 'That PIN is not right. The approver types their own PIN.';
const NOT_AN_APPROVER = 'Choose one of the client’s approvers for this site.';

/**
 * The sign action's preparation: the approver's PIN checked against its hash, outside any transaction. Answers the
 * approver's id as verified; refuses a wrong PIN (422 on `pin`) or too many tries (429), counting each try first.
 */
export async function verifyApproverPin(input: RecordValues, ctx: EngineContext) {
  const id = Number(input.approver_id);
  const [a] = Number.isInteger(id)
    ? await ctx.db.query(
        `select id, name, pin_hash from timesheet_approvers a where merchant_id = $1 and id = $2 and ${approverInService('a')}`,
        [ctx.principal.merchantId, id],
      )
    : [];
  const attempt = await pinThrottle.attempt(ctx.db, `${ctx.principal.merchantId}:${id}`, ctx.ip ?? 'unknown');
  if (attempt.wait > 0) {
    const minutes = Math.ceil(attempt.wait / 60);
    throw new HttpError(
      429,
      `Too many wrong PINs. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or ask the client’s manager to set a new PIN.`,
      { pin: 'Too many wrong PINs.' },
    );
  }
  // An approver without a PIN (or none at all) costs the same hash as a real one.
  const ok = await verifyPassword(String(input.pin ?? ''), a?.pin_hash ?? (await decoyHash()));
  if (!a || !a.pin_hash) throw new HttpError(422, NOT_AN_APPROVER, { approver_id: NOT_AN_APPROVER });
  if (!ok) throw new HttpError(422, WRONG_PIN, { pin: WRONG_PIN });
  await pinThrottle.succeeded(ctx.db, attempt);
  return { approver_verified: Number(a.id) };
}

/**
 * The approver who signs a line on the phone: the one whose PIN was verified, still the line's client's (and its
 * site's, when they approve for one site), with a PIN. Refuses anyone else in words.
 */
export async function approverFor(ctx: EngineContext, line: Row, clientId: number, input: RecordValues) {
  const [a] = await ctx.db.query(
    `select id, name, client_id, site_id, pin_hash from timesheet_approvers a where merchant_id = $1 and id = $2 and ${approverInService('a')}`,
    [ctx.principal.merchantId, input.approver_id],
  );
  if (
    !a ||
    !a.pin_hash ||
    Number(a.client_id) !== clientId ||
    (a.site_id != null && Number(a.site_id) !== Number(line.site_id))
  )
    throw new HttpError(422, NOT_AN_APPROVER, { approver_id: NOT_AN_APPROVER });
  // The PIN checked before the transaction is this approver's (never a request's own claim).
  if (Number(input.approver_verified) !== Number(a.id)) throw new HttpError(422, WRONG_PIN, { pin: WRONG_PIN });
  return { id: Number(a.id), name: String(a.name) };
}

/** A client's tolerance of the booking (its settings, else the defaults). */
export async function toleranceOf(ctx: EngineContext, clientId: number): Promise<Tolerance> {
  const [c] = await ctx.db.query(
    `select timesheet_early_minutes, timesheet_late_minutes, timesheet_short_break_minutes
       from clients where merchant_id = $1 and id = $2`,
    [ctx.principal.merchantId, clientId],
  );
  return {
    early_start_minutes: Number(c?.timesheet_early_minutes ?? DEFAULT_TOLERANCE.early_start_minutes),
    late_finish_minutes: Number(c?.timesheet_late_minutes ?? DEFAULT_TOLERANCE.late_finish_minutes),
    short_break_minutes: Number(c?.timesheet_short_break_minutes ?? DEFAULT_TOLERANCE.short_break_minutes),
  };
}

/**
 * The flag a line's new actual times carry: how they go beyond the client's tolerance of its booking (null: within,
 * or a line with no booking to compare with).
 */
export async function toleranceFlagOf(
  ctx: EngineContext,
  clientId: number,
  shift: Row | undefined,
  actual: { actual_start: string; actual_end: string; break_minutes?: number | null },
): Promise<string | null> {
  if (!shift) return null;
  const start = iso(shift.start_at);
  const end = iso(shift.end_at);
  const exceptions = outsideTolerance(
    {
      scheduled_start: start,
      scheduled_end: end,
      booked_break: bookedBreak({
        start,
        end,
        break_minutes: shift.break_minutes ?? null,
        paid_minutes: shift.paid_minutes == null ? null : Number(shift.paid_minutes),
        sleep_in: shift.sleep_in,
      }),
      actual_start: actual.actual_start,
      actual_end: actual.actual_end,
      break_minutes: actual.break_minutes ?? null,
    },
    await toleranceOf(ctx, clientId),
  );
  return toleranceFlag(exceptions);
}

/** Tells the client's users that an approver signed a line on a staff member's phone, naming them. */
export async function notifyPhoneSigned(ctx: EngineContext, t: Row, line: Row, approver: { name: string }) {
  const [who] = await ctx.db.query(
    `select c.first_name || ' ' || c.last_name as name from candidates c where c.merchant_id = $1 and c.id = $2`,
    [ctx.principal.merchantId, line.candidate_id],
  );
  const [start, end] = [line.actual_start, line.actual_end].map((v) => instantToZoned(new Date(iso(v)), ctx.timeZone));
  const when = `${formatDisplayDate(start.date)}, ${start.time}–${end.time}`;
  await notify(ctx.db, {
    merchantId: ctx.principal.merchantId,
    event: 'timesheet.phone_signed',
    title: 'Hours signed on a staff phone',
    body: `${approver.name} signed the hours of ${who?.name ?? 'a staff member'} for ${when} (break ${line.break_minutes ?? 0} min) on their phone, on timesheet ${t.number}.`,
    link: agencyTimesheetPage(Number(t.id)),
    clientLink: CLIENT_TIMESHEET_PAGE,
    audience: { clientId: Number(t.client_id) },
    data: { number: t.number, signer_name: approver.name, staff_name: who?.name ?? '' },
  });
}
