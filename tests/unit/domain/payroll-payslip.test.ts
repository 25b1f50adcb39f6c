// @vitest-environment node
// A pay run's payslip and tax period (issue 33.2): the tax week or month a pay day falls in, and one staff member's
// payslip from their payable lines. Expected figures are worked by hand in the comments.
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { taxPeriodOf } from '../../../core/domain/payroll/periods';
import { payslipOf, percentOfBasisPoints } from '../../../core/domain/payroll/payslip';
import { payeStaff } from './payrollFixtures';
import { PAYROLL_YEARS } from '../../../core/domain/payroll/rates';

const Y2026 = PAYROLL_YEARS['2026-27'];

const period = (day: string, f: 'weekly' | 'monthly') => {
  const p = taxPeriodOf(day, f);
  return 'error' in p ? p.error : `${p.year.taxYear} ${p.period}`;
};

describe('taxPeriodOf', () => {
  it.each([
    ['2026-04-06', 'weekly', '2026-27 1'],
    ['2026-04-12', 'weekly', '2026-27 1'],
    ['2026-04-13', 'weekly', '2026-27 2'],
    ['2026-11-29', 'weekly', '2026-27 34'], // 237 days after 6 April: week 34
    ['2027-04-03', 'weekly', '2026-27 52'],
    ['2026-04-04', 'weekly', '2025-26 52'],
    ['2026-04-05', 'weekly', '2025-26 53'], // 364 days after 6 April 2025 (payroll-week53.test.ts)
    ['2026-04-06', 'monthly', '2026-27 1'],
    ['2026-05-05', 'monthly', '2026-27 1'],
    ['2026-05-06', 'monthly', '2026-27 2'],
    ['2026-12-31', 'monthly', '2026-27 9'],
    ['2027-01-05', 'monthly', '2026-27 9'],
    ['2027-01-06', 'monthly', '2026-27 10'],
    ['2027-04-05', 'monthly', '2026-27 12'],
  ] as const)('%s %s is %s', (day, f, expected) => expect(period(day, f)).toBe(expected));

  it('refuses a day without figures, in words', () => {
    expect(period('2030-01-01', 'weekly')).toMatch(/no tax figures/);
  });
});

const paye = payeStaff;
const line = (id: number, pay: number, minutes = 480) => ({
  id,
  date: '2026-11-16',
  minutes,
  pay,
  description: `Line ${id}`,
});

describe('payslipOf', () => {
  it('pays each line at its frozen pay, with rolled-up holiday pay and gross to net for PAYE staff', () => {
    // 8 h for £100.00 and 7.5 h for £93.75: £193.75 pay; holiday 12.07% = £23.3856… → £23.39; gross £217.14.
    const p = payslipOf([line(1, 10_000), line(2, 9_375, 450)], paye, Y2026, 'weekly', 33);
    expect(p.lines.map((l) => [l.kind, l.timesheet_line_id, l.hours, l.rate, l.amount])).toEqual([
      ['pay', 1, 8, 1250, 10_000],
      ['pay', 2, 7.5, 1250, 9_375],
      ['holiday', null, null, 1207, 2_339],
    ]);
    expect(p.lines[2].description).toBe('Holiday pay, rolled up at 12.07%');
    expect(p).toMatchObject({ paye: true, tax_code: '1257L', week1: false, gross: 21_714, holiday_pay: 2_339 });
    expect(p.net).toBe(p.gross - p.tax - p.employee_ni - p.student_loan - p.pension_employee);
    expect(p.employer_cost).toBe(p.employer_ni + p.pension_employer);
    expect(p.ytd_gross).toBe(21_714);
    expect(p.ytd_employee_ni).toBe(p.employee_ni);
  });

  it('pays umbrella and limited-company workers gross: no holiday line, nothing taken off', () => {
    const p = payslipOf([line(1, 10_000)], { ...paye, paye: false, ytdGross: 5_000 }, Y2026, 'weekly', 33);
    expect(p.lines).toHaveLength(1);
    expect(p).toMatchObject({ paye: false, gross: 10_000, net: 10_000, tax: 0, employee_ni: 0, ytd_gross: 15_000 });
  });

  it('taxes a staff member without a code on 0T week 1, HMRC’s code for no information', () => {
    const p = payslipOf([line(1, 50_000)], { ...paye, taxCode: null }, Y2026, 'weekly', 33);
    expect(p).toMatchObject({ tax_code: '0T', week1: true });
    // £500 and 12.07% holiday pay (£60.35): £560.35 gross, all taxable on 0T week 1: £560 whole pounds at 20%.
    expect(p.gross).toBe(56_035);
    expect(p.tax).toBe(11_200);
  });

  it('carries the year to date into the cumulative tax', () => {
    const first = payslipOf([line(1, 50_000)], paye, Y2026, 'weekly', 1);
    const second = payslipOf(
      [line(2, 50_000)],
      { ...paye, ytdGross: first.ytd_gross, ytdTax: first.ytd_tax, ytdEmployeeNi: first.ytd_employee_ni },
      Y2026,
      'weekly',
      2,
    );
    expect(second.ytd_gross).toBe(first.gross + second.gross);
    expect(second.ytd_tax).toBe(first.tax + second.tax);
    expect(second.ytd_employee_ni).toBe(first.employee_ni + second.employee_ni);
  });

  test.prop([fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 20 }), fc.boolean()])(
    'gross is the sum of its lines, and net is gross less what is taken off',
    (pays, isPaye) => {
      const p = payslipOf(
        pays.map((pay, i) => line(i + 1, pay)),
        { ...paye, paye: isPaye },
        Y2026,
        'weekly',
        10,
      );
      expect(p.gross).toBe(p.lines.reduce((a, l) => a + l.amount, 0));
      expect(p.net).toBe(p.gross - p.tax - p.employee_ni - p.student_loan - p.pension_employee);
    },
  );

  it('writes basis points as a percentage', () => {
    expect([1207, 1200, 1250, 5].map(percentOfBasisPoints)).toEqual(['12.07%', '12%', '12.5%', '0.05%']);
  });
});
