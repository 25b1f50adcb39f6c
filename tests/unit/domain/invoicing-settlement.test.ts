// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  allocatePayment,
  balanceOf,
  dueDate,
  isOverdue,
  reversePayment,
  settledState,
  type InvoiceState,
  type PayableInvoice,
} from '../../../core/domain/invoicing/settlement';

// Issue 32.4: due dates, overdue by the agency's own date, states as money settles an invoice, and payments.
const LONDON = 'Europe/London';

describe('dueDate: the issue date plus the client’s payment terms in days', () => {
  it.each([
    ['30 days from 31 January 2026 (a 28-day February)', '2026-01-31', 30, '2026-03-02'],
    ['14 days into a leap-year February', '2024-02-15', 14, '2024-02-29'],
    ['30 days across the year end', '2026-12-15', 30, '2027-01-14'],
    ['across the clocks going forward (no 23-hour day lost)', '2026-03-28', 2, '2026-03-30'],
    ['0 days: due on the day of issue', '2026-03-02', 0, '2026-03-02'],
  ])('%s', (_name, issued, days, due) => {
    expect(dueDate(issued, days)).toBe(due);
  });

  it('refuses terms the client settings cannot hold, and a date that is not one', () => {
    expect(() => dueDate('2026-03-02', 366)).toThrow(/0 to 365 days/);
    expect(() => dueDate('2026-03-02', -1)).toThrow(/0 to 365 days/);
    expect(() => dueDate('2026-02-30', 30)).toThrow(/Not a date/);
  });
});

describe('isOverdue, by the agency’s date in its zone', () => {
  const open = (over: Partial<{ state: InvoiceState; balance: number }> = {}) => ({
    state: 'sent' as InvoiceState,
    due_date: '2026-06-30',
    balance: 12_000,
    ...over,
  });
  it.each<[string, ReturnType<typeof open>, string, boolean]>([
    ['on the due date, 23:59 BST (22:59 UTC)', open(), '2026-06-30T22:59:00Z', false],
    ['the next day from 00:00 BST (23:00 UTC on the due date)', open(), '2026-06-30T23:00:00Z', true],
    ['in winter, 23:59 GMT on the due date', { ...open(), due_date: '2026-01-31' }, '2026-01-31T23:59:00Z', false],
    ['in winter, 00:00 GMT the day after', { ...open(), due_date: '2026-01-31' }, '2026-02-01T00:00:00Z', true],
    ['part-paid and past due', open({ state: 'part_paid', balance: 1 }), '2026-07-15T12:00:00Z', true],
    ['issued but not sent, past due', open({ state: 'issued' }), '2026-07-15T12:00:00Z', true],
    ['paid', open({ state: 'paid', balance: 0 }), '2026-07-15T12:00:00Z', false],
    ['settled by a credit note', open({ state: 'sent', balance: 0 }), '2026-07-15T12:00:00Z', false],
    ['a draft', open({ state: 'draft' }), '2026-07-15T12:00:00Z', false],
  ])('%s', (_name, invoice, now, overdue) => {
    expect(isOverdue(invoice, new Date(now), LONDON)).toBe(overdue);
  });
});

describe('settledState', () => {
  // An invoice of £1,200.00.
  it.each<[string, InvoiceState, { sent: boolean; credited: number; paid: number }, InvoiceState]>([
    ['issued, nothing paid', 'issued', { sent: false, credited: 0, paid: 0 }, 'issued'],
    ['sent, nothing paid', 'sent', { sent: true, credited: 0, paid: 0 }, 'sent'],
    ['a part paid', 'sent', { sent: true, credited: 0, paid: 50_000 }, 'part_paid'],
    ['paid in full', 'part_paid', { sent: true, credited: 0, paid: 120_000 }, 'paid'],
    ['paid in part and credited for the rest', 'part_paid', { sent: true, credited: -20_000, paid: 100_000 }, 'paid'],
    ['credited in full', 'sent', { sent: true, credited: -120_000, paid: 0 }, 'paid'],
    ['a payment reversed: back to part-paid', 'paid', { sent: true, credited: 0, paid: 60_000 }, 'part_paid'],
    ['the only payment reversed: back to sent', 'paid', { sent: true, credited: 0, paid: 0 }, 'sent'],
    ['a draft is not settled by money', 'draft', { sent: false, credited: 0, paid: 0 }, 'draft'],
  ])('%s', (_name, state, a, expected) => {
    expect(settledState(state, { total: 120_000, ...a })).toBe(expected);
  });
});

