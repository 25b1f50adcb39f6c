// Which tax year and pay period a pay day falls in (issue 33.2): a pay run is taxed in the period of its pay day,
// which the product takes to be the last day of the run's period. Tax week 1 is 6 to 12 April; tax month 1 is 6
// April to 5 May (HMRC's "Specification for PAYE Tax Table Routines", tax periods). A tax year is 52 weeks and a day
// (two in a leap year): a weekly pay day on 5 April (4 or 5 April in a leap year) is in tax week 53, which PAYE taxes
// on a week 1 basis (paye.ts, isWeek53).
import { daysBetween } from '../time/agencyTime';
import { PAYROLL_YEARS, type Frequency, type PayrollYear } from './rates';

export type TaxPeriod = { year: PayrollYear; period: number } | { error: string };

/** `years` are the product's own (a test passes a leap year's, which the product has no figures for yet). */
export function taxPeriodOf(
  payDay: string,
  frequency: Frequency,
  years: Readonly<Record<string, PayrollYear>> = PAYROLL_YEARS,
): TaxPeriod {
  const year = Object.values(years).find((y) => y.starts <= payDay && payDay <= y.ends);
  if (!year) return { error: `The product has no tax figures for a pay day on ${payDay}.` };
  if (frequency === 'weekly') {
    const days = daysBetween(year.starts, payDay);
    return { year, period: (days - (days % 7)) / 7 + 1 };
  }
  const [y, m, d] = payDay.split('-').map(Number);
  const startYear = Number(year.starts.slice(0, 4));
  // Months since April of the year's start, less one when the day is before the 6th (still the previous tax month).
  const month = (y - startYear) * 12 + (m - 4) + (d >= 6 ? 1 : 0);
  return { year, period: month };
}
