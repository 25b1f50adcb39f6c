import { renderPdf, type DocumentTemplate, type PrintedLetterhead } from '../pdf/render.js';
import { tableCell } from '../pdf/layout.js';
import { hoursOf } from '../../../core/domain/payroll/payslipView.js';
import type { RecordReader, RecordTemplate } from '../records.js';
import { formatPounds, formatVatRate } from '../../../core/engine/money.js';
import { totalsOfLines } from '../../../core/domain/invoicing/totals.js';
import { formatDisplayDate } from '../../../core/domain/time/agencyTime.js';
import { INVOICE_STATES } from '../../../core/resources/invoices/resource.js';
import { formatAddress } from '../../../core/engine/exportFormat.js';

/** An invoice as printed (VAT Regulations 1995 reg 14): the fields the reader may read, nothing else. */
export interface InvoiceDocument {
  number: string;
  state: string;
  client: string;
  /** The client's address on one line (reg 14: the customer's name and address). */
  clientAddress: string;
  issueDate: string;
  timeOfSupply: string;
  dueDate: string;
  poNumber: string | null;
  notes: string | null;
  lines: { date: string; description: string; hours: number; unitPrice: number; vat: string; net: number }[];
  /** Totals ex VAT and VAT per rate, exempt supplies apart. */
  perRate: { label: string; net: number; vat: number }[];
  net: number;
  vat: number;
  total: number;
  /** The agency's VAT number, how to pay and by when, and its footer: from its invoice settings at rendering. */
  vatNumber: string | null;
  paymentTerms: string | null;
  bank: string | null;
  footer: string | null;
  /** The agency's registered name and number (agency settings), under the footer. */
  registration: string | null;
}

const date = (v: unknown) => (v ? formatDisplayDate(String(v)) : '');

function drawHeader(w: Parameters<DocumentTemplate<InvoiceDocument>['draw']>[0], d: InvoiceDocument) {
  w.heading(
    d.number ? `VAT invoice ${d.number}` : `Draft invoice (${d.state}: not a VAT invoice)`,
    `To ${d.client}${d.poNumber ? ` · PO ${d.poNumber}` : ''}`,
  );
  if (d.clientAddress) w.text(d.clientAddress);
  w.text(`Issued ${d.issueDate || 'not yet'} · Time of supply ${d.timeOfSupply || 'the date of each line'}`);
  if (d.vatNumber) w.text(`VAT number ${d.vatNumber}`);
  if (d.dueDate) w.text(`Payment due by ${d.dueDate}`);
}

function drawTotals(w: Parameters<DocumentTemplate<InvoiceDocument>['draw']>[0], d: InvoiceDocument) {
  for (const r of d.perRate) w.text(`${r.label}: net ${formatPounds(r.net)}, VAT ${formatPounds(r.vat)}`);
  w.text(`Total ex VAT ${formatPounds(d.net)} · VAT ${formatPounds(d.vat)} · Total ${formatPounds(d.total)}`, {
    bold: true,
  });
  if (d.notes) w.text(d.notes);
  if (d.paymentTerms) w.text(d.paymentTerms);
  if (d.bank) w.text(d.bank);
  if (d.footer) w.text(d.footer);
  if (d.registration) w.text(d.registration);
}

/** Template 1 (the default): one line per row, the VAT treatment in its own column. */
export const invoiceTemplateOne: DocumentTemplate<InvoiceDocument> = {
  kind: 'invoice-template1',
  layout: 'portrait',
  async draw(w, d) {
    drawHeader(w, d);
    await w.table(
      [
        { header: 'Date', weight: 0.7 },
        { header: 'Description', weight: 2.2 },
        { header: 'Hours', weight: 0.5, align: 'right' },
        { header: 'Unit price', weight: 0.7, align: 'right' },
        { header: 'VAT', weight: 0.6 },
        { header: 'Net', weight: 0.8, align: 'right' },
      ],
      d.lines.map((l) => [
        l.date,
        l.description,
        tableCell(l.hours),
        tableCell(l.unitPrice, 'money'),
        l.vat,
        tableCell(l.net, 'money'),
      ]),
    );
    drawTotals(w, d);
  },
};

