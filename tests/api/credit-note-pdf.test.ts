import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, type DemoIds } from './timesheetKit';
import { issuedMixedInvoice } from './invoiceKit';
import { pdfTextOf } from '../pdfText';
import { formatPounds, formatVatRate } from '../../core/engine/money';
import { formatDisplayDate } from '../../core/domain/time/agencyTime';
import { formatAddress } from '../../core/engine/exportFormat';

// Issue 32: a credit note carries what its invoice does under reg 14 plus the invoice it corrects, in a PDF kept when
// it is made (after its lines, in the credit action's transaction) and served as kept from then on.
let t: TestApp;
let admin: string;
let client: string;
let otherClient: string;
let ids: DemoIds;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, client, otherClient] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'client2'),
  ]);
  ids = await demoIds(t);
});
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const day = (d: string) => formatDisplayDate(d);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pdf = (id: number, token = client) => call(t.app, token, 'GET', `/api/credit_notes/${id}/pdf`);

/** An issued invoice of the panel's client with a standard and an exempt line, credited as `body` says. */
async function credited(body: Record<string, unknown>) {
  const inv = await issuedMixedInvoice(t, admin, ids.clientId);
  await ok(await call(t.app, admin, 'POST', `/api/invoices/${inv.id}/actions/credit`, body));
  const [note] = await ok(await call(t.app, client, 'GET', `/api/credit_notes?invoice_id=${inv.id}`));
  return { invoice: await ok(await call(t.app, client, 'GET', `/api/invoices/${inv.id}`)), note };
}

describe('a credit note’s PDF', () => {
  it('is kept when the credit note is made and holds reg 14’s fields, the invoice corrected and the reason', async () => {
    await ok(await call(t.app, admin, 'PUT', '/api/agency_settings', { vat_number: 'GB 123 4567 89' }));
    const { invoice, note } = await credited({ kind: 'full', reason: 'Hours disputed by the ward' });
    // Kept by the credit action itself, before anybody asked for it: one copy per reading (agency's, client's).
    const kept = await t.db.query<{ role: string }>(
      `select role from issued_documents where resource = 'credit_notes' and record_id = $1 order by role`,
      [note.id],
    );
    expect(kept.map((k) => k.role)).toEqual(['admin', 'consultant', 'manager', 'viewer']);
    const lines = await ok(await call(t.app, client, 'GET', `/api/credit_note_lines?credit_note_id=${note.id}`));
    const [agency] = await t.db.query<{ company_name: string }>('select company_name from merchants where id = $1', [
      ids.merchantId,
    ]);
    const [who] = await t.db.query<{ name: string; address: unknown }>(
      'select name, address from clients where id = $1',
      [note.client_id],
    );
    const res = await pdf(note.id);
    expect(res.statusCode, res.body).toBe(200);
    const text = pdfTextOf(res.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain(`Credit note ${note.number}`);
    expect(text).toContain(`Issued ${day(note.issue_date)}`);
    expect(text).toContain(`Corrects invoice ${invoice.number} issued ${day(invoice.issue_date)}`);
    expect(text).toContain(agency.company_name);
    // The agency's address (its agency settings, in the one letterhead), VAT number and registration.
    const [settings] = await t.db.query<{ address: unknown }>(
      'select address from agency_settings where merchant_id = $1',
      [ids.merchantId],
    );
    expect(formatAddress(settings.address)).not.toBe('');
    expect(text).toContain(formatAddress(settings.address));
    expect(text).toContain('VAT number GB 123 4567 89');
    expect(text).toContain('Brightway Staffing Ltd, registered in England and Wales, company number 09876543');
    expect(text).toContain(`To ${who.name}`);
    expect(text).toContain(formatAddress(who.address));
    // Each line credited in full: its description, hours (negative), unit price, VAT rate or Exempt, net (negative).
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(Number(l.net)).toBeLessThan(0);
      expect(text).toContain(l.description);
      expect(text).toContain(formatPounds(l.net));
    }
    expect(text).toContain('-8 £20.00 20%');
    expect(text).toContain('-7.5 £30.01 Exempt');
    // Totals per rate and the total credited: the API's to the penny.
    const standard = lines.find((l: any) => l.vat_treatment === 'standard');
    expect(text).toContain(
      `Standard rate ${formatVatRate(20_00)}: net ${formatPounds(standard.net)}, VAT ${formatPounds(standard.vat)}`,
    );
    expect(text).toContain('Exempt: net -£225.08, VAT £0.00');
    expect(note.total).toBe(-invoice.total);
    expect(text).toContain(
      `Total ex VAT ${formatPounds(note.net)} · VAT ${formatPounds(note.vat)} · Total credited ${formatPounds(note.total)}`,
    );
    expect(text).toContain('Total ex VAT -£385.08 · VAT -£32.00 · Total credited -£417.08');
    expect(text).toContain('Reason: Hours disputed by the ward');
  });

  it('is served as kept: the same bytes twice, unchanged after the agency’s settings change', async () => {
    const { note } = await credited({ kind: 'amount', amount: 1000, reason: 'Goodwill' });
    const first = await pdf(note.id);
    const again = await pdf(note.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(sha256(again.rawPayload)).toBe(sha256(first.rawPayload));
    expect(first.headers.etag).toBe(`"${sha256(first.rawPayload)}"`);
    // An amount has no invoice line: no hours or unit price, the reason as the description of its share at each rate.
    const text = pdfTextOf(first.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Goodwill 20% -£4.15 Goodwill Exempt -£5.85');
    await ok(await call(t.app, admin, 'PUT', '/api/agency_settings', { vat_number: 'GB 999 9999 73' }));
    const after = await pdf(note.id);
    expect(sha256(after.rawPayload)).toBe(sha256(first.rawPayload));
    expect(pdfTextOf(after.rawPayload)).not.toContain('GB 999 9999 73');
    // The agency's copy, kept at creation too, is not redrawn either.
    const agencyCopy = await pdf(note.id, admin);
    const [kept] = await t.db.query<{ sha256: string }>(
      `select sha256 from issued_documents where resource = 'credit_notes' and record_id = $1 and role = 'admin'`,
      [note.id],
    );
    expect(sha256(agencyCopy.rawPayload)).toBe(kept.sha256);
  });

  it('is not found for another client’s user', async () => {
    const { note } = await credited({ kind: 'amount', amount: 500, reason: 'Late start' });
    const res = await pdf(note.id, otherClient);
    expect(res.statusCode, res.body).toBe(404);
  });
});
