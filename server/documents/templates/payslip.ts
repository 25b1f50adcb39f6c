import { renderPdf, type DocumentTemplate } from '../pdf/render.js';
import { tableCell } from '../pdf/layout.js';
import type { RecordReader, RecordTemplate } from '../records.js';
import { formatPounds } from '../../../core/engine/money.js';
import { NET_PAY, YEAR_TO_DATE, payslipView, type PayslipView } from '../../../core/domain/payroll/payslipView.js';

/** A payslip as printed (issue 33.2): as the staff member's page shows it (core/domain/payroll/payslipView.ts). */
export type PayslipDocument = PayslipView;

export const payslipTemplate: DocumentTemplate<PayslipDocument> = {
  kind: 'payslip',
  layout: 'portrait',
  async draw(w, d) {
    w.heading(`Payslip: ${d.staff}`, `${d.period}${d.state === 'draft' ? ' · Draft: not yet paid' : ''}`);
    w.text(d.basis);
    await w.table(
      [
        { header: 'Date', weight: 0.7 },
        { header: 'Kind', weight: 0.7 },
        { header: 'Description', weight: 2.2 },
        { header: 'Hours', weight: 0.5, align: 'right' },
        { header: 'Rate', weight: 0.6, align: 'right' },
        { header: 'Amount', weight: 0.8, align: 'right' },
      ],
      d.lines.map((l) => [l.date, l.kind, l.description, tableCell(l.hours), l.rate, tableCell(l.amount, 'money')]),
    );
    for (const f of d.figures) w.text(`${f.label}: ${formatPounds(f.amount)}`);
    w.text(`${NET_PAY} ${formatPounds(d.net)}`, { bold: true });
    for (const v of d.vat) w.text(`${v.label}: ${formatPounds(v.amount)}`);
    if (d.holidayHours) w.text(d.holidayHours);
    w.text(`${YEAR_TO_DATE}: ${d.yearToDate.map((y) => `${y.label} ${formatPounds(y.amount)}`).join(' · ')}`);
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
  return payslipView(p, lines, staff.get(p.candidate_id) ?? '');
}

/** GET /api/payslips/{id}/pdf, kept when its run is finalised. */
export const payslipRecord: RecordTemplate = {
  reads: ['payslip_lines'],
  render: async (r, letterhead) => renderPdf(payslipTemplate, await payslipData(r), letterhead),
};
