import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { exportTable, listRowPages, type ExportTable } from '../../server/exports/rows';
import { csvBuffer, exportKey, exportSlots, xlsxStream } from '../../server/exports/routes';
import { contextOf } from '../../server/engine/routes';
import { pdfTextOf } from '../pdfText';

// Server-side files (issue 16 item 7): the list exports (CSV, XLSX) and the printed shift list (PDF) read what the
// caller's list reads, with the declaration's labels and formats, and never more than the caller may read.
let t: TestApp;
let admin: string;
let client: string;
let otherAdmin: string;
let consultant: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40 });
  [admin, client, otherAdmin, consultant] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
    loginAs(t.app, 'consultant'),
  ]);
});
afterAll(async () => {
  await t?.close();
});

/** An export's headers and every row of it. */
async function wholeTable(table: ExportTable): Promise<[string[], (string | number)[][]]> {
  const rows: (string | number)[][] = [];
  for await (const page of table.pages) rows.push(...page);
  return [table.headers, rows];
}
const csvOf = (body: string) => parse(body.replace(/^\uFEFF/, ''), { relax_column_count: false }) as string[][];

/** The words a PDF writes, a line for each piece of text it draws (tests/pdfText.ts reads the embedded font). */
const pdfWords = pdfTextOf;
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

