// @vitest-environment node
// Gross to net for PAYE staff (issue 33.1). Every expected figure is HMRC's own where HMRC published a worked
// example (the PAYE specification's test data, the Tables B to D example, the National Insurance Manual, the student
// loans manual), and otherwise worked by hand in the comment beside it from the published rates of
// docs/payroll-rates.md — never read back from this code.
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { basisPointsOf, dividePence, poundsToPence, wholePoundsDown } from '../../../core/engine/money';
import { grossToNet, type GrossToNetInput } from '../../../core/domain/payroll/grossToNet';
import { rolledUpHolidayPay } from '../../../core/domain/payroll/holidayPay';
import { classOneNi } from '../../../core/domain/payroll/ni';
import { payAdjustment, paye, taxOnTaxablePay } from '../../../core/domain/payroll/paye';
import { pensionContributions } from '../../../core/domain/payroll/pension';
import { PAYROLL_YEARS, type LoanPlan, type NiLetter, type PayrollYear } from '../../../core/domain/payroll/rates';
import { readCalculationRequest } from '../../../core/domain/payroll/request';
import { loanThreshold, studentLoanDeductions } from '../../../core/domain/payroll/studentLoans';
import { readTaxCode, type TaxCode } from '../../../core/domain/payroll/taxCodes';

const Y2026 = PAYROLL_YEARS['2026-27'];
const Y2025 = PAYROLL_YEARS['2025-26'];
const gbp = poundsToPence;

function code(text: string, year: PayrollYear = Y2026): TaxCode {
  const read = readTaxCode(text, year);
  if ('error' in read) throw new Error(read.error);
  return read.code;
}

/** A year with only the figures HMRC's old test data was worked with (basic rate 20% to the limit, then 40%). */
const oldYear = (basicRateLimitPounds: number): PayrollYear => ({
  ...Y2026,
  incomeTax: {
    ...Y2026.incomeTax,
    uk: {
      bands: [
        { rate: 2000, upTo: gbp(basicRateLimitPounds) },
        { rate: 4000, upTo: null },
      ],
      basicBand: 0,
    },
  },
});

describe('the payroll roundings of the money module', () => {
  it.each([
    [2579_00, 52, 'up', 4960], // (10 × 257 + 9) ÷ 52 = £49.5961… → £49.60, the spec's pay adjustment rounding
    [500_000, 52, 'up', 9616], // Tables A's box for each 500 of a code, weekly: £96.16
    [500_000, 12, 'up', 41667], // and monthly: £416.67
    [1999, 100, 'down', 19],
    [-1999, 100, 'down', -20],
    [5015_5, 10, 'nearest-half-down', 5015], // NI: £50.155 → £50.15 (a halfpenny is disregarded)
    [5015_6, 10, 'nearest-half-down', 5016], // £50.156 → £50.16
    [3, 2, 'nearest', 2],
    [-3, 2, 'nearest', -2],
  ] as const)('dividePence(%i, %i, %s) is %i', (n, d, r, expected) => {
    expect(dividePence(n, d, r)).toBe(expected);
  });

  test.prop([fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 1e6 })])(
    'rounds down and up to the neighbouring whole numbers of the exact quotient',
    (n, d) => {
      const down = dividePence(n, d, 'down');
      const up = dividePence(n, d, 'up');
      expect(down * d <= n && n < (down + 1) * d).toBe(true);
      expect(up - down).toBe(n % d === 0 ? 0 : 1);
    },
  );

  it('takes whole pounds down and basis points exactly', () => {
    expect(wholePoundsDown(125_099)).toBe(125_000);
    // 12.07% of £1,000.05 is £120.706035 → £120.71; a decimal 12.07 in binary is what basis points avoid.
    expect(basisPointsOf(100_005, 1207)).toBe(12071);
  });
});

