// The Invoice Report (issue 34): aged debt as of the agency's today and what was invoiced in a period, two declared
// reports over the invoices list (core/resources/reports.ts). Every figure and total is checked against a recount in
// plain SQL written from what the report means (balance = total + credited − paid; days past = today − due date),
// for both agencies; client users are refused; the buckets' edges (due today, 30/31, 90/91 days) are moved there
// by setting due dates; the XLSX is read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import type { ReportAnswer } from '../../core/contracts/reports';
import { agencyToday, askReport } from './reportCalls';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
let merchantA: number;
let merchantB: number;
let today: string;

const BUCKETS = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'];
const AGED = ['invoices', ...BUCKETS, 'overdue', 'outstanding'];
const INVOICED = ['invoices', 'net', 'vat', 'total', 'credited', 'paid', 'outstanding'];

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  const merchant = async (email: string) =>
    (await t.db.query<{ m: number }>('select merchant_id as m from users where email = $1', [email]))[0].m;
  merchantA = await merchant('admin@demo.test');
  merchantB = await merchant('admin@other.test');
  today = await agencyToday(t, merchantA);
});
afterAll(async () => {
  await t?.close();
});

const report = (token: string, name: string, query: string): Promise<ReportAnswer> => askReport(t, token, name, query);

type Figures = Record<string, number>;

/** Aged debt recounted: open invoices owing something, per `key`, each bucket by whole days past due. */
async function recountAged(merchantId: number, key = 'i.client_id', clientId: number | null = null) {
  const rows = await t.db.query<Record<string, string>>(
    `with o as (select i.*, i.total + i.credited - i.paid as owed, $2::date - i.due_date as late
                  from invoices i
                 where i.merchant_id = $1 and i.state in ('issued', 'sent', 'part_paid')
                   and i.total + i.credited - i.paid > 0 and ($3::int is null or i.client_id = $3::int))
     select ${key.replace('i.', 'o.')} as k, count(*) as invoices,
            coalesce(sum(owed) filter (where late <= 0), 0) as current,
            coalesce(sum(owed) filter (where late between 1 and 30), 0) as days_1_30,
            coalesce(sum(owed) filter (where late between 31 and 60), 0) as days_31_60,
            coalesce(sum(owed) filter (where late between 61 and 90), 0) as days_61_90,
            coalesce(sum(owed) filter (where late > 90), 0) as days_over_90,
            coalesce(sum(owed) filter (where late > 0), 0) as overdue,
            coalesce(sum(owed), 0) as outstanding
       from o group by 1`,
    [merchantId, today, clientId],
  );
  return new Map(rows.map((r) => [String(r.k), Object.fromEntries(AGED.map((m) => [m, Number(r[m])])) as Figures]));
}

/** Invoiced recounted: invoices issued within [from, to] (any state once issued), per `key`. */
async function recountInvoiced(merchantId: number, from: string, to: string, key = 'i.client_id') {
  const rows = await t.db.query<Record<string, string>>(
    `select ${key} as k, count(*) as invoices, sum(i.net) as net, sum(i.vat) as vat, sum(i.total) as total,
            sum(i.credited) as credited, sum(i.paid) as paid, sum(i.total + i.credited - i.paid) as outstanding
       from invoices i
      where i.merchant_id = $1 and i.state in ('issued', 'sent', 'part_paid', 'paid')
        and i.issue_date between $2::date and $3::date
      group by 1`,
    [merchantId, from, to],
  );
  return new Map(rows.map((r) => [String(r.k), Object.fromEntries(INVOICED.map((m) => [m, Number(r[m])])) as Figures]));
}

const summed = (rows: Map<string, Figures>, measures: string[]) => {
  const out: Figures = Object.fromEntries(measures.map((m) => [m, 0]));
  for (const r of rows.values()) for (const m of measures) out[m] += r[m];
  return out;
};

const pick = (row: Record<string, unknown>, measures: string[]) => Object.fromEntries(measures.map((m) => [m, row[m]]));

