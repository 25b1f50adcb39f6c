// One staff member's payslip in a pay run (issue 33.2): a pay line for each payable timesheet line at the pay it was
// priced at, a rolled-up holiday pay line for PAYE staff, and gross to net on their sum with the year to date of
// their earlier finalised payslips. Staff paid through an umbrella or their own company are paid gross.
import { dividePence } from '../../engine/money';
import { grossToNet } from './grossToNet';
import { rolledUpHolidayPay } from './holidayPay';
import type { Frequency, LoanPlan, NiLetter, PayrollYear } from './rates';
import { readTaxCode } from './taxCodes';

export interface PayableLine {
  /** The timesheet line it pays. */
  id: number;
  date: string;
  minutes: number;
  /** Its pay in pence, frozen when the line was priced. */
  pay: number;
  description: string;
}

export interface StaffPayroll {
  /** Paid through PAYE (their employment type's flag): gross to net and holiday pay; otherwise paid gross. */
  paye: boolean;
  /** As stored on the staff member (validated there); none: 0T on a week 1 basis, HMRC's code for no information. */
  taxCode: string | null;
  week1: boolean;
  niCategory: NiLetter | null;
  studentLoanPlans: readonly LoanPlan[];
  /** Percentages in basis points; none for staff not enrolled. */
  pension?: { employeePercent: number; employerPercent: number; optedOut: boolean };
  ytdGross: number;
  ytdTax: number;
  ytdEmployeeNi: number;
}

export interface PayslipLine {
  kind: 'pay' | 'holiday';
  timesheet_line_id: number | null;
  work_date: string | null;
  description: string;
  hours: number | null;
  /** Pence an hour for a pay line (the line's pay over its hours, to the penny); basis points for holiday pay. */
  rate: number | null;
  amount: number;
}

export interface Payslip {
  lines: PayslipLine[];
  paye: boolean;
  tax_code: string;
  week1: boolean;
  ni_category: NiLetter;
  gross: number;
  holiday_pay: number;
  tax: number;
  employee_ni: number;
  employer_ni: number;
  student_loan: number;
  pension_employee: number;
  pension_employer: number;
  net: number;
  employer_cost: number;
  ytd_gross: number;
  ytd_tax: number;
  ytd_employee_ni: number;
}

/** What a holiday pay line's rate says: basis points as a percentage ('12.07%'). */
export const percentOfBasisPoints = (bp: number) => `${(bp / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

export function payslipOf(
  payable: readonly PayableLine[],
  staff: StaffPayroll,
  year: PayrollYear,
  frequency: Frequency,
  period: number,
): Payslip {
  const lines: PayslipLine[] = payable.map((l) => ({
    kind: 'pay',
    timesheet_line_id: l.id,
    work_date: l.date,
    description: l.description,
    hours: l.minutes / 60,
    rate: l.minutes > 0 ? dividePence(l.pay * 60, l.minutes, 'nearest') : null,
    amount: l.pay,
  }));
  const pay = payable.reduce((sum, l) => sum + l.pay, 0);
  const holiday = staff.paye ? rolledUpHolidayPay(pay, year) : 0;
  if (holiday > 0)
    lines.push({
      kind: 'holiday',
      timesheet_line_id: null,
      work_date: null,
      description: `Holiday pay, rolled up at ${percentOfBasisPoints(year.rolledUpHolidayPay)}`,
      hours: null,
      rate: year.rolledUpHolidayPay,
      amount: holiday,
    });
  const gross = pay + holiday;
  const niCategory = staff.niCategory ?? 'A';
  const base = { lines, gross, holiday_pay: holiday, ni_category: niCategory };
  if (!staff.paye)
    return {
      ...base,
      paye: false,
      tax_code: '',
      week1: false,
      tax: 0,
      employee_ni: 0,
      employer_ni: 0,
      student_loan: 0,
      pension_employee: 0,
      pension_employer: 0,
      net: gross,
      employer_cost: 0,
      ytd_gross: staff.ytdGross + gross,
      ytd_tax: staff.ytdTax,
      ytd_employee_ni: staff.ytdEmployeeNi,
    };
  const written = staff.taxCode?.trim() ? staff.taxCode.trim().toUpperCase() : '0T';
  const code = readTaxCode(written, year);
  // The staff member's code is validated when it is stored; one a later year no longer knows is a stored fact the
  // run cannot work around.
  if ('error' in code) throw new Error(code.error);
  const week1 = staff.week1 || code.week1 || !staff.taxCode?.trim();
  const r = grossToNet(
    {
      frequency,
      period,
      gross,
      taxCode: code.code,
      week1,
      ytdGross: staff.ytdGross,
      ytdTax: staff.ytdTax,
      niCategory,
      studentLoanPlans: staff.studentLoanPlans,
      pension: staff.pension,
    },
    year,
  );
  return {
    ...base,
    paye: true,
    tax_code: written,
    week1,
    tax: r.tax,
    employee_ni: r.employeeNi,
    employer_ni: r.employerNi,
    student_loan: r.studentLoan,
    pension_employee: r.pensionEmployee,
    pension_employer: r.pensionEmployer,
    net: r.net,
    employer_cost: r.employerNi + r.pensionEmployer,
    ytd_gross: r.ytdGross,
    ytd_tax: r.ytdTax,
    ytd_employee_ni: staff.ytdEmployeeNi + r.employeeNi,
  };
}
