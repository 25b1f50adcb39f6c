// @vitest-environment node
// Tax week 53 (issue 33): a weekly pay day on 5 April (4 or 5 April in a leap year) falls in tax week 53. HMRC's rule
// ("Dealing with 'week 53' payments", HMRC employer guidance; SI 2003/2682, the PAYE Regulations; the Specification
// for PAYE Tax Table Routines, "Payments in weeks 53, 54 or 56"): the cumulative basis does not apply; the payment is
// taxed on its own with week 1's pay adjustment from Tables A (free pay, or a K code's additional pay), whatever the
// code; National Insurance, student loans and pension take the period's usual weekly thresholds. Expected figures are
// worked by hand in the comments from HMRC's week 1 pay adjustment and the published 2025-26 rates and thresholds
// (docs/payroll-rates.md) — never read back from this code. 2025-26's tax week 53 is Sunday 5 April 2026.
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { poundsToPence } from '../../../core/engine/money';
import { bureauRows, type PayslipForExport, type RunForExport } from '../../../core/domain/payroll/exports';
import { grossToNet } from '../../../core/domain/payroll/grossToNet';
import { paye } from '../../../core/domain/payroll/paye';
import { taxPeriodOf } from '../../../core/domain/payroll/periods';
import { PAYROLL_YEARS, type LoanPlan, type PayrollYear } from '../../../core/domain/payroll/rates';
import { readCalculationRequest } from '../../../core/domain/payroll/request';
import { readTaxCode } from '../../../core/domain/payroll/taxCodes';

const Y2025 = PAYROLL_YEARS['2025-26'];
const gbp = poundsToPence;

const label = (day: string, years?: Record<string, PayrollYear>) => {
  const p = taxPeriodOf(day, 'weekly', years);
  return 'error' in p ? p.error : `${p.year.taxYear} ${p.period}`;
};

describe('which pay days are in tax week 53', () => {
  // 2025-26 runs from Sunday 6 April 2025 to Sunday 5 April 2026: 52 weeks end on Saturday 4 April, and 5 April
  // (364 days after the 6th) begins week 53.
  it.each([
    ['2026-03-28', '2025-26 51'],
    ['2026-03-29', '2025-26 52'],
    ['2026-04-04', '2025-26 52'],
    ['2026-04-05', '2025-26 53'],
    ['2026-04-06', '2026-27 1'],
  ])('%s is %s', (day, expected) => expect(label(day)).toBe(expected));

  it('in a leap year both 4 and 5 April are in week 53', () => {
    // 2027-28 runs from 6 April 2027 to 5 April 2028, with 29 February 2028 in it: 366 days, so week 52 ends on
    // 3 April and week 53 holds the 4th and the 5th. The product has no 2027-28 figures yet: a year of its dates only.
    const taxYear = '2027-28' as PayrollYear['taxYear'];
    const leap = { [taxYear]: { ...Y2025, taxYear, starts: '2027-04-06', ends: '2028-04-05' } };
    expect(['2028-04-03', '2028-04-04', '2028-04-05'].map((d) => label(d, leap))).toEqual([
      '2027-28 52',
      '2027-28 53',
      '2027-28 53',
    ]);
  });

  it('a month never has a 13th: 5 April is month 12', () => {
    const p = taxPeriodOf('2026-04-05', 'monthly');
    expect('error' in p ? p.error : p.period).toBe(12);
  });
});