describe('tax codes', () => {
  it.each([
    ['1257L', { kind: 'allowance', region: 'uk', number: 1257 }, false],
    ['s1257l', { kind: 'allowance', region: 'scotland', number: 1257 }, false],
    ['C1257L', { kind: 'allowance', region: 'wales', number: 1257 }, false],
    ['1257L W1', { kind: 'allowance', region: 'uk', number: 1257 }, true],
    ['1257L M1', { kind: 'allowance', region: 'uk', number: 1257 }, true],
    ['1257LX', { kind: 'allowance', region: 'uk', number: 1257 }, true],
    ['0T', { kind: 'allowance', region: 'uk', number: 0 }, false],
    ['K475', { kind: 'k', region: 'uk', number: 475 }, false],
    ['SK475', { kind: 'k', region: 'scotland', number: 475 }, false],
    ['BR', { kind: 'flat', region: 'uk', band: 0 }, false],
    ['D0', { kind: 'flat', region: 'uk', band: 1 }, false],
    ['D1', { kind: 'flat', region: 'uk', band: 2 }, false],
    ['SBR', { kind: 'flat', region: 'scotland', band: 1 }, false],
    ['SD0', { kind: 'flat', region: 'scotland', band: 2 }, false],
    ['SD3', { kind: 'flat', region: 'scotland', band: 5 }, false],
    ['CD1', { kind: 'flat', region: 'wales', band: 2 }, false],
    ['NT', { kind: 'nt' }, false],
  ])('reads %s', (text, expected, week1) => {
    expect(readTaxCode(text, Y2026)).toEqual({ code: expected, week1 });
  });

  it.each(['', '1257', 'L1257', 'D2', 'SD4', 'K0', 'SNT', '12345L', 'BR1', '1257Q'])('refuses %j in words', (text) => {
    const read = readTaxCode(text, Y2026);
    expect(read).toHaveProperty('error');
    expect((read as { error: string }).error).toMatch(/tax code/);
  });
});

describe('PAYE: the specification’s test data', () => {
  // HMRC, Notes for payroll software developers, Annex B "Test Data – 2009-2010": cumulative codes, gross pay to date,
  // the pay adjustment, taxable pay and the tax due to date "per specification" (basic rate 20% to £37,400, then 40%).
  const y2009 = oldYear(37_400);
  it.each([
    ['510L', 'weekly', 8, 2046.15, 786.08, 1260, 252.0],
    ['510L', 'weekly', 29, 3091.22, 2849.54, 241, 48.2],
    ['560T', 'monthly', 3, 2750.0, 1402.26, 1347, 269.4],
    ['560T', 'monthly', 10, 21287.75, 4674.2, 16613, 3322.6],
    ['K255', 'monthly', 5, 6023.66, 1066.25, 7089, 1417.8],
    ['K255', 'monthly', 8, 32799.98, 1706.0, 34505, 8815.33],
  ] as const)('%s %s %i: pay to date £%d', (text, frequency, period, toDate, adjustment, taxable, due) => {
    const r = paye(
      { code: code(text, y2009), week1: false, frequency, period, gross: gbp(toDate), ytdGross: 0, ytdTax: 0 },
      y2009,
    );
    expect(r.payAdjustment).toBe(gbp(adjustment));
    expect(r.taxablePay).toBe(gbp(taxable));
    expect(r.taxDue).toBe(gbp(due));
  });

  it('Tables B to D (April 2013), example 1: code 431L at month 4 has a pay adjustment of £1,439.68', () => {
    expect(payAdjustment(431, 'monthly', 4)).toBe(gbp(1439.68));
  });

  it('HMRC test data 2008-09: month 2 on code 100L after £647.73 tax in month 1 takes £63.27', () => {
    // £3,100 paid in month 1 (tax £647.73 on code 45L); code changed to 100L; £623.23 paid in month 2.
    const y = oldYear(34_800);
    const r = paye(
      {
        code: code('100L', y),
        week1: false,
        frequency: 'monthly',
        period: 2,
        gross: gbp(623.23),
        ytdGross: gbp(3100),
        ytdTax: gbp(647.73),
      },
      y,
    );
    expect(r.tax).toBe(gbp(63.27));
  });
});

