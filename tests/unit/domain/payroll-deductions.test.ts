// @vitest-environment node
// Staff deductions and adjustments (issue 33): how much of a deduction is due in a period, how the amounts due are
// taken without leaving net pay below zero, and a payslip that takes them. Expected figures are worked in comments.
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { deductionDue, settleDeductions, type StaffDeduction } from '../../../core/domain/payroll/deductions';
import { payslipOf } from '../../../core/domain/payroll/payslip';
import { payeStaff } from './payrollFixtures';
import { PAYROLL_YEARS } from '../../../core/domain/payroll/rates';

const Y2026 = PAYROLL_YEARS['2026-27'];
const week = { start: '2026-11-16', end: '2026-11-22' };
const loan: StaffDeduction = {
  id: 1,
  description: 'Uniform loan',
  method: 'fixed',
  amount: 1_000,
  beforeTax: false,
  recurring: true,
  start: '2026-11-01',
  end: null,
  cap: 6_000,
  taken: 0,
  times: 0,
};

describe('deductionDue', () => {
  it.each<[string, Partial<StaffDeduction>, number, number]>([
    ['a fixed amount each period', {}, 50_000, 1_000],
    ['the last instalment cut to the cap', { taken: 5_500, times: 6 }, 50_000, 500],
    ['nothing once the cap is reached', { taken: 6_000, times: 6 }, 50_000, 0],
    ['nothing before its start', { start: '2026-11-23' }, 50_000, 0],
    ['from a start within the period', { start: '2026-11-22' }, 50_000, 1_000],
    ['until an end within the period', { end: '2026-11-16' }, 50_000, 1_000],
    ['nothing after its end', { end: '2026-11-15' }, 50_000, 0],
    ['no cap: every period', { cap: null, taken: 90_000, times: 90 }, 50_000, 1_000],
    // 2.5% of £433.33 = £10.83325: rounded down, never a penny more than the percentage.
    ['a percentage of gross, rounded down', { method: 'percent', amount: 250, cap: null }, 43_333, 1_083],
    ['a percentage held to the cap', { method: 'percent', amount: 5_000, taken: 5_900 }, 43_333, 100],
    ['a percentage of no pay', { method: 'percent', amount: 250 }, 0, 0],
    ['a one-off fixed amount', { recurring: false, cap: null }, 50_000, 1_000],
    ['a one-off cut last time: the rest', { recurring: false, cap: null, taken: 400, times: 1 }, 50_000, 600],
    ['a one-off taken in full', { recurring: false, cap: null, taken: 1_000, times: 1 }, 50_000, 0],
    ['a one-off under a smaller cap', { recurring: false, cap: 700 }, 50_000, 700],
    ['a one-off percentage, once', { recurring: false, method: 'percent', amount: 1_000, times: 1 }, 50_000, 0],
  ])('%s', (_name, change, gross, expected) => {
    expect(deductionDue({ ...loan, ...change }, week, gross)).toBe(expected);
  });

  test.prop([
    fc.record({
      method: fc.constantFrom('fixed' as const, 'percent' as const),
      amount: fc.integer({ min: 0, max: 100_000 }),
      recurring: fc.boolean(),
      cap: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: null }),
      taken: fc.integer({ min: 0, max: 200_000 }),
      times: fc.integer({ min: 0, max: 50 }),
    }),
    fc.integer({ min: -10_000, max: 1_000_000 }),
  ])('is never below zero and never takes past the cap', (change, gross) => {
    const d = { ...loan, ...change, amount: change.method === 'percent' ? change.amount % 10_001 : change.amount };
    const due = deductionDue(d, week, gross);
    expect(due).toBeGreaterThanOrEqual(0);
    if (d.cap != null) expect(d.taken + due).toBeLessThanOrEqual(Math.max(d.cap, d.taken));
    if (d.method === 'fixed') expect(due).toBeLessThanOrEqual(d.amount);
  });
});

describe('settleDeductions', () => {
  // Net pay without tax effects: 20% of what is left after before-tax deductions, of £300.
  const netOf = (b: number) => 30_000 - Math.floor((30_000 - b) * 0.2);

  it('takes before-tax amounts off taxable pay and after-tax ones off net, in full when there is room', () => {
    const s = settleDeductions(
      [
        { key: 'a', beforeTax: true, amount: 5_000 },
        { key: 'b', beforeTax: false, amount: 2_000 },
      ],
      netOf,
    );
    // Taxable £250: tax £50, net £250 − £50 before-tax = £200... then £20 after tax: £180.
    expect(s).toEqual({
      taken: [
        { key: 'a', amount: 5_000 },
        { key: 'b', amount: 2_000 },
      ],
      beforeTax: 5_000,
      afterTax: 2_000,
      net: 18_000,
    });
  });

  it('cuts after-tax amounts in order to what net pay leaves, never below zero', () => {
    const s = settleDeductions(
      [
        { key: 'a', beforeTax: false, amount: 20_000 },
        { key: 'b', beforeTax: false, amount: 10_000 },
      ],
      netOf,
    );
    // Net £240: the first takes £200, the second the £40 left.
    expect(s.taken).toEqual([
      { key: 'a', amount: 20_000 },
      { key: 'b', amount: 4_000 },
    ]);
    expect(s.net).toBe(0);
  });

  it('cuts before-tax amounts until net is not negative, and takes nothing when net already is', () => {
    const s = settleDeductions([{ key: 'a', beforeTax: true, amount: 50_000 }], netOf);
    expect(s.net).toBeGreaterThanOrEqual(0);
    expect(s.beforeTax).toBeLessThanOrEqual(30_000);
    const none = settleDeductions([{ key: 'a', beforeTax: false, amount: 100 }], () => -500);
    expect(none).toMatchObject({ taken: [{ key: 'a', amount: 0 }], net: -500 });
  });

  test.prop([
    fc.array(fc.record({ beforeTax: fc.boolean(), amount: fc.integer({ min: 0, max: 100_000 }) }), { maxLength: 6 }),
    fc.integer({ min: 0, max: 500_000 }),
  ])('never leaves net below zero, never takes more than due, and net is what is left', (items, gross) => {
    const due = items.map((x, i) => ({ key: String(i), ...x }));
    const net = (b: number) => gross - Math.floor((gross - b) * 0.45);
    const s = settleDeductions(due, net);
    expect(s.net).toBeGreaterThanOrEqual(0);
    s.taken.forEach((t, i) => {
      expect(t.amount).toBeGreaterThanOrEqual(0);
      expect(t.amount).toBeLessThanOrEqual(due[i].amount);
    });
    expect(s.net).toBe(net(s.beforeTax) - s.beforeTax - s.afterTax);
  });
});

