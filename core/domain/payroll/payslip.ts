// One staff member's payslip in a pay run (issue 33.2): a pay line for each payable timesheet line at the pay it was
// priced at (a sleep-in's flat allowance its own kind), late-cancellation pay, holiday pay as their employment type
// says (rolled up as its own line, or accrued as hours and paid when taken), and gross to net on their sum with the
// year to date of their earlier finalised payslips. Staff paid through an umbrella or their own company are paid
// gross, against the company's name, with no holiday pay of the agency's.
import { dividePence } from '../../engine/money';
import { selfBilledVat } from './selfBilling';
import { grossToNet } from './grossToNet';
import {
  accruedHolidayHundredths,
  holidayTakenPay,
  rolledUpHolidayPay,
  underHolidayRules,
  type HolidayMethod,
} from './holidayPay';
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
  /** A sleep-in's flat allowance: its own kind of line, and no hours of work accrue holiday. */
  sleepIn?: boolean;
}

/** A late cancellation the client was charged for and the agency's rule pays the worker: priced when cancelled. */
export interface LateCancellationPay {
  shiftId: number;
  date: string;
  /** Hours the rule pays, as priced with the cancellation. */
  hours: number;
  pay: number;
  description: string;
}

/** Holiday the staff member takes (accrued types), with the pay and hours of their reference period. */
export interface HolidayTaken {
  id: number;
  date: string;
  /** Hundredths of an hour taken. */
  hundredths: number;
  /** What they were paid and worked in the 52 weeks before it. */
  reference: { pay: number; minutes: number };
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
  /** How their employment type pays holiday (PAYE staff only); rolled up when not said. */
  holiday?: HolidayMethod;
  /** Hundredths of an hour of holiday accrued and not yet taken, before this payslip. */
  holidayBalance?: number;
  /** The company an umbrella or limited-company worker is paid through (their details). */
  companyName?: string | null;
  companyNumber?: string | null;
  companyAddress?: string | null;
  /** Its VAT number: a VAT-registered company is paid VAT on top of the gross (selfBilledVat). */
  companyVatNumber?: string | null;
}

export interface PayslipLine {
  kind: 'pay' | 'holiday' | 'sleep_in' | 'late_cancellation' | 'adjustment' | 'deduction';
  timesheet_line_id: number | null;
  cancelled_shift_id?: number | null;
  staff_holiday_id?: number | null;
  work_date: string | null;
  description: string;
  hours: number | null;
  /**
   * Pence an hour for a pay line (the line's pay over its hours, to the penny) and for holiday taken (the reference
   * period's average); basis points for rolled-up holiday pay; the flat allowance for a sleep-in.
   */
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
  /** Late cancellations the run pays (issue 33). */
  lateCancellations?: readonly LateCancellationPay[];
  /** Holiday taken the run pays from the balance (accrued types). */
  holidayTaken?: readonly HolidayTaken[];
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
  /** The company paid for an umbrella or limited-company worker; null for PAYE staff. */
  paid_to: string | null;
  /** The company's number, address and VAT number when the run paid it (null for PAYE staff or when not given). */
  company_number: string | null;
  company_address: string | null;
  vat_number: string | null;
  /** The VAT rate (basis points) and VAT the company is paid on the gross; null and 0 without a VAT number. */
  vat_rate: number | null;
  vat: number;
  /** What the run pays: the net pay, with the VAT of a VAT-registered company. */
  amount_paid: number;
  gross: number;
  holiday_pay: number;
  /** Holiday hours accrued and taken on this payslip (accrued types), to the hundredth. */
  holiday_hours_accrued: number;
  holiday_hours_taken: number;
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
  /** Why something owed is not on this payslip (holiday the balance does not cover), in words; never stored. */
  warnings: string[];
}

