import type { DocumentTemplate } from '../pdf/render.js';
import { tableCell } from '../pdf/layout.js';

export interface TimesheetDocument {
  number: string;
  client: string;
  site: string | null;
  period: string;
  status: string;
  /** Pay columns only for agency users. */
  withPay: boolean;
  lines: {
    date: string;
    staff: string;
    role: string;
    scheduled: string;
    actual: string;
    breakMinutes: string;
    hours: number;
    charge: number;
    pay: number | null;
    status: string;
  }[];
  totals: { hours: number; charge: number; pay: number | null };
  signatures: {
    name: string;
    via: string;
    at: string;
    address: string | null;
    image: Buffer | null;
    /** How many lines it signed (a partial approval signs some). */
    lines: number;
  }[];
}

/** A timesheet as the client signs it: its lines, its totals and each signature given (issue 17). */
export const timesheetDocument: DocumentTemplate<TimesheetDocument> = {
  kind: 'timesheet',
  layout: 'landscape',
  async draw(w, d) {
    w.heading(`Timesheet ${d.number}`, `${d.client}${d.site ? `, ${d.site}` : ''} · ${d.period} · ${d.status}`);
    await w.table(
      [
        { header: 'Date', weight: 0.7 },
        { header: 'Staff member', weight: 1.2 },
        { header: 'Role' },
        { header: 'Scheduled', weight: 1.1 },
        { header: 'Actual', weight: 1.1 },
        { header: 'Break', weight: 0.4, align: 'right' },
        { header: 'Hours', weight: 0.5, align: 'right' },
        { header: 'Charge', weight: 0.7, align: 'right' },
        ...(d.withPay ? [{ header: 'Pay', weight: 0.7, align: 'right' as const }] : []),
        { header: 'Status', weight: 0.9 },
      ],
      d.lines.map((l) => [
        l.date,
        l.staff,
        l.role,
        l.scheduled,
        l.actual,
        l.breakMinutes,
        tableCell(l.hours),
        tableCell(l.charge, 'money'),
        ...(d.withPay ? [tableCell(l.pay ?? 0, 'money')] : []),
        l.status,
      ]),
    );
    w.text(
      `Total ${tableCell(d.totals.hours)} hours · charge ${tableCell(d.totals.charge, 'money')}${d.withPay ? ` · pay ${tableCell(d.totals.pay ?? 0, 'money')}` : ''}`,
      { bold: true },
    );
    for (const s of d.signatures) {
      w.text(
        `Signed by ${s.name} (${s.via}) on ${s.at}${s.address ? ` from ${s.address}` : ''}: signed ${s.lines} line${s.lines === 1 ? '' : 's'}`,
      );
      if (s.image) {
        try {
          w.doc.image(s.image, { fit: [180, 60] });
          w.doc.moveDown(0.5);
        } catch {
          // A signature pdfkit cannot draw is still named above.
        }
      }
    }
    if (d.signatures.length === 0) w.text('Not signed yet.');
  },
};
