import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, type DemoIds } from './timesheetKit';
import { issuedMixedInvoice } from './invoiceKit';
import { pdfTextOf } from '../pdfText';
import { formatPounds, formatVatRate } from '../../core/engine/money';
import { formatDisplayDate } from '../../core/domain/time/agencyTime';
import { formatAddress } from '../../core/engine/exportFormat';

// Issue 32, PDF: the text read back from an issued invoice's kept PDF holds what a UK VAT invoice needs (VAT
// Regulations 1995 reg 14), its totals are the API's, and the client's copy
// carries nothing of the agency's own (no pay, no margin, no agency-only field).
let t: TestApp;
let admin: string;
let client: string;
let ids: DemoIds;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, client] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'client')]);
  ids = await demoIds(t);
});
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
/** The PDF as `token` is served it, read back as text with runs of white space (a wrapped cell) as one space. */
const textOf = async (id: number, template: string, token = client) => {
  const res = await call(t.app, token, 'GET', `/api/invoices/${id}/pdf?template=${template}`);
  expect(res.statusCode, res.body).toBe(200);
  // A cell may wrap after the dash of a line's times (07:00–\n15:00): read back as the one string it is.
  return pdfTextOf(res.rawPayload).replace(/\s+/g, ' ').replace(/– /g, '–');
};
const day = (d: string) => formatDisplayDate(d);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** What reg 14 asks of the invoice and each line, checked against the API's record as the client reads it. */
async function expectReg14(id: number, template: string) {
  const inv = await ok(await call(t.app, client, 'GET', `/api/invoices/${id}`));
  const lines = await ok(await call(t.app, client, 'GET', `/api/invoice_lines?invoice_id=${id}&per_page=100`));
  const [agency] = await t.db.query<{ company_name: string }>('select company_name from merchants where id = $1', [
    ids.merchantId,
  ]);
  const [who] = await t.db.query<{ name: string; address: unknown }>(
    'select name, address from clients where id = $1',
    [inv.client_id],
  );
  const [settings] = await t.db.query<{
    address: unknown;
    vat_number: string;
    bank_sort_code: string;
    bank_account_number: string;
    bank_account_name: string;
  }>(
    `select a.address, a.vat_number, s.bank_sort_code, s.bank_account_number, s.bank_account_name
       from invoice_settings s join agency_settings a on a.merchant_id = s.merchant_id where s.merchant_id = $1`,
    [ids.merchantId],
  );
  const text = await textOf(id, template);
  // The supplier's address and VAT number (the demo's settings give both), the terms and how to pay.
  expect(formatAddress(settings.address)).not.toBe('');
  expect(text).toContain(formatAddress(settings.address));
  expect(text).toContain(`VAT number ${settings.vat_number}`);
  const days = Math.round((Date.parse(inv.due_date) - Date.parse(inv.issue_date)) / 86_400_000);
  expect(text).toContain(`Payment terms: ${days} days from issue`);
  expect(text).toContain(
    `Pay by bank transfer to ${settings.bank_account_name}, sort code ${settings.bank_sort_code}, account ${settings.bank_account_number}, quoting ${inv.number}`,
  );
  // The number and issue date, the time of supply, when it is due.
  expect(text).toContain(`VAT invoice ${inv.number}`);
  expect(text).toContain(`Issued ${day(inv.issue_date)}`);
  expect(text).toContain(`Time of supply ${day(inv.time_of_supply)}`);
  expect(text).toContain(`Payment due by ${day(inv.due_date)}`);
  // The supplier's name; the customer's name and address.
  expect(text).toContain(agency.company_name);
  expect(text).toContain(`To ${who.name}`);
  expect(formatAddress(who.address)).not.toBe('');
  expect(text).toContain(formatAddress(who.address));
  // Each line: its description, date, hours, unit price ex VAT, VAT rate (or "Exempt") and net.
  expect(lines.length).toBeGreaterThan(0);
  for (const l of lines) {
    expect(text).toContain(l.description);
    expect(text).toContain(day(l.work_date));
    expect(text).toContain(String(Number(l.quantity)));
    expect(text).toContain(formatPounds(l.unit_price));
    expect(text).toContain(formatPounds(l.net));
  }
  // Totals ex VAT and VAT per rate, exempt supplies apart; the totals are the API's to the penny.
  const standard = lines.filter((l: any) => l.vat_treatment === 'standard');
  const exempt = lines.filter((l: any) => l.vat_treatment === 'exempt');
  const sum = (ls: any[], k: string) => ls.reduce((s, l) => s + Number(l[k]), 0);
  for (const rate of new Set<number>(standard.map((l: any) => Number(l.vat_rate)))) {
    const at = standard.filter((l: any) => Number(l.vat_rate) === rate);
    expect(text).toContain(
      `Standard rate ${formatVatRate(rate)}: net ${formatPounds(sum(at, 'net'))}, VAT ${formatPounds(sum(at, 'vat'))}`,
    );
  }
  if (exempt.length) expect(text).toContain(`Exempt: net ${formatPounds(sum(exempt, 'net'))}, VAT £0.00`);
  expect(inv.net).toBe(sum(lines, 'net'));
  expect(inv.vat).toBe(sum(lines, 'vat'));
  expect(text).toContain(
    `Total ex VAT ${formatPounds(inv.net)} · VAT ${formatPounds(inv.vat)} · Total ${formatPounds(inv.total)}`,
  );
  return { inv, lines, text };
}