describe('allocatePayment', () => {
  const inv = (id: number, balance: number, over: Partial<PayableInvoice> = {}): PayableInvoice => ({
    id,
    number: `INV-${String(id).padStart(4, '0')}`,
    client_id: 1,
    state: 'sent',
    due_date: `2026-03-${String(10 + id).padStart(2, '0')}`,
    balance,
    ...over,
  });
  const invoices = [inv(3, 30_000), inv(1, 12_000), inv(2, 50_000), inv(4, 9_000, { client_id: 2 })];

  it('splits one payment over several invoices of the client as the user chose', () => {
    const r = allocatePayment({ client_id: 1, amount: 40_000 }, invoices, [
      { invoice_id: 1, amount: 12_000 },
      { invoice_id: 2, amount: 28_000 },
    ]);
    expect(r).toEqual({
      ok: true,
      allocations: [
        { invoice_id: 1, amount: 12_000 },
        { invoice_id: 2, amount: 28_000 },
      ],
    });
  });

  it('without a split, pays the oldest due first and leaves the last part-paid', () => {
    const r = allocatePayment({ client_id: 1, amount: 70_000 }, invoices);
    expect(r).toEqual({
      ok: true,
      allocations: [
        { invoice_id: 1, amount: 12_000 },
        { invoice_id: 2, amount: 50_000 },
        { invoice_id: 3, amount: 8_000 },
      ],
    });
  });

  it.each<[string, number, { invoice_id: number; amount: number }[] | undefined, string]>([
    [
      'more than the client owes',
      100_000,
      undefined,
      'The payment of £1,000.00 is more than the £920.00 the client owes: record £920.00 and refund or hold the ' +
        'other £80.00.',
    ],
    [
      'a share more than its invoice has left',
      15_000,
      [{ invoice_id: 1, amount: 15_000 }],
      '£150.00 would overpay INV-0001, which has £120.00 left to pay.',
    ],
    [
      'shares that leave part of the payment unplaced',
      20_000,
      [{ invoice_id: 2, amount: 15_000 }],
      '£50.00 of the £200.00 payment is not put against an invoice.',
    ],
    [
      'shares that add up to more than the payment',
      10_000,
      [{ invoice_id: 2, amount: 15_000 }],
      'The shares add up to £150.00, more than the £100.00 payment.',
    ],
    ['another client’s invoice', 9_000, [{ invoice_id: 4, amount: 9_000 }], 'INV-0004 is another client’s invoice.'],
    [
      'the same invoice twice',
      2_000,
      [
        { invoice_id: 2, amount: 1_000 },
        { invoice_id: 2, amount: 1_000 },
      ],
      'INV-0002 is chosen twice: put its whole share on one line.',
    ],
    ['nothing', 0, undefined, 'A payment must be more than nothing, in whole pence.'],
  ])('refuses %s, in words', (_name, amount, split, message) => {
    expect(allocatePayment({ client_id: 1, amount }, invoices, split)).toEqual({ ok: false, message });
  });

  it.each<[string, PayableInvoice, string]>([
    ['a draft', inv(5, 1000, { state: 'draft', number: null }), 'A draft invoice is a draft: issue it before'],
    ['a void invoice', inv(5, 1000, { state: 'void' }), 'INV-0005 is void: nothing is owed on it.'],
    ['a paid invoice', inv(5, 0, { state: 'paid' }), 'INV-0005 is paid already.'],
  ])('refuses a payment against %s', (_name, invoice, message) => {
    const r = allocatePayment({ client_id: 1, amount: 500 }, [invoice], [{ invoice_id: 5, amount: 500 }]);
    expect(r.ok ? '' : r.message).toContain(message);
  });

  const balances = fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 8 });
  test.prop([balances, fc.integer({ min: 1, max: 2_000_000 })])(
    'oldest first: the shares add up to the payment, none beyond its invoice, or the payment is refused as too much',
    (bs, amount) => {
      const list = bs.map((b, i) => inv(i + 1, b, { state: b === 0 ? 'paid' : 'sent' }));
      const owed = bs.reduce((a, b) => a + b, 0);
      const r = allocatePayment({ client_id: 1, amount }, list);
      expect(r.ok).toBe(amount <= owed);
      if (!r.ok) return;
      expect(r.allocations.reduce((a, x) => a + x.amount, 0)).toBe(amount);
      for (const a of r.allocations) {
        const i = list.find((x) => x.id === a.invoice_id)!;
        expect(a.amount).toBeGreaterThan(0);
        expect(a.amount).toBeLessThanOrEqual(i.balance);
        // Applied, the invoice's state follows: paid when its balance is gone, part-paid otherwise.
        const state = settledState('sent', { sent: true, total: i.balance, credited: 0, paid: a.amount });
        expect(state).toBe(a.amount === i.balance ? 'paid' : 'part_paid');
      }
    },
  );
});

describe('reversePayment', () => {
  const payment = {
    amount: 40_000,
    allocations: [
      { invoice_id: 1, amount: 12_000 },
      { invoice_id: 2, amount: 28_000 },
    ],
    reversed: false,
  };

  it('takes every allocation back, and the invoices’ balances return to what they were', () => {
    const r = reversePayment(payment, 'The transfer bounced');
    expect(r).toEqual({
      ok: true,
      allocations: [
        { invoice_id: 1, amount: -12_000 },
        { invoice_id: 2, amount: -28_000 },
      ],
    });
    if (!r.ok) return;
    const paid = payment.allocations[1].amount + r.allocations[1].amount;
    expect(balanceOf({ total: 50_000, credited: 0, paid })).toBe(50_000);
    expect(settledState('part_paid', { sent: true, total: 50_000, credited: 0, paid })).toBe('sent');
  });

  it.each([
    ['without a reason', payment, '  ', 'Say why the payment is reversed.'],
    ['twice', { ...payment, reversed: true }, 'Again', 'This payment has been reversed already.'],
  ])('refuses a reversal %s', (_name, p, reason, message) => {
    expect(reversePayment(p, reason)).toEqual({ ok: false, message });
  });
});
