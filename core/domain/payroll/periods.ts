// Which tax year and pay period a pay day falls in (issue 33.2): a pay run is taxed in the period of its pay day,
// which the product takes to be the last day of the run's period. Tax week 1 is 6 to 12 April; tax month 1 is 6
// April to 5 May (HMRC's "Specification for PAYE Tax Table Routines", tax periods).
import { daysBetween } from '../time/agencyTime';
import { PAYROLL_YEARS, type Frequency, type PayrollYear } from './rates';

export type TaxPeriod = { year: PayrollYear; period: number } | { error: string };

export function taxPeriodOf(payDay: string, frequency: Frequency): TaxPeriod {
  const year = Object.values(PAYROLL_YEARS).find((y) => y.starts <= payDay && payDay <= y.ends);
  if (!year) return { error: `The product has no tax figures for a pay day on ${payDay}.` };
  if (frequency === 'weekly') {
    const days = daysBetween(year.starts, payDay);
    const week = (days - (days % 7)) / 7 + 1;
    // Week 53 (the year's last day or two) is taxed on a week 1 basis with its own rules: not done yet.
    if (week > 52)
      return {
        error: `A pay day on ${payDay} falls in tax week 53, which the product does not pay yet: end the run a day or two earlier.`,
      };
    return { year, period: week };
  }
  const [y, m, d] = payDay.split('-').map(Number);
  const startYear = Number(year.starts.slice(0, 4));
  // Months since April of the year's start, less one when the day is before the 6th (still the previous tax month).
  const month = (y - startYear) * 12 + (m - 4) + (d >= 6 ? 1 : 0);
  return { year, period: month };
}
