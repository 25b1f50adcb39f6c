// Declared reports (issue 34): GET /api/reports/{name} groups the base resource's list rows (the caller's scope,
// read policy and filters) and aggregates them in SQL. Every figure here is checked against a recount in plain SQL
// written from what the report means (core/resources/reports.ts), for both agencies and a client user; paging,
// sorting, refusals, and the CSV and XLSX files read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import type { ReportAnswer } from '../../core/contracts/reports';
import { agencyToday, askReport, wideAround } from './reportCalls';
import { PERIOD_PRESETS, periodPresetsOf, sourceProblems } from '../../core/engine/reports';
import { resolvePath } from '../../server/engine/reports';
import { REPORT_DECLARATIONS } from '../../core/resources/reports';
import { formatPounds } from '../../core/engine/money';
import { pdfTextOf } from '../pdfText';

let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
let merchantA: number;
let merchantB: number;
let clientA: number;
let today: string;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  const user = async (email: string) =>
    (
      await t.db.query<{ m: number; c: number | null }>(
        'select merchant_id as m, client_id as c from users where email = $1',
        [email],
      )
    )[0];
  merchantA = (await user('admin@demo.test')).m;
  merchantB = (await user('admin@other.test')).m;
  clientA = (await user('client@demo.test')).c!;
  today = await agencyToday(t, merchantA);
});
afterAll(async () => {
  await t?.close();
});

const report = (token: string, name: string, query: string): Promise<ReportAnswer> => askReport(t, token, name, query);

const wide = () => wideAround(today);

/**
 * The recount: live shifts of one agency (and client) starting within [from, to] on the agency's clock, grouped by
 * `key` (an SQL expression over shifts s), each measure as the declaration defines it. $1 agency, $2 from, $3 to,
 * $4 a client or null.
 */
async function recount(key: string, from: string, to: string, merchantId: number, clientId: number | null = null) {
  const rows = await t.db.query<Record<string, string | number | null>>(
    `select ${key} as k,
        count(*) filter (where s.status in ('open', 'assigned', 'closed')) as requested,
        count(*) filter (where s.status in ('assigned', 'closed')) as filled,
        coalesce(sum(s.paid_minutes) filter (where s.status in ('assigned', 'closed')), 0) as minutes,
        coalesce(sum(s.charge) filter (where s.status in ('assigned', 'closed')), 0) as charge,
        coalesce(sum(s.pay) filter (where s.status in ('assigned', 'closed')), 0) as pay,
        coalesce(sum(s.margin) filter (where s.status in ('assigned', 'closed')), 0) as margin,
        count(*) filter (where s.status = 'cancelled' and s.cancellation_charge > 0) as late,
        coalesce(sum(s.cancellation_charge) filter (where s.status = 'cancelled'), 0) as late_charges,
        count(*) filter (where s.status = 'cancelled') as cancelled,
        count(*) filter (where s.status = 'cancelled' and s.cancel_requested_by = 'worker') as by_worker,
        count(*) filter (where s.status = 'cancelled' and s.cancel_requested_by = 'no_show') as no_shows
       from shifts s join merchants m on m.id = s.merchant_id
      where s.merchant_id = $1 and s.deleted_at is null
        and s.start_at >= ($2::date::timestamp at time zone m.time_zone)
        and s.start_at < (($3::date + 1)::timestamp at time zone m.time_zone)
        and ($4::int is null or s.client_id = $4::int)
      group by 1`,
    [merchantId, from, to, clientId],
  );
  return new Map(
    rows.map((r) => {
      const n = (k: string) => Number(r[k]);
      return [
        r.k === null ? null : String(r.k),
        {
          requested: n('requested'),
          filled: n('filled'),
          fill_rate: n('requested') ? n('filled') / n('requested') : null,
          hours: Math.round((n('minutes') / 60) * 100) / 100,
          charge: n('charge'),
          pay: n('pay'),
          margin: n('margin'),
          margin_pct: n('charge') ? n('margin') / n('charge') : null,
          late_cancellations: n('late'),
          late_cancellation_charges: n('late_charges'),
          shifts: n('filled'),
          cancellations: n('cancelled'),
          staff_cancellations: n('by_worker'),
          no_shows: n('no_shows'),
        } as Record<string, number | null>,
      ];
    }),
  );
}