describe('PAYE in 2026-27 (worked by hand from the published bands)', () => {
  const run = (
    text: string,
    frequency: 'weekly' | 'monthly',
    period: number,
    gross: number,
    extra: Partial<{ week1: boolean; ytdGross: number; ytdTax: number; year: PayrollYear }> = {},
  ) => {
    const year = extra.year ?? Y2026;
    const read = readTaxCode(text, year);
    if ('error' in read) throw new Error(read.error);
    return paye(
      {
        code: read.code,
        week1: extra.week1 ?? read.week1,
        frequency,
        period,
        gross: gbp(gross),
        ytdGross: extra.ytdGross ?? 0,
        ytdTax: extra.ytdTax ?? 0,
      },
      year,
    );
  };

  it('1257L: month 1 of £2,000 and week 1 of £500', () => {
    // Monthly free pay: 2,579 ÷ 12 → £214.92, plus 2 × £416.67 = £1,048.26; £2,000 − £1,048.26 → £951 at 20%.
    expect(run('1257L', 'monthly', 1, 2000)).toMatchObject({
      payAdjustment: gbp(1048.26),
      taxablePay: gbp(951),
      tax: gbp(190.2),
    });
    // Weekly: 2,579 ÷ 52 → £49.60, plus 2 × £96.16 = £241.92; £500 − £241.92 → £258 at 20% = £51.60.
    expect(run('1257L', 'weekly', 1, 500)).toMatchObject({ payAdjustment: gbp(241.92), tax: gbp(51.6) });
  });

  it('Scottish bands: the Scottish Budget of 13 January 2026 widened the starter band', () => {
    // £951 taxable in month 1. 2026-27: starter to £3,967/12 at 19%, then 20%: (3,967 × 19 + (11,412 − 3,967) × 20)
    // ÷ 1,200 = £186.894… → £186.89. 2025-26: starter to £2,827/12: (2,827 × 19 + 8,585 × 20) ÷ 1,200 → £187.84.
    expect(run('S1257L', 'monthly', 1, 2000).tax).toBe(gbp(186.89));
    expect(run('S1257L', 'monthly', 1, 2000, { year: Y2025 }).tax).toBe(gbp(187.84));
    // £6,000 in month 1, taxable £4,951: starter 3,967, basic to 16,956, intermediate to 31,092, higher 42% above:
    // (3,967×19 + 12,989×20 + 14,136×21 + (59,412 − 31,092)×42) ÷ 1,200 = 1,821,449 ÷ 1,200 = £1,517.874…
    expect(run('S1257L', 'monthly', 1, 6000).tax).toBe(gbp(1517.87));
  });

  it('Welsh codes pay the rest of the UK’s rates (Welsh rates 10p)', () => {
    expect(run('C1257L', 'monthly', 1, 2000).tax).toBe(gbp(190.2));
  });

  it('0T: the higher band from the first pound above the basic rate limit to date', () => {
    // £4,000 in month 1: 37,700/12 at 20%, the rest at 40%: (37,700 × 20 + 10,300 × 40) ÷ 1,200 = £971.666… → £971.66.
    expect(run('0T', 'monthly', 1, 4000).tax).toBe(gbp(971.66));
  });

  it.each([
    ['BR', 60],
    ['D0', 120],
    ['D1', 135],
    ['SBR', 60],
    ['SD0', 63],
    ['SD1', 126],
    ['SD2', 135],
    ['SD3', 144],
    ['CBR', 60],
    ['CD1', 135],
    ['NT', 0],
  ])('%s on £300.99 a week takes %d pounds (whole pounds taxed)', (text, pounds) => {
    expect(run(text, 'weekly', 1, 300.99).tax).toBe(gbp(pounds));
  });

  it('K codes: the regulatory limit holds a period’s tax at half its pay, the rest follows cumulatively', () => {
    // K5000 monthly: 9 × £416.67 + (10 × 500 + 9)/12 → £417.42 = £4,167.45 added; £1,000 + £4,167.45 → £5,167:
    // 37,700/12 at 20%, the rest at 40% = £1,438.466… → £1,438.46 due; limited to 50% of £1,000.
    const m1 = run('K5000', 'monthly', 1, 1000);
    expect(m1).toMatchObject({ taxDue: gbp(1438.46), tax: gbp(500), regulatoryLimitApplied: true });
    // Month 2: £2,000 + £8,334.90 → £10,334: (75,400 × 20 + 48,608 × 40) ÷ 1,200 = £2,876.93 due, £500 paid: £2,376.93
    // outstanding, again limited to £500.
    const m2 = run('K5000', 'monthly', 2, 1000, { ytdGross: gbp(1000), ytdTax: gbp(500) });
    expect(m2).toMatchObject({ taxDue: gbp(2876.93), tax: gbp(500), regulatoryLimitApplied: true });
    // K500 on £1,000: £417.42 added, £1,417 at 20% = £283.40, under the limit.
    expect(run('K500', 'monthly', 1, 1000)).toMatchObject({ tax: gbp(283.4), regulatoryLimitApplied: false });
  });

  it('cumulative codes refund; week 1 never does', () => {
    // Month 2 with no pay after £2,000 and £190.20 tax in month 1: free pay to date £2,096.52 covers it all.
    expect(run('1257L', 'monthly', 2, 0, { ytdGross: gbp(2000), ytdTax: gbp(190.2) }).tax).toBe(-gbp(190.2));
    expect(run('1257L', 'monthly', 2, 0, { week1: true, ytdGross: gbp(2000), ytdTax: gbp(190.2) }).tax).toBe(0);
    // Week 1 / month 1: month 7's £2,000 taxed as month 1's, whatever went before.
    expect(run('1257L M1', 'monthly', 7, 2000, { ytdGross: gbp(30000), ytdTax: gbp(5000) }).tax).toBe(gbp(190.2));
  });
});

