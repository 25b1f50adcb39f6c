// Issued invoices and credit notes as rows of the accounting packages' import files (issue 32, exports): Xero's
// sales-invoice and credit-note CSV templates and QuickBooks Online's invoice import. Rows are arrays (text as
// strings, amounts and quantities as numbers); the route writes them with CSV_OPTIONS (core/engine/exportFormat.ts),
// whose escape_formulas neutralises text starting with = + - @ and leaves negative numbers alone, so amounts must
// stay numbers here. docs/decisions.md, "Issue 32.5" and "Issue 32.6".
import { amountForMinutes, formatVatRate, penceToPounds } from '../../engine/money';

/** A line of an issued document, as its export reads it. Amounts in pence, negative on a credit note. */
export interface ExportLine {
  description: string;
  /** Hours worked, in minutes; null for a line that is an amount (a charge, a credited amount). */
  minutes: number | null;
  /** Pence an hour ex VAT (never negative); null for an amount. */
  unitPrice: number | null;
  net: number;
  vat: number;
  category: string;
  rate: number;
  /** The day of the work ('yyyy-MM-dd'). */
  serviceDate: string | null;
}

export interface ExportDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedOn: string;
  /** A credit note has none: it is due on its issue date. */
  dueOn: string | null;
  contact: {
    name: string;
    email?: string | null;
    address?: { line1?: string; line2?: string; city?: string; postcode?: string; country?: string } | null;
  };
  /** The PO number of an invoice; for a credit note, the invoice it corrects is named instead. */
  reference: string | null;
  /** For a credit note: the number of the invoice it corrects. */
  creditsInvoice?: string | null;
  lines: ExportLine[];
}

export type Cell = string | number;
export interface ExportFiles {
  header: string[];
  /** One file's rows each; a file never holds more documents than the package imports at once. */
  files: Cell[][][];
  /** Documents the package's import cannot take, each with what to do instead. */
  skipped: { number: string; message: string }[];
}

/** Tax-rate names as the package shows them, by VAT category and rate ('S:2000'): the agency may have renamed them. */
export type TaxNames = Record<string, string>;

// Xero's default UK tax rates (Xero help, "Default tax rates in Xero"); the import names a rate by its display name.
export const XERO_TAX_NAMES: TaxNames = {
  'S:2000': '20% (VAT on Income)',
  'R:500': '5% (VAT on Income)',
  'Z:0': 'Zero Rated Income',
  'E:0': 'Exempt Income',
};
// QuickBooks Online UK's VAT codes.
export const QUICKBOOKS_TAX_NAMES: TaxNames = {
  'S:2000': '20.0% S',
  'R:500': '5.0% R',
  'Z:0': '0.0% Z',
  'E:0': 'Exempt',
};

/** Xero imports at most 500 invoices a file (Xero help, "Import invoices"). */
export const XERO_MAX_DOCUMENTS = 500;

// Xero's sales-invoice template, every column in its order; '*' marks what Xero requires. The template has no tax
// amount: Xero works each line's VAT from the quantity, unit amount and tax rate, line by line as we do.
export const XERO_HEADER = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
];

/** Xero's credit-note template: the invoice template's columns with the credit note's number and date, no due date. */
export const XERO_CREDIT_NOTE_HEADER = XERO_HEADER.filter((h) => h !== '*DueDate').map((h) =>
  h === '*InvoiceNumber' ? '*CreditNoteNumber' : h === '*InvoiceDate' ? '*CreditNoteDate' : h,
);

export const QUICKBOOKS_HEADER = [
  'InvoiceNo',
  'Customer',
  'InvoiceDate',
  'DueDate',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'ItemTaxCode',
  'ItemTaxAmount',
  'ServiceDate',
];

/** A UK date as both packages read it in a UK organisation: '2026-03-02' → '02/03/2026'. */
export const ukDate = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/**
 * A line's quantity and unit amount such that quantity × unit amount is its net exactly, in any rounding mode: the
 * hours and hourly rate when they multiply to the net with no fraction of a penny left over (and the hours are
 * whole hundredths), else 1 × the net. The package then recomputes the same line amount as the invoice shows.
 */
export function quantityAndUnit(line: ExportLine): { quantity: number; unit: number } {
  const sign = line.net < 0 ? -1 : 1;
  const { minutes, unitPrice } = line;
  if (
    minutes !== null &&
    unitPrice !== null &&
    minutes > 0 &&
    minutes % 3 === 0 &&
    (minutes * unitPrice) % 60 === 0 &&
    amountForMinutes(minutes, unitPrice) === Math.abs(line.net)
  )
    return { quantity: minutes / 60, unit: sign * penceToPounds(unitPrice) };
  return { quantity: 1, unit: penceToPounds(line.net) };
}

