// Payslips delivered (issue 33, Output): each payslip of a finalised run e-mailed to its staff member through the
// outbox, its kept PDF attached (the staff member's own reading of it), in the finalising's transaction.
import type { EngineContext } from '../engine/context.js';
import type { Row } from '../db/index.js';
import { letterheadOf } from '../documents/letterhead.js';
import { queueEmails, renderEmail } from '../notifications/outbox.js';
import { formatPounds } from '../../core/engine/money.js';
import { formatDisplayDate } from '../../core/domain/time/agencyTime.js';
import { HttpError } from '../http.js';
import { keepMissingCopies } from '../documents/records.js';

/** The outbox's event of a payslip's e-mail (the e-mail report's filter). */
export const PAYSLIP_EMAIL_EVENT = 'payslip.sent';

/** A payslip's page on the staff member's phone: where the e-mail's button leads. */
export const staffPayslipPath = (id: number | string) => `/staff-app/payslips/${id}`;

/**
 * The address each payslip goes to as it is finalised (by position): its staff member's e-mail as it is now, or null
 * when they have none (the run says so: not sent). Set by the payslip's own finalise transition, so it is in the
 * payslip's audit entry and never changes after.
 */
export async function payslipAddresses(ctx: EngineContext, slips: Row[]): Promise<{ emailed_to: string | null }[]> {
  const rows = await ctx.db.query<{ id: number; email: string | null }>(
    `select c.id, nullif(trim(c.email), '') as email from candidates c where c.merchant_id = $1 and c.id = any($2::int[])`,
    [ctx.principal.merchantId, slips.map((s) => Number(s.candidate_id))],
  );
  const byId = new Map(rows.map((r) => [r.id, r.email]));
  return slips.map((s) => ({ emailed_to: byId.get(Number(s.candidate_id)) ?? null }));
}

/** What a payslip's e-mail says and where it goes: its staff member, period, net pay and kept copy (`kept`). */
interface PayslipToSend {
  id: number;
  emailed_to: string;
  name: string;
  first_name: string;
  period_start: string;
  period_end: string;
  net: string;
  kept: number;
}

/**
 * Queues the e-mail of each finalised payslip of run `runId` that has an address, its kept PDF (the copy kept for the
 * staff member's reading: no employer's figures) attached by reference. In the finalising's transaction: the e-mails
 * exist exactly when the run is finalised (a finalise retried after it committed is refused by its lifecycle; one
 * killed before it committed leaves neither). A payslip whose copy already went out is never queued again.
 */
export async function emailPayslips(ctx: EngineContext, runId: number) {
  const slips = await ctx.db.query<PayslipToSend>(
    `select p.id, p.emailed_to, trim(c.first_name || ' ' || c.last_name) as name, c.first_name,
            p.period_start::text, p.period_end::text, p.net, d.id as kept
       from payslips p
       join candidates c on c.merchant_id = p.merchant_id and c.id = p.candidate_id
       join issued_documents d on d.merchant_id = p.merchant_id and d.resource = 'payslips' and d.record_id = p.id
                              and d.template = 'payslip' and d.role = 'staff'
      where p.merchant_id = $1 and p.pay_run_id = $2 and p.state = 'finalised' and p.emailed_to is not null
        and not exists (select 1 from email_outbox o where o.merchant_id = p.merchant_id and o.attachments @> array[d.id])
      order by p.id`,
    [ctx.principal.merchantId, runId],
  );
  if (slips.length === 0) return;
  const letterhead = await letterheadOf(ctx.db, ctx.principal.merchantId);
  await queueEmails(
    ctx.db,
    slips.map((s) => payslipEmail(ctx, letterhead, s)),
  );
}