describe('Class 1 National Insurance: HMRC National Insurance Manual examples', () => {
  // Each example's own monthly PT and UEL and main / additional primary percentages, from the example's text.
  it.each([
    ['NIM01117 (2003-04)', 3000, 385, 2579, 1100, 100, 245.55],
    ['NIM01222 (2012-13)', 4000, 634, 3540, 1200, 200, 357.92],
    ['NIM01222 (2020-21)', 5000, 792, 4167, 1200, 200, 421.66],
  ])('%s: £%d a month pays £%d primary', (_name, gross, pt, uel, main, upper, expected) => {
    const thresholds = { ...Y2026.ni.thresholds.monthly, pt: gbp(pt), uel: gbp(uel) };
    const category = { employeeMain: main, employeeUpper: upper, employer: 0 };
    expect(classOneNi(gbp(gross), category, thresholds).employee).toBe(gbp(expected));
  });
});

describe('Class 1 National Insurance (worked by hand from the 2026-27 thresholds and rates)', () => {
  const weekly = (letter: NiLetter, gross: number) =>
    classOneNi(gbp(gross), Y2026.ni.categories[letter], Y2026.ni.thresholds.weekly);
  it.each([
    // (500 − 242) × 8% = 20.64; employer (500 − 96) × 15% = 60.60
    ['A', 500, 20.64, 60.6],
    // (967 − 242) × 8% + 33 × 2% = 58.66; employer 904 × 15% = 135.60
    ['A', 1000, 58.66, 135.6],
    // under 21: the employer pays nothing up to the UST (£967), 33 × 15% = 4.95 above
    ['M', 500, 20.64, 0],
    ['M', 1000, 58.66, 4.95],
    // apprentice under 25 (AUST £967), veteran (VUST £967)
    ['H', 1000, 58.66, 4.95],
    ['V', 1000, 58.66, 4.95],
    // deferred: 2% from the PT, for under-21s with the employer's relief
    ['Z', 500, 5.16, 0],
    ['J', 500, 5.16, 60.6],
    // married women's reduced rate: 258 × 1.85% = 4.773 → 4.77
    ['B', 500, 4.77, 60.6],
    // over State Pension age
    ['C', 500, 0, 60.6],
    ['X', 500, 0, 0],
    // below the thresholds
    ['A', 95, 0, 0],
    ['A', 242, 0, 21.9],
  ] as const)('%s on £%d a week: employee £%d, employer £%d', (letter, gross, employee, employer) => {
    expect(weekly(letter, gross)).toEqual({ employee: gbp(employee), employer: gbp(employer) });
  });

  it('monthly thresholds: £3,000 on A is (3,000 − 1,048) × 8% and (3,000 − 417) × 15%', () => {
    expect(classOneNi(gbp(3000), Y2026.ni.categories.A, Y2026.ni.thresholds.monthly)).toEqual({
      employee: gbp(156.16),
      employer: gbp(387.45),
    });
  });

  it('rounds to the nearest penny with a halfpenny or less disregarded (reg. 12(1))', () => {
    // J at 2%: 25p over the PT is exactly half a penny → nothing; 26p over is 0.52p → 1p.
    expect(weekly('J', 242.25).employee).toBe(0);
    expect(weekly('J', 242.26).employee).toBe(1);
    // A at 8%: 7p over is 0.56p → 1p; 6p over is 0.48p → 0.
    expect(weekly('A', 242.07).employee).toBe(1);
    expect(weekly('A', 242.06).employee).toBe(0);
  });
});

