// What POST /api/payroll/calculate is sent, read into grossToNet's input, or every field's problem in words
// (issue 33: "a bad tax code or period answers 422 naming the field"). In core so the rules are tested without a
// server, and a later pay run reads a staff member's payroll details the same way.
import type { GrossToNetInput } from './grossToNet';
import type { PensionChoice } from './pension';
import {
  PERIODS,
  TAX_YEARS,
  payrollYear,
  type Frequency,
  type LoanPlan,
  type NiLetter,
  type PayrollYear,
} from './rates';
import { readTaxCode } from './taxCodes';

/** The largest amount of pay taken, in pence: £10 million, far above any wage, well inside exact integer sums. */
export const MAX_PAY = 1_000_000_000;

const LETTERS = ['A', 'B', 'C', 'H', 'J', 'M', 'V', 'X', 'Z'] as const satisfies readonly NiLetter[];
const PLANS = ['plan1', 'plan2', 'plan4', 'plan5', 'postgraduate'] as const satisfies readonly LoanPlan[];
const PLAN_NAMES: Record<LoanPlan, string> = {
  plan1: 'Plan 1',
  plan2: 'Plan 2',
  plan4: 'Plan 4',
  plan5: 'Plan 5',
  postgraduate: 'the postgraduate loan',
};

export type CalculationRequest = { year: PayrollYear; input: GrossToNetInput };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readCalculationRequest(body: unknown): CalculationRequest | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const b = isObject(body) ? body : {};

  const year = typeof b.tax_year === 'string' ? payrollYear(b.tax_year) : undefined;
  if (!year) errors.tax_year = `Choose a tax year the product has figures for: ${TAX_YEARS.join(' or ')}.`;

  const frequency = b.frequency === 'weekly' || b.frequency === 'monthly' ? (b.frequency as Frequency) : undefined;
  if (!frequency) errors.frequency = 'Choose how often the staff member is paid: weekly or monthly.';

  const period = b.period;
  // A weekly pay day on 5 April (4 or 5 April in a leap year) is in tax week 53; a month never has a 13th.
  const last = frequency === 'weekly' ? PERIODS.weekly + 1 : PERIODS.monthly;
  if (frequency && !(Number.isInteger(period) && (period as number) >= 1 && (period as number) <= last))
    errors.period =
      frequency === 'weekly'
        ? 'Give the tax week the pay day falls in, from 1 to 53.'
        : 'Give the tax month the pay day falls in, from 1 to 12.';
  else if (!frequency && !Number.isInteger(period)) errors.period = 'Give the pay period as a whole number.';

  const money = (field: string, words: string, max: number, min = 0): number => {
    const v = b[field];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) {
      errors[field] = `Give ${words} in whole pence, from ${min} to ${max}.`;
      return 0;
    }
    return v;
  };
  const gross = money('gross', "this period's gross pay", MAX_PAY);
  const ytdGross = money('ytd_gross', 'the gross pay of the earlier periods this tax year', MAX_PAY * 52);
  // Tax to date can be below nothing after a refund.
  const ytdTax = money('ytd_tax', 'the tax of the earlier periods this tax year', MAX_PAY * 52, -MAX_PAY * 52);

  if (typeof b.week1 !== 'boolean')
    errors.week1 = 'Say whether the tax code is on a week 1 / month 1 basis: true or false.';

  let taxCode: GrossToNetInput['taxCode'] = { kind: 'nt' };
  let codeWeek1 = false;
  if (typeof b.tax_code !== 'string' || !b.tax_code.trim())
    errors.tax_code = 'Give the tax code HMRC sent, for example 1257L.';
  else if (year) {
    const read = readTaxCode(b.tax_code, year);
    if ('error' in read) errors.tax_code = read.error;
    else ({ code: taxCode, week1: codeWeek1 } = read);
  }

  const niCategory = LETTERS.find((l) => l === (typeof b.ni_category === 'string' ? b.ni_category.toUpperCase() : ''));
  if (!niCategory) errors.ni_category = `Give the National Insurance category letter: one of ${LETTERS.join(', ')}.`;

  const plans: LoanPlan[] = [];
  if (b.student_loan_plans !== undefined) {
    const list = b.student_loan_plans;
    const known = Array.isArray(list) && list.every((p) => PLANS.includes(p as LoanPlan));
    if (!known) errors.student_loan_plans = `List the student loan plans from ${PLANS.join(', ')}.`;
    else {
      for (const p of list as LoanPlan[]) if (!plans.includes(p)) plans.push(p);
      const undergraduate = plans.filter((p) => p !== 'postgraduate');
      const missing = year && plans.find((p) => !year.studentLoans[p]);
      if (undergraduate.length > 1)
        errors.student_loan_plans = 'Give one undergraduate plan (1, 2, 4 or 5); a postgraduate loan may be beside it.';
      else if (missing)
        errors.student_loan_plans = `${PLAN_NAMES[missing]} is not collected in ${year.taxYear}: plan 5 deductions start in April 2026.`;
    }
  }

  let pension: PensionChoice | undefined;
  if (b.pension !== undefined) {
    const p = isObject(b.pension) ? b.pension : {};
    // A percentage with at most two decimals, as basis points (5.5 → 550).
    const percent = (percentage: unknown) => {
      if (typeof percentage !== 'number' || !(percentage >= 0 && percentage <= 100)) return undefined;
      const basisPoints = Math.round(percentage * 100);
      return Math.abs(percentage * 100 - basisPoints) < 1e-6 ? basisPoints : undefined;
    };
    const employeePercent = percent(p.employee_percent);
    const employerPercent = percent(p.employer_percent);
    const optedOut = p.opted_out === undefined ? false : p.opted_out;
    if (employeePercent === undefined || employerPercent === undefined || typeof optedOut !== 'boolean')
      errors.pension =
        'Give the pension as { employee_percent, employer_percent, opted_out }: percentages from 0 to 100 with at most two decimals, opted_out true or false.';
    else pension = { employeePercent, employerPercent, optedOut };
  }

  if (Object.keys(errors).length) return { errors };
  return {
    year: year!,
    input: {
      frequency: frequency!,
      period: period as number,
      gross,
      taxCode,
      // 1257L W1 is a week 1 code whatever the flag says (and tax week 53 is taxed on a week 1 basis: paye).
      week1: (b.week1 as boolean) || codeWeek1,
      ytdGross,
      ytdTax,
      niCategory: niCategory!,
      studentLoanPlans: plans,
      pension,
    },
  };
}