/** Every measure the answer has, equal to the recount's (ratios to 4 decimals, as the report rounds them). */
function expectFigures(got: Record<string, unknown>, want: Record<string, number | null>, measures: string[]) {
  for (const m of measures) {
    const w = want[m];
    if (m === 'fill_rate' || m === 'margin_pct') {
      if (w === null) expect(got[m], m).toBeNull();
      else expect(got[m] as number, m).toBeCloseTo(w, 4);
    } else expect(got[m], m).toBe(w);
  }
}

const sum = (rows: Map<unknown, Record<string, number | null>>) => {
  const out: Record<string, number> = Object.fromEntries(CLIENT_MEASURES.concat(STAFF_MEASURES).map((m) => [m, 0]));
  for (const r of rows.values()) for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + (v ?? 0);
  out.fill_rate = out.requested ? out.filled / out.requested : (null as never);
  out.margin_pct = out.charge ? out.margin / out.charge : (null as never);
  out.hours = Math.round(out.hours * 100) / 100;
  return out;
};

const CLIENT_MEASURES = [
  'requested',
  'filled',
  'fill_rate',
  'hours',
  'charge',
  'margin',
  'margin_pct',
  'late_cancellations',
  'late_cancellation_charges',
];

const STAFF_MEASURES = [
  'shifts',
  'hours',
  'charge',
  'pay',
  'margin',
  'margin_pct',
  'cancellations',
  'staff_cancellations',
  'no_shows',
];