const paye = payeStaff;
const line = (id: number, pay: number) => ({ id, date: '2026-11-16', minutes: 480, pay, description: `Line ${id}` });

describe('payslipOf with deductions and adjustments', () => {
  const extras = (
    deductions: StaffDeduction[],
    adjustments = [] as { id: number; kind: 'addition' | 'deduction'; amount: number; reason: string }[],
  ) => ({
    deductions,
    adjustments,
    period: week,
  });

  it('takes an after-tax deduction off net only: tax and NI as without it, a negative deduction line', () => {
    const plain = payslipOf([line(1, 50_000)], paye, Y2026, 'weekly', 33);
    const p = payslipOf([line(1, 50_000)], paye, Y2026, 'weekly', 33, extras([loan]));
    expect(p).toMatchObject({ gross: plain.gross, tax: plain.tax, employee_ni: plain.employee_ni, deductions: 1_000 });
    expect(p.net).toBe(plain.net - 1_000);
    expect(p.taxable_pay).toBe(p.gross);
    expect(p.lines.at(-1)).toMatchObject({
      kind: 'deduction',
      amount: -1_000,
      staff_deduction_id: 1,
      description: 'Uniform loan',
    });
  });

  it('takes a before-tax deduction off taxable pay, not off NI-able pay', () => {
    const w1 = { ...paye, week1: true };
    const plain = payslipOf([line(1, 50_000)], w1, Y2026, 'weekly', 33);
    const p = payslipOf(
      [line(1, 50_000)],
      w1,
      Y2026,
      'weekly',
      33,
      extras([{ ...loan, beforeTax: true, amount: 5_000, cap: null }]),
    );
    // Week 1: £560.35 gross less £241.73 free pay is £318 taxed; £50 before tax leaves £268: £10 less tax at 20%.
    expect(p.taxable_pay).toBe(plain.gross - 5_000);
    expect(p.tax).toBe(plain.tax - 1_000);
    expect(p.employee_ni).toBe(plain.employee_ni);
    expect(p.net).toBe(plain.net - 5_000 + 1_000);
    expect(p.lines.at(-1)?.description).toBe('Uniform loan (before tax)');
  });

  it('adds an addition to gross and takes an adjustment’s deduction off net, carrying what net pay could not take', () => {
    const p = payslipOf(
      [line(1, 10_000)],
      paye,
      Y2026,
      'weekly',
      33,
      extras(
        [],
        [
          { id: 7, kind: 'addition', amount: 2_500, reason: 'Missed shift' },
          { id: 8, kind: 'deduction', amount: 100_000, reason: 'Overpaid last week' },
        ],
      ),
    );
    expect(p.gross).toBe(10_000 + 1_207 + 2_500);
    expect(p.net).toBe(0);
    expect(p.lines.filter((l) => l.kind === 'adjustment').map((l) => [l.payroll_adjustment_id, l.amount])).toEqual([
      [7, 2_500],
      [8, -(100_000 - p.carried[0].amount)],
    ]);
    expect(p.carried[0]).toMatchObject({ adjustment_id: 8, reason: 'Overpaid last week' });
  });

  test.prop([
    fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 5 }),
    fc.boolean(),
    fc.array(
      fc.record({
        beforeTax: fc.boolean(),
        amount: fc.integer({ min: 0, max: 60_000 }),
        cap: fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: null }),
        taken: fc.integer({ min: 0, max: 60_000 }),
      }),
      { maxLength: 4 },
    ),
  ])('net = gross − tax − NI − loan − pension − deductions, and net pay is never below zero', (pays, isPaye, ds) => {
    const p = payslipOf(
      pays.map((pay, i) => line(i + 1, pay)),
      { ...paye, paye: isPaye },
      Y2026,
      'weekly',
      33,
      extras(ds.map((d, i) => ({ ...loan, ...d, id: i + 1 }))),
    );
    expect(p.net).toBe(p.gross - p.tax - p.employee_ni - p.student_loan - p.pension_employee - p.deductions);
    expect(p.deductions + p.lines.filter((l) => l.kind === 'deduction').reduce((s, l) => s + l.amount, 0)).toBe(0);
    expect(p.net).toBeGreaterThanOrEqual(0);
    for (const l of p.lines.filter((x) => x.kind === 'deduction')) {
      const d = ds[l.staff_deduction_id! - 1];
      if (d.cap != null) expect(d.taken - l.amount).toBeLessThanOrEqual(Math.max(d.cap, d.taken));
    }
  });
});
