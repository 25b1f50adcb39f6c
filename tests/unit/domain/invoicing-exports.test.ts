// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import { CSV_OPTIONS } from '../../../core/engine/exportFormat';
import { amountForMinutes } from '../../../core/engine/money';
import {
  quantityAndUnit,
  quickbooksRows,
  ukDate,
  xeroCreditNoteRows,
  xeroRows,
  XERO_CREDIT_NOTE_HEADER,
  XERO_HEADER,
  type ExportDocument,
  type ExportLine,
} from '../../../core/domain/invoicing/exports';

// Issue 32.5: issued documents as the rows of Xero's sales-invoice import and QuickBooks Online's invoice import.
// Worked by hand: a registered nurse, 12 h (720 min) at £45.00 = £540.00, exempt; a care assistant, 37.5 h
// (2,250 min) at £24.50 = £918.75, VAT £183.75 at 20%.
const nurse: ExportLine = {
  description: 'Registered nurse, A. Patel, Mon 2 Mar 2026 08:00–20:00',
  minutes: 720,
  unitPrice: 4500,
  net: 54_000,
  vat: 0,
  category: 'E',
  rate: 0,
  serviceDate: '2026-03-02',
};
const carer: ExportLine = {
  description: 'Care assistant, B. Jones, week of 2 Mar 2026',
  minutes: 2250,
  unitPrice: 2450,
  net: 91_875,
  vat: 18_375,
  category: 'S',
  rate: 2000,
  serviceDate: '2026-03-06',
};
const invoice: ExportDocument = {
  kind: 'invoice',
  number: 'INV-0042',
  issuedOn: '2026-03-09',
  dueOn: '2026-04-08',
  contact: {
    name: 'St Mary’s Hospice',
    email: 'accounts@stmarys.example',
    address: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA', country: 'United Kingdom' },
  },
  reference: 'PO-7781',
  lines: [nurse, carer],
};
const credit: ExportDocument = {
  kind: 'credit_note',
  number: 'CN-0007',
  issuedOn: '2026-03-20',
  dueOn: null,
  contact: { name: 'St Mary’s Hospice' },
  reference: null,
  creditsInvoice: 'INV-0042',
  lines: [
    { ...carer, net: -91_875, vat: -18_375 },
    { ...carer, description: 'Goodwill: late start', minutes: null, unitPrice: null, net: -6323, vat: -1265 },
  ],
};
const col = (row: (string | number)[], name: string) => row[XERO_HEADER.indexOf(name)];

describe('xeroRows', () => {
  it('writes an invoice line by line in Xero’s template, with UK dates and Xero’s UK tax-rate names', () => {
    const { header, files } = xeroRows([invoice], { accountCode: '200' });
    expect(header).toEqual([
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
    ]);
    expect(files).toHaveLength(1);
    const pick = (r: (string | number)[]) =>
      [
        '*ContactName',
        'POCity',
        '*InvoiceNumber',
        'Reference',
        '*InvoiceDate',
        '*DueDate',
        '*Quantity',
        '*UnitAmount',
        '*AccountCode',
        '*TaxType',
      ].map((n) => col(r, n));
    expect(files[0].map(pick)).toEqual([
      ['St Mary’s Hospice', 'Leeds', 'INV-0042', 'PO-7781', '09/03/2026', '08/04/2026', 12, 45, '200', 'Exempt Income'],
      [
        'St Mary’s Hospice',
        'Leeds',
        'INV-0042',
        'PO-7781',
        '09/03/2026',
        '08/04/2026',
        37.5,
        24.5,
        '200',
        '20% (VAT on Income)',
      ],
    ]);
    for (const row of files[0]) expect(row).toHaveLength(XERO_HEADER.length);
  });

  it('leaves credit notes to Xero’s credit-note import', () => {
    expect(xeroRows([credit], { accountCode: '200' }).files).toEqual([]);
  });

  it('writes a credit note for Xero’s credit-note import, positive, naming the invoice it corrects', () => {
    const { header, files } = xeroCreditNoteRows([invoice, credit], { accountCode: '200' });
    expect(header).toEqual(
      XERO_HEADER.filter((h) => h !== '*DueDate').map((h) =>
        h === '*InvoiceNumber' ? '*CreditNoteNumber' : h === '*InvoiceDate' ? '*CreditNoteDate' : h,
      ),
    );
    const cn = (r: (string | number)[], n: string) => r[XERO_CREDIT_NOTE_HEADER.indexOf(n)];
    expect(
      files[0].map((r) =>
        ['*CreditNoteNumber', 'Reference', '*CreditNoteDate', '*Quantity', '*UnitAmount', '*TaxType'].map((n) =>
          cn(r, n),
        ),
      ),
    ).toEqual([
      ['CN-0007', 'Credit for INV-0042', '20/03/2026', 37.5, 24.5, '20% (VAT on Income)'],
      ['CN-0007', 'Credit for INV-0042', '20/03/2026', 1, 63.23, '20% (VAT on Income)'],
    ]);
    for (const row of files[0]) expect(row).toHaveLength(XERO_CREDIT_NOTE_HEADER.length);
  });

  it('puts at most 500 documents in a file', () => {
    const docs = Array.from({ length: 501 }, (_, i) => ({ ...invoice, number: `INV-${i}`, lines: [carer] }));
    const { files } = xeroRows(docs, { accountCode: '200' });
    expect(files.map((f) => new Set(f.map((r) => col(r, '*InvoiceNumber'))).size)).toEqual([500, 1]);
  });

  it('refuses, in words, a rate it has no name for', () => {
    expect(() => xeroRows([{ ...invoice, lines: [{ ...carer, rate: 2100 }] }], { accountCode: '200' })).toThrow(
      'No Xero tax rate is named for VAT category S at 21%: name it in the export settings.',
    );
  });

  it('written with CSV_OPTIONS, text that a spreadsheet would run is neutralised and negative amounts stay numbers', () => {
    // An invoice line may be negative (a refund of an earlier overcharge): it stays a number.
    const hostile: ExportDocument = {
      ...credit,
      kind: 'invoice',
      contact: { name: '=HYPERLINK("http://x","pay")' },
      lines: [
        { ...credit.lines[1], description: '-2+3' },
        { ...credit.lines[1], description: '@SUM(A1)' },
      ],
    };
    const { header, files } = xeroRows([hostile], { accountCode: '+200' });
    const text = stringify([header, ...files[0]], { ...CSV_OPTIONS, header: false });
    const back: string[][] = parse(text, { bom: true });
    expect(back[0][0]).toBe('*ContactName');
    const row = back[1];
    expect(row[XERO_HEADER.indexOf('*ContactName')]).toBe('\'=HYPERLINK("http://x","pay")');
    expect(back.slice(1).map((r) => r[XERO_HEADER.indexOf('*Description')])).toEqual(["'-2+3", "'@SUM(A1)"]);
    expect(row[XERO_HEADER.indexOf('*AccountCode')]).toBe("'+200");
    expect(row[XERO_HEADER.indexOf('*UnitAmount')]).toBe('-63.23');
    expect(row[XERO_HEADER.indexOf('*Quantity')]).toBe('1');
  });
});