describe('PAYE in tax week 53: week 1 basis, whatever the code', () => {
  const week53 = (text: string, gross: number, ytdGross = 0, ytdTax = 0) => {
    const read = readTaxCode(text, Y2025);
    if ('error' in read) throw new Error(read.error);
    return paye(
      {
        code: read.code,
        week1: read.week1,
        frequency: 'weekly',
        period: 53,
        gross: gbp(gross),
        ytdGross: gbp(ytdGross),
        ytdTax: gbp(ytdTax),
      },
      Y2025,
    );
  };

  it.each([
    // code, week 53 pay, pay and tax to week 52, pay adjustment, taxable pay, tax
    // 1257L: Tables A week 1 free pay £241.92 (2,579 ÷ 52 → £49.60, plus 2 × £96.16); £500 − £241.92 → £258 at 20%.
    // Cumulative, after a year's steady £500 a week: pay and tax to date are ignored, not set against 53 weeks' free
    // pay.
    ['1257L', 500, 26_000, 2683.2, 241.92, 258, 51.6],
    // The same on a week 1 code.
    ['1257L W1', 500, 26_000, 2683.2, 241.92, 258, 51.6],
    // £1,000: taxable £758, all inside week 1's basic band (£37,700 ÷ 52 = £725); £725 at 20% + £33 at 40% = £158.20.
    ['1257L', 1000, 0, 0, 241.92, 758, 158.2],
    // Welsh codes tax at the rest of the UK's rates.
    ['C1257L', 500, 26_000, 2683.2, 241.92, 258, 51.6],
    // Scottish 2025-26 bands, week 1: (2,827 × 19 + 12,094 × 20 + 16,171 × 21 + (758 × 52 − 31,092) × 42) ÷ 5,200
    // = 984,792 ÷ 5,200 = £189.383… → £189.38.
    ['S1257L', 1000, 0, 0, 241.92, 758, 189.38],
    // Below week 1's free pay: nothing, and never a refund of the tax paid to week 52 (a cumulative code would refund).
    ['1257L', 200, 26_000, 2683.2, 241.92, 0, 0],
    // K475 adds week 1's additional pay: (4,750 + 9) ÷ 52 → £91.52; £300 + £91.52 → £391 at 20% = £78.20.
    ['K475', 300, 15_600, 3900, 91.52, 391, 78.2],
    // Flat codes: the pay alone, as every week. BR 20% of £300; D0 40%; 0T from the first pound, week 1's bands.
    ['BR', 300.99, 15_600, 3120, 0, 300, 60],
    ['D0', 300.99, 15_600, 6240, 0, 300, 120],
    ['0T', 500, 26_000, 5200, 0, 500, 100],
  ] as const)('%s on £%d (to week 52 £%d, tax £%d): adjustment £%d, taxable £%d, tax £%d', (...row) => {
    const [text, gross, ytdGross, ytdTax, adjustment, taxable, tax] = row;
    expect(week53(text, gross, ytdGross, ytdTax)).toMatchObject({
      payAdjustment: gbp(adjustment),
      taxablePay: gbp(taxable),
      tax: gbp(tax),
    });
  });

  it('a K code’s week 53 tax is held at half that week’s pay (the regulatory limit)', () => {
    // K475 on £60: £60 + £91.52 → £151 at 20% = £30.20, over half of £60: £30.
    expect(week53('K475', 60, 15_600, 3900)).toMatchObject({ tax: gbp(30), regulatoryLimitApplied: true });
  });

  test.prop([
    fc.constantFrom('1257L', 'S1257L', 'K475', 'BR', 'D1', '0T', 'NT'),
    fc.integer({ min: 0, max: 1_000_000 }),
    fc.integer({ min: 0, max: 10_000_000 }),
    fc.integer({ min: -1_000_000, max: 3_000_000 }),
  ])('is week 1’s tax on the same pay, whatever was paid before', (text, gross, ytdGross, ytdTax) => {
    const read = readTaxCode(text, Y2025);
    if ('error' in read) throw new Error(read.error);
    const input = { code: read.code, frequency: 'weekly' as const, gross, ytdGross, ytdTax };
    expect(paye({ ...input, week1: false, period: 53 }, Y2025)).toEqual(
      paye({ ...input, week1: true, period: 1, ytdGross: 0, ytdTax: 0 }, Y2025),
    );
  });
});