describe('student and postgraduate loans', () => {
  const withPlan1 = (annualPounds: number): PayrollYear => ({
    ...Y2026,
    studentLoans: { plan1: { annualThreshold: gbp(annualPounds), rate: 900 } },
  });

  it('HMRC CSLM17065: £500 a week against an annual threshold of £17,495 at 9% is £14', () => {
    expect(studentLoanDeductions(gbp(500), ['plan1'], withPlan1(17_495), 'weekly')).toEqual({ plan1: gbp(14) });
  });

  it('HMRC CSLM18025: £2,075 a month against £17,495 at 9% is £55.62 rounded down to £55', () => {
    expect(studentLoanDeductions(gbp(2075), ['plan1'], withPlan1(17_495), 'monthly')).toEqual({ plan1: gbp(55) });
  });

  it('the period thresholds are the annual ones divided and rounded down to the penny', () => {
    expect(loanThreshold(gbp(25_000), 'weekly')).toBe(gbp(480.76)); // 25,000 ÷ 52 = 480.769…
    expect(loanThreshold(gbp(29_385), 'monthly')).toBe(gbp(2448.75));
  });

  it('2026-27 (by hand): plan 2, plan 5 and the postgraduate loan side by side', () => {
    // Plan 2 monthly: (3,000 − 2,448.75) × 9% = 49.61 → £49; postgraduate: (3,000 − 1,750) × 6% = £75.
    expect(studentLoanDeductions(gbp(3000), ['plan2', 'postgraduate'], Y2026, 'monthly')).toEqual({
      plan2: gbp(49),
      postgraduate: gbp(75),
    });
    // Plan 5 weekly: (600 − 480.76) × 9% = 10.73 → £10; below the threshold nothing.
    expect(studentLoanDeductions(gbp(600), ['plan5'], Y2026, 'weekly')).toEqual({ plan5: gbp(10) });
    expect(studentLoanDeductions(gbp(480), ['plan5'], Y2026, 'weekly')).toEqual({ plan5: 0 });
  });

  it('plan 5 is not collected before April 2026', () => {
    expect(() => studentLoanDeductions(gbp(600), ['plan5'], Y2025, 'weekly')).toThrow(/plan5/);
  });
});

describe('workplace pension and rolled-up holiday pay', () => {
  const choice = { employeePercent: 500, employerPercent: 300, optedOut: false };
  it('takes the percentages of qualifying earnings only', () => {
    // Monthly £2,000: 2,000 − 520 = 1,480 → 5% = 74.00, 3% = 44.40.
    expect(pensionContributions(gbp(2000), choice, Y2026.pension.monthly)).toMatchObject({
      qualifyingEarnings: gbp(1480),
      employee: gbp(74),
      employer: gbp(44.4),
    });
    // Weekly £1,200: capped at the upper level £967: 847 → 42.35 and 25.41.
    expect(pensionContributions(gbp(1200), choice, Y2026.pension.weekly)).toMatchObject({
      employee: gbp(42.35),
      employer: gbp(25.41),
    });
    expect(pensionContributions(gbp(100), choice, Y2026.pension.weekly)).toMatchObject({ employee: 0, employer: 0 });
    expect(pensionContributions(gbp(2000), { ...choice, optedOut: true }, Y2026.pension.monthly)).toMatchObject({
      employee: 0,
      employer: 0,
    });
  });

  it('pays 12.07% holiday pay to the nearest penny', () => {
    expect(rolledUpHolidayPay(gbp(100), Y2026)).toBe(gbp(12.07));
    expect(rolledUpHolidayPay(gbp(476.63), Y2026)).toBe(gbp(57.53)); // 57.529…
  });
});