describe('GET /api/reports/aged_debt', () => {
  it('per client: every bucket and the totals equal a plain-SQL recount, for each agency', async () => {
    for (const [token, merchant] of [
      [admin, merchantA],
      [otherAdmin, merchantB],
    ] as const) {
      const r = await report(token, 'aged_debt', 'per_page=100');
      expect(r.measures.map((m) => m.id)).toEqual(AGED);
      expect(r.period).toBeUndefined();
      expect(r.as_of).toBe(today);
      const want = await recountAged(merchant);
      expect(r.data.length).toBe(want.size);
      for (const row of r.data) {
        expect(want.has(String(row.client_id)), `client ${row.client_id} is the agency's`).toBe(true);
        expect(pick(row, AGED)).toEqual(want.get(String(row.client_id)));
        const [{ name }] = await t.db.query<{ name: string }>('select name from clients where id = $1', [
          row.client_id,
        ]);
        expect(row.client).toBe(name);
      }
      expect(pick(r.totals, AGED)).toEqual(summed(want, AGED));
      // The buckets add up to what is owed.
      expect(BUCKETS.reduce((s, b) => s + (r.totals[b] as number), 0)).toBe(r.totals.outstanding);
      if (merchant === merchantA) {
        // The demo owes something, some of it overdue (the panel client's invoice sent three weeks ago).
        expect(r.totals.outstanding).toBeGreaterThan(0);
        expect(r.totals.days_1_30).toBeGreaterThan(0);
        expect(r.totals.current).toBeGreaterThan(0);
      }
    }
    // The other agency's answer names none of the demo agency's clients.
    const other = await report(otherAdmin, 'aged_debt', 'per_page=100');
    const demoClients = await recountAged(merchantA);
    for (const row of other.data) expect(demoClients.has(String(row.client_id))).toBe(false);
  });

  it('a payment and a credit note take the balance off; consultants read the same', async () => {
    const byAdmin = await report(admin, 'aged_debt', 'group=site&per_page=100');
    const byConsultant = await report(consultant, 'aged_debt', 'group=site&per_page=100');
    expect(byConsultant.data).toEqual(byAdmin.data);
    expect(byConsultant.totals).toEqual(byAdmin.totals);
    const want = await recountAged(merchantA, 'i.site_id');
    for (const row of byAdmin.data) expect(pick(row, AGED)).toEqual(want.get(String(row.site_id)));
    // The demo's part-paid and credited invoices: owed less than their totals, as the report counts them.
    const [{ partly }] = await t.db.query<{ partly: number }>(
      `select count(*)::int as partly from invoices where merchant_id = $1 and state = 'part_paid' and paid > 0`,
      [merchantA],
    );
    expect(partly).toBeGreaterThan(0);
    const [{ credited }] = await t.db.query<{ credited: number }>(
      `select count(*)::int as credited from invoices where merchant_id = $1 and credited < 0`,
      [merchantA],
    );
    expect(credited).toBeGreaterThan(0);
  });

  it('the buckets’ edges: due today is current, 30 days past is 1–30 and 31 is 31–60, 90 is 61–90 and 91 over 90', async () => {
    const [{ id: clientId }] = await t.db.query<{ id: number }>(
      `select client_id as id from invoices where merchant_id = $1 and state in ('issued', 'sent', 'part_paid')
         and total + credited - paid > 0 group by client_id order by count(*) desc, client_id limit 1`,
      [merchantA],
    );
    const cases: [number, string][] = [
      [-1, 'current'],
      [0, 'current'],
      [1, 'days_1_30'],
      [30, 'days_1_30'],
      [31, 'days_31_60'],
      [60, 'days_31_60'],
      [61, 'days_61_90'],
      [90, 'days_61_90'],
      [91, 'days_over_90'],
      [400, 'days_over_90'],
    ];
    for (const [late, bucket] of cases) {
      await fixtureWrite(
        t.db,
        `update invoices set due_date = $3::date where merchant_id = $1 and client_id = $2
            and state in ('issued', 'sent', 'part_paid')`,
        [merchantA, clientId, addDaysToDate(today, -late)],
      );
      const r = await report(admin, 'aged_debt', `client_id=${clientId}`);
      expect(r.data.length, `${late} days`).toBe(1);
      const [row] = r.data;
      expect(row.outstanding as number).toBeGreaterThan(0);
      for (const b of BUCKETS) expect(row[b], `${late} days: ${b}`).toBe(b === bucket ? row.outstanding : 0);
      expect(row.overdue, `${late} days overdue`).toBe(late > 0 ? row.outstanding : 0);
      expect(pick(row, AGED)).toEqual((await recountAged(merchantA, 'i.client_id', clientId)).get(String(clientId)));
      // The invoices list's own overdue flag (isOverdue: due today is not overdue) agrees with the report's.
      const list = await call(t.app, admin, 'GET', `/api/invoices?client_id=${clientId}&overdue=true&per_page=100`);
      expect(list.statusCode).toBe(200);
      expect(list.json().data.length > 0, `${late} days: listed overdue`).toBe(late > 0);
    }
  });

  it('is the agency’s: client users are refused; a period is refused in words', async () => {
    for (const path of ['/api/reports/aged_debt', '/api/reports/aged_debt/export', '/api/reports/invoiced'])
      expect((await call(t.app, client, 'GET', path)).statusCode, path).toBe(403);
    const res = await call(t.app, admin, 'GET', '/api/reports/aged_debt?period=this_month');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.period).toMatch(/as of today/);
    for (const [q, field] of [
      ['group=week', 'group'],
      ['sort=pay', 'sort'],
      ['state=paid', 'state'],
    ]) {
      const bad = await call(t.app, admin, 'GET', `/api/reports/aged_debt?${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(Object.keys(bad.json().errors), q).toContain(field);
    }
  });
});

describe('GET /api/reports/invoiced', () => {
  it('per client and per month: invoiced, credited, paid and owed equal the recount, for each agency', async () => {
    const wide = `period=custom&from=${addDaysToDate(today, -400)}&to=${today}`;
    for (const [token, merchant] of [
      [admin, merchantA],
      [otherAdmin, merchantB],
    ] as const) {
      const r = await report(token, 'invoiced', `per_page=100&${wide}`);
      expect(r.measures.map((m) => m.id)).toEqual(INVOICED);
      const want = await recountInvoiced(merchant, r.period!.from, r.period!.to);
      expect(r.data.length).toBe(want.size);
      for (const row of r.data) expect(pick(row, INVOICED)).toEqual(want.get(String(row.client_id)));
      expect(pick(r.totals, INVOICED)).toEqual(summed(want, INVOICED));
      if (merchant === merchantA) {
        expect(r.totals.total).toBeGreaterThan(0);
        expect(r.totals.credited).toBeLessThan(0);
        expect(r.totals.paid).toBeGreaterThan(0);
      }
    }
    const months = await report(admin, 'invoiced', `group=month&sort=month&order=asc&per_page=100&${wide}`);
    const want = await recountInvoiced(
      merchantA,
      months.period!.from,
      months.period!.to,
      `to_char(date_trunc('month', i.issue_date), 'YYYY-MM-DD')`,
    );
    expect(months.data.map((x) => x.month)).toEqual([...want.keys()].sort());
    for (const row of months.data) expect(pick(row, INVOICED)).toEqual(want.get(String(row.month)));
  });

  it('a period narrows by the issue date: this month is the month’s invoices only', async () => {
    const r = await report(admin, 'invoiced', 'period=this_month');
    expect(r.period!.from).toBe(`${today.slice(0, 7)}-01`);
    expect(pick(r.totals, INVOICED)).toEqual(
      summed(await recountInvoiced(merchantA, r.period!.from, r.period!.to), INVOICED),
    );
  });
});

async function xlsxRows(body: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as any);
  const rows: unknown[][] = [];
  book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('GET /api/reports/aged_debt/export', () => {
  it('XLSX: the buckets in pounds, every client, then the totals', async () => {
    const r = await report(admin, 'aged_debt', 'per_page=100');
    const res = await call(t.app, admin, 'GET', '/api/reports/aged_debt/export?format=xlsx');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="aged-debt-as-of-${today}.xlsx"`);
    const rows = await xlsxRows(res.rawPayload);
    expect(rows[0]).toEqual([
      'Client',
      'Invoices',
      'Current (£)',
      '1–30 days (£)',
      '31–60 days (£)',
      '61–90 days (£)',
      'Over 90 days (£)',
      'Overdue (£)',
      'Outstanding (£)',
    ]);
    expect(rows.length).toBe(r.data.length + 2);
    // ExcelJS reads an empty cell as absent: a bucket of 0 is written as the number 0.
    expect(rows[1]).toEqual([
      r.data[0].client,
      r.data[0].invoices,
      ...AGED.slice(1).map((m) => (r.data[0][m] as number) / 100),
    ]);
    expect(rows.at(-1)).toEqual([
      'Total',
      r.totals.invoices,
      ...AGED.slice(1).map((m) => (r.totals[m] as number) / 100),
    ]);
    const csv = await call(t.app, consultant, 'GET', '/api/reports/invoiced/export?format=csv&period=this_tax_year');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      '"Client","Invoices","Net (£)","VAT (£)","Invoiced (£)","Credited (£)","Paid (£)","Outstanding (£)"',
    );
  });
});

