import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, type DemoIds } from './timesheetKit';
import { ruleFailures, xsdErrors } from '../einvoice';
import { decimalPounds } from '../../core/engine/money';
import { EXEMPTION_REASON } from '../../server/exports/ubl';

// E-invoices (issue 32): an issued invoice or credit note as EN 16931 UBL 2.1 following Peppol BIS Billing 3.0,
// checked as an access point would check it (the UBL 2.1 schema, then the EN 16931 and Peppol rules), its totals
// the API's to the penny; a draft answers in words; a client's users read only their own (404 otherwise).
const TODAY = '2031-03-10';
let t: TestApp;
let admin: string;
let client: string;
let client2: string;
let ids: DemoIds;

beforeAll(async () => {
  t = await makeTestApp({ now: `${TODAY}T12:00:00Z` });
  [admin, client, client2] = await Promise.all(['admin', 'client', 'client2'].map((w) => loginAs(t.app, w as 'admin')));
  ids = await demoIds(t);
  // The agency's VAT number is its Peppol address (the agency settings).
  await fixtureWrite(t.db, `update agency_settings set vat_number = 'GB 123 4567 89' where merchant_id = $1`, [
    ids.merchantId,
  ]);
});
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};

/** A draft of client A: standard (8 h at £20.00), exempt nursing (7.5 h at £30.01), standard (3.8333 h at £19.99). */
async function draft() {
  const inv = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId }), 201);
  const line = (body: Record<string, unknown>) =>
    call(t.app, admin, 'POST', '/api/invoice_lines', { invoice_id: inv.id, work_date: '2031-03-03', ...body });
  await ok(await line({ description: 'Care assistant, 3 Mar', quantity: 8, unit_price: 2000 }), 201);
  await ok(
    await line({ description: 'Registered nurse, 3 Mar', quantity: 7.5, unit_price: 3001, vat_treatment: 'exempt' }),
    201,
  );
  await ok(await line({ description: 'Care assistant, 4 Mar', quantity: 3.8333, unit_price: 1999 }), 201);
  return Number(inv.id);
}

const ublOf = (token: string, path: string) => call(t.app, token, 'GET', path);
const tag = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<cbc:${name}[^>]*>([^<]*)</cbc:${name}>`, 'g'))].map((m) => m[1]);

describe('an issued invoice with exempt and standard lines side by side', () => {
  let inv: any;
  let xml: string;

  beforeAll(async () => {
    const id = await draft();
    await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/issue`, {}));
    inv = await ok(await call(t.app, admin, 'GET', `/api/invoices/${id}`));
    const res = await ublOf(admin, `/api/invoices/${id}/ubl`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${inv.number}.xml"`);
    xml = res.body;
  });

  it('is valid UBL 2.1 and breaks no EN 16931 or Peppol BIS 3.0 rule', async () => {
    expect(await xsdErrors(xml)).toEqual([]);
    expect(await ruleFailures(xml)).toEqual([]);
    expect(tag(xml, 'CustomizationID')).toEqual([
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    ]);
  });

  it('gives the agency’s postal address and legal name from its agency settings as the seller’s', async () => {
    const [{ address, legal_name }] = await t.db.query<{
      address: { line1: string; postcode: string };
      legal_name: string;
    }>('select address, legal_name from agency_settings where merchant_id = $1', [ids.merchantId]);
    const seller = /<cac:AccountingSupplierParty>([\s\S]*?)<\/cac:AccountingSupplierParty>/.exec(xml)![1];
    expect(tag(seller, 'StreetName')).toEqual([address.line1]);
    expect(tag(seller, 'PostalZone')).toEqual([address.postcode]);
    // The registered name (BT-27) beside the name it trades under (BT-28).
    expect(legal_name).toBe('Brightway Staffing Ltd');
    expect(tag(seller, 'RegistrationName')).toEqual([legal_name]);
  });

  it('carries the API’s totals exactly, the exempt lines as category E with the reason, the others S at 20%', () => {
    expect(tag(xml, 'ID')[0]).toBe(inv.number);
    expect(tag(xml, 'TaxExclusiveAmount')).toEqual([decimalPounds(inv.net)]);
    expect(tag(xml, 'TaxInclusiveAmount')).toEqual([decimalPounds(inv.total)]);
    expect(tag(xml, 'PayableAmount')).toEqual([decimalPounds(inv.total)]);
    // The document's VAT, then each category's.
    expect(tag(xml, 'TaxAmount')).toEqual([decimalPounds(inv.vat), decimalPounds(inv.vat), '0.00']);
    expect(tag(xml, 'TaxableAmount')).toEqual([decimalPounds(inv.standard_net), decimalPounds(inv.exempt_net)]);
    expect(tag(xml, 'TaxExemptionReason')).toEqual([EXEMPTION_REASON]);
    const lines = [...xml.matchAll(/<cac:InvoiceLine>([\s\S]*?)<\/cac:InvoiceLine>/g)].map((m) => ({
      quantity: tag(m[1], 'InvoicedQuantity')[0],
      unit: /unitCode="([^"]+)"/.exec(m[1])![1],
      net: tag(m[1], 'LineExtensionAmount')[0],
      category: tag(m[1], 'ID')[1],
      percent: tag(m[1], 'Percent')[0],
      price: tag(m[1], 'PriceAmount')[0],
    }));
    expect(lines).toEqual([
      { quantity: '8', unit: 'HUR', net: '160.00', category: 'S', percent: '20', price: '20.00' },
      // 7.5 h × £30.01 (£225.075, billed £225.08) and 3.8333 h × £19.99 are no whole number of pence: one unit of
      // the line's net each, so quantity × price is the line's net (Peppol's line rule).
      { quantity: '1', unit: 'C62', net: '225.08', category: 'E', percent: '0', price: '225.08' },
      { quantity: '1', unit: 'C62', net: lines[2].net, category: 'S', percent: '20', price: lines[2].net },
    ]);
    expect(inv.net).toBe(16000 + 22508 + Math.round(Number(lines[2].net) * 100));
  });

  it('would be refused by the rules if its totals were not its lines’', async () => {
    // The validation is no formality: the same document with a penny more to pay breaks EN 16931's sums.
    const tampered = xml.replace(
      /(<cbc:PayableAmount[^>]*>)([^<]*)/,
      (_m, open) => `${open}${decimalPounds(inv.total + 1)}`,
    );
    expect((await ruleFailures(tampered)).map((f) => f.id)).toContain('BR-CO-16');
    const noBuyer = xml.replace(/<cac:AccountingCustomerParty>[\s\S]*<\/cac:AccountingCustomerParty>/, '');
    expect((await xsdErrors(noBuyer)).length).toBeGreaterThan(0);
  });

  it('is read by the client’s own users only', async () => {
    const own = await ublOf(client, `/api/invoices/${inv.id}/ubl`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.body).toBe(xml);
    expect((await ublOf(client2, `/api/invoices/${inv.id}/ubl`)).statusCode).toBe(404);
  });
});