describe('the kept PDF of an issued invoice', () => {
  it('holds every reg 14 field the product records, in both layouts, for a run’s invoice', async () => {
    // A demo run's invoice of the panel's client: its lines' descriptions name the staff member, role, date and times.
    const [demo] = await t.db.query<{ id: number }>(
      `select id from invoices where client_id = $1 and run_id is not null and state <> all('{draft,void}')
        order by id limit 1`,
      [ids.clientId],
    );
    for (const template of ['template1', 'template2']) {
      const { lines } = await expectReg14(demo.id, template);
      // staff member, role, date and the times (agency's zone, HH:mm).
      for (const l of lines) expect(l.description).toMatch(/^.+, .+, \d{4}-\d{2}-\d{2}, \d{2}:\d{2}–\d{2}:\d{2}$/);
    }
  });

  it('says "Exempt" on exempt lines and totals them apart from the standard-rated ones', async () => {
    const inv = await issuedMixedInvoice(t, admin, ids.clientId);
    for (const template of ['template1', 'template2']) {
      const { text } = await expectReg14(inv.id, template);
      expect(text).toContain('Exempt');
      expect(text).toContain('Standard rate 20%: net £160.00, VAT £32.00');
      expect(text).toContain('Exempt: net £225.08, VAT £0.00');
      expect(text).toContain('Total ex VAT £385.08 · VAT £32.00 · Total £417.08');
    }
  });

  it('gives the client its own kept copy: nothing of pay, margin or the agency’s own fields', async () => {
    const [demo] = await t.db.query<{ id: number; number: string; template: string; issued_by: string }>(
      `select id, number, template, issued_by from invoices where client_id = $1 and state <> all('{draft,void}')
        order by id limit 1`,
      [ids.clientId],
    );
    const [kept] = await t.db.query<{ data: Uint8Array }>(
      `select f.data from issued_documents d join files f on f.id = d.file_id
        where d.resource = 'invoices' and d.record_id = $1 and d.template = $2 and d.role = 'manager'`,
      [demo.id, demo.template],
    );
    const served = await call(t.app, client, 'GET', `/api/invoices/${demo.id}/pdf?template=${demo.template}`);
    const keptBytes = Buffer.from(kept.data);
    expect(
      { length: served.rawPayload.length, sha256: sha256(served.rawPayload) },
      `served ${served.statusCode} ${served.headers['content-type']}`,
    ).toEqual({ length: keptBytes.length, sha256: sha256(keptBytes) });
    const text = await textOf(demo.id, demo.template);
    // It is the invoice (an empty or unreadable copy would hold none of what follows either).
    expect(text).toContain(`VAT invoice ${demo.number}`);
    expect(text).not.toMatch(/Pay rate|Margin|Timesheet line|Run \d/i);
    expect(text).not.toContain(demo.issued_by);
  });
});
