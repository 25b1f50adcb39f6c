// The staff report's compliance and working-time view (issue 34; GET /api/reports/staff_standing): compliance
// today, the highest AWR count among their client and job-role assignments with the date equal treatment applies
// from, the average weekly hours over the 17 weeks to the period's end, and the 48-hour opt-out. Every value is
// checked against a recount written here from the rules as docs/decisions.md states them (plain SQL for the facts,
// a week-by-week walk for the AWR clock), not by calling the domain functions the server uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import type { ReportAnswer, ReportRow } from '../../core/contracts/reports';
import { agencyToday, askReport, wideAround } from './reportCalls';
import { addDaysToDate, startOfWeekMonday } from '../../core/domain/time/agencyTime';

let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let merchantA: number;
let today: string;

beforeAll(async () => {
  t = await makeTestApp({ history: true });
  [admin, consultant, client] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
  ]);
  [{ m: merchantA }] = await t.db.query<{ m: number }>(`select merchant_id as m from users where email = $1`, [
    'admin@demo.test',
  ]);
  today = await agencyToday(t, merchantA);
});
afterAll(async () => {
  await t?.close();
});

const report = (token: string, query: string): Promise<ReportAnswer> => askReport(t, token, 'staff_standing', query);

const DETAILS = ['compliance', 'awr_weeks', 'awr_at', 'awr_qualifies_on', 'average_weekly_hours', 'opted_out_48h'];

/**
 * The AWR clock walked one week at a time from the first week worked to the week of asOf: a week worked counts; a
 * 7th week in a row without work (a whole one, before asOf's) sets the count back to 0. The date equal treatment
 * applies from is the Monday after the 12th week counted, or, not reached yet, after 12 counting every week from
 * asOf's (itself included when nothing counted in it yet).
 */
function walkAwr(mondaysWorked: string[], asOf: string): { weeks: number; from: string | null } {
  const worked = new Set(mondaysWorked);
  const asOfMonday = startOfWeekMonday(asOf);
  let counted: string[] = [];
  let idle = 0;
  const first = [...worked].sort()[0];
  if (!first) return { weeks: 0, from: null };
  for (let m = first; m <= asOfMonday; m = addDaysToDate(m, 7)) {
    if (worked.has(m)) {
      if (idle > 6) counted = [];
      counted.push(m);
      idle = 0;
    } else if (m < asOfMonday) idle += 1;
  }
  if (idle > 6) counted = [];
  if (!counted.length) return { weeks: 0, from: null };
  if (counted.length >= 12) return { weeks: counted.length, from: addDaysToDate(counted[11], 7) };
  const next = counted[counted.length - 1] === asOfMonday ? addDaysToDate(asOfMonday, 7) : asOfMonday;
  return { weeks: counted.length, from: addDaysToDate(next, 7 * (12 - counted.length)) };
}

