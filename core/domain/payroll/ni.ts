// Class 1 National Insurance for one pay period by the exact percentage method: the staff member's (primary) and
// the employer's (secondary) contributions worked out separately, each band's amount taken to four decimal places
// of a pound (a hundredth of a penny), and the sum rounded to the nearest penny with a halfpenny or less
// disregarded (Social Security (Contributions) Regulations 2001, reg. 12(1); HMRC National Insurance Manual
// NIM11002). Not cumulative: each period's pay against that period's thresholds.
import { dividePence } from '../../engine/money';
import type { NiCategory, NiThresholds } from './rates';

export interface NiResult {
  employee: number;
  employer: number;
}

/** One band's contribution in hundredths of a penny, the fraction beyond dropped (four decimal places of a pound). */
const band = (from: number, to: number, gross: number, rate: number) =>
  dividePence(Math.max(0, Math.min(gross, to) - from) * rate, 100, 'down');

const toPence = (hundredths: number) => dividePence(hundredths, 100, 'nearest-half-down');

export function classOneNi(gross: number, category: NiCategory, t: NiThresholds): NiResult {
  if (gross <= 0) return { employee: 0, employer: 0 };
  const employee = toPence(
    band(t.pt, t.uel, gross, category.employeeMain) + band(t.uel, Infinity, gross, category.employeeUpper),
  );
  // Under-21s, apprentices under 25 and veterans: the employer pays nothing up to their upper secondary threshold.
  const from = category.employerReliefUpTo ? Math.max(t.st, t[category.employerReliefUpTo]) : t.st;
  const employer = toPence(band(from, Infinity, gross, category.employer));
  return { employee, employer };
}
