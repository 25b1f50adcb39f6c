// The business unit report and the unit filter of every report over rows with a client (issue 34): a shift's unit
// is its client's (clients.business_unit_id), a client in no unit counts under "No business unit". Every figure is
// checked against a recount in plain SQL written from what the report means (core/resources/reports.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import type { ReportAnswer } from '../../core/contracts/reports';
import { agencyToday, askReport, wideAround } from './reportCalls';

let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
let merchantA: number;
let today: string;
let units: { id: number; name: string }[];

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  [{ m: merchantA }] = await t.db.query<{ m: number }>(`select merchant_id as m from users where email = $1`, [
    'admin@demo.test',
  ]);
  today = await agencyToday(t, merchantA);
  units = await t.db.query<{ id: number; name: string }>(
    'select id, name from business_units where merchant_id = $1 order by name',
    [merchantA],
  );
});
afterAll(async () => {
  await t?.close();
});

const report = (token: string, name: string, query: string): Promise<ReportAnswer> => askReport(t, token, name, query);

const wide = () => wideAround(today);

const MEASURES = ['requested', 'filled', 'fill_rate', 'hours', 'charge', 'margin', 'margin_pct'];

/**
 * The recount: live shifts of the demo agency starting within [from, to] on its clock, grouped by `key` (SQL over
 * shifts s and their client c), narrowed by `where` ($4 onwards are `args`).
 */
async function recount(key: string, from: string, to: string, where = 'true', args: unknown[] = []) {
  const rows = await t.db.query<Record<string, string | number | null>>(
    `select ${key} as k,
        count(*) filter (where s.status in ('open', 'assigned', 'closed')) as requested,
        count(*) filter (where s.status in ('assigned', 'closed')) as filled,
        coalesce(sum(s.paid_minutes) filter (where s.status in ('assigned', 'closed')), 0) as minutes,
        coalesce(sum(s.charge) filter (where s.status in ('assigned', 'closed')), 0) as charge,
        coalesce(sum(s.margin) filter (where s.status in ('assigned', 'closed')), 0) as margin
       from shifts s join merchants m on m.id = s.merchant_id join clients c on c.id = s.client_id
      where s.merchant_id = $1 and s.deleted_at is null
        and s.start_at >= ($2::date::timestamp at time zone m.time_zone)
        and s.start_at < (($3::date + 1)::timestamp at time zone m.time_zone)
        and ${where}
      group by 1`,
    [merchantA, from, to, ...args],
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
          margin: n('margin'),
          margin_pct: n('charge') ? n('margin') / n('charge') : null,
        } as Record<string, number | null>,
      ];
    }),
  );
}

function totalOf(rows: Map<unknown, Record<string, number | null>>) {
  const out: Record<string, number | null> = { requested: 0, filled: 0, hours: 0, charge: 0, margin: 0 };
  for (const r of rows.values()) for (const k of Object.keys(out)) out[k] = out[k]! + (r[k] ?? 0);
  out.hours = Math.round(out.hours! * 100) / 100;
  out.fill_rate = out.requested ? out.filled! / out.requested : null;
  out.margin_pct = out.charge ? out.margin! / out.charge : null;
  return out;
}

function expectFigures(got: Record<string, unknown>, want: Record<string, number | null>, measures = MEASURES) {
  for (const m of measures) {
    const w = want[m];
    if (m === 'fill_rate' || m === 'margin_pct') {
      if (w === null) expect(got[m], m).toBeNull();
      else expect(got[m] as number, m).toBeCloseTo(w, 4);
    } else expect(got[m], m).toBe(w);
  }
}