/** What each staff member's detail columns must be as of a date, recounted from the tables. */
async function recount(ids: number[], asOf: string): Promise<Map<number, ReportRow>> {
  const people = await t.db.query<{ id: number; compliance: string; opted_out: boolean }>(
    `select c.id,
        case when not c.compliance_complete then 'not_compliant'
             when c.compliance_valid_until is null or c.compliance_valid_until > $2::date + 30 then 'compliant'
             when c.compliance_valid_until >= $2::date then 'expiring' else 'not_compliant' end as compliance,
        coalesce((select bool_or(p.opted_out_48h) from candidate_preferences p where p.candidate_id = c.id), false) as opted_out
       from candidates c where c.id = any($1::int[])`,
    [ids, today],
  );
  // A period over before today: compliance on its last day, from the verified documents issued by then (current or
  // replaced since), each category's longest lasting counting, judged on that day as the list judges today.
  const onDay =
    asOf < today
      ? new Map(
          (
            await t.db.query<{ id: number; state: string }>(
              `with held as (
                 select c.id, dc.id as cat, count(d.id) as n, bool_or(d.expiry_date is null) as forever,
                        max(d.expiry_date) as last
                   from candidates c join merchants m on m.id = c.merchant_id
                   join document_categories dc on dc.merchant_id = c.merchant_id
                    and (dc.mandatory or c.job_role_id = any(dc.job_role_ids))
                   left join candidate_documents d on d.candidate_id = c.id and d.document_category_id = dc.id
                    and d.deleted_at is null and d.status = 'verified'
                    and coalesce(d.issue_date, (d.created_at at time zone m.time_zone)::date) <= $2::date
                  where c.id = any($1::int[]) group by 1, 2),
               soonest as (select id, bool_or(n = 0) as missing,
                                  min(case when forever then null else last end) as until from held group by id)
               select id, case when missing then 'not_compliant'
                               when until is null or until > $2::date + 30 then 'compliant'
                               when until >= $2::date then 'expiring' else 'not_compliant' end as state
                 from soonest`,
              [ids, asOf],
            )
          ).map((r) => [Number(r.id), r.state]),
        )
      : null;
  // Elapsed hours of booked and worked shifts starting in the 17 local weeks ending with asOf's, over 17.
  const monday = startOfWeekMonday(asOf);
  const hours = await t.db.query<{ id: number; h: string }>(
    `select s.candidate_id as id, sum(extract(epoch from s.end_at - s.start_at)) / 3600 / 17 as h
       from shifts s join merchants m on m.id = s.merchant_id
      where s.candidate_id = any($1::int[]) and s.status in ('assigned', 'closed') and s.deleted_at is null
        and (s.start_at at time zone m.time_zone)::date between $2::date - 112 and $2::date + 6
      group by 1`,
    [ids, monday],
  );
  const weeks = await t.db.query<{ id: number; at: string; monday: string }>(
    `select distinct s.candidate_id as id, cl.name || ', ' || jr.name as at,
        to_char(date_trunc('week', s.start_at at time zone m.time_zone), 'YYYY-MM-DD') as monday
       from shifts s join merchants m on m.id = s.merchant_id
       join clients cl on cl.id = s.client_id join job_roles jr on jr.id = s.job_role_id
      where s.candidate_id = any($1::int[]) and s.status in ('assigned', 'closed') and s.deleted_at is null
        and (s.start_at at time zone m.time_zone)::date <= $2::date`,
    [ids, asOf],
  );
  const out = new Map<number, ReportRow>();
  for (const p of people) {
    const pairs = new Map<string, string[]>();
    for (const w of weeks.filter((x) => Number(x.id) === Number(p.id)))
      pairs.set(w.at, [...(pairs.get(w.at) ?? []), w.monday]);
    const best = [...pairs]
      .map(([at, mondays]) => ({ at, ...walkAwr(mondays, asOf) }))
      .filter((a) => a.weeks > 0)
      .sort((x, y) => y.weeks - x.weeks || (x.from ?? '').localeCompare(y.from ?? '') || x.at.localeCompare(y.at))[0];
    const h = hours.find((x) => Number(x.id) === Number(p.id));
    out.set(Number(p.id), {
      // No category required: nothing to hold, compliant.
      compliance: onDay ? (onDay.get(Number(p.id)) ?? 'compliant') : p.compliance,
      awr_weeks: best?.weeks ?? 0,
      awr_at: best?.at ?? null,
      awr_qualifies_on: best?.from ?? null,
      average_weekly_hours: h ? Math.round(Number(h.h) * 100) / 100 : 0,
      opted_out_48h: p.opted_out ? 'yes' : 'no',
    });
  }
  return out;
}

async function expectRecounted(r: ReportAnswer) {
  const ids = r.data.map((row) => Number(row.staff_id));
  const want = await recount(ids, r.period!.to);
  for (const row of r.data) {
    const w = want.get(Number(row.staff_id))!;
    for (const d of DETAILS) {
      if (d === 'average_weekly_hours') expect(row[d] as number, `${row.staff} ${d}`).toBeCloseTo(w[d] as number, 2);
      else expect(row[d], `${row.staff} ${d}`).toBe(w[d]);
    }
  }
  return want;
}