describe('week 53 gross to net: NI, student loan and pension at the usual weekly thresholds', () => {
  it.each([
    // gross, plans, tax, employee NI, employer NI, student loan, employee pension, employer pension
    // £500, 1257L after £26,000: tax £51.60 as above. NI category A, 2025-26 weekly: (£500 − £242 PT) × 8% = £20.64;
    // employer (£500 − £96 ST) × 15% = £60.60. Pension 5% / 3% of qualifying earnings £500 − £120 = £380: £19, £11.40.
    [500, [], 51.6, 20.64, 60.6, 0, 19, 11.4],
    // £600 on plan 2: threshold £28,470 ÷ 52 = £547.50; 9% of £52.50 = £4.725 → £4 (whole pounds down). Tax: £600 −
    // £241.92 → £358 at 20% = £71.60. NI (600 − 242) × 8% = £28.64; (600 − 96) × 15% = £75.60. Pension on £480.
    [600, ['plan2'], 71.6, 28.64, 75.6, 4, 24, 14.4],
    // £1,100, above the weekly UEL £967: NI 8% of £725 + 2% of £133 = £58 + £2.66 = £60.66; employer 15% of £1,004 =
    // £150.60. Postgraduate loan: £21,000 ÷ 52 → £403.84; 6% of £696.16 = £41.77 → £41. Tax: £858 taxable, £725 at 20%
    // + £133 at 40% = £198.20. Pension on £967 − £120 = £847: £42.35, £25.41.
    [1100, ['postgraduate'], 198.2, 60.66, 150.6, 41, 42.35, 25.41],
  ] as const)('£%d a week', (gross, plans, tax, ee, er, loan, penEe, penEr) => {
    const r = grossToNet(
      {
        frequency: 'weekly',
        period: 53,
        gross: gbp(gross),
        taxCode: { kind: 'allowance', region: 'uk', number: 1257 },
        week1: false,
        ytdGross: gbp(26_000),
        ytdTax: gbp(2683.2),
        niCategory: 'A',
        studentLoanPlans: plans as readonly LoanPlan[],
        pension: { employeePercent: 500, employerPercent: 300, optedOut: false },
      },
      Y2025,
    );
    expect(r).toMatchObject({
      tax: gbp(tax),
      employeeNi: gbp(ee),
      employerNi: gbp(er),
      studentLoan: gbp(loan),
      pensionEmployee: gbp(penEe),
      pensionEmployer: gbp(penEr),
      net: gbp(gross) - gbp(tax) - gbp(ee) - gbp(loan) - gbp(penEe),
      // The year to date goes on: week 53's pay and tax are the year's.
      ytdGross: gbp(26_000 + gross),
      ytdTax: gbp(2683.2) + gbp(tax),
    });
  });
});

describe('POST /api/payroll/calculate reads week 53', () => {
  const body = {
    tax_year: '2025-26',
    frequency: 'weekly',
    period: 53,
    gross: 50_000,
    tax_code: '1257L',
    week1: false,
    ytd_gross: 2_600_000,
    ytd_tax: 268_320,
    ni_category: 'A',
  };
  it('takes tax week 53 for weekly pay, and still no month 13 or week 54', () => {
    expect(readCalculationRequest(body)).toMatchObject({ input: { period: 53 } });
    expect(readCalculationRequest({ ...body, period: 54 })).toEqual({
      errors: { period: expect.stringMatching(/from 1 to 53/) },
    });
    expect(readCalculationRequest({ ...body, frequency: 'monthly', period: 13 })).toEqual({
      errors: { period: expect.stringMatching(/from 1 to 12/) },
    });
  });
});

describe('the payroll bureau’s CSV marks a week 53 payment for the FPS', () => {
  const slip: PayslipForExport = {
    payslipId: 1,
    candidateId: 10,
    firstName: 'Ann',
    lastName: 'Lee',
    niNumber: null,
    dateOfBirth: null,
    paye: true,
    taxCode: '1257L',
    week1: false,
    niCategory: 'A',
    paidTo: null,
    companyNumber: null,
    companyAddress: null,
    vatNumber: null,
    vatRate: null,
    vat: 0,
    amountPaid: 42_776,
    hours: 40,
    gross: 50_000,
    holidayPay: 0,
    taxablePay: 25_800,
    tax: 5160,
    employeeNi: 2064,
    employerNi: 6060,
    studentLoan: 0,
    pensionEmployee: 0,
    pensionEmployer: 0,
    deductions: 0,
    net: 42_776,
    ytdGross: 2_650_000,
    ytdTax: 273_480,
    ytdEmployeeNi: 107_328,
  };
  const run = (taxPeriod: number): RunForExport => ({
    id: 1,
    frequency: 'weekly',
    taxYear: '2025-26',
    taxPeriod,
    periodStart: '2026-03-30',
    periodEnd: '2026-04-05',
  });
  it.each([
    [53, '53'],
    [52, ''],
  ])('tax week %i: indicator %j beside the tax period', (period, indicator) => {
    const [row] = bureauRows(run(period), [slip]);
    expect(row.slice(10, 13)).toEqual([period, indicator, '2026-04-05']);
  });
});
