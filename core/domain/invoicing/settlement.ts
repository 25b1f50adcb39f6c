// When an invoice is due, whether it is overdue, its state as payments and credits settle it, and how one payment is
// shared over a client's invoices (issue 32: invoices, payments). Plain functions; the server stores what they decide.
// docs/decisions.md, "Issue 32.4".
import { formatPounds } from '../../engine/money';
import { addDaysToDate, agencyToday, isPlainDate } from '../time/agencyTime';

/** draft → issued → sent → part_paid → paid; void only from draft. Overdue is derived (isOverdue), not a state. */
export type InvoiceState = 'draft' | 'issued' | 'sent' | 'part_paid' | 'paid' | 'void';
/** The states that owe money and take payments. */
export const OPEN_STATES: readonly InvoiceState[] = ['issued', 'sent', 'part_paid'];

/** The due date: the issue date plus the client's payment terms in days (0 is due on the day of issue). */
export function dueDate(issuedOn: string, termsDays: number): string {
  if (!isPlainDate(issuedOn)) throw new RangeError(`Not a date (yyyy-MM-dd): ${JSON.stringify(issuedOn)}`);
  if (!Number.isInteger(termsDays) || termsDays < 0 || termsDays > 365)
    throw new RangeError(`Payment terms must be 0 to 365 days: ${termsDays}`);
  return addDaysToDate(issuedOn, termsDays);
}

/** What is left to pay: the total less what credit notes took off (their totals are negative) and what was paid. */
export const balanceOf = (a: { total: number; credited: number; paid: number }) => a.total + a.credited - a.paid;

/**
 * An issued invoice's state as its payments and credit notes settle it: paid when nothing is left to pay (by payment,
 * credit or both), part-paid when something was paid, else sent or issued as it was. A reversed payment takes it
 * back. Draft and void are not settled by money.
 */
export function settledState(
  state: InvoiceState,
  a: { sent: boolean; total: number; credited: number; paid: number },
): InvoiceState {
  if (state === 'draft' || state === 'void') return state;
  if (balanceOf(a) <= 0) return 'paid';
  if (a.paid > 0) return 'part_paid';
  return a.sent ? 'sent' : 'issued';
}

/**
 * Overdue: something is left to pay and the agency's today (in its own zone) is after the due date. Due today is not
 * overdue; 23:30 UTC on the due date is already the next day in London in summer.
 */
export function isOverdue(
  invoice: { state: InvoiceState; due_date: string | null; balance: number },
  now: Date,
  timeZone: string,
): boolean {
  if (!OPEN_STATES.includes(invoice.state) || invoice.balance <= 0 || !invoice.due_date) return false;
  return agencyToday(timeZone, now) > invoice.due_date;
}

// ---------------------------------------------------------------------------------------------------------------
// Payments.

/** An invoice a payment may be put against, as allocation reads it. */
export interface PayableInvoice {
  id: number;
  number: string | null;
  client_id: number;
  state: InvoiceState;
  due_date: string | null;
  balance: number;
}

export interface Allocation {
  invoice_id: number;
  amount: number;
}

export type AllocationResult = { ok: true; allocations: Allocation[] } | { ok: false; message: string };

const named = (i: PayableInvoice) => i.number ?? 'A draft invoice';

/**
 * One payment of a client, shared over that client's open invoices: as the user split it (`split`, each part at most
 * what its invoice has left to pay, the parts adding up to the payment), or without a split oldest due first. An
 * overpayment is refused in words: the agency records what is owed and refunds or holds the rest outside the ledger.
 */
export function allocatePayment(
  payment: { client_id: number; amount: number },
  invoices: readonly PayableInvoice[],
  split?: readonly Allocation[],
): AllocationResult {
  const refuse = (message: string): AllocationResult => ({ ok: false, message });
  if (!Number.isSafeInteger(payment.amount) || payment.amount <= 0)
    return refuse('A payment must be more than nothing, in whole pence.');
  const problem = (i: PayableInvoice | undefined, id: number) => {
    if (!i) return `Invoice ${id} is not one of this client’s open invoices.`;
    if (i.client_id !== payment.client_id) return `${named(i)} is another client’s invoice.`;
    if (i.state === 'draft') return `${named(i)} is a draft: issue it before recording a payment against it.`;
    if (i.state === 'void') return `${named(i)} is void: nothing is owed on it.`;
    if (i.balance <= 0) return `${named(i)} is paid already.`;
    return null;
  };
  if (!split) {
    const open = invoices
      .filter((i) => !problem(i, i.id))
      .sort((a, b) => cmp(a.due_date ?? '', b.due_date ?? '') || a.id - b.id);
    const owed = open.reduce((s, i) => s + i.balance, 0);
    if (payment.amount > owed)
      return refuse(
        `The payment of ${formatPounds(payment.amount)} is more than the ${formatPounds(owed)} the client owes: ` +
          `record ${formatPounds(owed)} and refund or hold the other ${formatPounds(payment.amount - owed)}.`,
      );
    const allocations: Allocation[] = [];
    let left = payment.amount;
    for (const i of open) {
      if (left === 0) break;
      const amount = Math.min(left, i.balance);
      allocations.push({ invoice_id: i.id, amount });
      left -= amount;
    }
    return { ok: true, allocations };
  }
  const seen = new Set<number>();
  let allocated = 0;
  for (const part of split) {
    const i = invoices.find((x) => x.id === part.invoice_id);
    const p = problem(i, part.invoice_id);
    if (p) return refuse(p);
    if (seen.has(part.invoice_id)) return refuse(`${named(i!)} is chosen twice: put its whole share on one line.`);
    seen.add(part.invoice_id);
    if (!Number.isSafeInteger(part.amount) || part.amount <= 0)
      return refuse(`The share for ${named(i!)} must be more than nothing, in whole pence.`);
    if (part.amount > i!.balance)
      return refuse(
        `${formatPounds(part.amount)} would overpay ${named(i!)}, which has ${formatPounds(i!.balance)} left to pay.`,
      );
    allocated += part.amount;
  }
  if (allocated !== payment.amount)
    return refuse(
      allocated < payment.amount
        ? `${formatPounds(payment.amount - allocated)} of the ${formatPounds(payment.amount)} payment is not put ` +
            'against an invoice.'
        : `The shares add up to ${formatPounds(allocated)}, more than the ${formatPounds(payment.amount)} payment.`,
    );
  return { ok: true, allocations: split.map((p) => ({ invoice_id: p.invoice_id, amount: p.amount })) };
}

/**
 * A payment reversed (a bounced transfer, a payment recorded against the wrong client): never deleted, it gets a
 * reversal with a reason that takes its allocations back, so each invoice's balance and state return to what they
 * were before it (settledState).
 */
export function reversePayment(
  payment: { amount: number; allocations: readonly Allocation[]; reversed: boolean },
  reason: string,
): AllocationResult {
  if (payment.reversed) return { ok: false, message: 'This payment has been reversed already.' };
  if (!reason?.trim()) return { ok: false, message: 'Say why the payment is reversed.' };
  return { ok: true, allocations: payment.allocations.map((a) => ({ invoice_id: a.invoice_id, amount: -a.amount })) };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
