// Gross to net for a PAYE staff member's pay period (issue 33): tax, NI, student loans and pension, each by its own
// rule, composed. net = gross − tax − employee NI − student loan − employee pension (a negative tax is a refund).
import { classOneNi } from './ni';
import { paye } from './paye';
import { pensionContributions, type PensionChoice } from './pension';
import type { Frequency, LoanPlan, NiLetter, PayrollYear } from './rates';
import { studentLoanDeductions } from './studentLoans';
import type { TaxCode } from './taxCodes';

export interface GrossToNetInput {
  frequency: Frequency;
  period: number;
  gross: number;
  taxCode: TaxCode;
  week1: boolean;
  ytdGross: number;
  ytdTax: number;
  niCategory: NiLetter;
  studentLoanPlans: readonly LoanPlan[];
  pension?: PensionChoice;
  /**
   * Deductions taken before tax (a net pay arrangement): off the pay PAYE taxes, never off NI-able pay, student loan
   * earnings or pension's qualifying earnings; `ytdGross` is then taxable pay to date. Not taken off `net` here.
   */
  beforeTax?: number;
}

export interface GrossToNet {
  gross: number;
  tax: number;
  employeeNi: number;
  employerNi: number;
  studentLoan: number;
  studentLoans: Partial<Record<LoanPlan, number>>;
  pensionEmployee: number;
  pensionEmployer: number;
  net: number;
  /** For the payslip and the bureau: how the tax was reached. */
  payAdjustment: number;
  taxablePay: number;
  taxDue: number;
  regulatoryLimitApplied: boolean;
  qualifyingEarnings: number;
  /** The year to date after this period. */
  ytdGross: number;
  ytdTax: number;
}

export function grossToNet(input: GrossToNetInput, year: PayrollYear): GrossToNet {
  const { gross, frequency } = input;
  const tax = paye(
    {
      code: input.taxCode,
      week1: input.week1,
      frequency,
      period: input.period,
      gross: gross - (input.beforeTax ?? 0),
      ytdGross: input.ytdGross,
      ytdTax: input.ytdTax,
    },
    year,
  );
  const ni = classOneNi(gross, year.ni.categories[input.niCategory], year.ni.thresholds[frequency]);
  const studentLoans = studentLoanDeductions(gross, input.studentLoanPlans, year, frequency);
  let studentLoan = 0;
  for (const plan of input.studentLoanPlans) studentLoan += studentLoans[plan] ?? 0;
  const pension = input.pension
    ? pensionContributions(gross, input.pension, year.pension[frequency])
    : { qualifyingEarnings: 0, employee: 0, employer: 0 };
  return {
    gross,
    tax: tax.tax,
    employeeNi: ni.employee,
    employerNi: ni.employer,
    studentLoan,
    studentLoans,
    pensionEmployee: pension.employee,
    pensionEmployer: pension.employer,
    net: gross - tax.tax - ni.employee - studentLoan - pension.employee,
    payAdjustment: tax.payAdjustment,
    taxablePay: tax.taxablePay,
    taxDue: tax.taxDue,
    regulatoryLimitApplied: tax.regulatoryLimitApplied,
    qualifyingEarnings: pension.qualifyingEarnings,
    ytdGross: input.ytdGross + gross - (input.beforeTax ?? 0),
    ytdTax: input.ytdTax + tax.tax,
  };
}