describe('GET /api/reports/business_unit_activity', () => {
  it('per unit, admins and consultants: every figure and the totals equal the recount; no unit is a row', async () => {
    for (const token of [admin, consultant]) {
      const r = await report(token, 'business_unit_activity', `per_page=100&${wide()}`);
      expect(r.group.map((g) => g.id)).toEqual(['business_unit']);
      // Consultants read margin as their lists do (docs/decisions.md): no privilege narrows it yet.
      expect(r.measures.map((m) => m.id)).toEqual(MEASURES);
      const want = await recount('c.business_unit_id', r.period!.from, r.period!.to);
      expect(r.data.length).toBe(want.size);
      // The demo has both units and clients in none (seed/agency.ts), each with shifts.
      expect(want.size).toBe(units.length + 1);
      for (const row of r.data) {
        const key = row.business_unit_id === null ? null : String(row.business_unit_id);
        expectFigures(row, want.get(key)!);
        expect(row.business_unit).toBe(
          key === null ? 'No business unit' : units.find((u) => u.id === row.business_unit_id)!.name,
        );
      }
      expectFigures(r.totals, totalOf(want));
      expect(r.totals.filled).toBeGreaterThan(0);
    }
  });

  it('per week within one unit, and the rows of no unit (`none`)', async () => {
    const care = units.find((u) => u.name === 'Care homes')!;
    const r = await report(
      admin,
      'business_unit_activity',
      `group=week&sort=week&order=asc&per_page=100&business_unit_id=${care.id}&${wide()}`,
    );
    const want = await recount(
      `to_char(date_trunc('week', s.start_at at time zone m.time_zone), 'YYYY-MM-DD')`,
      r.period!.from,
      r.period!.to,
      'c.business_unit_id = $4',
      [care.id],
    );
    expect(r.data.map((x) => x.week)).toEqual([...want.keys()].sort());
    for (const row of r.data) expectFigures(row, want.get(String(row.week))!);
    expectFigures(r.totals, totalOf(want));
    const none = await report(admin, 'business_unit_activity', `group=client&business_unit_id=none&${wide()}`);
    const wantNone = await recount('s.client_id', none.period!.from, none.period!.to, 'c.business_unit_id is null');
    expect(none.data.map((x) => String(x.client_id)).sort()).toEqual([...wantNone.keys()].sort());
    expectFigures(none.totals, totalOf(wantNone));
  });

  it('another agency’s unit finds nothing; a value that names no record is refused in words', async () => {
    const other = await report(otherAdmin, 'business_unit_activity', `business_unit_id=${units[0].id}&${wide()}`);
    expect(other.data).toEqual([]);
    expect(other.totals.requested).toBe(0);
    for (const v of ['abc', '0', '-1', '1.5']) {
      const res = await call(t.app, admin, 'GET', `/api/reports/business_unit_activity?business_unit_id=${v}`);
      expect(res.statusCode, v).toBe(400);
      expect(res.json().errors.business_unit_id, v).toMatch(/id/);
    }
  });

  it('is the agency’s: client users are refused the report and its file', async () => {
    expect((await call(t.app, client, 'GET', '/api/reports/business_unit_activity')).statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/reports/business_unit_activity/export')).statusCode).toBe(403);
  });

  it('CSV: the unit column, the no-unit row and the Total', async () => {
    const r = await report(admin, 'business_unit_activity', `per_page=100&${wide()}`);
    const res = await call(t.app, admin, 'GET', `/api/reports/business_unit_activity/export?format=csv&${wide()}`);
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      '"Business unit","Shifts requested","Shifts filled","Fill rate (%)","Hours","Charge (£)","Margin (£)","Margin (%)"',
    );
    expect(lines.length).toBe(r.data.length + 2);
    expect(lines.some((l) => l.startsWith('"No business unit"'))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(/^"Total"/);
  });
});

describe('the unit filter of the other reports', () => {
  it('client report: narrowed to a unit’s clients, and grouped by unit, equal to the recount', async () => {
    const hospitals = units.find((u) => u.name === 'Hospitals')!;
    const r = await report(
      admin,
      'client_activity',
      `group=client&per_page=100&business_unit_id=${hospitals.id}&${wide()}`,
    );
    const want = await recount('s.client_id', r.period!.from, r.period!.to, 'c.business_unit_id = $4', [hospitals.id]);
    expect(r.data.length).toBe(want.size);
    for (const row of r.data) expectFigures(row, want.get(String(row.client_id))!);
    expectFigures(r.totals, totalOf(want));
    expect(r.filters).toContainEqual({
      id: 'business_unit_id',
      label: 'Business unit',
      reference: 'business_units',
      empty: 'No business unit',
    });
    const byUnit = await report(admin, 'client_activity', `group=business_unit&per_page=100&${wide()}`);
    const wantByUnit = await recount('c.business_unit_id', r.period!.from, r.period!.to);
    for (const row of byUnit.data)
      expectFigures(row, wantByUnit.get(row.business_unit_id === null ? null : String(row.business_unit_id))!);
  });

  it('staff report: a unit’s clients’ shifts per staff member', async () => {
    const care = units.find((u) => u.name === 'Care homes')!;
    const r = await report(consultant, 'staff_activity', `per_page=100&business_unit_id=${care.id}&${wide()}`);
    const want = await recount(
      's.candidate_id',
      r.period!.from,
      r.period!.to,
      'c.business_unit_id = $4 and s.candidate_id is not null',
      [care.id],
    );
    expect(r.data.length).toBe(want.size);
    for (const row of r.data) {
      const w = want.get(String(row.staff_id))!;
      expect(row.shifts).toBe(w.filled);
      expectFigures(row, w, ['hours', 'charge', 'margin', 'margin_pct']);
    }
  });

  it('invoice reports: a unit’s rows are its clients’ rows of the whole report', async () => {
    for (const name of ['aged_debt', 'invoiced']) {
      const period = name === 'invoiced' ? `&${wide()}` : '';
      const all = await report(admin, name, `group=client&per_page=100${period}`);
      for (const unit of [...units.map((u) => String(u.id)), 'none']) {
        const r = await report(admin, name, `group=client&per_page=100&business_unit_id=${unit}${period}`);
        const inUnit = new Set(
          (
            await t.db.query<{ id: number }>(
              `select id from clients where merchant_id = $1 and ${unit === 'none' ? 'business_unit_id is null' : 'business_unit_id = $2'}`,
              unit === 'none' ? [merchantA] : [merchantA, Number(unit)],
            )
          ).map((x) => x.id),
        );
        expect(r.data).toEqual(all.data.filter((x) => inUnit.has(x.client_id as number)));
      }
    }
  });

  it('client spend: a unit’s (or no unit’s) clients’ charge by week, equal to the recount', async () => {
    const week = `to_char(date_trunc('week', s.start_at at time zone m.time_zone), 'YYYY-MM-DD')`;
    for (const unit of [...units.map((u) => String(u.id)), 'none']) {
      const r = await report(admin, 'client_spend', `group=week&per_page=100&business_unit_id=${unit}&${wide()}`);
      const want = await recount(
        week,
        r.period!.from,
        r.period!.to,
        unit === 'none' ? 'c.business_unit_id is null' : 'c.business_unit_id = $4',
        unit === 'none' ? [] : [Number(unit)],
      );
      // A week with only unfilled shifts of the unit is a group of zeros.
      expect(r.data.length, unit).toBe(want.size);
      for (const row of r.data) {
        const w = want.get(String(row.week))!;
        expect(row.shifts, `${unit} ${row.week}`).toBe(w.filled);
        expectFigures(row, w, ['hours', 'charge']);
      }
      const total = totalOf(want);
      expect(r.totals.shifts).toBe(total.filled);
      expectFigures(r.totals, total, ['hours', 'charge']);
      expect(r.totals.charge, unit).toBeGreaterThan(0);
    }
    // A client user's spend has no unit filter (the unit is the agency's own organisation).
    const own = await report(client, 'client_spend', 'period=last_12_weeks');
    expect(own.filters.map((f) => f.id)).not.toContain('business_unit_id');
    const refused = await call(t.app, client, 'GET', `/api/reports/client_spend?business_unit_id=${units[0].id}`);
    expect(refused.statusCode).toBe(400);
  });

  it('client users have no unit filter or grouping: asking for one is refused', async () => {
    const r = await report(client, 'client_activity', wide());
    expect(r.filters.map((f) => f.id)).not.toContain('business_unit_id');
    expect(r.dimensions.map((d) => d.id)).not.toContain('business_unit');
    for (const q of [`business_unit_id=${units[0].id}`, 'group=business_unit'])
      expect((await call(t.app, client, 'GET', `/api/reports/client_activity?${q}`)).statusCode, q).toBe(400);
  });
});