/*
 * VAT by rate (the VAT return's boxes 6 and 1): the lines of invoices issued in the period (any state once issued,
 * by the invoice's issue date) and of credit notes issued in it (by the note's own issue date, negative as kept),
 * recounted here by plain SQL over the two line tables.
 */
const VAT = ['net', 'vat'];

async function recountVat(merchantId: number, from: string, to: string, key = `l.vat_rate || '|' || l.vat_treatment`) {
  const rows = await t.db.query<Record<string, string>>(
    `select k, sum(net) as net, sum(vat) as vat from (
       select ${key} as k, l.net, l.vat
         from invoice_lines l join invoices i on i.merchant_id = l.merchant_id and i.id = l.invoice_id
        where l.merchant_id = $1 and i.state in ('issued', 'sent', 'part_paid', 'paid')
          and i.issue_date between $2::date and $3::date
       union all
       select ${key} as k, l.net, l.vat
         from credit_note_lines l join credit_notes n on n.merchant_id = l.merchant_id and n.id = l.credit_note_id
        where l.merchant_id = $1 and n.issue_date between $2::date and $3::date) x
      group by k`,
    [merchantId, from, to],
  );
  return new Map(rows.map((r) => [String(r.k), Object.fromEntries(VAT.map((m) => [m, Number(r[m])])) as Figures]));
}