describe('GET /api/reports/client_activity', () => {
  it('per client: every figure and the totals equal a plain-SQL recount, for each agency', async () => {
    for (const [token, merchant] of [
      [admin, merchantA],
      [otherAdmin, merchantB],
    ] as const) {
      const r = await report(token, 'client_activity', `group=client&per_page=100&${wide()}`);
      const want = await recount('s.client_id', r.period!.from, r.period!.to, merchant);
      expect(r.measures.map((m) => m.id)).toEqual(CLIENT_MEASURES);
      expect(r.data.length).toBe(want.size);
      expect(r.total_count).toBe(want.size);
      for (const row of r.data) {
        const w = want.get(String(row.client_id));
        expect(w, `client ${row.client_id} is one of the agency's`).toBeDefined();
        expectFigures(row, w!, CLIENT_MEASURES);
        const [{ name }] = await t.db.query<{ name: string }>('select name from clients where id = $1', [
          row.client_id,
        ]);
        expect(row.client).toBe(name);
      }
      expectFigures(r.totals, sum(want), CLIENT_MEASURES);
      // The demo agency has figures worth checking (shifts filled and charged); the other has none of them.
      if (merchant === merchantA) {
        expect(r.totals.filled).toBeGreaterThan(0);
        expect(r.totals.charge).toBeGreaterThan(0);
      } else expect(r.totals.requested).toBe(0);
    }
  });

  it("per week on the agency's clock, and per client, site and job role", async () => {
    const r = await report(admin, 'client_activity', `group=week&per_page=100&sort=week&order=asc&${wide()}`);
    const want = await recount(
      `to_char(date_trunc('week', s.start_at at time zone m.time_zone), 'YYYY-MM-DD')`,
      r.period!.from,
      r.period!.to,
      merchantA,
    );
    expect(r.data.map((x) => x.week)).toEqual([...want.keys()].sort());
    for (const row of r.data) expectFigures(row, want.get(String(row.week))!, CLIENT_MEASURES);
    // Every page of the groups (the demo's year has more than a page of them).
    const three = { data: [] as ReportAnswer['data'] };
    for (let page = 1; ; page++) {
      const got = await report(
        admin,
        'client_activity',
        `group=client,site,job_role&per_page=100&page=${page}&${wide()}`,
      );
      three.data.push(...got.data);
      if (page >= got.total_pages) break;
    }
    const want3 = await recount(
      `s.client_id || '/' || s.site_id || '/' || s.job_role_id`,
      r.period!.from,
      r.period!.to,
      merchantA,
    );
    expect(three.data.length).toBe(want3.size);
    for (const row of three.data)
      expectFigures(row, want3.get(`${row.client_id}/${row.site_id}/${row.job_role_id}`)!, CLIENT_MEASURES);
  });

  it('pages on the server in the asked order, and the totals are every group’s, not the page’s', async () => {
    const all = await report(
      admin,
      'client_activity',
      `group=client,site&per_page=100&sort=requested&order=desc&${wide()}`,
    );
    expect(all.data.length).toBeGreaterThan(2);
    const paged: ReportAnswer['data'] = [];
    for (let page = 1; page <= Math.ceil(all.total_count / 2); page++) {
      const p = await report(
        admin,
        'client_activity',
        `group=client,site&per_page=2&page=${page}&sort=requested&order=desc&${wide()}`,
      );
      expect(p.totals).toEqual(all.totals);
      expect(p.total_pages).toBe(Math.ceil(all.total_count / 2));
      paged.push(...p.data);
    }
    expect(paged).toEqual(all.data);
    const requested = all.data.map((x) => x.requested as number);
    expect(requested).toEqual([...requested].sort((a, b) => b - a));
  });

  it('narrows by a declared filter and a period preset', async () => {
    const r = await report(admin, 'client_activity', `group=site&client_id=${clientA}&period=this_month`);
    const want = await recount('s.site_id', r.period!.from, r.period!.to, merchantA, clientA);
    expect(r.period!.from).toBe(`${today.slice(0, 7)}-01`);
    expectFigures(r.totals, sum(want), CLIENT_MEASURES);
  });

  it('a client user gets their own client only, and no margin', async () => {
    const r = await report(client, 'client_activity', `group=site&per_page=100&${wide()}`);
    const measures = CLIENT_MEASURES.filter((m) => m !== 'margin' && m !== 'margin_pct');
    expect(r.measures.map((m) => m.id)).toEqual(measures);
    // They may not list clients, so they group by their sites, job roles or dates only.
    expect(r.dimensions.map((d) => d.id)).not.toContain('client');
    for (const row of [...r.data, r.totals]) {
      expect(row).not.toHaveProperty('margin');
      expect(row).not.toHaveProperty('pay');
    }
    const want = await recount('s.site_id', r.period!.from, r.period!.to, merchantA, clientA);
    expect(r.data.length).toBe(want.size);
    for (const row of r.data) expectFigures(row, want.get(String(row.site_id))!, measures);
    expectFigures(r.totals, sum(want), measures);
    expect(r.totals.requested).toBeGreaterThan(0);
    // Another client's id as a filter finds nothing of theirs.
    const [{ other }] = await t.db.query<{ other: number }>(
      'select id as other from clients where merchant_id = $1 and id <> $2 limit 1',
      [merchantA, clientA],
    );
    const none = await report(client, 'client_activity', `client_id=${other}&${wide()}`);
    expect(none.data).toEqual([]);
    expect(none.totals.requested).toBe(0);
    for (const q of ['sort=margin', 'group=client', 'candidate_id=1']) {
      const res = await call(t.app, client, 'GET', `/api/reports/client_activity?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('refuses what the report does not declare, in words', async () => {
    for (const [q, field] of [
      ['group=nope', 'group'],
      ['group=client,client', 'group'],
      ['period=forever', 'period'],
      ['period=custom&from=2026-02-01&to=2026-01-01', 'from'],
      ['status=open', 'status'],
      ['sort=pay', 'sort'],
      ['per_page=1000', 'per_page'],
    ]) {
      const res = await call(t.app, admin, 'GET', `/api/reports/client_activity?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(Object.keys(res.json().errors), q).toContain(field);
    }
  });
});

describe('GET /api/reports/staff_activity', () => {
  it('per staff member, with pay and margin, equal to the recount; consultants read it too', async () => {
    for (const token of [admin, consultant]) {
      const r = await report(token, 'staff_activity', `per_page=100&${wide()}`);
      expect(r.group.map((g) => g.id)).toEqual(['staff']);
      expect(r.measures.map((m) => m.id)).toEqual(STAFF_MEASURES);
      const want = await recount('s.candidate_id', r.period!.from, r.period!.to, merchantA);
      want.delete(null);
      expect(r.data.length).toBe(want.size);
      for (const row of r.data) {
        expectFigures(row, want.get(String(row.staff_id))!, STAFF_MEASURES);
        const [{ name }] = await t.db.query<{ name: string }>(
          `select first_name || ' ' || last_name as name from candidates where id = $1`,
          [row.staff_id],
        );
        expect(row.staff).toBe(name);
      }
      expectFigures(r.totals, sum(want), STAFF_MEASURES);
    }
  });

  it('is the agency’s: client users are refused', async () => {
    expect((await call(t.app, client, 'GET', '/api/reports/staff_activity')).statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/reports/staff_activity/export')).statusCode).toBe(403);
  });
});

describe('GET /api/reports/client_spend', () => {
  it("a client's charge by week, never pay or margin", async () => {
    const r = await report(client, 'client_spend', 'period=last_12_weeks');
    expect(r.measures.map((m) => m.id)).toEqual(['shifts', 'hours', 'charge']);
    const want = await recount(
      `to_char(date_trunc('week', s.start_at at time zone m.time_zone), 'YYYY-MM-DD')`,
      r.period!.from,
      r.period!.to,
      merchantA,
      clientA,
    );
    for (const row of r.data) expectFigures(row, want.get(String(row.week))!, ['shifts', 'hours', 'charge']);
    expectFigures(r.totals, sum(want), ['shifts', 'hours', 'charge']);
  });
});

async function xlsxRows(body: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as any);
  const rows: unknown[][] = [];
  book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('GET /api/reports/{name}/export', () => {
  it('XLSX: readable headers, every group, then the totals; money in pounds, ratios in per cent', async () => {
    const q = `group=client&${wide()}`;
    const r = await report(admin, 'client_activity', `${q}&per_page=100`);
    const res = await call(t.app, admin, 'GET', `/api/reports/client_activity/export?format=xlsx&${q}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="client-report-${r.period!.from}-to-${r.period!.to}.xlsx"`,
    );
    const rows = await xlsxRows(res.rawPayload);
    expect(rows[0]).toEqual([
      'Client',
      'Shifts requested',
      'Shifts filled',
      'Fill rate (%)',
      'Hours',
      'Charge (£)',
      'Margin (£)',
      'Margin (%)',
      'Late cancellations',
      'Late-cancellation charges (£)',
    ]);
    expect(rows.length).toBe(r.data.length + 2);
    const [first] = r.data;
    expect(rows[1]).toEqual([
      first.client,
      first.requested,
      first.filled,
      first.fill_rate === null ? undefined : Math.round((first.fill_rate as number) * 1000) / 10,
      first.hours,
      (first.charge as number) / 100,
      (first.margin as number) / 100,
      first.margin_pct === null ? undefined : Math.round((first.margin_pct as number) * 1000) / 10,
      first.late_cancellations,
      (first.late_cancellation_charges as number) / 100,
    ]);
    const total = rows[rows.length - 1];
    expect(total[0]).toBe('Total');
    expect(total[5]).toBe((r.totals.charge as number) / 100);
    expect(total[1]).toBe(r.totals.requested);
  });

  it('CSV for a client user: their rows, no margin column; a name that looks like a formula stays text', async () => {
    // Renamed behind the engine's back on purpose: the file's writer is what is tested.
    const [{ site }] = await t.db.query<{ site: number }>(
      `select site_id as site from shifts where client_id = $1 and deleted_at is null order by site_id limit 1`,
      [clientA],
    );
    await fixtureWrite(t.db, `update sites set name = '=HYPERLINK("http://x")' where id = $1`, [site]);
    const res = await call(
      t.app,
      client,
      'GET',
      `/api/reports/client_activity/export?format=csv&group=site&site_id=${site}&${wide()}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).not.toMatch(/Margin/);
    expect(lines[0]).toMatch(/^"Site","Shifts requested"/);
    expect(lines.length).toBe(3);
    expect(lines[1]).toMatch(/^"'=HYPERLINK/);
    expect(lines[2]).toMatch(/^"Total"/);
  });
});

describe('GET /api/reports/{name}/export?format=pdf (the printed report)', () => {
  it('the groups and the total as the screen reads them, under what the report covers, in the letterhead', async () => {
    const q = `group=client&${wide()}`;
    const r = await report(admin, 'client_activity', `${q}&per_page=100`);
    const res = await call(t.app, admin, 'GET', `/api/reports/client_activity/export?format=pdf&${q}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="client-report-${r.period!.from}-to-${r.period!.to}.pdf"`,
    );
    // A cell's text wraps within its column: read as one line.
    const text = pdfTextOf(res.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain(` ${r.label} `);
    expect(text).toContain(`${r.period!.from} to ${r.period!.to} · By client · Printed ${today}`);
    for (const header of ['Shifts requested', 'Fill rate', 'Charge', 'Margin']) expect(text).toContain(header);
    // Every client's row, its charge as the screens print money; the total of all of them, then the count.
    for (const row of r.data) expect(text).toContain(String(row.client));
    const first = r.data[0];
    // Counts as the screens print them (1,235).
    const count = (n: unknown) => Number(n).toLocaleString('en-GB');
    expect(text).toContain(`${first.client} ${count(first.requested)} ${count(first.filled)} `);
    expect(text).toContain(formatPounds(first.charge as number));
    expect(text).toContain(`Total ${count(r.totals.requested)} ${count(r.totals.filled)} `);
    expect(text).toContain(formatPounds(r.totals.charge as number));
    expect(text).toContain(`${r.data.length} rows, and their total.`);
  });

  it("for a client user: their own client's rows, no margin; a filter is named", async () => {
    const res = await call(
      t.app,
      client,
      'GET',
      `/api/reports/client_activity/export?format=pdf&group=site&client_id=${clientA}&${wide()}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const text = pdfTextOf(res.rawPayload).replace(/\s+/g, ' ');
    expect(text).not.toMatch(/Margin/);
    expect(text).toContain('Filtered by client');
    const mine = await report(client, 'client_activity', `group=site&${wide()}&per_page=100`);
    for (const row of mine.data) expect(text).toContain(String(row.site));
    const [{ other }] = await t.db.query<{ other: string }>(
      `select name as other from sites where client_id <> $1 and merchant_id = $2 and deleted_at is null order by id limit 1`,
      [clientA, merchantA],
    );
    expect(text).not.toContain(other);
  });

  it('refuses another file type in words', async () => {
    const res = await call(t.app, admin, 'GET', `/api/reports/client_activity/export?format=docx&${wide()}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Choose the file type: csv, xlsx or pdf.');
  });
});

describe('the declarations', () => {
  it("the product's reports of several sources name what each source has, as the server resolves paths", () => {
    for (const r of REPORT_DECLARATIONS)
      expect(sourceProblems(r, (res, path) => resolvePath(t.app.engine.get(res)!, path)?.field)).toEqual([]);
  });
});

describe('the reports in the API description', () => {
  it("lists each report's period presets as core/engine/reports.ts has them, and no other", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const r of REPORT_DECLARATIONS) {
      const text: string = doc.paths[`/api/reports/${r.name}`].get.description;
      const offered = periodPresetsOf(r).map((p) => p.id);
      // A report without its own list offers every preset: a preset added to PERIOD_PRESETS is described at once.
      if (r.period && !r.period.presets) expect(offered).toEqual(PERIOD_PRESETS.map((p) => p.id));
      const named = text.match(/period=([a-z_0-9|]+)/)?.[1].split('|') ?? [];
      expect(named, r.name).toEqual(offered);
      if (!r.period) expect(text, r.name).toMatch(/no period/);
    }
  });
});
