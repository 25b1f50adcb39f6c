import { renderPdf, type DocumentTemplate } from '../pdf/render.js';
import { tableCell } from '../pdf/layout.js';
import { hoursOf } from '../../../core/domain/payroll/payslipView.js';
import type { RecordReader, RecordTemplate } from '../records.js';
import { formatPounds, formatVatRate } from '../../../core/engine/money.js';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime.js';
import { formatAddress } from '../../../core/engine/exportFormat.js';

/**
 * A credit note as printed (VAT Regulations 1995 reg 14, as its invoice, plus the invoice it corrects). Amounts are
 * as stored: negative, printed by the money module ('-£12.50'); a credited line's hours are negative too, so hours ×
 * unit price gives its net.
 */
export interface CreditNoteDocument {
  number: string;
  issueDate: string;
  invoiceNumber: string;
  invoiceDate: string;
  client: string;
  clientAddress: string;
  vatNumber: string | null;
  /** The agency's registered name and number (agency settings). */
  registration: string | null;
  reason: string;
  lines: { description: string; hours: number | ''; unitPrice: number | ''; vat: string; net: number }[];
  perRate: { label: string; net: number; vat: number }[];
  net: number;
  vat: number;
  total: number;
}

const date = (v: unknown) => (v ? formatDisplayDate(String(v)) : '');

export const creditNoteTemplate: DocumentTemplate<CreditNoteDocument> = {
  kind: 'credit-note',
  layout: 'portrait',
  async draw(w, d) {
    w.heading(`Credit note ${d.number}`, `To ${d.client}`);
    if (d.clientAddress) w.text(d.clientAddress);
    w.text(`Issued ${d.issueDate} · Corrects invoice ${d.invoiceNumber} issued ${d.invoiceDate}`);
    if (d.vatNumber) w.text(`VAT number ${d.vatNumber}`);
    await w.table(
      [
        { header: 'Description', weight: 2.6 },
        { header: 'Hours', weight: 0.5, align: 'right' },
        { header: 'Unit price ex VAT', weight: 0.8, align: 'right' },
        { header: 'VAT rate', weight: 0.6 },
        { header: 'Net', weight: 0.8, align: 'right' },
      ],
      d.lines.map((l) => [
        l.description,
        tableCell(l.hours),
        tableCell(l.unitPrice, 'money'),
        l.vat,
        tableCell(l.net, 'money'),
      ]),
    );
    for (const r of d.perRate) w.text(`${r.label}: net ${formatPounds(r.net)}, VAT ${formatPounds(r.vat)}`);
    w.text(
      `Total ex VAT ${formatPounds(d.net)} · VAT ${formatPounds(d.vat)} · Total credited ${formatPounds(d.total)}`,
      { bold: true },
    );
    w.text(`Reason: ${d.reason}`);
    if (d.registration) w.text(d.registration);
  },
};

/** The credit note as the reader may read it: its stored amounts (the API's), the credited lines' hours and price. */
async function creditNoteData(
  r: RecordReader,
  vatNumber: string | null,
  registration: string | null,
): Promise<CreditNoteDocument> {
  const note = r.record;
  const lines = await r.children('credit_note_lines', {
    fields: ['invoice_line_id', 'description', 'vat_treatment', 'vat_rate', 'net', 'vat'],
  });
  const credited = await r.referenced('credit_note_lines', 'invoice_line_id', lines, ['quantity', 'unit_price']);
  const invoice = (await r.referenced('credit_notes', 'invoice_id', [note], ['number', 'issue_date'])).get(
    Number(note.invoice_id),
  );
  const client = (await r.referenced('credit_notes', 'client_id', [note], ['address'])).get(Number(note.client_id));
  const clients = await r.names('credit_notes', 'client_id', [note]);
  const rateOf = (l: (typeof lines)[number]) =>
    l.vat_treatment === 'exempt' ? 'Exempt' : formatVatRate(Number(l.vat_rate ?? 0));
  const perRate = new Map<string, { label: string; net: number; vat: number }>();
  for (const l of lines) {
    const label = l.vat_treatment === 'exempt' ? 'Exempt' : `Standard rate ${rateOf(l)}`;
    const t = perRate.get(label) ?? { label, net: 0, vat: 0 };
    t.net += Number(l.net);
    t.vat += Number(l.vat);
    perRate.set(label, t);
  }
  return {
    number: String(note.number ?? ''),
    issueDate: date(note.issue_date),
    invoiceNumber: String(invoice?.number ?? ''),
    invoiceDate: date(invoice?.issue_date),
    client: clients.get(note.client_id) ?? '',
    clientAddress: formatAddress(client?.address),
    vatNumber,
    registration,
    reason: String(note.reason ?? ''),
    lines: lines.map((l) => {
      const line = l.invoice_line_id == null ? undefined : credited.get(Number(l.invoice_line_id));
      return {
        description: String(l.description ?? ''),
        hours: line ? -hoursOf(line.quantity) : '',
        unitPrice: line ? Number(line.unit_price ?? 0) : '',
        vat: rateOf(l),
        net: Number(l.net ?? 0),
      };
    }),
    perRate: [...perRate.values()],
    net: Number(note.net ?? 0),
    vat: Number(note.vat ?? 0),
    total: Number(note.total ?? 0),
  };
}

/** GET /api/credit_notes/{id}/pdf: kept when the credit note is made (keptFrom 'create'), in the one letterhead. */
export const creditNoteRecord: RecordTemplate = {
  reads: ['credit_note_lines'],
  render: async (r, letterhead) =>
    renderPdf(
      creditNoteTemplate,
      await creditNoteData(r, letterhead.invoicing?.vatNumber ?? null, letterhead.invoicing?.registration ?? null),
      letterhead,
    ),
};