const TREATMENT_NAMES: Record<string, string> = {
  standard: 'Standard rate',
  exempt: 'Exempt (nursing agencies’ concession)',
};

describe('GET /api/reports/vat', () => {
  it('per rate and treatment: net sales and output VAT equal the recount of both line tables, for each agency', async () => {
    const wide = `period=custom&from=${addDaysToDate(today, -400)}&to=${today}`;
    for (const [token, merchant] of [
      [admin, merchantA],
      [otherAdmin, merchantB],
    ] as const) {
      const r = await report(token, 'vat', `per_page=100&${wide}`);
      expect(r.measures.map((m) => m.id)).toEqual(VAT);
      expect(r.group.map((g) => g.id)).toEqual(['rate', 'treatment']);
      const want = await recountVat(merchant, r.period!.from, r.period!.to);
      expect(r.data.length).toBe(want.size);
      for (const row of r.data) {
        const key = `${row.rate_value}|${row.treatment_value}`;
        expect(want.has(key), key).toBe(true);
        expect(pick(row, VAT), key).toEqual(want.get(key));
        expect(row.rate).toBe(`${(row.rate_value as number) / 100}%`);
        expect(row.treatment).toBe(TREATMENT_NAMES[row.treatment_value as string]);
      }
      // Highest rate first.
      const rates = r.data.map((x) => x.rate_value as number);
      expect(rates).toEqual([...rates].sort((a, b) => b - a));
      expect(pick(r.totals, VAT)).toEqual(summed(want, VAT));
      if (merchant === merchantA) {
        // The demo: standard-rated lines at 20%, the exempt nursing line at 0%, a credit note taking some back.
        expect(r.data.find((x) => x.rate === '20%' && x.treatment_value === 'standard')?.vat).toBeGreaterThan(0);
        expect(r.data.find((x) => x.rate === '0%' && x.treatment_value === 'exempt')?.net).toBeGreaterThan(0);
        expect(r.data.find((x) => x.rate === '0%')?.vat).toBe(0);
        const [{ credited }] = await t.db.query<{ credited: string }>(
          'select coalesce(sum(net), 0) as credited from credit_note_lines where merchant_id = $1',
          [merchantA],
        );
        expect(Number(credited)).toBeLessThan(0);
      }
    }
    // Grouped by rate alone, and the other agency's answer has nothing of the demo agency's.
    const byRate = await report(admin, 'vat', `group=rate&${wide}`);
    const want = await recountVat(merchantA, byRate.period!.from, byRate.period!.to, 'l.vat_rate::text');
    for (const row of byRate.data) expect(pick(row, VAT)).toEqual(want.get(String(row.rate_value)));
    const other = await report(otherAdmin, 'vat', wide);
    expect(other.totals).toEqual(summed(await recountVat(merchantB, other.period!.from, other.period!.to), VAT));
  });

  it('a credit note counts negative in its own issue period, not its invoice’s; a draft’s lines never count', async () => {
    const [note] = await t.db.query<{ id: number; issue_date: string; invoice_date: string; net: string; vat: string }>(
      `select n.id, to_char(n.issue_date, 'YYYY-MM-DD') as issue_date,
              to_char(i.issue_date, 'YYYY-MM-DD') as invoice_date,
              (select sum(net) from credit_note_lines where credit_note_id = n.id) as net,
              (select sum(vat) from credit_note_lines where credit_note_id = n.id) as vat
         from credit_notes n join invoices i on i.id = n.invoice_id
        where n.merchant_id = $1 order by n.id limit 1`,
      [merchantA],
    );
    expect(note).toBeDefined();
    expect(Number(note.net)).toBeLessThan(0);
    // Moved to a day of its own, far from every invoice: that day's figures are the note's alone, negative.
    const day = addDaysToDate(today, -300);
    await fixtureWrite(t.db, 'update credit_notes set issue_date = $2::date where id = $1', [note.id, day]);
    try {
      const alone = await report(admin, 'vat', `period=custom&from=${day}&to=${day}`);
      expect(alone.totals).toEqual({ net: Number(note.net), vat: Number(note.vat) });
      expect(alone.data.every((x) => (x.net as number) <= 0)).toBe(true);
      // The invoice's own period no longer counts it.
      const own = await report(admin, 'vat', `period=custom&from=${note.invoice_date}&to=${note.invoice_date}`);
      expect(pick(own.totals, VAT)).toEqual(
        summed(await recountVat(merchantA, note.invoice_date, note.invoice_date), VAT),
      );
    } finally {
      await fixtureWrite(t.db, 'update credit_notes set issue_date = $2::date where id = $1', [
        note.id,
        note.issue_date,
      ]);
    }
    // A draft given an issue date (never so in the product) is still no supply: its lines are not counted.
    const before = await report(admin, 'vat', 'period=this_tax_year');
    const [draft] = await t.db.query<{ id: number }>(
      `select i.id from invoices i where i.merchant_id = $1 and i.state = 'draft'
          and exists (select 1 from invoice_lines l where l.invoice_id = i.id and l.net > 0) order by i.id limit 1`,
      [merchantA],
    );
    expect(draft).toBeDefined();
    await fixtureWrite(t.db, 'update invoices set issue_date = $2::date where id = $1', [draft.id, today]);
    try {
      expect((await report(admin, 'vat', 'period=this_tax_year')).totals).toEqual(before.totals);
    } finally {
      await fixtureWrite(t.db, 'update invoices set issue_date = null where id = $1', [draft.id]);
    }
  });

  it('the default period is this calendar quarter; the agency’s alone: client users refused, no filters', async () => {
    const r = await report(consultant, 'vat', '');
    const month = Number(today.slice(5, 7));
    const first = `${today.slice(0, 4)}-${String(Math.floor((month - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
    expect(r.period).toMatchObject({ preset: 'this_quarter', from: first });
    expect(addDaysToDate(r.period!.to, 1).slice(8)).toBe('01');
    expect(pick(r.totals, VAT)).toEqual(summed(await recountVat(merchantA, r.period!.from, r.period!.to), VAT));
    const last = await report(admin, 'vat', 'period=last_quarter');
    expect(addDaysToDate(last.period!.to, 1)).toBe(first);
    for (const path of ['/api/reports/vat', '/api/reports/vat/export?format=csv'])
      expect((await call(t.app, client, 'GET', path)).statusCode, path).toBe(403);
    for (const [q, field] of [
      ['period=this_week', 'period'],
      ['client_id=1', 'client_id'],
      ['group=client', 'group'],
    ]) {
      const bad = await call(t.app, admin, 'GET', `/api/reports/vat?${q}`);
      expect(bad.statusCode, q).toBe(400);
      expect(Object.keys(bad.json().errors), q).toContain(field);
    }
  });
});

describe('GET /api/reports/vat/export', () => {
  it('CSV and XLSX: each rate in pounds, then the totals', async () => {
    const wide = `period=custom&from=${addDaysToDate(today, -400)}&to=${today}`;
    const r = await report(admin, 'vat', wide);
    expect(r.data.length).toBeGreaterThan(1);
    const res = await call(t.app, admin, 'GET', `/api/reports/vat/export?format=xlsx&${wide}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="vat-by-rate-${r.period!.from}-to-${r.period!.to}.xlsx"`,
    );
    const rows = await xlsxRows(res.rawPayload);
    expect(rows[0]).toEqual(['VAT rate', 'VAT treatment', 'Net sales (£)', 'Output VAT (£)']);
    expect(rows.slice(1, -1)).toEqual(
      r.data.map((x) => [x.rate, x.treatment, (x.net as number) / 100, (x.vat as number) / 100]),
    );
    expect(rows.at(-1)).toEqual(['Total', undefined, (r.totals.net as number) / 100, (r.totals.vat as number) / 100]);
    const csv = await call(t.app, consultant, 'GET', `/api/reports/vat/export?format=csv&${wide}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('"VAT rate","VAT treatment","Net sales (£)","Output VAT (£)"');
    expect(lines.length).toBe(r.data.length + 2);
    expect(lines[1]).toBe(
      `"${r.data[0].rate}","${r.data[0].treatment}",${(r.data[0].net as number) / 100},${(r.data[0].vat as number) / 100}`,
    );
    expect(lines.at(-1)).toMatch(/^"Total","",/);
  });
});
