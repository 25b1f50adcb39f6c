import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, type DemoIds } from './timesheetKit';
import { QUICKBOOKS_HEADER, XERO_CREDIT_NOTE_HEADER, XERO_HEADER } from '../../core/domain/invoicing/exports';
import { poundsToPence } from '../../core/engine/money';

// Accounting exports (issue 32): issued invoices and credit notes as Xero's and QuickBooks Online's import files,
// read back and checked against the API's own totals; each export a recorded batch that the next one leaves out;
// formulas neutralised; never for a client's users.
const TODAY = '2031-03-10';
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let ids: DemoIds;

beforeAll(async () => {
  t = await makeTestApp({ now: `${TODAY}T12:00:00Z` });
  [admin, consultant, client] = await Promise.all(
    ['admin', 'consultant', 'client'].map((w) => loginAs(t.app, w as 'admin')),
  );
  ids = await demoIds(t);
});
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};

/** An issued invoice of client A: a standard line (8 h at £20.00), an exempt one (7.5 h at £30.01) and `extra`. */
async function issued(description = 'Care assistant, 7 Jan', po?: string) {
  const inv = await ok(
    await call(t.app, admin, 'POST', '/api/invoices', { client_id: ids.clientId, ...(po ? { po_number: po } : {}) }),
    201,
  );
  const line = (body: Record<string, unknown>) =>
    call(t.app, admin, 'POST', '/api/invoice_lines', { invoice_id: inv.id, work_date: '2031-03-03', ...body });
  await ok(await line({ description, quantity: 8, unit_price: 2000 }), 201);
  await ok(await line({ description: 'Nurse, 3 Mar', quantity: 7.5, unit_price: 3001, vat_treatment: 'exempt' }), 201);
  await ok(await line({ description: 'Care assistant, 4 Mar', quantity: 3.8333, unit_price: 1999 }), 201);
  await ok(await call(t.app, admin, 'POST', `/api/invoices/${inv.id}/actions/issue`, {}));
  return ok(await call(t.app, admin, 'GET', `/api/invoices/${inv.id}`));
}

const exportOf = (token: string, pkg: 'xero' | 'quickbooks', query = `from=${TODAY}&to=${TODAY}`) =>
  call(t.app, token, 'GET', `/api/invoices/export/${pkg}?${query}`);

/** The CSV's rows as objects by column (the file's byte-order mark and quotes as a spreadsheet reads them). */
function rowsOf(body: Buffer | string): { header: string[]; rows: Record<string, string>[] } {
  const all: string[][] = parse(body, { bom: true, relax_column_count: false });
  const [header, ...rest] = all;
  return { header, rows: rest.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}

const pence = (pounds: string) => poundsToPence(Number(pounds));

/** The export's files by name (one CSV, or each CSV of a zip), each as its header and rows. */
function filesOf(res: { headers: Record<string, unknown>; rawPayload: Buffer }) {
  const disposition = String(res.headers['content-disposition']);
  const name = /filename="([^"]+)"/.exec(disposition)![1];
  const raw: Record<string, Buffer> = name.endsWith('.zip')
    ? Object.fromEntries(
        Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([n, b]) => [n, Buffer.from(b)] as const),
      )
    : { [name]: res.rawPayload };
  return Object.fromEntries(
    Object.entries(raw).map(([n, b]) => [n.replace(/^\w+-\d{4}-\d{2}-\d{2}-export-\d+-/, ''), rowsOf(b)]),
  );
}

