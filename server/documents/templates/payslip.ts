import { renderPdf, type DocumentTemplate } from '../pdf/render.js';
import { tableCell } from '../pdf/layout.js';
import { hoursOf } from './timesheet.js';
import type { RecordReader, RecordTemplate } from '../records.js';
import { formatPounds } from '../../../core/engine/money.js';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime.js';
import { percentOfBasisPoints } from '../../../core/domain/payroll/payslip.js';
import { PAYSLIP_LINE_KINDS } from '../../../core/resources/payroll/resource.js';

/** A payslip as printed (issue 33.2): its lines with hours and rates, what was taken off, net, and the year to date. */
export interface PayslipDocument {
  staff: string;
  period: string;
  state: string;
  taxCode: string;
  niCategory: string;
  paye: boolean;
  /** The company an umbrella or limited-company worker is paid through (issue 33). */
  paidTo: string;
  /** Holiday hours accrued and taken on this payslip, where the employment type accrues holiday; '' otherwise. */
  holidayHours: string;
  lines: { kind: string; date: string; description: string; hours: string; rate: string; amount: number }[];
  /** Each figure with its label, in order; employer NI only when the reader reads it (the agency). */
  figures: { label: string; amount: number }[];
  net: number;
  yearToDate: { label: string; amount: number }[];
}

const date = (v: unknown) => (v ? formatDisplayDate(String(v)) : '');

export const payslipTemplate: DocumentTemplate<PayslipDocument> = {
  kind: 'payslip',
  layout: 'portrait',
  async draw(w, d) {
    w.heading(`Payslip: ${d.staff}`, `${d.period}${d.state === 'draft' ? ' · Draft: not yet paid' : ''}`);
    w.text(
      d.paye
        ? `Tax code ${d.taxCode} · NI category ${d.niCategory}`
        : `Paid gross${d.paidTo ? ` to ${d.paidTo}` : ''}: not through PAYE`,
    );
    await w.table(
      [
        { header: 'Date', weight: 0.7 },
        { header: 'Kind', weight: 0.7 },
        { header: 'Description', weight: 2.2 },
        { header: 'Hours', weight: 0.5, align: 'right' },
        { header: 'Rate', weight: 0.6, align: 'right' },
        { header: 'Amount', weight: 0.8, align: 'right' },
      ],
      d.lines.map((l) => [l.date, l.kind, l.description, l.hours, l.rate, tableCell(l.amount, 'money')]),
    );
    for (const f of d.figures) w.text(`${f.label}: ${formatPounds(f.amount)}`);
    w.text(`Net pay ${formatPounds(d.net)}`, { bold: true });
    if (d.holidayHours) w.text(d.holidayHours);
    w.text(`Year to date: ${d.yearToDate.map((y) => `${y.label} ${formatPounds(y.amount)}`).join(' · ')}`);
  },
};

/** The payslip as the reader may read it (a staff member's own: no employer's figures). */
async function payslipData(r: RecordReader): Promise<PayslipDocument> {
  const p = r.record;
  const lines = await r.children('payslip_lines', {
    orderBy: ['work_date'],
    fields: ['kind', 'work_date', 'description', 'hours', 'rate', 'amount'],
  });
  const staff = await r.names('payslips', 'candidate_id', [p]);
  const n = (v: unknown) => Number(v ?? 0);
  const figures = [
    { label: 'Gross pay', field: 'gross' },
    { label: 'of which holiday pay', field: 'holiday_pay' },
    { label: 'Income tax', field: 'tax' },
    { label: 'Employee National Insurance', field: 'employee_ni' },
    { label: 'Student loan', field: 'student_loan' },
    { label: 'Pension (your contribution)', field: 'pension_employee' },
    { label: 'Pension (employer’s contribution)', field: 'pension_employer' },
    { label: 'Employer National Insurance', field: 'employer_ni' },
  ].filter((f) => f.field in p);
  return {
    staff: staff.get(p.candidate_id) ?? '',
    period: `${date(p.period_start)} to ${date(p.period_end)}`,
    state: String(p.state ?? ''),
    taxCode: String(p.tax_code ?? ''),
    niCategory: String(p.ni_category ?? ''),
    paye: p.paye === true,
    paidTo: String(p.paid_to ?? ''),
    holidayHours:
      n(p.holiday_hours_accrued) || n(p.holiday_hours_taken)
        ? `Holiday: ${hoursOf(p.holiday_hours_accrued)} hours accrued, ${hoursOf(p.holiday_hours_taken)} hours taken`
        : '',
    lines: lines.map((l) => ({
      kind: PAYSLIP_LINE_KINDS.find((k) => k.id === l.kind)?.name ?? String(l.kind),
      date: date(l.work_date),
      description: String(l.description ?? ''),
      hours: l.hours == null ? '' : tableCell(hoursOf(l.hours)),
      // Pence an hour for pay and holiday taken (which has hours), a percentage of pay for rolled-up holiday pay.
      rate:
        l.rate == null
          ? ''
          : l.kind === 'holiday' && l.hours == null
            ? percentOfBasisPoints(n(l.rate))
            : formatPounds(n(l.rate)),
      amount: n(l.amount),
    })),
    figures: figures.map((f) => ({ label: f.label, amount: n(p[f.field]) })),
    net: n(p.net),
    yearToDate: [
      { label: 'Gross', amount: n(p.ytd_gross) },
      { label: 'Tax', amount: n(p.ytd_tax) },
      { label: 'Employee NI', amount: n(p.ytd_employee_ni) },
    ],
  };
}

/** GET /api/payslips/{id}/pdf, kept when its run is finalised. */
export const payslipRecord: RecordTemplate = {
  reads: ['payslip_lines'],
  render: async (r, letterhead) => renderPdf(payslipTemplate, await payslipData(r), letterhead),
};