describe('quickbooksRows', () => {
  it('writes invoices in QuickBooks Online’s import columns and leaves credit notes out, saying what to do', () => {
    const r = quickbooksRows([invoice, credit], { item: 'Services' });
    expect(r.header).toEqual([
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
    ]);
    expect(r.files).toEqual([
      [
        [
          'INV-0042',
          'St Mary’s Hospice',
          '09/03/2026',
          '08/04/2026',
          'PO-7781',
          'Services',
          nurse.description,
          12,
          45,
          540,
          'Exempt',
          0,
          '02/03/2026',
        ],
        [
          'INV-0042',
          'St Mary’s Hospice',
          '09/03/2026',
          '08/04/2026',
          'PO-7781',
          'Services',
          carer.description,
          37.5,
          24.5,
          918.75,
          '20.0% S',
          183.75,
          '06/03/2026',
        ],
      ],
    ]);
    expect(r.skipped).toEqual([
      {
        number: 'CN-0007',
        message:
          'QuickBooks Online’s invoice import takes no credit notes: enter CN-0007 in QuickBooks as a credit note.',
      },
    ]);
  });
});

describe('quantityAndUnit: quantity × unit amount is the line’s net exactly', () => {
  const line = (minutes: number | null, unitPrice: number | null, net: number): ExportLine => ({
    ...carer,
    minutes,
    unitPrice,
    net,
  });
  it.each<[string, ExportLine, { quantity: number; unit: number }]>([
    ['37.5 h at £24.50', line(2250, 2450, 91_875), { quantity: 37.5, unit: 24.5 }],
    ['3 h 50 min is 3.8333… h: 1 × £115.00', line(230, 3000, 11_500), { quantity: 1, unit: 115 }],
    ['45 min at £24.51 is 1,838.25p, rounded: 1 × £18.38', line(45, 2451, 1838), { quantity: 1, unit: 18.38 }],
    ['a flat charge that is not hours × rate', line(240, 2000, 10_000), { quantity: 1, unit: 100 }],
    ['an amount', line(null, null, -6323), { quantity: 1, unit: -63.23 }],
    ['a credited line', line(2250, 2450, -91_875), { quantity: 37.5, unit: -24.5 }],
  ])('%s', (_name, l, expected) => {
    expect(quantityAndUnit(l)).toEqual(expected);
  });

  test.prop([fc.integer({ min: 1, max: 24 * 60 * 7 }), fc.integer({ min: 0, max: 20_000 }), fc.boolean()])(
    'for any hours and rate, quantity and unit multiply to the net in whole pence, with no rounding',
    (minutes, unitPrice, isCredit) => {
      const net = isCredit ? 0 - amountForMinutes(minutes, unitPrice) : amountForMinutes(minutes, unitPrice);
      const { quantity, unit } = quantityAndUnit(line(minutes, unitPrice, net));
      const hundredths = quantity * 100;
      const pence = unit * 100;
      // Both are exact hundredths, and their product is whole pence equal to the net.
      expect(Number.isInteger(Number(hundredths.toPrecision(12)))).toBe(true);
      expect(Number.isInteger(Number(pence.toPrecision(12)))).toBe(true);
      const product = Number(hundredths.toPrecision(12)) * Number(pence.toPrecision(12));
      expect(Math.abs(product % 100)).toBe(0);
      expect(product / 100).toBe(net);
    },
  );
});

describe('ukDate', () => {
  it('writes a date as a UK organisation imports it', () => {
    expect(ukDate('2026-03-02')).toBe('02/03/2026');
  });
});
