// @vitest-environment node
// Holiday pay per employment type (issue 33): rolled up at 12.07% of pay as its own line, or 12.07% of the hours
// worked accrued and paid when taken at the reference period's average hourly pay; sleep-in and late-cancellation
// lines; umbrella and limited-company workers paid gross to their company. The 12.07% examples are those published
// with the rule (5.6 weeks ÷ 46.4 weeks: 10 hours worked accrue 1.21 hours, 72.6 minutes; £100 of pay carries
// £12.07), each worked to the hundredth of an hour or the penny in the comments.
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  accruedHolidayHundredths,
  holidayTakenPay,
  rolledUpHolidayPay,
  underHolidayRules,
} from '../../../core/domain/payroll/holidayPay';
import { payslipOf } from '../../../core/domain/payroll/payslip';
import { payeStaff } from './payrollFixtures';
import { PAYROLL_YEARS } from '../../../core/domain/payroll/rates';

const Y2026 = PAYROLL_YEARS['2026-27'];

describe('accrued holiday: 12.07% of the hours worked', () => {
  it.each([
    [10 * 60, 121], // 10 h × 12.07% = 1.207 h → 1.21 h (72.6 minutes)
    [5 * 60, 60], // 5 h → 0.6035 h → 0.60 h
    [30 * 60, 362], // 30 h → 3.621 h
    [37.5 * 60, 453], // 37.5 h → 4.52625 h
    [60 * 60, 724], // 60 h → 7.242 h
    [100 * 60, 1207], // 100 h → 12.07 h
    [0, 0],
    [25, 5], // 25 minutes → 0.0503 h → 0.05 h
  ])('%i minutes accrue %i hundredths of an hour', (minutes, hundredths) =>
    expect(accruedHolidayHundredths(minutes, Y2026)).toBe(hundredths),
  );

  it('refuses what are not minutes worked', () => {
    expect(() => accruedHolidayHundredths(-1, Y2026)).toThrow(RangeError);
    expect(() => accruedHolidayHundredths(1.5, Y2026)).toThrow(RangeError);
  });

  test.prop([fc.integer({ min: 0, max: 1_000_000 })])('is within half a hundredth of 12.07% of the hours', (m) => {
    expect(Math.abs(accruedHolidayHundredths(m, Y2026) - (m / 60) * 12.07)).toBeLessThanOrEqual(0.5);
  });
});

describe('rolled-up holiday pay: 12.07% of pay', () => {
  it.each([
    [10_000, 1_207], // £100 → £12.07
    [20_000, 2_414], // £200 → £24.14
    [47_663, 5_753], // £476.63 → £57.529… → £57.53
    [1, 0], // 1p → 0.1207p → 0p
  ])('%i pence carry %i pence', (pay, holiday) => expect(rolledUpHolidayPay(pay, Y2026)).toBe(holiday));
});

describe('holiday taken', () => {
  it('is paid at the average hourly pay of the reference period, to the penny', () => {
    // £12,480 for 960 hours (57,600 minutes): £13.00 an hour; 7.5 h → £97.50.
    expect(holidayTakenPay(750, { pay: 1_248_000, minutes: 57_600 })).toBe(9_750);
    // £1,000 for 77 hours: £12.987… an hour; 7.24 h → £94.025… → £94.03.
    expect(holidayTakenPay(724, { pay: 100_000, minutes: 77 * 60 })).toBe(9_403);
    expect(holidayTakenPay(100, { pay: 0, minutes: 0 })).toBeNull();
  });

  it('follows the rules for leave years from 1 April 2024', () => {
    expect([underHolidayRules('2024-03-31'), underHolidayRules('2024-04-01')]).toEqual([false, true]);
  });
});

const paye = payeStaff;
const line = (id: number, pay: number, minutes = 600, sleepIn = false) => ({
  id,
  date: '2026-11-16',
  minutes,
  pay,
  description: `Line ${id}`,
  sleepIn,
});

