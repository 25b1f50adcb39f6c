// Overdue reminders (issue 32): while the agency's payment reminders are on (its ActivatePayment settings), each
// open invoice with something left to pay is e-mailed to its client's billing address at each step of the schedule
// (the invoice settings' days after due, with ActivatePayment's own days after due and its reminder days before due),
// once per step: the reminder is an engine record (filed under the invoice, so its history lists it), unique per
// invoice and step, written with the e-mail in one transaction under the invoice's row lock. docs/decisions.md,
// "Issue 32.6".
import type { Db } from '../db/index.js';
import type { EngineContext } from '../engine/context.js';
import { systemPrincipal } from '../engine/handle.js';
import type { JobEngine } from '../jobs/engineContext.js';
import { letterheadOf } from '../documents/letterhead.js';
import { queueEmails, renderEmail } from '../notifications/outbox.js';
import { notify } from '../notifications/notify.js';
import { reminderStepDue, scheduleOf } from '../../core/domain/invoicing/reminders.js';
import { addDaysToDate, formatDisplayDate } from '../../core/domain/time/agencyTime.js';
import { formatPounds } from '../../core/engine/money.js';

interface Open {
  id: number;
  number: string;
  due_date: string;
  balance: string;
  client_name: string;
  recipient: string | null;
}

/**
 * One invoice's reminder, if a step is due for it on the agency's today: under the invoice's row lock, the steps
 * sent are read again, so two runs (or two server processes) that both found it due send one. Answers whether it
 * queued one.
 */
export async function remindInvoice(ctx: EngineContext, invoiceId: number, steps: number[]): Promise<boolean> {
  const m = ctx.principal.merchantId;
  const [inv] = await ctx.db.query<Open>(
    `select i.id, i.number, i.due_date::text as due_date, (i.total + i.credited - i.paid) as balance,
            c.name as client_name, coalesce(nullif(c.billing_email, ''), nullif(c.email, '')) as recipient
       from invoices i join clients c on c.merchant_id = i.merchant_id and c.id = i.client_id
      where i.merchant_id = $1 and i.id = $2 and i.state in ('issued', 'sent', 'part_paid')
        and i.total + i.credited - i.paid > 0
      for update of i`,
    [m, invoiceId],
  );
  if (!inv?.recipient) return false;
  const sent = await ctx.db.query<{ step: number }>(
    'select step from invoice_reminders where merchant_id = $1 and invoice_id = $2',
    [m, invoiceId],
  );
  const step = reminderStepDue(
    inv.due_date,
    ctx.today,
    steps,
    sent.map((s) => s.step),
  );
  if (step === null) return false;
  await ctx.engine.create(
    'invoice_reminders',
    { invoice_id: inv.id, step, due_date: inv.due_date, recipient: inv.recipient },
    { reason: step > 0 ? `Overdue reminder, ${step} days after due` : 'Reminder before the due date' },
  );
  const letterhead = await letterheadOf(ctx.db, m);
  const balance = formatPounds(Number(inv.balance));
  const due = formatDisplayDate(inv.due_date);
  const mail =
    inv.due_date < ctx.today
      ? renderEmail(
          letterhead,
          `Reminder: invoice ${inv.number} is overdue`,
          `Hello,\n\nInvoice ${inv.number} was due on ${due} and ${balance} of it is still to pay. ` +
            `If you have paid it already, thank you, and please ignore this reminder.\n\n${letterhead.name}`,
          `/client/invoice/${inv.id}`,
        )
      : renderEmail(
          letterhead,
          `Invoice ${inv.number} falls due on ${due}`,
          `Hello,\n\nInvoice ${inv.number} for ${balance} falls due on ${due}.\n\n${letterhead.name}`,
          `/client/invoice/${inv.id}`,
        );
  await queueEmails(ctx.db, [
    {
      merchantId: m,
      recipient: inv.recipient,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      event: 'invoice.reminder',
    },
  ]);
  // The client's users hear of it too (issue 35), each as the agency's client settings or their own choice say; the
  // billing address, just e-mailed, is not e-mailed again.
  const [client] = await ctx.db.query<{ client_id: number }>(
    'select client_id from invoices where merchant_id = $1 and id = $2',
    [m, inv.id],
  );
  await notify(ctx.db, {
    merchantId: m,
    event: 'invoice.payment_due',
    title: mail.subject,
    body:
      inv.due_date < ctx.today
        ? `Invoice ${inv.number} was due on ${due} and ${balance} of it is still to pay.`
        : `Invoice ${inv.number} for ${balance} falls due on ${due}.`,
    link: `/invoice/client-invoice/client-InvoiceView/${inv.id}`,
    clientLink: `/client/invoice/${inv.id}`,
    audience: { clientId: client.client_id },
    data: { invoice_number: inv.number, client_name: inv.client_name, due_date: due, amount: balance },
    alreadySent: [inv.recipient],
  });
  return true;
}

/**
 * The periodic job: for each agency whose payment reminders are on, each open invoice a step of its schedule has
 * reached (due date plus the earliest step on or before the agency's today) is reminded in a transaction of its own.
 * Answers how many reminders were queued.
 */
export async function remindOverdueInvoices(db: Db, engine: JobEngine, now: Date = new Date()): Promise<number> {
  const agencies = await db.query<{
    merchant_id: number;
    reminder_days: string;
    days_before_due: number;
    days_after_due: number;
  }>(
    `select p.merchant_id, coalesce(s.reminder_days, '7, 14, 30') as reminder_days, p.days_before_due, p.days_after_due
       from notification_payment_settings p left join invoice_settings s on s.merchant_id = p.merchant_id
      where p.enabled order by p.merchant_id`,
  );
  let queued = 0;
  for (const a of agencies) {
    const steps = scheduleOf(a);
    const today = (await engine.context(db, systemPrincipal(a.merchant_id), now)).today;
    // Reached by the earliest step: its due date is at most today minus that step's days. Already reminded at the
    // latest step it has reached is decided per invoice, under its lock.
    const due = await db.query<{ id: number }>(
      `select i.id from invoices i
        where i.merchant_id = $1 and i.state in ('issued', 'sent', 'part_paid') and i.total + i.credited - i.paid > 0
          and i.due_date <= $2::date
          and not exists (select 1 from invoice_reminders r where r.merchant_id = i.merchant_id
                            and r.invoice_id = i.id and r.step >= $3)
        order by i.id limit 1000`,
      [a.merchant_id, addDaysToDate(today, -steps[0]), steps.at(-1)],
    );
    for (const { id } of due)
      await db.transaction(async (tx) => {
        if (await remindInvoice(await engine.context(tx, systemPrincipal(a.merchant_id), now), id, steps)) queued++;
      });
  }
  return queued;
}
