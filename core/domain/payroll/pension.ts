// Workplace pension under auto-enrolment for one pay period: the staff member's and the employer's percentages of
// qualifying earnings (pay between the period's lower and upper levels, The Pensions Regulator's table), each
// rounded to the nearest penny; nothing for a staff member who opted out. The staff member's part is taken from
// net pay (relief at source: the scheme claims the basic-rate relief), so it does not change the tax.
import { basisPointsOf } from '../../engine/money';
import type { PensionThresholds } from './rates';

export interface PensionChoice {
  /** Percentages in basis points (500 is 5%). */
  employeePercent: number;
  employerPercent: number;
  optedOut: boolean;
}

export interface PensionResult {
  qualifyingEarnings: number;
  employee: number;
  employer: number;
  /** Pay is above the earnings trigger: a worker aged 22 to State Pension age must be enrolled. */
  aboveTrigger: boolean;
}

export function pensionContributions(gross: number, choice: PensionChoice, t: PensionThresholds): PensionResult {
  const qualifyingEarnings = Math.max(0, Math.min(gross, t.upper) - t.lower);
  const aboveTrigger = gross > t.trigger;
  if (choice.optedOut) return { qualifyingEarnings, employee: 0, employer: 0, aboveTrigger };
  return {
    qualifyingEarnings,
    employee: basisPointsOf(qualifyingEarnings, choice.employeePercent),
    employer: basisPointsOf(qualifyingEarnings, choice.employerPercent),
    aboveTrigger,
  };
}