/** A payslip's e-mail to its staff member, its kept copy (`kept`, the staff member's reading) attached. */
function payslipEmail(ctx: EngineContext, letterhead: Awaited<ReturnType<typeof letterheadOf>>, s: PayslipToSend) {
  const period = `${formatDisplayDate(s.period_start)} to ${formatDisplayDate(s.period_end)}`;
  const mail = renderEmail(
    letterhead,
    `Your payslip for ${period} from ${letterhead.name}`,
    `Hello ${s.first_name},\n\nYour payslip for ${period} is attached: your net pay is ${formatPounds(Number(s.net))}. ` +
      `You can also read it on your staff page, under Payslips.\n\n${letterhead.name}`,
    staffPayslipPath(s.id),
  );
  return {
    merchantId: ctx.principal.merchantId,
    recipient: s.emailed_to,
    recipientName: s.name,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    event: PAYSLIP_EMAIL_EVENT,
    attachments: [s.kept],
  };
}

/** The staff member's copy kept of payslip `id` (its id in issued_documents), or undefined. */
async function staffCopyOf(ctx: EngineContext, id: number) {
  const [kept] = await ctx.db.query<{ id: number }>(
    `select id from issued_documents
      where merchant_id = $1 and resource = 'payslips' and record_id = $2 and template = 'payslip' and role = 'staff'`,
    [ctx.principal.merchantId, id],
  );
  return kept?.id;
}

/**
 * The payslip's `resend_email` action (a finalised payslip; admins): one outbox e-mail to the staff member's address as
 * it is now (one added since the run was finalised, or corrected), the kept staff copy attached, as finalising sends
 * it. Refused in words while they still have no address. Answers the action's patch: the address it went to, kept on
 * the payslip (so its e-mail status follows the new e-mail) and in its audit entry.
 */
export async function resendPayslip(ctx: EngineContext, slip: Row) {
  const id = Number(slip.id);
  const [who] = await ctx.db.query<Omit<PayslipToSend, 'id' | 'emailed_to' | 'kept'> & { email: string | null }>(
    `select nullif(trim(c.email), '') as email, trim(c.first_name || ' ' || c.last_name) as name, c.first_name,
            p.period_start::text, p.period_end::text, p.net
       from payslips p join candidates c on c.merchant_id = p.merchant_id and c.id = p.candidate_id
      where p.merchant_id = $1 and p.id = $2`,
    [ctx.principal.merchantId, id],
  );
  if (!who?.email)
    throw new HttpError(
      409,
      `${who?.name || 'This staff member'} has no e-mail address yet: add one to their profile, then send the payslip again.`,
    );
  // A payslip finalised before staff copies were kept has its copy kept now (the action holds its row lock).
  let kept = await staffCopyOf(ctx, id);
  if (kept === undefined) {
    await keepMissingCopies(ctx, ctx.engine.compiled('payslips'), id);
    kept = await staffCopyOf(ctx, id);
  }
  if (kept === undefined) throw new HttpError(409, 'This payslip has no kept copy to send.');
  const letterhead = await letterheadOf(ctx.db, ctx.principal.merchantId);
  await queueEmails(ctx.db, [payslipEmail(ctx, letterhead, { ...who, id, emailed_to: who.email, kept })]);
  return { emailed_to: who.email };
}

/**
 * Where a payslip's e-mail is (the run's payslips and the payslip's page): null before it is finalised; not sent when
 * its staff member had no address; else its outbox row's status (queued, sent, failed), found by its attachment.
 */
export const emailStatusSql = () =>
  `(case when payslips.state <> 'finalised' then null
         when payslips.emailed_to is null then 'not_sent'
         else coalesce((select o.status from issued_documents d
                          join email_outbox o on o.merchant_id = d.merchant_id and o.attachments @> array[d.id]
                         where d.merchant_id = payslips.merchant_id and d.resource = 'payslips'
                           and d.record_id = payslips.id and d.role = 'staff' and o.event = '${PAYSLIP_EMAIL_EVENT}'
                         order by o.id desc limit 1), 'not_sent') end)`;
