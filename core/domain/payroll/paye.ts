// PAYE income tax for one pay period, as HMRC's "Specification for PAYE Tax Table Routines" works it out for
// employees paid weekly or monthly: cumulatively (pay and tax to date) or on a week 1 / month 1 basis, with the
// pay adjustment of the code's number, taxable pay rounded down to whole pounds, the band limits to date in
// proportion to the periods passed, and the K-code regulatory limit. docs/decisions.md "Issue 33.1" says where
// this reading of the specification chose.
import { basisPointsOf, dividePence, wholePoundsDown } from '../../engine/money';
import { PERIODS, type Frequency, type PayrollYear, type TaxBand } from './rates';
import type { TaxCode } from './taxCodes';

export interface PayeInput {
  code: TaxCode;
  /** Week 1 / month 1 basis: this period's pay alone, as if it were the first of the year. */
  week1: boolean;
  frequency: Frequency;
  /** The tax week (1–53) or month (1–12) the pay day falls in. */
  period: number;
  /** This period's pay for tax, in pence. */
  gross: number;
  /** Pay and tax of the year's earlier periods in this employment, in pence (ignored on a week 1 basis). */
  ytdGross: number;
  ytdTax: number;
}

export interface PayeResult {
  /** Tax to take this period, in pence; negative is a refund (cumulative codes only). */
  tax: number;
  /** The pay adjustment to date: free pay of an allowance code, additional pay of a K code; 0 for the others. */
  payAdjustment: number;
  /** Taxable pay to date in whole pounds (as pence), and the tax due on it. */
  taxablePay: number;
  taxDue: number;
  /** The K-code limit held this period's tax at half its pay (the rest is collected later, cumulatively). */
  regulatoryLimitApplied: boolean;
}

/**
 * The pay adjustment to period n of a code number: the spec splits the number into 500s (each worth £96.16 a week,
 * £416.67 a month: 5,000 ÷ 52 or 12, rounded up to the penny) and the rest r (worth (10r + 9) ÷ 52 or 12 pounds,
 * rounded up to the penny), and multiplies by n.
 */
export function payAdjustment(codeNumber: number, frequency: Frequency, n: number): number {
  if (codeNumber === 0) return 0;
  const periods = PERIODS[frequency];
  const units = Math.floor((codeNumber - 1) / 500);
  const rest = ((codeNumber - 1) % 500) + 1;
  const perPeriod = dividePence((rest * 10 + 9) * 100, periods, 'up') + units * dividePence(5_000 * 100, periods, 'up');
  return perPeriod * n;
}

/**
 * Tax due on taxable pay to date (whole pounds, as pence) at period n: each band's annual limit is taken n/52 or
 * n/12 exactly (the spec's test data: K255 month 8 of 2009-10 is £8,815.33, not the £8,815.20 a limit rounded to
 * the pound gives), so the sum is worked in pence × periods and rounded down to the penny once.
 */
export function taxOnTaxablePay(taxable: number, bands: readonly TaxBand[], periods: number, n: number): number {
  const scaled = taxable * periods;
  let below = 0;
  let tax = 0;
  for (const band of bands) {
    const limit = band.upTo === null ? Infinity : band.upTo * n;
    const portion = Math.min(scaled, limit) - below;
    if (portion <= 0) break;
    tax += portion * band.rate;
    below = limit;
  }
  return dividePence(tax, periods * 10_000, 'down');
}

/**
 * A pay day past the year's 52 weeks: tax week 53 (weekly pay on 5 April, or 4 or 5 April in a leap year). The
 * product pays weekly and monthly only, so the fortnightly week 54 and four-weekly week 56 never arise, and a month
 * never has a 13th. HMRC: the cumulative basis does not apply to it; whatever the code, its tax is worked out on a
 * week 1 basis, from this payment alone with week 1's pay adjustment (docs/decisions.md "Tax week 53").
 */
export const isWeek53 = (frequency: Frequency, period: number) => period > PERIODS[frequency];

export function paye(input: PayeInput, year: PayrollYear): PayeResult {
  const { code, frequency, gross } = input;
  const week1 = input.week1 || isWeek53(frequency, input.period);
  const none = { tax: 0, payAdjustment: 0, taxablePay: 0, taxDue: 0, regulatoryLimitApplied: false };
  if (code.kind === 'nt') return none;
  const n = week1 ? 1 : input.period;
  const payToDate = week1 ? gross : input.ytdGross + gross;
  const paidToDate = week1 ? 0 : input.ytdTax;
  const table = year.incomeTax[code.region];

  if (code.kind === 'flat') {
    const taxablePay = wholePoundsDown(Math.max(0, payToDate));
    const taxDue = basisPointsOf(taxablePay, table.bands[code.band].rate, 'down');
    return { ...none, taxablePay, taxDue, tax: week1 ? taxDue : taxDue - paidToDate };
  }

  const adjustment = payAdjustment(code.number, frequency, n);
  const taxablePay = wholePoundsDown(Math.max(0, code.kind === 'k' ? payToDate + adjustment : payToDate - adjustment));
  const taxDue = taxOnTaxablePay(taxablePay, table.bands, PERIODS[frequency], n);
  // A week 1 basis never refunds: each period stands alone.
  let tax = week1 ? taxDue : taxDue - paidToDate;
  let regulatoryLimitApplied = false;
  if (code.kind === 'k') {
    const limit = basisPointsOf(Math.max(0, gross), year.regulatoryLimit, 'down');
    if (tax > limit) {
      tax = limit;
      regulatoryLimitApplied = true;
    }
  }
  return { tax, payAdjustment: adjustment, taxablePay, taxDue, regulatoryLimitApplied };
}
