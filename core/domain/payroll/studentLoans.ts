// Student and postgraduate loan deductions for one pay period (HMRC Collection of Student Loans Manual CSLM10111,
// CSLM18025): not cumulative; the plan's rate of the pay above its threshold for the period (the annual threshold
// ÷ 52 or 12, rounded down to the penny, CSLM17065), rounded down to the whole pound. One undergraduate plan at a
// time (1, 2, 4 or 5), with a postgraduate loan beside it or alone.
import { basisPointsOf, dividePence, wholePoundsDown } from '../../engine/money';
import { PERIODS, type Frequency, type LoanPlan, type PayrollYear } from './rates';

/** The plan's threshold for one period, in pence. */
export const loanThreshold = (annual: number, frequency: Frequency) => dividePence(annual, PERIODS[frequency], 'down');

/** The deduction for each plan asked for, in pence (a plan the year does not collect is the caller's to refuse). */
export function studentLoanDeductions(
  gross: number,
  plans: readonly LoanPlan[],
  year: PayrollYear,
  frequency: Frequency,
): Partial<Record<LoanPlan, number>> {
  const out: Partial<Record<LoanPlan, number>> = {};
  for (const plan of plans) {
    const row = year.studentLoans[plan];
    if (!row) throw new RangeError(`${plan} is not collected in ${year.taxYear}`);
    const above = gross - loanThreshold(row.annualThreshold, frequency);
    out[plan] = above > 0 ? wholePoundsDown(basisPointsOf(above, row.rate, 'down')) : 0;
  }
  return out;
}
