// The shift reports' daily and monthly summaries (issue 34; migrations 143 and 147, core/resources/reports.ts
// shiftDays): after random
// sequences of every kind of shift write — a request's create, createMany (bulk), an edit, a transition one at a
// time and set-based (bulk cancel, bulk remove), a reopen, a change of charge, SQL outside the engine (a set-based
// update, a hard delete, an insert), an agency changing its time zone, the fold of the deltas and a rebuild — the
// summary, folded, by day and by month, equals a recount of shifts written from its declaration; and every report
// that reads it (whole months from the months) answers exactly what the same report answers from the shifts
// themselves, for the agency and for a client user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';
import { REPORT_DECLARATIONS, REPORT_SUMMARIES } from '../../core/resources/reports';
import {
  compactReportSummaries,
  foldedSql,
  rebuildReportSummaries,
  summaryFor,
  summaryRecountSql,
  summaryTables,
} from '../../server/engine/reportSummaries';
import { parseReportQuery, runReport } from '../../server/engine/reports';
import { forgetAgencyZones } from '../../server/engine/routes';
import { withEngine } from '../../server/engine/handle';
import type { EnginePrincipal } from '../../server/engine/context';

let t: TestApp;
const tok = {} as Record<'admin' | 'client', string>;
let merchantA: number;
let clientA: number;
let sites: { id: number; client_id: number }[];
let role: number;
let today: string;
const TZ = 'Europe/London';

beforeAll(async () => {
  t = await makeTestApp();
  [tok.admin, tok.client] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'client')]);
  const [u] = await t.db.query<{ m: number; c: number }>(
    `select merchant_id as m, client_id as c from users where email = 'client@demo.test'`,
  );
  [merchantA, clientA] = [u.m, u.c];
  sites = await t.db.query(
    'select id, client_id from sites where merchant_id = $1 and deleted_at is null order by id',
    [merchantA],
  );
  sites = sites.filter((s) => s.client_id === clientA).concat(sites.filter((s) => s.client_id !== clientA).slice(0, 2));
  role = (
    await t.db.query<{ id: number }>('select id from job_roles where merchant_id = $1 order by id', [merchantA])
  )[0].id;
  today = agencyToday(TZ);
  // Two agencies' demo seeded through the engine: minutes on a machine shared with other runs.
}, 600_000);
afterAll(async () => {
  await t?.close();
});

const shifts = () => t.app.engine.get('shifts')!;
const order = (sql: string) => `select * from (${sql}) x order by 1, 2, 3, 4, 5, 6, 7, 8`;

/** The summary folded and the recount, by day and by month, every agency's, as comparable rows. */
async function both() {
  const norm = (rows: Record<string, unknown>[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])));
  const folded: Record<string, unknown>[] = [];
  const recount: Record<string, unknown>[] = [];
  for (const summary of REPORT_SUMMARIES)
    for (const { table, grain } of summaryTables(summary)) {
      folded.push({ table }, ...norm(await t.db.query(order(foldedSql(summary, table)))));
      recount.push({ table }, ...norm(await t.db.query(order(summaryRecountSql(summary, shifts(), grain)))));
    }
  return { folded, recount };
}

/** An instant `days` from today at a wall-clock time in London. */
const at = (days: number, time: string) => zonedDateTimeToInstant(addDaysToDate(today, days), time, TZ).toISOString();

/** Eight hours after an instant `at` gives. */
const later = (instant: string) => new Date(Date.parse(instant) + 8 * 3_600_000).toISOString();

/** The shifts of agency A the writes pick from: live, created by this test. */
async function ours(status?: string) {
  const rows = await t.db.query<{ id: number }>(
    `select id from shifts where merchant_id = $1 and notes = 'summary test' and deleted_at is null
        and ($2::text is null or status = $2) order by id`,
    [merchantA, status ?? null],
  );
  return rows.map((r) => r.id);
}
const pick = <T>(xs: T[], k: number) => (xs.length ? xs[k % xs.length] : undefined);