const base: GrossToNetInput = {
  frequency: 'monthly',
  period: 1,
  gross: gbp(3000),
  taxCode: { kind: 'allowance', region: 'uk', number: 1257 },
  week1: false,
  ytdGross: 0,
  ytdTax: 0,
  niCategory: 'A',
  studentLoanPlans: ['plan2'],
  pension: { employeePercent: 500, employerPercent: 300, optedOut: false },
};

describe('grossToNet', () => {
  it('composes the rules (a month of £3,000 on 1257L, A, plan 2, 5% and 3% pension, worked by hand)', () => {
    // Tax: 3,000 − 1,048.26 → £1,951 at 20% = 390.20. NI 156.16 / 387.45. Plan 2 £49. Pension (3,000 − 520) × 5% =
    // 124.00, × 3% = 74.40. Net 3,000 − 390.20 − 156.16 − 49 − 124 = 2,280.64.
    expect(grossToNet(base, Y2026)).toMatchObject({
      tax: gbp(390.2),
      employeeNi: gbp(156.16),
      employerNi: gbp(387.45),
      studentLoan: gbp(49),
      pensionEmployee: gbp(124),
      pensionEmployer: gbp(74.4),
      net: gbp(2280.64),
      ytdGross: gbp(3000),
      ytdTax: gbp(390.2),
    });
  });

  const codes = fc.constantFrom(
    '1257L',
    'S1257L',
    'C1257L',
    'K475',
    'BR',
    'D0',
    'SD2',
    '0T',
    'NT',
    '650T',
    'S0T',
    'CK100',
  );
  const letters = fc.constantFrom<NiLetter>('A', 'B', 'C', 'H', 'J', 'M', 'V', 'X', 'Z');
  const plans = fc.constantFrom<LoanPlan[]>(
    [],
    ['plan1'],
    ['plan2', 'postgraduate'],
    ['plan4'],
    ['plan5'],
    ['postgraduate'],
  );

  test.prop([
    fc.constantFrom<'weekly' | 'monthly'>('weekly', 'monthly'),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 0, max: 2_000_000 }),
    fc.integer({ min: 0, max: 10_000_000 }),
    codes,
    letters,
    plans,
    fc.boolean(),
  ])(
    'net = gross − tax − employee NI − student loan − employee pension',
    (frequency, period, gross, ytdGross, text, letter, loans, week1) => {
      const input: GrossToNetInput = {
        ...base,
        frequency,
        period,
        gross,
        ytdGross,
        ytdTax: Math.trunc(ytdGross / 5),
        taxCode: code(text),
        week1,
        niCategory: letter,
        studentLoanPlans: loans,
      };
      const r = grossToNet(input, Y2026);
      expect(r.net).toBe(gross - r.tax - r.employeeNi - r.studentLoan - r.pensionEmployee);
      for (const v of [r.tax, r.employeeNi, r.employerNi, r.studentLoan, r.pensionEmployee, r.pensionEmployer])
        expect(Number.isSafeInteger(v)).toBe(true);
      expect(r.employeeNi).toBeGreaterThanOrEqual(0);
      if (week1) expect(r.tax).toBeGreaterThanOrEqual(0);
    },
  );

  /** The year's tax on a year's taxable pay worked straight from the annual bands, to the penny. */
  const annualLiability = (taxablePounds: number, year: PayrollYear, region: 'uk' | 'scotland' | 'wales') =>
    taxOnTaxablePay(gbp(Math.max(0, taxablePounds)), year.incomeTax[region].bands, 1, 1);

  test.prop([
    fc.integer({ min: 0, max: 2_000_000 }),
    fc.constantFrom<['1257L' | 'S1257L' | 'C1257L', 'uk' | 'scotland' | 'wales']>(
      ['1257L', 'uk'],
      ['S1257L', 'scotland'],
      ['C1257L', 'wales'],
    ),
    fc.constantFrom<'weekly' | 'monthly'>('weekly', 'monthly'),
  ])(
    'cumulative tax over a year of a steady wage is the annual liability, within the spec’s roundings',
    (gross, [text, region], frequency) => {
      const periods = frequency === 'weekly' ? 52 : 12;
      let ytdGross = 0;
      let ytdTax = 0;
      for (let period = 1; period <= periods; period++) {
        const r = paye({ code: code(text), week1: false, frequency, period, gross, ytdGross, ytdTax }, Y2026);
        ytdGross += gross;
        ytdTax += r.tax;
      }
      // The year's allowance is £12,570 + £9 = £12,579; the pay adjustments to date round each period's share up to
      // the penny (52 × £241.92 = £12,579.84, 12 × £1,048.26 = £12,579.12), and taxable pay is taken to whole pounds:
      // at most £2 less taxable pay, so at most 2 × 48% = 96p less tax than the annual figure, never more.
      const annual = annualLiability(Math.floor((gross * periods) / 100) - 12_579, Y2026, region);
      expect(ytdTax).toBeLessThanOrEqual(annual);
      expect(annual - ytdTax).toBeLessThanOrEqual(96);
    },
  );

  test.prop([
    fc.integer({ min: 0, max: 2_000_000 }),
    codes,
    fc.constantFrom<'weekly' | 'monthly'>('weekly', 'monthly'),
  ])('week 1 and cumulative agree in period 1', (gross, text, frequency) => {
    const input = { code: code(text), frequency, period: 1, gross, ytdGross: 0, ytdTax: 0 };
    expect(paye({ ...input, week1: true }, Y2026)).toEqual(paye({ ...input, week1: false }, Y2026));
  });
});