describe('GET /api/{resource}/export', () => {
  it('sends the whole list as CSV: a dated file, the declared labels, money as numbers, dates yyyy-MM-dd, references by name', async () => {
    const list = (await call(t.app, admin, 'GET', '/api/shifts?per_page=1')).json();
    const res = await call(t.app, admin, 'GET', '/api/shifts/export?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="shifts-\d{4}-\d\d-\d\d\.csv"$/);
    const [header, ...rows] = csvOf(res.body);
    expect(rows).toHaveLength(list.total_count);
    expect(header.slice(0, 4)).toEqual(['ID', 'Client', 'Site', 'Job role']);
    expect(header).toContain('Pay');
    expect(header).toContain('Margin');
    // The shifts' booked staff member is a reference and a computed name under one label: one column.
    expect(header.filter((h) => h === 'Staff member')).toHaveLength(1);
    const at = (name: string) => header.indexOf(name);
    const booked = rows.find((r) => r[at('Pay')] !== '')!;
    expect(Number(booked[at('Pay')])).toBeGreaterThan(0);
    expect(booked[at('Pay')]).toMatch(/^\d+(\.\d{1,2})?$/);
    expect(booked[at('Starts')]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    // References by name, never a bare id.
    expect(rows.every((r) => r[at('Client')] !== '' && !/^\d+$/.test(r[at('Client')]))).toBe(true);
  });

  it("filters, searches and sorts as the list does (the list's own parameters)", async () => {
    const list = (await call(t.app, admin, 'GET', '/api/shifts?tab=open&sort=start_at&order=desc&per_page=100')).json();
    const [, ...rows] = csvOf(
      (await call(t.app, admin, 'GET', '/api/shifts/export?tab=open&sort=start_at&order=desc')).body,
    );
    expect(rows.map((r) => Number(r[0]))).toEqual(list.data.map((r: { id: number }) => r.id));
  });

  it('reads page after page in the list order, nulls included, going up and down (keyset pages, no OFFSET)', async () => {
    // Staff without a job role sort with the nulls: last going up, first going down.
    for (let i = 0; i < 5; i++) {
      const res = await call(t.app, admin, 'POST', '/api/candidates', {
        first_name: 'Keyset',
        last_name: `Null${i}`,
        email: `keyset.${i}@example.test`,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const req = { auth: (await t.app.sessions.resolve(admin))!, server: t.app } as any;
    const ctx = await contextOf(t.db, req);
    const c = t.app.engine.get('candidates')!;
    // A reference with nulls, a text sorted by lower(), a date-time.
    for (const sort of ['job_role_id', 'last_name', 'created_at']) {
      for (const order of ['asc', 'desc']) {
        const list = (
          await call(t.app, admin, 'GET', `/api/candidates?sort=${sort}&order=${order}&per_page=100`)
        ).json();
        expect(list.total_count).toBeLessThanOrEqual(100);
        const ids: number[] = [];
        let pages = 0;
        for await (const page of listRowPages(ctx, c, { sort, order }, 10)) {
          pages += 1;
          ids.push(...page.map((r) => r.id));
        }
        expect(pages).toBeGreaterThan(3);
        expect(ids, `${sort} ${order}`).toEqual(list.data.map((r: { id: number }) => r.id));
      }
    }
  });

  it('neutralises spreadsheet formulas in the CSV, and writes them as text in the XLSX', async () => {
    const name = `=HYPERLINK("http://evil.example","x") ${Date.now()}`;
    const created = await call(t.app, admin, 'POST', '/api/clients', { name, billing_email: 'f@example.test' });
    expect(created.statusCode, created.body).toBe(201);
    const [header, ...rows] = csvOf(
      (await call(t.app, admin, 'GET', `/api/clients/export?q=${encodeURIComponent('hyperlink')}`)).body,
    );
    const cell = rows.find((r) => r[0] === String(created.json().data.id))![header.indexOf('Name')];
    expect(cell).toBe(`'${name}`);

    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/api/clients/export?format=xlsx&q=hyperlink`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(/clients-\d{4}-\d\d-\d\d\.xlsx"$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as any);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(2).value).toBe('Name');
    const row = sheet.getRows(2, sheet.rowCount - 1)!.find((r) => r.getCell(1).value === created.json().data.id)!;
    // A text cell holding the characters, not a formula.
    expect(row.getCell(2).value).toBe(name);
    expect(row.getCell(2).formula).toBeUndefined();
  });

  it('writes money as numbers in the XLSX', async () => {
    const xlsx = await t.app.inject({
      method: 'GET',
      url: '/api/shifts/export?format=xlsx&tab=assigned',
      headers: { authorization: `Bearer ${admin}` },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as any);
    const sheet = book.worksheets[0];
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const pay = headers.indexOf('Pay') + 1;
    const values = sheet
      .getRows(2, sheet.rowCount - 1)!
      .map((r) => r.getCell(pay).value)
      .filter((v) => v !== null && v !== '');
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((v) => typeof v === 'number')).toBe(true);
  });

  it('writes every page of a long list into the XLSX, cell for cell as the CSV, and stops its writer when a download is left', async () => {
    const req = { auth: (await t.app.sessions.resolve(admin))!, server: t.app } as any;
    const ctx = await contextOf(t.db, req);
    const c = t.app.engine.get('shifts')!;
    const query = { sort: 'start_at', order: 'asc' };
    // Pages of 7 rows: the worker writes one while the next is read.
    const csv = csvOf(
      (await csvBuffer(...(await wholeTable(await exportTable(ctx, c, query, { pageSize: 7 }))))).toString(),
    );
    expect(csv.length).toBeGreaterThan(30);
    const chunks: Buffer[] = [];
    for await (const chunk of await xlsxStream(await exportTable(ctx, c, query, { pageSize: 7 }), 'Shifts'))
      chunks.push(chunk as Buffer);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(chunks) as any);
    const sheet = book.worksheets[0];
    const cells = sheet.getRows(1, sheet.rowCount)!.map((r) =>
      csv[0].map((_, i) => {
        const v = r.getCell(i + 1).value;
        return v === null || v === undefined ? '' : String(v);
      }),
    );
    expect(cells).toEqual(csv);

    // Left after the first piece: the stream closes and the writer's thread ends.
    const started: Worker[] = [];
    const onWorker = (w: Worker) => started.push(w);
    process.on('worker', onWorker);
    try {
      const left = await xlsxStream(await exportTable(ctx, c, query, { pageSize: 7 }), 'Shifts');
      await once(left, 'data');
      expect(started).toHaveLength(1);
      const ended = once(started[0], 'exit');
      left.destroy();
      await ended;
    } finally {
      process.off('worker', onWorker);
    }
  });

  it("needs the declaration's export permission, keeps to the caller's agency, and says what a bad request lacks", async () => {
    // Client users may list their shifts but not export them; consultants do not export settings.
    expect((await call(t.app, client, 'GET', '/api/shifts/export')).statusCode).toBe(403);
    expect((await call(t.app, consultant, 'GET', '/api/job_roles/export')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/shifts/export')).statusCode).toBe(401);
    // The other agency's export holds only its own shifts.
    const mine = csvOf((await call(t.app, admin, 'GET', '/api/clients/export')).body)
      .slice(1)
      .map((r) => r[0]);
    const theirs = csvOf((await call(t.app, otherAdmin, 'GET', '/api/clients/export')).body)
      .slice(1)
      .map((r) => r[0]);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.filter((id) => mine.includes(id))).toEqual([]);
    const bad = await call(t.app, admin, 'GET', '/api/shifts/export?format=docx');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Choose the file type: csv or xlsx.');
    const badFilter = await call(t.app, admin, 'GET', '/api/shifts/export?sort=nonsense');
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().message).toBe('The list parameters are not valid.');
  });
});

describe('exports at once (issue 30.8)', () => {
  it('refuses a third export of one user while two run, in words, and frees the slot when a download ends', async () => {
    const me = (await t.app.sessions.resolve(consultant))!;
    // Two downloads of this consultant in flight (held here as the route holds them while a file streams).
    const held = [(await exportSlots.take(exportKey(me)))!, (await exportSlots.take(exportKey(me)))!];
    try {
      const refused = await call(t.app, consultant, 'GET', '/api/clients/export');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(
        'You already have 2 exports downloading. Wait for one to finish, then export again.',
      );
      // Another user is not held back by them.
      expect((await call(t.app, admin, 'GET', '/api/clients/export')).statusCode).toBe(200);
      held.pop()!();
      expect((await call(t.app, consultant, 'GET', '/api/clients/export?format=xlsx')).statusCode).toBe(200);
    } finally {
      held.forEach((release) => release());
    }
    // Each finished download gave its slot back: one after another, any number pass; a refused one takes none.
    for (let i = 0; i < 4; i++)
      expect((await call(t.app, consultant, 'GET', '/api/clients/export')).statusCode).toBe(200);
    expect((await call(t.app, consultant, 'GET', '/api/shifts/export?sort=nonsense')).statusCode).toBe(400);
    expect(exportSlots.byUser.size).toBe(0);
    expect(exportSlots.streaming).toBe(0);
  });

  it('makes exports past the process-wide number wait their turn, then sends them whole', async () => {
    const atOnce = exportSlots.atOnce;
    exportSlots.atOnce = 1;
    const release = (await exportSlots.take('someone else'))!;
    try {
      const list = (await call(t.app, admin, 'GET', '/api/clients?per_page=1')).json();
      const pending = call(t.app, admin, 'GET', '/api/clients/export');
      await vi.waitFor(() => expect(exportSlots.waiting).toHaveLength(1));
      release();
      const res = await pending;
      expect(res.statusCode).toBe(200);
      expect(csvOf(res.body)).toHaveLength(list.total_count + 1);
      expect(exportSlots.streaming).toBe(0);
    } finally {
      release();
      exportSlots.atOnce = atOnce;
    }
  });
});

describe('GET /api/shifts/print', () => {
  it("is a PDF of the caller's list in the agency's letterhead, 'Page x of y' on every page and the header row on each", async () => {
    const list = (await call(t.app, admin, 'GET', '/api/shifts?per_page=1')).json();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/shifts/print',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="shifts-\d{4}-\d\d-\d\d\.pdf"$/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const pages = pageCount(pdf);
    expect(pages).toBeGreaterThan(1);
    const words = pdfWords(pdf);
    expect(words).toContain('Brightway Staffing');
    for (let p = 1; p <= pages; p++) expect(words).toContain(`Page ${p} of ${pages}`);
    // The header row is drawn again on every page.
    expect(words.split('\n').filter((w) => w === 'Job role')).toHaveLength(pages);
    expect(words).toContain('Pay');
    expect(words).toContain(`${Math.min(list.total_count, 2000)} rows.`);
  });

  it("never shows a client user pay or margin, and lists only their own client's shifts", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/shifts/print',
      headers: { authorization: `Bearer ${client}` },
    });
    expect(res.statusCode).toBe(200);
    const words = pdfWords(res.rawPayload).split('\n');
    expect(words).not.toContain('Pay');
    expect(words).not.toContain('Margin');
    expect(words).toContain('Charge');
    const own = (await call(t.app, client, 'GET', '/api/shifts?per_page=1')).json().total_count;
    expect(words).toContain(`${own} ${own === 1 ? 'row' : 'rows'}.`);
    const all = (await call(t.app, admin, 'GET', '/api/shifts?per_page=1')).json().total_count;
    expect(own).toBeLessThan(all);
    // The staff member's name, not the id of a record the client may not open.
    expect(words).toContain('Staff member');
  });
});