type Write = { kind: string; k: number; days: number; hour: number };
const write = fc.record({
  kind: fc.constantFrom(
    'create',
    'bulk',
    'edit',
    'cancel',
    'bulk_cancel',
    'bulk_remove',
    'reopen',
    'change_charge',
    'sql_update',
    'sql_delete',
    'sql_insert',
    'zone',
    'fold',
    'rebuild',
  ),
  k: fc.nat(1000),
  days: fc.integer({ min: -40, max: 40 }),
  hour: fc.integer({ min: 0, max: 23 }),
});

/** One write of a kind: through the API (every refusal in words is fine: then nothing changed), or SQL. */
async function apply(w: Write) {
  const post = (url: string, body: unknown) => call(t.app, tok.admin, 'POST', url, body);
  const site = sites[w.k % sites.length];
  const time = `${String(w.hour).padStart(2, '0')}:30`;
  const where = { client_id: site.client_id, site_id: site.id, job_role_id: role, notes: 'summary test' };
  const answered = async (res: Promise<{ statusCode: number; body: string }>) => {
    const r = await res;
    expect(r.statusCode, `${w.kind}: ${r.body.slice(0, 300)}`).toBeLessThan(500);
  };
  switch (w.kind) {
    case 'create':
      return answered(post('/api/shifts', { ...where, start_at: at(w.days, time), end_at: later(at(w.days, time)) }));
    case 'bulk':
      return answered(
        post('/api/shifts/bulk', {
          ...where,
          start_time: time,
          end_time: `${String((w.hour + 8) % 24).padStart(2, '0')}:30`,
          dates: [0, 1, 2].slice(0, 1 + (w.k % 3)).map((d) => addDaysToDate(today, w.days + d)),
        }),
      );
    case 'edit': {
      const id = pick(await ours('open'), w.k);
      const other = sites.find((s) => s.client_id === site.client_id && s.id !== site.id) ?? site;
      if (id)
        await answered(
          call(t.app, tok.admin, 'PUT', `/api/shifts/${id}`, {
            start_at: at(w.days, time),
            end_at: later(at(w.days, time)),
            ...(w.k % 2 ? { site_id: other.id, client_id: other.client_id } : {}),
          }),
        );
      return;
    }
    case 'cancel': {
      const id = pick(await ours('open'), w.k);
      if (id)
        await answered(
          post(`/api/shifts/${id}/actions/cancel`, {
            reason: 'Not needed',
            requested_by: ['client', 'agency', 'worker'][w.k % 3],
          }),
        );
      return;
    }
    case 'bulk_cancel': {
      const ids = (await ours('open')).filter((_, i) => i % 3 === w.k % 3).slice(0, 5);
      if (ids.length) await answered(post('/api/shifts/actions/cancel', { ids, reason: 'Closed ward' }));
      return;
    }
    case 'bulk_remove': {
      const ids = (await ours()).filter((_, i) => i % 4 === w.k % 4).slice(0, 4);
      if (ids.length) await answered(post('/api/shifts/actions/remove', { ids, reason: 'Entered twice' }));
      return;
    }
    case 'reopen': {
      const id = pick(await ours('cancelled'), w.k);
      if (id) await answered(post(`/api/shifts/${id}/actions/reopen`, {}));
      return;
    }
    case 'change_charge': {
      const id = pick(await ours('cancelled'), w.k);
      if (id)
        await answered(
          post(`/api/shifts/${id}/actions/change_charge`, { cancellation_charge: w.k * 10, reason: 'Agreed' }),
        );
      return;
    }
    case 'sql_update':
      // A set-based write outside the engine: a day later, and a penny more, for a third of the test's shifts.
      await fixtureWrite(
        t.db,
        `update shifts set start_at = start_at + interval '1 day', end_at = end_at + interval '1 day',
                charge = charge + 1 where merchant_id = $1 and id % 3 = $2 and notes = 'summary test'`,
        [merchantA, w.k % 3],
      );
      return;
    case 'sql_delete': {
      const id = pick(await ours(), w.k);
      if (id) await fixtureWrite(t.db, 'delete from shifts where id = $1', [id]);
      return;
    }
    case 'sql_insert':
      await fixtureWrite(
        t.db,
        `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, status, paid_minutes,
                charge, pay, margin, cancellation_charge, cancel_requested_by, notes)
         values ($1, $2, $3, $4, $5, $6, $7, 450, 16000, 11000, 3500, $8, $9, 'summary test')`,
        [
          merchantA,
          site.client_id,
          site.id,
          role,
          at(w.days, time),
          later(at(w.days, time)),
          ['open', 'cancelled'][w.k % 3 === 1 ? 1 : 0],
          w.k % 3 === 1 && w.k % 2 ? 2500 : null,
          w.k % 3 === 1 ? 'client' : null,
        ],
      );
      return;
    case 'zone':
      await fixtureWrite(t.db, 'update merchants set time_zone = $2 where id = $1', [
        merchantA,
        w.k % 2 ? 'America/New_York' : TZ,
      ]);
      return;
    case 'fold':
      return compactReportSummaries(t.db);
    case 'rebuild':
      return rebuildReportSummaries(t.db, w.k % 2 ? merchantA : null);
  }
}

