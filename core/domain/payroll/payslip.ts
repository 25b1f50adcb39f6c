// One staff member's payslip in a pay run (issue 33.2): a pay line for each payable timesheet line at the pay it was
// priced at, a rolled-up holiday pay line for PAYE staff, and gross to net on their sum with the year to date of
// their earlier finalised payslips. Staff paid through an umbrella or their own company are paid gross.
import { dividePence } from '../../engine/money';
import { grossToNet } from './grossToNet';
import { rolledUpHolidayPay } from './holidayPay';
import type { Frequency, LoanPlan, NiLetter, PayrollYear } from './rates';
import { readTaxCode } from './taxCodes';
import {
  deductionDue,
  settleDeductions,
  type Due,
  type PayPeriod,
  type Settled,
  type StaffDeduction,
} from './deductions';

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
  /** Taxable pay to date (gross less deductions before tax), which cumulative PAYE reads; ytdGross when absent. */
  ytdTaxable?: number;
}

export interface PayslipLine {
  kind: 'pay' | 'holiday' | 'adjustment' | 'deduction';
  timesheet_line_id: number | null;
  work_date: string | null;
  description: string;
  hours: number | null;
  /** Pence an hour for a pay line (the line's pay over its hours, to the penny); basis points for holiday pay. */
  rate: number | null;
  amount: number;
  /** The staff deduction a deduction line takes, the adjustment an adjustment line makes. */
  staff_deduction_id?: number;
  payroll_adjustment_id?: number;
}

/** A one-off adjustment (payroll_adjustments): an addition to gross pay, or a deduction from net pay. */
export interface Adjustment {
  id: number;
  kind: 'addition' | 'deduction';
  /** Pence, above zero. */
  amount: number;
  reason: string;
}

/** What a payslip takes besides its pay lines: adjustments, and the staff member's deductions over the period. */
export interface PayslipExtras {
  adjustments?: readonly Adjustment[];
  deductions?: readonly StaffDeduction[];
  period?: PayPeriod;
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
  /** Every deduction and adjustment taken off, in pence (net = gross − tax − NI − loan − pension − deductions). */
  deductions: number;
  /** What PAYE taxed: gross less the deductions taken before tax. */
  taxable_pay: number;
  /** Adjustments' deductions the net floor cut: the rest waits for the next run. */
  carried: { adjustment_id: number; amount: number; reason: string }[];
}

/** What a holiday pay line's rate says: basis points as a percentage ('12.07%'). */
export const percentOfBasisPoints = (bp: number) => `${(bp / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

export function payslipOf(
  payable: readonly PayableLine[],
  staff: StaffPayroll,
  year: PayrollYear,
  frequency: Frequency,
  period: number,
  extras: PayslipExtras = {},
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
  return settlePayslip({ lines, gross: pay + holiday, holiday_pay: holiday }, staff, year, frequency, period, extras);
}

/**
 * Gross to net of a payslip whose pay lines are made (`pay.gross` their sum): its adjustments' additions join gross,
 * then its deductions and its adjustments' deductions are taken (settleDeductions: after-tax adjustments first, then
 * the staff member's deductions in the order given), each a line of its own with a negative amount. Also what a
 * draft's adjustment recomputes, from the lines it already has.
 */
export function settlePayslip(
  pay: { lines: PayslipLine[]; gross: number; holiday_pay: number },
  staff: StaffPayroll,
  year: PayrollYear,
  frequency: Frequency,
  period: number,
  extras: PayslipExtras = {},
): Payslip {
  const none = { timesheet_line_id: null, work_date: null, hours: null, rate: null };
  const adjustments = extras.adjustments ?? [];
  const additions = adjustments.filter((a) => a.kind === 'addition');
  const lines: PayslipLine[] = [
    ...pay.lines,
    ...additions.map((a) => ({
      ...none,
      kind: 'adjustment' as const,
      description: a.reason,
      amount: a.amount,
      payroll_adjustment_id: a.id,
    })),
  ];
  const gross = pay.gross + additions.reduce((s, a) => s + a.amount, 0);
  const niCategory = staff.niCategory ?? 'A';
  const dates = extras.period ?? { start: '', end: '' };
  const deductions = (extras.deductions ?? []).map((d) => ({ d, due: deductionDue(d, dates, gross) }));
  const due: Due[] = [
    ...adjustments
      .filter((a) => a.kind === 'deduction')
      .map((a) => ({ key: `a${a.id}`, beforeTax: false, amount: a.amount })),
    ...deductions.filter((x) => x.due > 0).map((x) => ({ key: `d${x.d.id}`, beforeTax: x.d.beforeTax, amount: x.due })),
  ];
  const base = { gross, holiday_pay: pay.holiday_pay, ni_category: niCategory };
  let settled: Settled;
  let figures: Omit<
    Payslip,
    'lines' | 'gross' | 'holiday_pay' | 'ni_category' | 'deductions' | 'taxable_pay' | 'carried'
  >;
  if (!staff.paye) {
    // Paid gross: nothing is taxed, so before tax or after, a deduction comes off the pay.
    settled = settleDeductions(due, () => gross);
    figures = {
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
  } else {
    const written = staff.taxCode?.trim() ? staff.taxCode.trim().toUpperCase() : '0T';
    const code = readTaxCode(written, year);
    // The staff member's code is validated when it is stored; one a later year no longer knows is a stored fact the
    // run cannot work around.
    if ('error' in code) throw new Error(code.error);
    const week1 = staff.week1 || code.week1 || !staff.taxCode?.trim();
    const g2n = (beforeTax: number) =>
      grossToNet(
        {
          frequency,
          period,
          gross,
          taxCode: code.code,
          week1,
          ytdGross: staff.ytdTaxable ?? staff.ytdGross,
          ytdTax: staff.ytdTax,
          niCategory,
          studentLoanPlans: staff.studentLoanPlans,
          pension: staff.pension,
          beforeTax,
        },
        year,
      );
    settled = settleDeductions(due, (b) => g2n(b).net);
    const r = g2n(settled.beforeTax);
    figures = {
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
      ytd_gross: staff.ytdGross + gross,
      ytd_tax: r.ytdTax,
      ytd_employee_ni: staff.ytdEmployeeNi + r.employeeNi,
    };
  }
  const takenOf = new Map(settled.taken.map((t) => [t.key, t.amount]));
  const carried: Payslip['carried'] = [];
  for (const a of adjustments.filter((x) => x.kind === 'deduction')) {
    const taken = takenOf.get(`a${a.id}`) ?? 0;
    if (taken > 0)
      lines.push({ ...none, kind: 'adjustment', description: a.reason, amount: -taken, payroll_adjustment_id: a.id });
    if (taken < a.amount) carried.push({ adjustment_id: a.id, amount: a.amount - taken, reason: a.reason });
  }
  for (const { d } of deductions) {
    const taken = takenOf.get(`d${d.id}`) ?? 0;
    if (taken > 0)
      lines.push({
        ...none,
        kind: 'deduction',
        description: `${d.description}${d.beforeTax ? ' (before tax)' : ''}`,
        rate: d.method === 'percent' ? d.amount : null,
        amount: -taken,
        staff_deduction_id: d.id,
      });
  }
  const taken = settled.beforeTax + settled.afterTax;
  return {
    ...base,
    ...figures,
    lines,
    net: figures.net - taken,
    deductions: taken,
    taxable_pay: staff.paye ? gross - settled.beforeTax : gross,
    carried,
  };
}
