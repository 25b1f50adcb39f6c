// E-invoices (issue 32): GET /api/invoices/{id}/ubl and GET /api/credit_notes/{id}/ubl, an issued invoice or credit
// note as an EN 16931 UBL 2.1 document following Peppol BIS Billing 3.0, written by @e-invoice-eu/core (which
// checks the data against its EN 16931 model before it writes the XML). Amounts are the stored pence, written as
// decimals by the money module; a line's quantity and price are the accounting exports' (quantityAndUnit), so
// quantity × price is the line's net exactly. docs/decisions.md, "Issue 32.7 — e-invoices".
import type { FastifyInstance } from 'fastify';
import type { Invoice } from '@e-invoice-eu/core';
import { HttpError } from '../http.js';
import { route } from '../routes/route.js';
import type { EngineContext } from '../engine/context.js';
import { IdParams } from '../../core/contracts/common.js';
import { fileAnswer } from '../../core/contracts/documents.js';
import { decimalPounds, poundsToPence, vatPercent, vatTotals } from '../../core/engine/money.js';
import { quantityAndUnit, type ExportLine } from '../../core/domain/invoicing/exports.js';
import { ISSUED_STATES } from '../../core/resources/invoices/resource.js';

export const UBL_TYPE = 'application/xml';
/** Peppol BIS Billing 3.0's specification and process identifiers (BT-24, BT-23). */
export const PEPPOL_BIS_BILLING = {
  customization: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  profile: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
};
/** Peppol's electronic address scheme for a UK VAT number ("UK:VAT", ISO 6523 ICD 9932). */
export const UK_VAT_SCHEME = '9932';
/** Why an exempt line carries no VAT (BT-120), for the exempt category's breakdown. */
export const EXEMPTION_REASON =
  'Exempt: supply of nursing staff under the nursing agencies concession (HMRC VAT Notice 701/57, section 6.5; VAT Act 1994, Schedule 9, Group 7)';

type Address = { line1?: string; line2?: string; city?: string; postcode?: string; country?: string } | null;

/** A party of the document: its name, VAT number (also its Peppol address) and postal address. */
export interface UblParty {
  name: string;
  /** The registered name (BT-27), when it differs from the name it trades under. */
  legalName?: string | null;
  vatNumber: string;
  address: Address;
  email?: string | null;
}

/** An issued invoice or credit note as its e-invoice writes it; pence as stored (negative on a credit note). */
export interface UblDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedOn: string;
  dueOn: string | null;
  poNumber: string | null;
  /** A credit note's invoice (BT-25, BT-26). */
  corrects: { number: string; issuedOn: string } | null;
  seller: UblParty;
  buyer: UblParty;
  lines: ExportLine[];
  /** The stored totals: the e-invoice's must be these, to the penny. */
  net: number;
  vat: number;
  total: number;
}

/** 'GB123456789' (or '123 4567 89'): the VAT number as HMRC prints it, with its country prefix. */
const vatId = (vat: string) => {
  const plain = vat.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{2}/.test(plain) ? plain : `GB${plain}`;
};

const postalAddress = (a: Address) => ({
  ...(a?.line1 ? { 'cbc:StreetName': a.line1 } : {}),
  ...(a?.line2 ? { 'cbc:AdditionalStreetName': a.line2 } : {}),
  ...(a?.city ? { 'cbc:CityName': a.city } : {}),
  ...(a?.postcode ? { 'cbc:PostalZone': a.postcode } : {}),
  // The product's clients and agencies are in the United Kingdom; Northern Ireland's goods trade ('XI') is not ours.
  'cac:Country': { 'cbc:IdentificationCode': 'GB' as const },
});

// The supplier may carry its VAT number and a tax registration (an array in the model); the customer one VAT number.
const party = (p: UblParty, supplier: boolean) => ({
  'cbc:EndpointID': vatId(p.vatNumber),
  'cbc:EndpointID@schemeID': UK_VAT_SCHEME,
  'cac:PartyName': { 'cbc:Name': p.name },
  'cac:PostalAddress': postalAddress(p.address),
  'cac:PartyTaxScheme': supplier ? [taxScheme(p)] : taxScheme(p),
  'cac:PartyLegalEntity': { 'cbc:RegistrationName': p.legalName || p.name },
  ...(p.email ? { 'cac:Contact': { 'cbc:ElectronicMail': p.email } } : {}),
});

const taxScheme = (p: UblParty) => ({ 'cbc:CompanyID': vatId(p.vatNumber), 'cac:TaxScheme': { 'cbc:ID': 'VAT' } });