describe('payslipOf with the pay lines of issue 33', () => {
  it('pays a sleep-in as its own line at its flat allowance, rolled-up holiday on it too', () => {
    // 10 h for £130.00 and a sleep-in at £60.00: £190.00; holiday 12.07% = £22.933 → £22.93.
    const p = payslipOf([line(1, 13_000), line(2, 6_000, 600, true)], paye, Y2026, 'weekly', 33);
    expect(p.lines.map((l) => [l.kind, l.timesheet_line_id, l.rate, l.amount])).toEqual([
      ['pay', 1, 1_300, 13_000],
      ['sleep_in', 2, 6_000, 6_000],
      ['holiday', null, 1_207, 2_293],
    ]);
    expect(p.lines[1].description).toBe('Sleep-in allowance, Line 2');
    expect(p.gross).toBe(21_293);
  });

  it('pays a late cancellation as its own line, with no holiday on it (no hours worked)', () => {
    const p = payslipOf([], paye, Y2026, 'weekly', 33, {
      lateCancellations: [{ shiftId: 9, date: '2026-11-17', hours: 4, pay: 5_200, description: 'Carer, Home' }],
    });
    expect(p.lines.map((l) => [l.kind, l.cancelled_shift_id, l.hours, l.rate, l.amount])).toEqual([
      ['late_cancellation', 9, 4, 1_300, 5_200],
    ]);
    expect(p).toMatchObject({ gross: 5_200, holiday_pay: 0 });
  });

  const accrued = { ...paye, holiday: 'accrued' as const, holidayBalance: 0 };

  it('accrues 12.07% of the hours worked instead of a holiday line, sleep-ins aside', () => {
    // 10 h + 20 h worked: 30 h → 3.62 h; the sleep-in's hours are not hours of work.
    const p = payslipOf(
      [line(1, 13_000), line(2, 26_000, 1_200), line(3, 6_000, 600, true)],
      accrued,
      Y2026,
      'weekly',
      33,
    );
    expect(p.lines.map((l) => l.kind)).toEqual(['pay', 'pay', 'sleep_in']);
    expect(p).toMatchObject({ holiday_pay: 0, holiday_hours_accrued: 3.62, holiday_hours_taken: 0, gross: 45_000 });
  });

  it('pays holiday taken from the balance with this payslip’s accrual, and holds back what it does not cover', () => {
    const reference = { pay: 1_248_000, minutes: 57_600 }; // £13.00 an hour
    const p = payslipOf([line(1, 13_000)], { ...accrued, holidayBalance: 700 }, Y2026, 'weekly', 33, {
      holidayTaken: [
        { id: 5, date: '2026-11-18', hundredths: 750, reference, description: '2026-11-18' },
        { id: 6, date: '2026-11-19', hundredths: 750, reference, description: '2026-11-19' },
      ],
    });
    // 7.00 h + 1.21 h accrued = 8.21 h: the first 7.5 h is paid (£97.50), the second waits (0.71 h left).
    expect(p.lines.map((l) => [l.kind, l.staff_holiday_id ?? null, l.hours, l.rate, l.amount])).toEqual([
      ['pay', null, 10, 1_300, 13_000],
      ['holiday', 5, 7.5, 1_300, 9_750],
    ]);
    expect(p).toMatchObject({ holiday_pay: 9_750, holiday_hours_accrued: 1.21, holiday_hours_taken: 7.5 });
    expect(p.warnings).toEqual([
      'Holiday of 7.5 hours from 2026-11-19 waits: the balance is 0.71 hours with this payslip.',
    ]);
  });

  it('pays umbrella and limited-company workers gross to their company, with no holiday of the agency’s', () => {
    const p = payslipOf(
      [line(1, 13_000)],
      { ...paye, paye: false, holiday: 'accrued', companyName: 'Blue Umbrella Ltd' },
      Y2026,
      'weekly',
      33,
    );
    expect(p).toMatchObject({
      paye: false,
      paid_to: 'Blue Umbrella Ltd',
      gross: 13_000,
      net: 13_000,
      tax: 0,
      employee_ni: 0,
      student_loan: 0,
      pension_employee: 0,
      holiday_pay: 0,
      holiday_hours_accrued: 0,
    });
    expect(p.lines.map((l) => l.kind)).toEqual(['pay']);
  });
});