describe('the Xero export', () => {
  let a: any;
  let b: any;
  let note: any;
  let batchId: number;

  beforeAll(async () => {
    a = await issued();
    b = await issued('=HYPERLINK("http://evil.example","Click")', '@SUM(A1)');
    await ok(
      await call(t.app, admin, 'POST', `/api/invoices/${a.id}/actions/credit`, {
        kind: 'amount',
        amount: 5000,
        reason: 'Goodwill',
      }),
    );
    [note] = await ok(await call(t.app, admin, 'GET', `/api/credit_notes?invoice_id=${a.id}`));
  });

  it('writes Xero’s sales-invoice layout, each document’s lines adding up to the API’s totals', async () => {
    const res = await exportOf(admin, 'xero');
    expect(res.statusCode, res.body).toBe(200);
    // Xero imports invoices and credit notes apart: two files, in one download.
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="xero-2031-03-10-export-\d+\.zip"/);
    batchId = Number(res.headers['x-export-batch']);
    expect(res.headers['x-export-documents']).toBe('3');
    const files = filesOf(res);
    expect(Object.keys(files).sort()).toEqual(['credit-notes.csv', 'invoices.csv']);
    const { header, rows } = files['invoices.csv'];
    expect(header).toEqual(XERO_HEADER);
    expect(files['credit-notes.csv'].header).toEqual(XERO_CREDIT_NOTE_HEADER);
    expect(new Set(rows.map((r) => r['*InvoiceNumber']))).toEqual(new Set([a.number, b.number]));
    // A credit note's lines are the credit note's positive amounts: Xero books them as a credit.
    const noteRows = files['credit-notes.csv'].rows;
    const flip = (r: Record<string, string>): Record<string, string> => ({
      ...r,
      '*InvoiceNumber': r['*CreditNoteNumber'],
      '*InvoiceDate': r['*CreditNoteDate'],
      '*UnitAmount': String(-Number(r['*UnitAmount'])),
    });
    for (const doc of [a, b, note]) {
      const mine = [...rows, ...noteRows.map(flip)].filter((r) => r['*InvoiceNumber'] === doc.number);
      // Xero works each line as quantity × unit amount, and its VAT from the tax rate, line by line as we do.
      const net = mine.reduce((s, r) => s + Math.round(Number(r['*Quantity']) * pence(r['*UnitAmount'])), 0);
      const vat = mine.reduce(
        (s, r) =>
          s +
          (r['*TaxType'] === '20% (VAT on Income)'
            ? Math.sign(Number(r['*UnitAmount'])) *
              Math.round(Math.abs(Number(r['*Quantity']) * pence(r['*UnitAmount'])) * 0.2)
            : 0),
        0,
      );
      expect({ number: doc.number, net, vat }).toEqual({ number: doc.number, net: doc.net, vat: doc.vat });
      for (const r of mine) {
        expect(r['*ContactName']).toBe('Meadowbank Care Home');
        expect(r['*AccountCode']).toBe('200');
        expect(r['*InvoiceDate']).toBe('10/03/2031');
        expect(r.Currency).toBe('GBP');
      }
    }
    const invoiceRows = rows.filter((r) => r['*InvoiceNumber'] === a.number);
    expect(invoiceRows.map((r) => [r['*Description'], r['*Quantity'], r['*UnitAmount'], r['*TaxType']])).toEqual([
      ['Care assistant, 7 Jan', '8', '20', '20% (VAT on Income)'],
      // 7.5 h × £30.01 is £225.075 (the line bills £225.08), and 3.8333 h × £19.99 no whole number of pence: each
      // is written as 1 × the line's net, so Xero's quantity × unit amount is the invoice's line to the penny.
      ['Nurse, 3 Mar', '1', '225.08', 'Exempt Income'],
      ['Care assistant, 4 Mar', '1', '76.63', '20% (VAT on Income)'],
    ]);
    // Due by the client's terms; a credit note names its invoice, its amounts positive.
    const [y, m, d] = a.due_date.split('-');
    expect(invoiceRows[0]['*DueDate']).toBe(`${d}/${m}/${y}`);
    expect(noteRows.every((r) => Number(r['*UnitAmount']) > 0 && Number(r['*Quantity']) > 0)).toBe(true);
    expect(noteRows[0].Reference).toBe(`Credit for ${a.number}`);
    expect(noteRows[0]['*CreditNoteNumber']).toBe(note.number);
    expect(noteRows[0]['*CreditNoteDate']).toBe('10/03/2031');
  });

  it('neutralises text a spreadsheet would run as a formula, and keeps amounts as numbers', async () => {
    const res = await exportOf(admin, 'xero', `from=${TODAY}&to=${TODAY}&include_exported=true`);
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = filesOf(res)['invoices.csv'];
    const mine = rows.filter((r) => r['*InvoiceNumber'] === b.number);
    expect(mine[0]['*Description']).toBe(`'=HYPERLINK("http://evil.example","Click")`);
    expect(mine[0].Reference).toBe(`'@SUM(A1)`);
    const raw = Buffer.from(
      unzipSync(new Uint8Array(res.rawPayload))[
        String(/filename="([^"]+)\.zip"/.exec(String(res.headers['content-disposition']))![1]) + '-invoices.csv'
      ],
    ).toString('utf8');
    expect(raw).not.toMatch(/(^|,)"?=HYPERLINK/m);
    expect(raw).not.toMatch(/(^|,)"?@SUM/m);
    // Amounts are numbers, never quoted text a spreadsheet would not add up.
    expect(raw).toMatch(/,8,20,/);
  });

  it('records the batch: who, when, for which package, and which documents', async () => {
    const batch = await ok(await call(t.app, admin, 'GET', `/api/invoice_export_batches/${batchId}`));
    expect(batch).toMatchObject({
      package: 'xero',
      period_from: TODAY,
      period_to: TODAY,
      include_exported: false,
      document_count: 3,
      // The invoices' file and the credit notes' file.
      file_count: 2,
      excluded_count: 0,
      exported_by: expect.any(String),
    });
    expect([...batch.invoice_ids].sort()).toEqual([a.id, b.id].sort());
    expect(batch.credit_note_ids).toEqual([note.id]);
    // Made through the engine: versioned and in the audit trail.
    const [entry] = await t.db.query<{ event: string }>(
      `select event from audit_log where merchant_id = $1 and resource = 'invoice_export_batches' and record_id = $2`,
      [ids.merchantId, batchId],
    );
    expect(entry.event).toBe('create');
  });

  it('leaves out what an earlier export holds, says so, and includes it again only when asked', async () => {
    const again = await exportOf(admin, 'xero');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('3 issued documents were exported before');
    // A new invoice is exported alone; the three before are counted as left out.
    const c = await issued();
    const next = await exportOf(admin, 'xero');
    expect(next.statusCode, next.body).toBe(200);
    expect(next.headers['x-export-excluded']).toBe('3');
    expect(next.headers['content-disposition']).toMatch(/-invoices\.csv"$/);
    expect(new Set(rowsOf(next.rawPayload).rows.map((r) => r['*InvoiceNumber']))).toEqual(new Set([c.number]));
    const all = await exportOf(admin, 'xero', `from=${TODAY}&to=${TODAY}&include_exported=1`);
    expect(all.statusCode).toBe(422);
    expect(all.json().errors.include_exported).toBe('Must be true or false.');
    const included = await exportOf(consultant, 'xero', `from=${TODAY}&to=${TODAY}&include_exported=true`);
    expect(included.statusCode, included.body).toBe(200);
    expect(new Set(filesOf(included)['invoices.csv'].rows.map((r) => r['*InvoiceNumber'])).size).toBe(3);
    expect(filesOf(included)['credit-notes.csv'].rows.length).toBeGreaterThan(0);
  });

  it('sends an earlier batch again without recording another', async () => {
    const count = async () =>
      (await t.db.query<{ n: number }>('select count(*)::int as n from invoice_export_batches')).at(0)!.n;
    const before = await count();
    const res = await exportOf(admin, 'xero', `batch=${batchId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-export-batch']).toBe(String(batchId));
    const files = filesOf(res);
    expect(new Set(files['invoices.csv'].rows.map((r) => r['*InvoiceNumber']))).toEqual(new Set([a.number, b.number]));
    expect(new Set(files['credit-notes.csv'].rows.map((r) => r['*CreditNoteNumber']))).toEqual(new Set([note.number]));
    expect(await count()).toBe(before);
  });

  it('answers a bad filter in words next to it', async () => {
    const res = await exportOf(admin, 'xero', 'from=2031-02-30&client_id=abc');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ from: 'Enter a date as yyyy-MM-dd.', client_id: 'Choose a client.' });
    const backwards = await exportOf(admin, 'xero', 'from=2031-03-10&to=2031-03-01');
    expect(backwards.json().errors).toEqual({ to: 'Ends before From.' });
  });

  it('is the agency’s: a client’s users are refused, whatever client they belong to', async () => {
    expect((await exportOf(client, 'xero')).statusCode).toBe(403);
    expect((await exportOf(client, 'quickbooks')).statusCode).toBe(403);
    expect((await exportOf(client, 'xero', `batch=${batchId}`)).statusCode).toBe(403);
  });

  it('writes QuickBooks Online’s layout with the API’s net and VAT, and lists the credit notes it cannot take', async () => {
    const res = await exportOf(admin, 'quickbooks');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-export-skipped']).toBe('1');
    const { header, rows } = rowsOf(res.rawPayload);
    expect(header).toEqual(QUICKBOOKS_HEADER);
    expect(rows.map((r) => r.InvoiceNo)).not.toContain(note.number);
    for (const doc of [a, b]) {
      const mine = rows.filter((r) => r.InvoiceNo === doc.number);
      expect(mine.reduce((s, r) => s + pence(r.ItemAmount), 0)).toBe(doc.net);
      expect(mine.reduce((s, r) => s + pence(r.ItemTaxAmount), 0)).toBe(doc.vat);
      expect(mine.map((r) => r.ItemTaxCode)).toEqual(['20.0% S', 'Exempt', '20.0% S']);
    }
    const batch = await ok(
      await call(t.app, admin, 'GET', `/api/invoice_export_batches/${res.headers['x-export-batch']}`),
    );
    expect(batch.credit_note_ids).toEqual([]);
    expect(batch.skipped).toEqual([
      {
        number: note.number,
        message: `QuickBooks Online’s invoice import takes no credit notes: enter ${note.number} in QuickBooks as a credit note.`,
      },
    ]);
    // Exported to Xero before, but never to QuickBooks: that export left nothing out.
    expect(batch.excluded_count).toBe(0);
  });
});

describe('a large Xero export', () => {
  it('comes as a zip of numbered parts of at most 500 invoices each', async () => {
    const day = '2031-04-01';
    const made = await fixtureWrite<{ id: number }>(
      t.db,
      `insert into invoices (merchant_id, client_id, state, template, number, issue_date, due_date, net, vat, total)
       select $1, $2, 'issued', 'template1', 'XL-' || lpad(n::text, 5, '0'), $3::date, $3::date + 30, 1000, 200, 1200
         from generate_series(1, 1001) n returning id`,
      [ids.merchantId, ids.clientId, day],
    );
    await fixtureWrite(
      t.db,
      `insert into invoice_lines (merchant_id, invoice_id, description, work_date, quantity, unit_price, net, vat, total,
                                  vat_treatment, vat_rate)
       select $1, id, 'Care assistant', $2::date, 1, 1000, 1000, 200, 1200, 'standard', 2000
         from invoices where merchant_id = $1 and id = any($3::int[])`,
      [ids.merchantId, day, made.map((m) => m.id)],
    );
    const res = await exportOf(admin, 'xero', `from=${day}&to=${day}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = filesOf(res);
    const names = Object.keys(files).sort();
    expect(names).toEqual(['invoices-part-1-of-3.csv', 'invoices-part-2-of-3.csv', 'invoices-part-3-of-3.csv']);
    const perFile = names.map((n) => new Set(files[n].rows.map((r) => r['*InvoiceNumber'])));
    expect(perFile.map((s) => s.size)).toEqual([500, 500, 1]);
    // Oldest number first, none twice.
    expect([...perFile[0]][0]).toBe('XL-00001');
    expect(new Set(perFile.flatMap((s) => [...s])).size).toBe(1001);
    const batch = await ok(
      await call(t.app, admin, 'GET', `/api/invoice_export_batches/${res.headers['x-export-batch']}`),
    );
    expect(batch).toMatchObject({ document_count: 1001, file_count: 3 });
  });
});