const category = (c: string, rate: number) => ({
  'cbc:ID': c,
  'cbc:Percent': vatPercent(c === 'E' ? 0 : rate),
  'cac:TaxScheme': { 'cbc:ID': 'VAT' },
});

/**
 * The document in @e-invoice-eu/core's model of a UBL invoice. A credit note is written as a UBL CreditNote (type
 * 381) with its amounts positive, as EN 16931 expects of a credit note (a negative one would be an invoice); the
 * library writes a document of a credit-note type as a UBL CreditNote. The VAT breakdown is the stored lines' (each
 * line's VAT to the nearest penny, summed per rate: vatTotals, the one rule), so it is the API's VAT exactly; EN
 * 16931's BR-CO-17 allows the per-rate VAT to differ from the rate × the rate's net by up to one unit for that.
 */
export function ublOf(d: UblDocument): Invoice {
  const sign = d.kind === 'credit_note' ? -1 : 1;
  const gbp = (pence: number) => decimalPounds(sign * pence);
  const totals = vatTotals(d.lines.map((l) => ({ net: l.net, category: l.category, rate: l.rate })));
  if (totals.net !== d.net || totals.vat !== d.vat || totals.gross !== d.total)
    // Never sent out different from the stored document: the lines and the totals disagree.
    throw new Error(`${d.number}: its lines add up to ${totals.gross}, its total is ${d.total}`);
  const lines = d.lines.map((l, i) => {
    const { quantity, unit } = quantityAndUnit(l);
    const hours = l.minutes !== null && quantity * 60 === l.minutes;
    return {
      'cbc:ID': String(i + 1),
      'cbc:InvoicedQuantity': String(quantity),
      // HUR: hours (UN/ECE Recommendation 20); C62: one (a line written as 1 × its amount).
      'cbc:InvoicedQuantity@unitCode': hours ? 'HUR' : 'C62',
      'cbc:LineExtensionAmount': gbp(l.net),
      'cbc:LineExtensionAmount@currencyID': 'GBP',
      ...(l.serviceDate
        ? { 'cac:InvoicePeriod': { 'cbc:StartDate': l.serviceDate, 'cbc:EndDate': l.serviceDate } }
        : {}),
      'cac:Item': {
        'cbc:Name': l.description.slice(0, 200),
        'cac:ClassifiedTaxCategory': category(l.category, l.rate),
      },
      'cac:Price': { 'cbc:PriceAmount': gbp(poundsToPence(unit)), 'cbc:PriceAmount@currencyID': 'GBP' },
    };
  });
  const invoice = {
    'ubl:Invoice': {
      'cbc:CustomizationID': PEPPOL_BIS_BILLING.customization,
      'cbc:ProfileID': PEPPOL_BIS_BILLING.profile,
      'cbc:ID': d.number,
      'cbc:IssueDate': d.issuedOn,
      ...(d.dueOn && d.kind === 'invoice' ? { 'cbc:DueDate': d.dueOn } : {}),
      'cbc:InvoiceTypeCode': d.kind === 'invoice' ? '380' : '381',
      'cbc:DocumentCurrencyCode': 'GBP',
      // Peppol asks for the buyer's reference or an order reference (PEPPOL-EN16931-R003): the PO number when there
      // is one, else the document's own number, which is what the client quotes back.
      'cbc:BuyerReference': d.poNumber ?? d.corrects?.number ?? d.number,
      ...(d.poNumber ? { 'cac:OrderReference': { 'cbc:ID': d.poNumber } } : {}),
      ...(d.corrects
        ? {
            'cac:BillingReference': [
              {
                'cac:InvoiceDocumentReference': {
                  'cbc:ID': d.corrects.number,
                  'cbc:IssueDate': d.corrects.issuedOn,
                },
              },
            ],
          }
        : {}),
      'cac:AccountingSupplierParty': { 'cac:Party': party(d.seller, true) },
      'cac:AccountingCustomerParty': { 'cac:Party': party(d.buyer, false) },
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': gbp(d.vat),
          'cbc:TaxAmount@currencyID': 'GBP',
          'cac:TaxSubtotal': totals.breakdown.map((b) => ({
            'cbc:TaxableAmount': gbp(b.net),
            'cbc:TaxableAmount@currencyID': 'GBP',
            'cbc:TaxAmount': gbp(b.vat),
            'cbc:TaxAmount@currencyID': 'GBP',
            'cac:TaxCategory': {
              ...category(b.category, b.rate),
              ...(b.category === 'E' ? { 'cbc:TaxExemptionReason': EXEMPTION_REASON } : {}),
            },
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': gbp(d.net),
        'cbc:LineExtensionAmount@currencyID': 'GBP',
        'cbc:TaxExclusiveAmount': gbp(d.net),
        'cbc:TaxExclusiveAmount@currencyID': 'GBP',
        'cbc:TaxInclusiveAmount': gbp(d.total),
        'cbc:TaxInclusiveAmount@currencyID': 'GBP',
        'cbc:PayableAmount': gbp(d.total),
        'cbc:PayableAmount@currencyID': 'GBP',
      },
      'cac:InvoiceLine': lines,
    },
  };
  return invoice as unknown as Invoice;
}

/** The document as UBL XML, written and checked against EN 16931's model by the library. */
export async function ublXml(d: UblDocument): Promise<string> {
  const { InvoiceService } = await import('@e-invoice-eu/core');
  // The library reports through a logger; what it has to say about a document it refuses is in its error.
  const quiet = { log() {}, warn() {}, error() {} };
  const xml = await new InvoiceService(quiet).generate(ublOf(d), { format: 'UBL', lang: 'en', noWarnings: true });
  return typeof xml === 'string' ? xml : Buffer.from(xml).toString('utf8');
}

type Kind = 'invoices' | 'credit_notes';

/** The agency's name, postal address and VAT number, which every e-invoice carries (its Peppol address). */
async function sellerOf(ctx: EngineContext): Promise<UblParty> {
  // The agency's settings (/appsetting/agencysetting): its trading name (BT-28), legal name (BT-27, the trading name
  // when it gave none), VAT number and address.
  const [row] = await ctx.db.query<{
    name: string;
    legal_name: string | null;
    vat_number: string | null;
    email: string | null;
    address: Address;
  }>(
    `select m.company_name as name, a.legal_name, a.vat_number, a.address, m.email
       from merchants m left join agency_settings a on a.merchant_id = m.id where m.id = $1`,
    [ctx.principal.merchantId],
  );
  if (!row?.vat_number?.trim())
    throw new HttpError(
      409,
      'An e-invoice carries the agency’s VAT number, which is its Peppol address: give it in the agency settings first.',
    );
  return {
    name: row.name,
    legalName: row.legal_name?.trim() || null,
    vatNumber: row.vat_number,
    address: row.address,
    email: row.email,
  };
}

async function buyerOf(ctx: EngineContext, clientId: number): Promise<UblParty> {
  const [c] = await ctx.db.query<{
    name: string;
    vat_number: string | null;
    address: Address;
    email: string | null;
  }>(
    `select name, vat_number, address, coalesce(nullif(billing_email, ''), email) as email
       from clients where merchant_id = $1 and id = $2`,
    [ctx.principal.merchantId, clientId],
  );
  if (!c?.vat_number?.trim())
    throw new HttpError(
      409,
      `An e-invoice is addressed to the client’s Peppol address, its VAT number: give ${c?.name ?? 'the client'}’s VAT number first.`,
    );
  return { name: c.name, vatNumber: c.vat_number, address: c.address, email: c.email };
}

const categoryOf = (treatment: string) => (treatment === 'exempt' ? 'E' : 'S');

async function documentOf(ctx: EngineContext, kind: Kind, record: Record<string, unknown>): Promise<UblDocument> {
  const m = ctx.principal.merchantId;
  const id = Number(record.id);
  if (kind === 'invoices') {
    const [inv] = await ctx.db.query<{
      number: string | null;
      state: string;
      issue_date: string;
      due_date: string | null;
      po_number: string | null;
      client_id: number;
      net: number;
      vat: number;
      total: number;
    }>(
      `select number, state, to_char(issue_date, 'YYYY-MM-DD') as issue_date, to_char(due_date, 'YYYY-MM-DD') as due_date,
              po_number, client_id, net, vat, total from invoices where merchant_id = $1 and id = $2`,
      [m, id],
    );
    if (!ISSUED_STATES.includes(inv.state) || !inv.number)
      throw new HttpError(
        409,
        inv.state === 'void'
          ? 'This invoice was voided before it was issued: it has no e-invoice.'
          : 'This invoice is a draft: it has an e-invoice once it is issued and numbered.',
      );
    const lines = await ctx.db.query<{
      description: string;
      quantity: string | number;
      unit_price: number;
      net: number;
      vat: number;
      vat_treatment: string;
      vat_rate: number | null;
      work_date: string;
    }>(
      `select description, quantity, unit_price, net, vat, vat_treatment, vat_rate, to_char(work_date, 'YYYY-MM-DD') as work_date
         from invoice_lines where merchant_id = $1 and invoice_id = $2 order by work_date, id`,
      [m, id],
    );
    return {
      kind: 'invoice',
      number: inv.number,
      issuedOn: inv.issue_date,
      dueOn: inv.due_date,
      poNumber: inv.po_number?.trim() || null,
      corrects: null,
      seller: await sellerOf(ctx),
      buyer: await buyerOf(ctx, inv.client_id),
      lines: lines.map((l) => ({
        description: l.description,
        minutes: Math.round(Number(l.quantity) * 60),
        unitPrice: Number(l.unit_price),
        net: Number(l.net),
        vat: Number(l.vat),
        category: categoryOf(l.vat_treatment),
        rate: Number(l.vat_rate ?? 0),
        serviceDate: l.work_date,
      })),
      net: Number(inv.net),
      vat: Number(inv.vat),
      total: Number(inv.total),
    };
  }
  const [note] = await ctx.db.query<{
    number: string;
    issue_date: string;
    client_id: number;
    net: number;
    vat: number;
    total: number;
    invoice_number: string;
    invoice_issued: string;
    po_number: string | null;
  }>(
    `select c.number, to_char(c.issue_date, 'YYYY-MM-DD') as issue_date, c.client_id, c.net, c.vat, c.total,
            i.number as invoice_number, to_char(i.issue_date, 'YYYY-MM-DD') as invoice_issued, i.po_number
       from credit_notes c join invoices i on i.merchant_id = c.merchant_id and i.id = c.invoice_id
      where c.merchant_id = $1 and c.id = $2`,
    [m, id],
  );
  const lines = await ctx.db.query<{
    description: string;
    net: number;
    vat: number;
    vat_treatment: string;
    vat_rate: number;
    work_date: string | null;
  }>(
    `select n.description, n.net, n.vat, n.vat_treatment, n.vat_rate, to_char(l.work_date, 'YYYY-MM-DD') as work_date
       from credit_note_lines n left join invoice_lines l on l.merchant_id = n.merchant_id and l.id = n.invoice_line_id
      where n.merchant_id = $1 and n.credit_note_id = $2 order by n.id`,
    [m, id],
  );
  return {
    kind: 'credit_note',
    number: note.number,
    issuedOn: note.issue_date,
    dueOn: null,
    poNumber: note.po_number?.trim() || null,
    corrects: { number: note.invoice_number, issuedOn: note.invoice_issued },
    seller: await sellerOf(ctx),
    buyer: await buyerOf(ctx, note.client_id),
    lines: lines.map((l) => ({
      description: l.description,
      minutes: null,
      unitPrice: null,
      net: Number(l.net),
      vat: Number(l.vat),
      category: categoryOf(l.vat_treatment),
      rate: Number(l.vat_rate),
      serviceDate: l.work_date,
    })),
    net: Number(note.net),
    vat: Number(note.vat),
    total: Number(note.total),
  };
}

function registerUbl(app: FastifyInstance, kind: Kind) {
  const label = kind === 'invoices' ? 'invoice' : 'credit note';
  route(app, {
    method: 'GET',
    url: `/api/${kind}/:id/ubl`,
    may: { [kind]: 'show' },
    // In the caller's row scope: another client's document, or a client's draft, answers 404.
    record: kind,
    schema: {
      tags: [kind === 'invoices' ? 'Invoices' : 'Credit notes'],
      summary: `The issued ${label} as an e-invoice (EN 16931 UBL 2.1, Peppol BIS Billing 3.0)`,
      description: `409 in words for a ${label} not issued, or when the agency's or the client's VAT number (their Peppol address) is missing.`,
      params: IdParams,
      response: { 200: fileAnswer([UBL_TYPE], 'The UBL XML document') },
    },
    handler: async ({ reply, ctx, record }) => {
      const d = await documentOf(ctx, kind, record);
      const xml = await ublXml(d);
      return reply
        .header('content-type', `${UBL_TYPE}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="${d.number}.xml"`)
        .header('cache-control', 'no-store')
        .send(xml);
    },
  });
}

/** The e-invoices of the invoices area. */
export async function ublRoutes(app: FastifyInstance) {
  registerUbl(app, 'invoices');
  registerUbl(app, 'credit_notes');
}