/** Template 2: the same fields, landscape, with the description first and the VAT per rate above the lines. */
export const invoiceTemplateTwo: DocumentTemplate<InvoiceDocument> = {
  kind: 'invoice-template2',
  layout: 'landscape',
  async draw(w, d) {
    drawHeader(w, d);
    drawTotals(w, d);
    await w.table(
      [
        { header: 'Description', weight: 2.6 },
        { header: 'Date', weight: 0.7 },
        { header: 'Quantity (hours)', weight: 0.7, align: 'right' },
        { header: 'Unit price ex VAT', weight: 0.8, align: 'right' },
        { header: 'VAT rate', weight: 0.6 },
        { header: 'Net', weight: 0.8, align: 'right' },
      ],
      d.lines.map((l) => [
        l.description,
        l.date,
        tableCell(l.hours),
        tableCell(l.unitPrice, 'money'),
        l.vat,
        tableCell(l.net, 'money'),
      ]),
    );
  },
};

/** The invoice as the reader may read it; the VAT per rate from the lines' settled rates (totalsOfLines). */
async function invoiceData(r: RecordReader, letterhead: PrintedLetterhead): Promise<InvoiceDocument> {
  const inv = r.record;
  const lines = await r.children('invoice_lines', {
    orderBy: ['work_date'],
    fields: ['work_date', 'description', 'quantity', 'unit_price', 'vat_treatment', 'vat_rate', 'net'],
  });
  const clients = await r.names('invoices', 'client_id', [inv]);
  const client = (await r.referenced('invoices', 'client_id', [inv], ['address'])).get(Number(inv.client_id));
  const settled = lines.map((l) => ({
    net: Number(l.net),
    category: l.vat_treatment === 'exempt' ? 'E' : 'S',
    rate: Number(l.vat_rate ?? 0),
  }));
  const t = totalsOfLines(settled);
  return {
    number: String(inv.number ?? ''),
    state: INVOICE_STATES.find((s) => s.id === inv.state)?.name ?? '',
    client: clients.get(inv.client_id) ?? '',
    clientAddress: formatAddress(client?.address),
    issueDate: date(inv.issue_date),
    timeOfSupply: date(inv.time_of_supply),
    dueDate: date(inv.due_date),
    poNumber: inv.po_number ?? null,
    notes: inv.notes ?? null,
    lines: lines.map((l, i) => ({
      date: date(l.work_date),
      description: String(l.description ?? ''),
      hours: hoursOf(l.quantity),
      unitPrice: Number(l.unit_price ?? 0),
      vat: settled[i].category === 'E' ? 'Exempt' : formatVatRate(settled[i].rate),
      net: Number(l.net ?? 0),
    })),
    perRate: t.breakdown.map((b) => ({
      label: b.category === 'E' ? 'Exempt' : `Standard rate ${formatVatRate(b.rate)}`,
      net: b.net,
      vat: b.vat,
    })),
    net: t.net,
    vat: t.vat,
    total: t.total,
    ...payment(inv, letterhead),
  };
}

/** What the invoice says of paying it: the terms it was issued on, the agency's bank account, its footer. */
function payment(inv: RecordReader['record'], letterhead: PrintedLetterhead) {
  const s = letterhead.invoicing;
  // The terms the due date was set by: the days from issue to due (a draft has neither yet).
  const days =
    inv.issue_date && inv.due_date
      ? Math.round((Date.parse(String(inv.due_date)) - Date.parse(String(inv.issue_date))) / 86_400_000)
      : null;
  return {
    vatNumber: s?.vatNumber ?? null,
    paymentTerms:
      days === null ? null : `Payment terms: ${days === 0 ? 'due on the day of issue' : `${days} days from issue`}`,
    bank:
      s?.accountNumber && s.sortCode
        ? `Pay by bank transfer to ${s.bankAccountName ?? ''}, sort code ${s.sortCode}, account ${s.accountNumber}, quoting ${String(inv.number ?? 'the invoice number')}`
        : null,
    footer: s?.footer ?? null,
    registration: s?.registration ?? null,
  };
}

/** The invoice's record documents: GET /api/invoices/{id}/pdf?template=template1|template2, kept at issue. */
export const invoiceRecordOne: RecordTemplate = {
  reads: ['invoice_lines'],
  render: async (r, letterhead) => renderPdf(invoiceTemplateOne, await invoiceData(r, letterhead), letterhead),
};
export const invoiceRecordTwo: RecordTemplate = {
  reads: ['invoice_lines'],
  render: async (r, letterhead) => renderPdf(invoiceTemplateTwo, await invoiceData(r, letterhead), letterhead),
};