describe('the staff report: compliance, AWR, working time and the opt-out', () => {
  it('per staff member, each equal to the recount as of the period’s end, for admins and consultants', async () => {
    // The demo's shifts span eight weeks: one staff member is given a Wednesday at the same client in the same role in
    // each of the 16 weeks before last month's last week (written behind the engine's back on purpose, a past the
    // API cannot book), so that someone has qualified.
    const last = await report(admin, `per_page=100&period=last_month`);
    const [{ client: clientId, role, site }] = await t.db.query<{ client: number; role: number; site: number }>(
      `select client_id as client, job_role_id as role, site_id as site from shifts
        where candidate_id = $1 and status in ('assigned', 'closed') and deleted_at is null order by start_at limit 1`,
      [last.data[0].staff_id],
    );
    await fixtureWrite(
      t.db,
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, candidate_id, status, start_at, end_at)
       select $1, $2, $3, $4, $5, 'closed', a, a + interval '8 hours'
         from generate_series(1, 16) as g(n),
              lateral (select ((date_trunc('week', $6::date)::date - 7 * g.n + 2)::timestamp + time '09:00') at time zone m.time_zone as a
                         from merchants m where m.id = $1) x
        where not exists (select 1 from shifts o where o.merchant_id = $1 and o.candidate_id = $5
                            and tstzrange(o.start_at, o.end_at) && tstzrange(x.a, x.a + interval '8 hours'))`,
      [merchantA, clientId, site, role, last.data[0].staff_id, last.period!.to],
    );
    const seen = { qualified: 0, counting: 0, averaged: 0, optedOut: 0, compliant: new Set<string>() };
    for (const token of [admin, consultant])
      for (const period of [
        'period=last_month',
        'period=this_month',
        // Ending on a Wednesday: the 17 weeks end with that week, the AWR count stops on that day.
        `period=custom&from=${addDaysToDate(startOfWeekMonday(today), -70)}&to=${addDaysToDate(startOfWeekMonday(today), -12)}`,
        wideAround(today),
      ]) {
        const r = await report(token, `per_page=100&${period}`);
        expect(r.details?.map((d) => d.id)).toEqual(DETAILS);
        expect(r.data.length).toBeGreaterThan(0);
        await expectRecounted(r);
        for (const row of r.data) {
          if ((row.awr_weeks as number) >= 12) seen.qualified += 1;
          else if ((row.awr_weeks as number) > 0) seen.counting += 1;
          if ((row.average_weekly_hours as number) > 0) seen.averaged += 1;
          if (row.opted_out_48h === 'yes') seen.optedOut += 1;
          seen.compliant.add(String(row.compliance));
        }
        // No totals of what a staff member is.
        for (const d of DETAILS) expect(r.totals[d]).toBeUndefined();
      }
    // The demo's year of history exercises every branch the recount walks.
    expect(seen.qualified).toBeGreaterThan(0);
    expect(seen.counting).toBeGreaterThan(0);
    expect(seen.averaged).toBeGreaterThan(0);
    expect(seen.optedOut).toBeGreaterThan(0);
  });

  it('counts every assignment of the staff member, whatever the filter; a booked shift moves the count', async () => {
    const r = await report(admin, `per_page=100&period=last_month`);
    const [row] = r.data.filter((x) => (x.awr_weeks as number) > 0);
    const [{ client: clientId, role, site }] = await t.db.query<{ client: number; role: number; site: number }>(
      `select client_id as client, job_role_id as role, site_id as site from shifts
        where candidate_id = $1 and status in ('assigned', 'closed') and deleted_at is null order by start_at desc limit 1`,
      [row.staff_id],
    );
    // Narrowed to another client, the staff member's row still says where they stand overall.
    const [{ other }] = await t.db.query<{ other: number }>(
      `select id as other from clients where merchant_id = $1 and id <> $2 order by id limit 1`,
      [merchantA, clientId],
    );
    const narrowed = await report(admin, `per_page=100&period=last_month&client_id=${other}`);
    const same = narrowed.data.find((x) => x.staff_id === row.staff_id);
    if (same) for (const d of DETAILS) expect(same[d], d).toBe(row[d]);
    // Shifts written behind the engine's back on purpose: the report reads the table as it is. A 12-hour day on each
    // free day of the last month's last week raises the 17-week average by their hours over 17.
    const added = await fixtureWrite<{ h: string }>(
      t.db,
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, candidate_id, status, start_at, end_at, paid_minutes)
       select $1, $2, $3, $4, $5, 'assigned', a, a + interval '12 hours', 690
         from generate_series(0, 6) as g(n),
              lateral (select (($6::date - g.n)::timestamp + time '07:00') at time zone m.time_zone as a
                         from merchants m where m.id = $1) x
        where not exists (select 1 from shifts o where o.merchant_id = $1 and o.candidate_id = $5
                             and tstzrange(o.start_at, o.end_at) && tstzrange(x.a - interval '1 hour', x.a + interval '13 hours'))
           and extract(isodow from $6::date - g.n) <= extract(isodow from $6::date)
       returning extract(epoch from end_at - start_at) / 3600 as h`,
      [merchantA, clientId, site, role, row.staff_id, r.period!.to],
    );
    expect(added.length).toBeGreaterThan(0);
    const after = await report(admin, `per_page=100&period=last_month`);
    const moved = after.data.find((x) => x.staff_id === row.staff_id)!;
    expect(moved.average_weekly_hours as number).toBeCloseTo(
      (row.average_weekly_hours as number) + (12 * added.length) / 17,
      1,
    );
    await expectRecounted(after);
  });

  it('is the staff report’s own view: the activity view has none of them, and it groups by staff member only', async () => {
    const activity = await askReport(t, admin, 'staff_activity', 'period=last_month');
    expect(activity.details).toBeUndefined();
    for (const d of DETAILS) expect(activity.data[0]?.[d]).toBeUndefined();
    const byClient = await call(t.app, admin, 'GET', '/api/reports/staff_standing?group=client');
    expect(byClient.statusCode).toBe(400);
    expect(byClient.json().errors.group).toMatch(/Cannot group by client/);
    // Its shifts and hours are the activity view's.
    const standing = await report(admin, 'per_page=100&period=last_month');
    const same = await askReport(t, admin, 'staff_activity', 'per_page=100&period=last_month&sort=staff&order=asc');
    expect(standing.data.map((r) => [r.staff_id, r.shifts, r.hours])).toEqual(
      same.data.map((r) => [r.staff_id, r.shifts, r.hours]),
    );
  });

  it('sorts by each of them on the server, across pages, empty values last, ties by staff member', async () => {
    const period = `period=custom&from=${addDaysToDate(today, -120)}&to=${addDaysToDate(today, -1)}`;
    const all = await report(admin, `per_page=100&${period}`);
    expect(all.total_count).toBeGreaterThan(10);
    expect(all.total_count).toBeLessThanOrEqual(100);
    const want = await recount(
      all.data.map((r) => Number(r.staff_id)),
      all.period!.to,
    );
    // The declared order of a choice: compliant, document due, not compliant; yes before no.
    const rank: Record<string, string[]> = {
      compliance: ['compliant', 'expiring', 'not_compliant'],
      opted_out_48h: ['yes', 'no'],
    };
    const key = (d: string, v: unknown): number | string =>
      rank[d] ? rank[d].indexOf(String(v)) : typeof v === 'number' ? v : String(v).toLowerCase();
    const expected = (d: string, order: 'asc' | 'desc') =>
      [...want.entries()]
        .sort(([ia, a], [ib, b]) => {
          const [va, vb] = [a[d], b[d]];
          if (va === null && vb === null) return ia - ib;
          if (va === null) return 1;
          if (vb === null) return -1;
          const [ka, kb] = [key(d, va), key(d, vb)];
          const cmp = ka < kb ? -1 : ka > kb ? 1 : 0;
          return (order === 'asc' ? cmp : -cmp) || ia - ib;
        })
        .map(([id]) => id);
    for (const d of DETAILS)
      for (const order of ['asc', 'desc'] as const) {
        const seen: number[] = [];
        for (let page = 1; ; page++) {
          const r = await report(admin, `per_page=7&page=${page}&sort=${d}&order=${order}&${period}`);
          expect(r.sort).toBe(d);
          expect(r.total_count).toBe(all.total_count);
          // The totals are the report's, whatever the sort.
          expect(r.totals).toEqual(all.totals);
          seen.push(...r.data.map((x) => Number(x.staff_id)));
          if (page >= r.total_pages) break;
        }
        if (d === 'average_weekly_hours') {
          // Hours recounted in SQL may differ in the last digit: the order is checked by value, ties by id.
          const value = (id: number) => Math.round((want.get(id)![d] as number) * 100);
          const sign = order === 'asc' ? 1 : -1;
          for (let i = 1; i < seen.length; i++) {
            const [a, b] = [value(seen[i - 1]), value(seen[i])];
            expect(a === b ? seen[i - 1] < seen[i] : sign * (a - b) < 0, `${d} ${order} at ${i}`).toBe(true);
          }
          expect([...seen].sort((a, b) => a - b)).toEqual([...want.keys()].sort((a, b) => a - b));
        } else expect(seen, `${d} ${order}`).toEqual(expected(d, order));
      }
    // The file follows the same order.
    const csv = await call(
      t.app,
      admin,
      'GET',
      `/api/reports/staff_standing/export?format=csv&sort=awr_weeks&order=desc&${period}`,
    );
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split(/\r?\n/).slice(1, -1);
    const names = new Map(all.data.map((r) => [Number(r.staff_id), String(r.staff)]));
    expect(lines.map((l) => l.split(',')[0].replace(/"/g, ''))).toEqual(
      expected('awr_weeks', 'desc').map((id) => names.get(id)),
    );
    // A detail is no sort of the activity view, which has none.
    const refused = await call(t.app, admin, 'GET', `/api/reports/staff_activity?sort=awr_weeks&${period}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.sort).toMatch(/Cannot sort by awr_weeks/);
  });

  it('exports them as columns of the CSV and the XLSX, named, with no total', async () => {
    const q = `period=last_month`;
    const r = await report(admin, `${q}&per_page=100`);
    const labels = r.details!.map((d) => d.label);
    expect(labels).toEqual([
      'Compliance at period end',
      'AWR weeks (of 12)',
      'AWR at',
      'AWR equal treatment from',
      'Average weekly hours (17 weeks)',
      'Opted out of 48 hours',
    ]);
    const xlsx = await call(t.app, admin, 'GET', `/api/reports/staff_standing/export?format=xlsx&${q}`);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as any);
    const rows: unknown[][] = [];
    book.worksheets[0].eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[0] as string[];
    expect(header.slice(-6)).toEqual(labels);
    expect(rows.length).toBe(r.data.length + 2);
    const byName = new Map(r.data.map((x) => [x.staff, x]));
    const at = (name: string) => header.indexOf(name);
    for (const line of rows.slice(1, -1)) {
      const want = byName.get(line[0] as string)!;
      const names = { compliant: 'Compliant', expiring: 'Compliant, document due', not_compliant: 'Not compliant' };
      expect(line[at('Compliance at period end')]).toBe(names[want.compliance as keyof typeof names]);
      expect(line[at('AWR weeks (of 12)')]).toBe(want.awr_weeks);
      expect(line[at('AWR at')] ?? null).toBe(want.awr_at);
      expect(line[at('AWR equal treatment from')] ?? null).toBe(want.awr_qualifies_on);
      expect(line[at('Average weekly hours (17 weeks)')]).toBe(want.average_weekly_hours);
      expect(line[at('Opted out of 48 hours')]).toBe(want.opted_out_48h === 'yes' ? 'Yes' : 'No');
    }
    const total = rows[rows.length - 1];
    expect(total[0]).toBe('Total');
    expect(total.slice(header.length - 6, header.length).every((v) => v === undefined || v === null || v === '')).toBe(
      true,
    );

    const csv = await call(t.app, consultant, 'GET', `/api/reports/staff_standing/export?format=csv&${q}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const head = csv.body.replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(head.endsWith(labels.map((l) => `"${l}"`).join(','))).toBe(true);
  });

  it('client users never get the report, its pay or these columns', async () => {
    for (const path of ['/api/reports/staff_activity', '/api/reports/staff_standing/export?format=xlsx'])
      expect((await call(t.app, client, 'GET', path)).statusCode).toBe(403);
  });
});

// The walk above is itself checked on the published shape of the rule: 12 weeks qualify, a break of 6 pauses, 7
// resets.
describe('the recount’s AWR walk', () => {
  const mondays = (ws: number[]) => ws.map((w) => addDaysToDate('2026-01-05', 7 * w));
  it.each([
    { ws: [0, 1, 2], asOf: '2026-01-21', want: { weeks: 3, from: '2026-03-30' } },
    { ws: Array.from({ length: 12 }, (_, i) => i), asOf: '2026-03-25', want: { weeks: 12, from: '2026-03-30' } },
    { ws: [0, 1, 2, 9], asOf: '2026-03-11', want: { weeks: 4, from: '2026-05-11' } },
    { ws: [0, 1, 2, 10], asOf: '2026-03-18', want: { weeks: 1, from: '2026-06-08' } },
    { ws: [0, 1, 2], asOf: '2026-03-16', want: { weeks: 0, from: null } },
  ])('$ws as of $asOf', ({ ws, asOf, want }) => {
    expect(walkAwr(mondays(ws), asOf)).toEqual(want);
  });
});
