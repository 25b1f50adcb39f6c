import { renderPdf, type DocumentTemplate } from '../pdf/render.js';
import { tableCell } from '../pdf/layout.js';
import type { RecordReader, RecordTemplate } from '../records.js';
import { SIGNED_VIA, LINE_STATUS, TIMESHEET_STATUS } from '../../../core/resources/timesheets/resource.js';
import { formatDisplayDate, instantToZoned } from '../../../core/domain/time/agencyTime.js';
import { signatureProblem } from '../../../core/domain/timesheets/rules.js';
import { hoursOf } from '../../../core/domain/payroll/payslipView.js';

export interface TimesheetDocument {
  number: string;
  client: string;
  site: string | null;
  period: string;
  status: string;
  /** Pay columns only for those who read pay (the agency's users). */
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

const nameOf = (choices: { id: string; name: string }[], id: unknown) => choices.find((c) => c.id === id)?.name ?? '';

/** The timesheet as the reader may read it: its lines (pay only for whom reads it) and its signatures. */
async function timesheetData(r: RecordReader): Promise<TimesheetDocument> {
  const t = r.record;
  const lines = await r.children('timesheet_lines', {
    orderBy: ['work_date', 'scheduled_start'],
    fields: [
      ...['work_date', 'candidate_name', 'job_role_id', 'scheduled_start', 'scheduled_end', 'actual_start'],
      ...['actual_end', 'break_minutes', 'hours', 'charge', 'pay', 'status'],
    ],
  });
  const sigs = await r.children('timesheet_signatures', { orderBy: ['signed_at'] });
  const [clients, sites, roles] = await Promise.all([
    r.names('timesheets', 'client_id', [t]),
    r.names('timesheets', 'site_id', [t]),
    r.names('timesheet_lines', 'job_role_id', lines),
  ]);
  const withPay = r.reads('timesheet_lines', 'pay') && r.reads('timesheets', 'pay');
  const time = (v: unknown) => (v ? instantToZoned(new Date(v as string), r.timeZone).time : '');
  const when = (v: unknown) => {
    if (!v) return '';
    const z = instantToZoned(new Date(v as string), r.timeZone);
    return `${z.date} ${z.time}`;
  };
  return {
    number: String(t.number ?? ''),
    client: clients.get(t.client_id) ?? '',
    site: sites.get(t.site_id) ?? null,
    period: `${formatDisplayDate(String(t.period_start))} to ${formatDisplayDate(String(t.period_end))}`,
    status: nameOf(TIMESHEET_STATUS, t.status),
    withPay,
    lines: lines.map((l) => ({
      date: l.work_date ?? '',
      staff: l.candidate_name ?? '',
      role: roles.get(l.job_role_id) ?? '',
      scheduled: `${time(l.scheduled_start)}–${time(l.scheduled_end)}`,
      actual: `${time(l.actual_start)}–${time(l.actual_end)}`,
      breakMinutes: l.break_minutes == null ? '' : String(l.break_minutes),
      hours: hoursOf(l.hours),
      charge: Number(l.charge ?? 0),
      pay: withPay ? Number(l.pay ?? 0) : null,
      status: nameOf(LINE_STATUS, l.status),
    })),
    totals: { hours: hoursOf(t.hours), charge: Number(t.charge ?? 0), pay: withPay ? Number(t.pay ?? 0) : null },
    signatures: sigs.map((s) => ({
      name: s.signer_name,
      via: nameOf(SIGNED_VIA, s.signed_via),
      at: when(s.signed_at),
      address: s.ip_address ?? null,
      lines: Number(s.line_count ?? 0),
      // A signature kept before its size was checked (issue 29.19) is named, not decoded: a 6000 × 6000 image
      // took 4 s and 430 MB of memory for each print.
      image:
        typeof s.signature !== 'string' || signatureProblem(s.signature)
          ? null
          : Buffer.from(s.signature.replace(/^data:image\/png;base64,/, ''), 'base64'),
    })),
  };
}

/** The timesheet's record document: GET /api/timesheets/{id}/pdf, kept once locked. */
export const timesheetRecord: RecordTemplate = {
  reads: ['timesheet_lines', 'timesheet_signatures'],
  render: async (r, letterhead) => renderPdf(timesheetDocument, await timesheetData(r), letterhead),
};