/** What a holiday pay line's rate says: basis points as a percentage ('12.07%'). */
export const percentOfBasisPoints = (bp: number) => `${(bp / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

/** Whose payslip, of which year, frequency and period, and what else it pays: payslipOf and settlePayslip take it. */
export type PayslipOf = [
  staff: StaffPayroll,
  year: PayrollYear,
  frequency: Frequency,
  period: number,
  extras?: PayslipExtras,
];

export function payslipOf(payable: readonly PayableLine[], ...of: PayslipOf): Payslip {
  const [staff, year, , , extras = {}] = of;
  const lines: PayslipLine[] = payable.map((l) => ({
    kind: l.sleepIn ? 'sleep_in' : 'pay',
    timesheet_line_id: l.id,
    work_date: l.date,
    description: l.sleepIn ? `Sleep-in allowance, ${l.description}` : l.description,
    hours: l.minutes / 60,
    rate: l.sleepIn ? l.pay : l.minutes > 0 ? dividePence(l.pay * 60, l.minutes, 'nearest') : null,
    amount: l.pay,
  }));
  for (const c of extras.lateCancellations ?? [])
    lines.push({
      kind: 'late_cancellation',
      timesheet_line_id: null,
      cancelled_shift_id: c.shiftId,
      work_date: c.date,
      description: `Late cancellation, ${c.description}`,
      hours: c.hours,
      rate: c.hours > 0 ? dividePence(c.pay * 100, Math.round(c.hours * 100), 'nearest') : null,
      amount: c.pay,
    });
  const holiday = staff.paye ? holidayOf(payable, staff, year, extras.holidayTaken ?? []) : null;
  if (holiday) lines.push(...holiday.lines);
  return settlePayslip(
    {
      lines,
      gross: lines.reduce((sum, l) => sum + l.amount, 0),
      holiday_pay: holiday?.lines.reduce((sum, l) => sum + l.amount, 0) ?? 0,
      holiday_hours_accrued: (holiday?.accrued ?? 0) / 100,
      holiday_hours_taken: (holiday?.taken ?? 0) / 100,
      warnings: holiday?.warnings ?? [],
    },
    ...of,
  );
}

/**
 * Gross to net of a payslip whose pay lines are made (`pay.gross` their sum): its adjustments' additions join gross,
 * then its deductions and its adjustments' deductions are taken (settleDeductions: after-tax adjustments first, then
 * the staff member's deductions in the order given), each a line of its own with a negative amount. Also what a
 * draft's adjustment recomputes, from the lines it already has.
 */
export function settlePayslip(
  pay: {
    lines: PayslipLine[];
    gross: number;
    holiday_pay: number;
    holiday_hours_accrued?: number;
    holiday_hours_taken?: number;
    warnings?: string[];
  },
  ...[staff, year, frequency, period, extras = {}]: PayslipOf
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
  const base = {
    gross,
    holiday_pay: pay.holiday_pay,
    ni_category: niCategory,
    holiday_hours_accrued: pay.holiday_hours_accrued ?? 0,
    holiday_hours_taken: pay.holiday_hours_taken ?? 0,
    warnings: pay.warnings ?? [],
  };
  let settled: Settled;
  let figures: Omit<
    Payslip,
    | 'lines'
    | 'gross'
    | 'holiday_pay'
    | 'ni_category'
    | 'deductions'
    | 'taxable_pay'
    | 'carried'
    | 'holiday_hours_accrued'
    | 'holiday_hours_taken'
    | 'warnings'
    | 'company_number'
    | 'company_address'
    | 'vat_number'
    | 'vat_rate'
    | 'vat'
    | 'amount_paid'
  >;
  if (!staff.paye) {
    // Paid gross: nothing is taxed, so before tax or after, a deduction comes off the pay.
    settled = settleDeductions(due, () => gross);
    figures = {
      paye: false,
      paid_to: staff.companyName?.trim() || null,
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
      paid_to: null,
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
  const company = (v: string | null | undefined) => (staff.paye ? null : v?.trim() || null);
  // A VAT-registered company is paid VAT on the gross it invoices (the supply), at the rate on the pay day; what is
  // taken off for deductions is not part of the supply.
  const vat = selfBilledVat(gross, staff.paye ? null : staff.companyVatNumber, dates.end);
  return {
    ...base,
    ...figures,
    lines,
    company_number: company(staff.companyNumber),
    company_address: company(staff.companyAddress),
    vat_number: vat.vatNumber,
    vat_rate: vat.rate,
    vat: vat.vat,
    amount_paid: figures.net - taken + vat.vat,
    net: figures.net - taken,
    deductions: taken,
    taxable_pay: staff.paye ? gross - settled.beforeTax : gross,
    carried,
  };
}

/**
 * A PAYE staff member's holiday on one payslip, as their employment type pays it: a rolled-up line of 12.07% of the
 * pay for work (sleep-ins included: an allowance for time at work) dated in leave years under the rules; or, accrued,
 * 12.07% of the hours worked banked (sleep-ins not: no hours of work) and each holiday taken paid from the balance,
 * in date order, while the balance with this payslip's accrual covers it (otherwise it waits, said in words).
 */
function holidayOf(
  payable: readonly PayableLine[],
  staff: StaffPayroll,
  year: PayrollYear,
  taken: readonly HolidayTaken[],
): { lines: PayslipLine[]; accrued: number; taken: number; warnings: string[] } {
  const counted = payable.filter((l) => underHolidayRules(l.date));
  if ((staff.holiday ?? 'rolled_up') === 'rolled_up') {
    const amount = rolledUpHolidayPay(
      counted.reduce((sum, l) => sum + l.pay, 0),
      year,
    );
    const line: PayslipLine = {
      kind: 'holiday',
      timesheet_line_id: null,
      work_date: null,
      description: `Holiday pay, rolled up at ${percentOfBasisPoints(year.rolledUpHolidayPay)}`,
      hours: null,
      rate: year.rolledUpHolidayPay,
      amount,
    };
    return { lines: amount > 0 ? [line] : [], accrued: 0, taken: 0, warnings: [] };
  }
  const accrued = accruedHolidayHundredths(
    counted.filter((l) => !l.sleepIn).reduce((sum, l) => sum + l.minutes, 0),
    year,
  );
  let balance = (staff.holidayBalance ?? 0) + accrued;
  const lines: PayslipLine[] = [];
  const warnings: string[] = [];
  for (const h of [...taken].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id)) {
    const amount = holidayTakenPay(h.hundredths, h.reference);
    const hours = h.hundredths / 100;
    if (amount === null) {
      warnings.push(`Holiday of ${hours} hours from ${h.date} waits: nothing was worked in the 52 weeks before it.`);
      continue;
    }
    if (h.hundredths > balance) {
      warnings.push(
        `Holiday of ${hours} hours from ${h.date} waits: the balance is ${balance / 100} hours with this payslip.`,
      );
      continue;
    }
    balance -= h.hundredths;
    lines.push({
      kind: 'holiday',
      timesheet_line_id: null,
      staff_holiday_id: h.id,
      work_date: h.date,
      description: `Holiday taken, ${h.description}`,
      hours,
      rate: dividePence(h.reference.pay * 60, h.reference.minutes, 'nearest'),
      amount,
    });
  }
  const takenHundredths = lines.reduce((sum, l) => sum + Math.round((l.hours ?? 0) * 100), 0);
  return { lines, accrued, taken: takenHundredths, warnings };
}
