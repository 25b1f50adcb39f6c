import { formatPounds } from '../../engine/money';
import { formatDisplayDate } from '../time/agencyTime';
import { percentOfBasisPoints } from './payslip';
import { isWeek53 } from './paye';
import { PAYSLIP_LINE_KINDS } from '../../resources/payroll/resource';

/**
 * A payslip as a person reads it (issue 33, Output), from the payslip's fields and its lines as the reader may read
 * them: the kept PDF draws it (server/documents/templates/payslip.ts) and the staff member's phone page shows it
 * (src/staff/MyPayslips.tsx), so the two never differ in a label or a figure.
 */
export interface PayslipView {
  staff: string;
  /** "6 Apr 2026 to 12 Apr 2026". */
  period: string;
  state: string;
  /** "Tax code 1257L · NI category A", or how a worker outside PAYE is paid. */
  basis: string;
  /** Holiday hours accrued and taken on this payslip, where the employment type accrues holiday; '' otherwise. */
  holidayHours: string;
  lines: { kind: string; date: string; description: string; hours: string; rate: string; amount: number }[];
  /** Each figure with its label, in order; employer NI only when the reader reads it (the agency). */
  figures: { label: string; amount: number }[];
  net: number;
  /**
   * After net pay, for a VAT-registered company: the VAT paid on top of the gross and what the run pays (net pay +
   * VAT); empty otherwise.
   */
  vat: { label: string; amount: number }[];
  yearToDate: { label: string; amount: number }[];
}

/** Hours as a payslip, a timesheet or an invoice prints them: to the hundredth. */
export const hoursOf = (hours: unknown) => Math.round(Number(hours ?? 0) * 100) / 100;

const n = (v: unknown) => Number(v ?? 0);

/** The figures below the lines, with the field each reads; a field the reader cannot read is left out. */
export const PAYSLIP_FIGURES = [
  { label: 'Gross pay', field: 'gross' },
  { label: 'of which holiday pay', field: 'holiday_pay' },
  { label: 'Deductions', field: 'deductions' },
  { label: 'Income tax', field: 'tax' },
  { label: 'Employee National Insurance', field: 'employee_ni' },
  { label: 'Student loan', field: 'student_loan' },
  { label: 'Pension (your contribution)', field: 'pension_employee' },
  { label: 'Pension (employer’s contribution)', field: 'pension_employer' },
  { label: 'Employer National Insurance', field: 'employer_ni' },
];

/** Lines by their date, those without one (an adjustment, a deduction) last, each day's in the order given. */
const byDate = (lines: Record<string, unknown>[]) =>
  lines
    .map((l, i) => ({ l, i, d: l.work_date ? String(l.work_date) : '\uffff' }))
    .sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : a.i - b.i))
    .map((x) => x.l);

/** What a payslip of tax week 53 says of its tax (docs/decisions.md "Issue 33 — tax week 53"). */
export const WEEK_53 = 'Tax week 53: tax worked out on a week 1 basis';

/** What the net pay and the year to date are called, on paper and on the phone. */
export const NET_PAY = 'Net pay';
export const YEAR_TO_DATE = 'Year to date';
/** What a VAT-registered company is paid: its net pay and the VAT on top. */
export const PAID_WITH_VAT = 'Paid to the company (net pay + VAT)';

/**
 * The payslip `p` with its `lines`, for `staff`; dates as `showDate` writes them (the PDF's "6 Apr 2026" unless
 * given: the phone page writes yyyy-MM-dd, as every screen of the product does).
 */
export function payslipView(
  p: Record<string, unknown>,
  lines: Record<string, unknown>[],
  staff: string,
  showDate: (date: string) => string = formatDisplayDate,
): PayslipView {
  const date = (v: unknown) => (v ? showDate(String(v)) : '');
  return {
    staff,
    period: `${date(p.period_start)} to ${date(p.period_end)}`,
    state: String(p.state ?? ''),
    basis:
      p.paye === true
        ? [
            `Tax code ${String(p.tax_code ?? '')}`,
            `NI category ${String(p.ni_category ?? '')}`,
            ...(isWeek53('weekly', n(p.tax_period))
              ? [WEEK_53]
              : p.week1 === true
                ? ['Tax worked out on a week 1 / month 1 basis']
                : []),
          ].join(' · ')
        : `Paid gross${p.paid_to ? ` to ${String(p.paid_to)}` : ''}: not through PAYE`,
    holidayHours:
      n(p.holiday_hours_accrued) || n(p.holiday_hours_taken)
        ? `Holiday: ${hoursOf(p.holiday_hours_accrued)} hours accrued, ${hoursOf(p.holiday_hours_taken)} hours taken`
        : '',
    lines: byDate(lines).map((l) => ({
      kind: PAYSLIP_LINE_KINDS.find((k) => k.id === l.kind)?.name ?? String(l.kind),
      date: date(l.work_date),
      description: String(l.description ?? ''),
      hours: l.hours == null ? '' : String(hoursOf(l.hours)),
      // Pence an hour for pay and holiday taken (which has hours), a percentage of pay for rolled-up holiday pay.
      rate:
        l.rate == null
          ? ''
          : l.kind === 'holiday' && l.hours == null
            ? percentOfBasisPoints(n(l.rate))
            : formatPounds(n(l.rate)),
      amount: n(l.amount),
    })),
    figures: PAYSLIP_FIGURES.filter((f) => f.field in p).map((f) => ({ label: f.label, amount: n(p[f.field]) })),
    net: n(p.net),
    vat: p.vat_number
      ? [
          {
            label: `VAT at ${p.vat_rate == null ? '' : percentOfBasisPoints(n(p.vat_rate))} (VAT number ${String(p.vat_number)})`,
            amount: n(p.vat),
          },
          { label: PAID_WITH_VAT, amount: n(p.amount_paid) },
        ]
      : [],
    yearToDate: [
      { label: 'Gross', amount: n(p.ytd_gross) },
      { label: 'Tax', amount: n(p.ytd_tax) },
      { label: 'Employee NI', amount: n(p.ytd_employee_ni) },
    ],
  };
}