function taxName(names: TaxNames, line: ExportLine, packageName: string): string {
  const name = names[`${line.category}:${line.rate}`];
  if (!name)
    throw new Error(
      `No ${packageName} tax rate is named for VAT category ${line.category} at ${formatVatRate(line.rate)}: ` +
        'name it in the export settings.',
    );
  return name;
}

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

const creditReference = (d: ExportDocument) =>
  d.kind === 'credit_note' && d.creditsInvoice ? `Credit for ${d.creditsInvoice}` : (d.reference ?? '');

/** Xero's import row of one line: the template's columns in order, with the document's number and dates. */
function xeroRow(d: ExportDocument, l: ExportLine, settings: { accountCode: string }, names: TaxNames, dated: Cell[]) {
  const { quantity, unit } = quantityAndUnit(l);
  const a = d.contact.address ?? {};
  // A credit note is imported through Xero's own credit-note import, with its amounts positive: Xero books it as a
  // credit of the customer's account (docs/decisions.md, "Issue 32.6").
  const sign = d.kind === 'credit_note' ? -1 : 1;
  return [
    d.contact.name,
    d.contact.email ?? '',
    a.line1 ?? '',
    a.line2 ?? '',
    '',
    '',
    a.city ?? '',
    '',
    a.postcode ?? '',
    a.country ?? '',
    d.number,
    creditReference(d),
    ...dated,
    '',
    l.description,
    quantity,
    sign * unit,
    '',
    settings.accountCode,
    taxName(names, l, 'Xero'),
    '',
    '',
    '',
    '',
    'GBP',
    '',
  ];
}

/** Xero's sales-invoice import: the invoices only (credit notes have an import of their own, xeroCreditNoteRows). */
export function xeroRows(
  docs: readonly ExportDocument[],
  settings: { accountCode: string; taxNames?: TaxNames },
): ExportFiles {
  const names = settings.taxNames ?? XERO_TAX_NAMES;
  const rowsOf = (d: ExportDocument): Cell[][] =>
    d.lines.map((l) => xeroRow(d, l, settings, names, [ukDate(d.issuedOn), ukDate(d.dueOn ?? d.issuedOn)]));
  return {
    header: XERO_HEADER,
    files: chunks(
      docs.filter((d) => d.kind === 'invoice'),
      XERO_MAX_DOCUMENTS,
    ).map((file) => file.flatMap(rowsOf)),
    skipped: [],
  };
}

/**
 * Xero's credit-note import (Sales → Credit notes → Import): the sales-invoice template with CreditNoteNumber and
 * CreditNoteDate in place of InvoiceNumber, InvoiceDate and DueDate (a credit note falls due at once), amounts
 * positive. At most 500 credit notes a file, as for invoices.
 */
export function xeroCreditNoteRows(
  docs: readonly ExportDocument[],
  settings: { accountCode: string; taxNames?: TaxNames },
): ExportFiles {
  const names = settings.taxNames ?? XERO_TAX_NAMES;
  const rowsOf = (d: ExportDocument): Cell[][] =>
    d.lines.map((l) => xeroRow(d, l, settings, names, [ukDate(d.issuedOn)]));
  return {
    header: XERO_CREDIT_NOTE_HEADER,
    files: chunks(
      docs.filter((d) => d.kind === 'credit_note'),
      XERO_MAX_DOCUMENTS,
    ).map((file) => file.flatMap(rowsOf)),
    skipped: [],
  };
}

/**
 * QuickBooks Online's invoice import. It imports invoices only (a negative invoice is refused), so a credit note is
 * left out with what to do instead; it is entered in QuickBooks as a credit note.
 */
export function quickbooksRows(
  docs: readonly ExportDocument[],
  settings: { item: string; taxNames?: TaxNames },
): ExportFiles {
  const names = settings.taxNames ?? QUICKBOOKS_TAX_NAMES;
  const invoices = docs.filter((d) => d.kind === 'invoice');
  const rows = invoices.flatMap((d) =>
    d.lines.map((l): Cell[] => {
      const { quantity, unit } = quantityAndUnit(l);
      return [
        d.number,
        d.contact.name,
        ukDate(d.issuedOn),
        ukDate(d.dueOn ?? d.issuedOn),
        d.reference ?? '',
        settings.item,
        l.description,
        quantity,
        unit,
        penceToPounds(l.net),
        taxName(names, l, 'QuickBooks'),
        penceToPounds(l.vat),
        l.serviceDate ? ukDate(l.serviceDate) : '',
      ];
    }),
  );
  return {
    header: QUICKBOOKS_HEADER,
    files: rows.length ? [rows] : [],
    skipped: docs
      .filter((d) => d.kind === 'credit_note')
      .map((d) => ({
        number: d.number,
        message: `QuickBooks Online’s invoice import takes no credit notes: enter ${d.number} in QuickBooks as a credit note.`,
      })),
  };
}