describe('the shift reports’ daily summary', () => {
  it('equals a recount of shifts once the demo is seeded, every agency', async () => {
    const { folded, recount } = await both();
    expect(recount.length).toBeGreaterThan(10);
    // By month too (the day summary's months, the staff summary): rows of each, each a month's first day.
    const rowsOf = (table: string) => {
      const at = recount.findIndex((r) => r.table === table) + 1;
      const next = recount.findIndex((r, i) => i >= at && 'table' in r);
      return recount.slice(at, next < 0 ? undefined : next);
    };
    for (const table of ['shift_months', 'shift_staff_months']) {
      expect(rowsOf(table).length, table).toBeGreaterThan(5);
      expect(rowsOf(table).every((r) => String(r.day).endsWith('-01'))).toBe(true);
    }
    expect(folded).toEqual(recount);
  });

  it('equals a recount after random sequences of every kind of write', async () => {
    const seen = new Set<string>();
    // A first sequence known to write open and cancelled shifts (random ones may be refused or undo each other).
    const known: Write[] = [0, 1, 3, 4].map((k) => ({ kind: 'sql_insert', k, days: k - 2, hour: 6 + k }));
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 3, maxLength: 8 }), async (writes) => {
        for (const w of writes) await apply(w);
        const { folded, recount } = await both();
        expect(folded).toEqual(recount);
        const states = await t.db.query<{ status: string }>(
          `select distinct status from shifts where notes = 'summary test'`,
        );
        for (const { status } of states) seen.add(status);
      }),
      { numRuns: 6, examples: [[[...known, { kind: 'fold', k: 0, days: 0, hour: 0 }]]] },
    );
    // The writes did happen: the test's shifts were in more than one state.
    expect(seen.size).toBeGreaterThan(1);
    // Folded, each key is one row.
    await compactReportSummaries(t.db);
    for (const summary of REPORT_SUMMARIES)
      for (const { table } of summaryTables(summary)) {
        const keys = ['merchant_id', 'day', ...summary.keys, ...summary.splits.map((x) => x.column)];
        const [{ dup }] = await t.db.query<{ dup: number }>(
          `select count(*)::int as dup from (select 1 from ${table} group by ${keys.join(', ')} having count(*) > 1) d`,
        );
        expect(dup, table).toBe(0);
      }
    expect(await both()).toEqual(await both().then((b) => ({ folded: b.recount, recount: b.recount })));
  });

  it('answers every report that reads it as the shifts themselves do, for the agency and a client user', async () => {
    await fixtureWrite(t.db, 'update merchants set time_zone = $2 where id = $1', [merchantA, TZ]);
    forgetAgencyZones();
    const c = shifts();
    const principals: [string, EnginePrincipal][] = [
      ['admin', { merchantId: merchantA, userId: 1, name: 'A', loginType: 'agency', role: 'admin', clientId: null }],
      [
        'client',
        { merchantId: merchantA, userId: 1, name: 'C', loginType: 'client', role: 'manager', clientId: clientA },
      ],
    ];
    const queries: Record<string, string>[] = [
      { group: 'client', period: 'custom', from: addDaysToDate(today, -60), to: addDaysToDate(today, 60) },
      { group: 'week', period: 'last_12_weeks' },
      { group: 'site,job_role,month', period: 'custom', from: addDaysToDate(today, -50), to: addDaysToDate(today, 45) },
      { group: 'business_unit,day', period: 'this_month' },
      { group: 'client', period: 'custom', from: addDaysToDate(today, -40), to: today, business_unit_id: 'none' },
      // Whole months between ragged ends (read from the monthly summary and the days), and whole months alone.
      { group: 'client,job_role', period: 'custom', from: addDaysToDate(today, -75), to: addDaysToDate(today, 70) },
      { group: 'site,month', period: 'custom', from: addDaysToDate(today, -75), to: addDaysToDate(today, 70) },
      { group: 'job_role', period: 'last_month' },
      { group: 'staff,client', period: 'custom', from: addDaysToDate(today, -75), to: addDaysToDate(today, 70) },
      { group: 'staff,month', period: 'custom', from: addDaysToDate(today, -75), to: addDaysToDate(today, 70) },
      { group: 'client', period: 'this_tax_year' },
    ];
    let read = 0;
    let months = 0;
    for (const [who, principal] of principals)
      for (const report of REPORT_DECLARATIONS.filter((r) => r.resource === 'shifts' && !r.details))
        for (const raw of queries) {
          // What the report reads, as the statements it sends say.
          const sent: string[] = [];
          const db = new Proxy(t.db, {
            get(target, key) {
              if (key === 'query')
                return (sql: string, params?: unknown[]) => (sent.push(sql), target.query(sql, params));
              const value = Reflect.get(target, key);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          });
          const ctx = withEngine({ db, principal, timeZone: TZ, today, now: new Date() }, t.app.engine);
          if (!report.roles.includes(principal.role as never)) continue;
          const dims = new Set(report.dimensions.map((d) => d.id));
          const query: Record<string, string> = { ...raw, per_page: '100' };
          query.group = raw.group
            .split(',')
            .filter((g) => dims.has(g))
            .join(',');
          if (!query.group) delete query.group;
          if (!report.pathFilters?.length) delete query.business_unit_id;
          let q;
          try {
            q = parseReportQuery(report, c, ctx, query);
          } catch {
            continue; // a grouping or filter this caller may not use (a client user by business unit)
          }
          const summary = summaryFor(report, c, ctx, { ...q, aggregates: q.measures });
          if (summary) read += 1;
          const fromSummary = await runReport(ctx, report, c, q);
          if (sent.some((sql) => /from "(shift_months|shift_staff_months)"/.test(sql))) months += 1;
          const fromShifts = await runReport(ctx, report, c, q, { summaries: false });
          expect(fromSummary, `${who} ${report.name} ${JSON.stringify(query)}`).toEqual(fromShifts);
          expect(fromShifts.groups, `${report.name} ${JSON.stringify(query)} counts something`).toBeGreaterThan(0);
        }
    // The client, business unit and spend reports read the day summary; the staff report its months.
    expect(read).toBeGreaterThan(10);
    expect(months).toBeGreaterThan(5);
    const staff = REPORT_DECLARATIONS.find((r) => r.name === 'staff_activity')!;
    const ctx = withEngine(
      { db: t.db, principal: principals[0][1], timeZone: TZ, today, now: new Date() },
      t.app.engine,
    );
    const summaryOf = (query: Record<string, string>) => {
      const q = parseReportQuery(staff, c, ctx, query);
      return summaryFor(staff, c, ctx, { ...q, aggregates: q.measures })?.table;
    };
    expect(summaryOf({ period: 'last_month' })).toBe('shift_staff_months');
    expect(summaryOf({ period: 'this_tax_year', group: 'staff,month' })).toBe('shift_staff_months');
    // Without a whole month, by week, or by client, it reads shifts.
    const [from, to] = [addDaysToDate(today.slice(0, 8) + '01', 3), addDaysToDate(today.slice(0, 8) + '01', 20)];
    expect(summaryOf({ period: 'custom', from, to })).toBeUndefined();
    expect(summaryOf({ period: 'last_month', group: 'staff,week' })).toBeUndefined();
    expect(summaryOf({ period: 'last_month', group: 'staff,client' })).toBeUndefined();
  });
});
