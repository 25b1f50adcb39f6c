import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, type DemoIds } from './timesheetKit';

// What the agency's invoice screens need of the server (issue 32.6): a declared list's totals (listTotals; the invoice
// list's net, VAT, total and balance), summed over every row the filters, the tab and the caller's scope match, never
// only the page asked for; and a draft line's VAT treatment changed only with a reason, which is kept.
let t: TestApp;
let admin: string;
let client: string;
let ids: DemoIds;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, client] = await Promise.all(['admin', 'client'].map((w) => loginAs(t.app, w as 'admin')));
  ids = await demoIds(t);
});
afterAll(() => t?.close());

const list = async (token: string, query: string) => {
  const res = await call(t.app, token, 'GET', `/api/invoices?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { id: number }[]; total_count: number; totals?: Record<string, number> };
};

/** What the database adds up for the same rows, as the test's own query. */
async function summed(where: string, params: unknown[]) {
  const [r] = await t.db.query<Record<string, string>>(
    `select count(*)::int as n, coalesce(sum(net), 0) as net, coalesce(sum(vat), 0) as vat,
            coalesce(sum(total), 0) as total, coalesce(sum(total + credited - paid), 0) as balance
       from invoices where merchant_id = $1 and ${where}`,
    [ids.merchantId, ...params],
  );
  return { n: Number(r.n), net: Number(r.net), vat: Number(r.vat), total: Number(r.total), balance: Number(r.balance) };
}

describe('an invoice list’s totals', () => {
  it('add up every matching invoice, not the page, under the same filters', async () => {
    const all = await list(admin, 'per_page=1');
    const expected = await summed('true', []);
    expect(expected.n).toBeGreaterThan(1);
    expect(all.data).toHaveLength(1);
    expect(all.total_count).toBe(expected.n);
    expect(all.totals).toEqual({
      net: expected.net,
      vat: expected.vat,
      total: expected.total,
      balance: expected.balance,
    });

    // A client with a part-paid invoice (the demo pays one in part).
    const [{ client_id: payer }] = await t.db.query<{ client_id: number }>(
      `select client_id from invoices where merchant_id = $1 and state = 'part_paid' order by id limit 1`,
      [ids.merchantId],
    );
    const ofClient = await list(admin, `per_page=1&client_id=${payer}&state=part_paid`);
    const partPaid = await summed(`client_id = $2 and state = 'part_paid'`, [payer]);
    expect(ofClient.total_count).toBe(partPaid.n);
    expect(ofClient.totals).toEqual({
      net: partPaid.net,
      vat: partPaid.vat,
      total: partPaid.total,
      balance: partPaid.balance,
    });
    // Something is left to pay on a part-paid invoice: the balance is its own sum, not the total's.
    expect(ofClient.totals!.balance).toBeLessThan(ofClient.totals!.total);
  });

  it('are a client user’s own issued invoices only', async () => {
    const mine = await list(client, 'per_page=1');
    const expected = await summed(`client_id = $2 and state <> all('{draft,void}')`, [ids.clientId]);
    expect(mine.total_count).toBe(expected.n);
    expect(mine.totals).toEqual({
      net: expected.net,
      vat: expected.vat,
      total: expected.total,
      balance: expected.balance,
    });
  });

  it('follow a write at once', async () => {
    const before = await list(admin, 'state=draft&per_page=1');
    const inv = await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId });
    expect(inv.statusCode, inv.body).toBe(201);
    const line = await call(t.app, admin, 'POST', '/api/invoice_lines', {
      invoice_id: inv.json().data.id,
      work_date: '2030-01-07',
      description: 'Care assistant, 7 Jan',
      quantity: 2,
      unit_price: 1500,
    });
    expect(line.statusCode, line.body).toBe(201);
    const after = await list(admin, 'state=draft&per_page=1');
    // 2 h × £15 = £30 net, £6 VAT.
    expect(after.totals!.net - before.totals!.net).toBe(3000);
    expect(after.totals!.vat - before.totals!.vat).toBe(600);
    expect(after.totals!.balance - before.totals!.balance).toBe(3600);
  });

  it('are not answered by a list that declares none', async () => {
    const res = await call(t.app, admin, 'GET', '/api/payments?per_page=1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('totals');
  });
});

describe('a draft line’s VAT treatment changed by hand', () => {
  it('needs a new reason, which is kept with the line', async () => {
    const inv = await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId });
    const made = await call(t.app, admin, 'POST', '/api/invoice_lines', {
      invoice_id: inv.json().data.id,
      work_date: '2030-01-07',
      description: 'Registered nurse, 7 Jan',
      quantity: 10,
      unit_price: 3000,
      vat_reason: 'Standard-rated: the concession is not elected',
    });
    expect(made.statusCode, made.body).toBe(201);
    const url = `/api/invoice_lines/${made.json().data.id}`;
    for (const body of [
      { vat_treatment: 'exempt' },
      { vat_treatment: 'exempt', vat_reason: 'Standard-rated: the concession is not elected' },
    ]) {
      const refused = await call(t.app, admin, 'PUT', url, body);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().errors.vat_reason).toBe(
        'Say why the VAT treatment is changed: the reason is kept with the line.',
      );
    }
    const reason = 'Nurse on the NMC register supplied to a care home with nursing (VAT Notice 701/57 6.5)';
    const changed = await call(t.app, admin, 'PUT', url, { vat_treatment: 'exempt', vat_reason: reason });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ vat_treatment: 'exempt', vat_reason: reason, vat: 0, net: 30000 });
    // A description alone changes without a reason.
    const renamed = await call(t.app, admin, 'PUT', url, { description: 'Registered nurse (night), 7 Jan' });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});