describe('a credit note', () => {
  it('is a valid UBL CreditNote naming its invoice, with positive amounts that are the API’s', async () => {
    const id = await draft();
    await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/issue`, {}));
    const invoice = await ok(await call(t.app, admin, 'GET', `/api/invoices/${id}`));
    const lines = await ok(await call(t.app, admin, 'GET', `/api/invoice_lines?invoice_id=${id}`));
    await ok(
      await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/credit`, {
        kind: 'lines',
        line_ids: lines.slice(0, 2).map((l: { id: number }) => l.id),
        reason: 'Hours disputed',
      }),
    );
    const [note] = await ok(await call(t.app, admin, 'GET', `/api/credit_notes?invoice_id=${id}`));
    const res = await ublOf(admin, `/api/credit_notes/${note.id}/ubl`);
    expect(res.statusCode, res.body).toBe(200);
    const xml = res.body;
    expect(xml).toMatch(/<CreditNote\s/);
    expect(await xsdErrors(xml)).toEqual([]);
    expect(await ruleFailures(xml)).toEqual([]);
    expect(tag(xml, 'CreditNoteTypeCode')).toEqual(['381']);
    // Its own number, and the invoice it credits as its billing reference (BT-25).
    expect(xml).toMatch(new RegExp(`</cbc:ProfileID>\\s*<cbc:ID>${note.number}</cbc:ID>`));
    expect(xml).toMatch(
      new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${invoice.number}</cbc:ID>`),
    );
    // Stored negative (it takes off the invoice), written positive as a credit note.
    expect(note.total).toBeLessThan(0);
    expect(tag(xml, 'PayableAmount')).toEqual([decimalPounds(-note.total)]);
    expect(tag(xml, 'TaxExclusiveAmount')).toEqual([decimalPounds(-note.net)]);
    expect(tag(xml, 'TaxAmount')[0]).toBe(decimalPounds(-note.vat));
    expect(tag(xml, 'TaxExemptionReason')).toEqual([EXEMPTION_REASON]);
    // Client A's users read it; client B's find nothing.
    expect((await ublOf(client, `/api/credit_notes/${note.id}/ubl`)).statusCode).toBe(200);
    expect((await ublOf(client2, `/api/credit_notes/${note.id}/ubl`)).statusCode).toBe(404);
  });
});

describe('a document that is no e-invoice yet', () => {
  it('answers a draft in words, and hides it from the client as every draft is hidden', async () => {
    const id = await draft();
    const res = await ublOf(admin, `/api/invoices/${id}/ubl`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This invoice is a draft: it has an e-invoice once it is issued and numbered.');
    expect((await ublOf(client, `/api/invoices/${id}/ubl`)).statusCode).toBe(404);
  });

  it('names the VAT number it lacks', async () => {
    const id = await draft();
    await ok(await call(t.app, admin, 'POST', `/api/invoices/${id}/actions/issue`, {}));
    const [c] = await t.db.query<{ vat_number: string; name: string }>(
      'select vat_number, name from clients where id = $1',
      [ids.clientId],
    );
    await fixtureWrite(t.db, 'update clients set vat_number = null where id = $1', [ids.clientId]);
    try {
      const res = await ublOf(admin, `/api/invoices/${id}/ubl`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        `An e-invoice is addressed to the client’s Peppol address, its VAT number: give ${c.name}’s VAT number first.`,
      );
    } finally {
      await fixtureWrite(t.db, 'update clients set vat_number = $2 where id = $1', [ids.clientId, c.vat_number]);
    }
  });
});