describe('reading POST /api/payroll/calculate', () => {
  const body = {
    tax_year: '2026-27',
    frequency: 'weekly',
    period: 1,
    gross: 50_000,
    tax_code: '1257L',
    week1: false,
    ytd_gross: 0,
    ytd_tax: 0,
    ni_category: 'A',
  };
  const errors = (b: unknown) =>
    'errors' in readCalculationRequest(b) ? (readCalculationRequest(b) as { errors: object }).errors : {};

  it('reads a good request', () => {
    const r = readCalculationRequest({
      ...body,
      tax_code: '1257L W1',
      pension: { employee_percent: 5.5, employer_percent: 3 },
    });
    expect(r).toMatchObject({
      input: { week1: true, pension: { employeePercent: 550, employerPercent: 300, optedOut: false } },
    });
  });

  it.each([
    [{ tax_code: 'Q12' }, 'tax_code', /not a tax code/],
    [{ tax_code: 'SD4' }, 'tax_code', /SD0 to SD3/],
    [{ period: 54 }, 'period', /1 to 53/],
    [{ frequency: 'monthly', period: 13 }, 'period', /1 to 12/],
    [{ period: 0 }, 'period', /1 to 53/],
    [{ tax_year: '2024-25' }, 'tax_year', /2025-26 or 2026-27/],
    [{ gross: 12.5 }, 'gross', /whole pence/],
    [{ ni_category: 'Q' }, 'ni_category', /category letter/],
    [{ student_loan_plans: ['plan1', 'plan2'] }, 'student_loan_plans', /one undergraduate plan/],
    [{ tax_year: '2025-26', student_loan_plans: ['plan5'] }, 'student_loan_plans', /April 2026/],
    [{ pension: { employee_percent: 5.555, employer_percent: 3 } }, 'pension', /two decimals/],
    [{ week1: 'yes' }, 'week1', /true or false/],
  ])('refuses %j naming %s', (change, field, words) => {
    expect(errors({ ...body, ...change })).toEqual({ [field]: expect.stringMatching(words) });
  });
});
