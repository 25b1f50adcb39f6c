import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from './helpers';
import { HISTORY_WEEKS } from '../../server/seed/history';

// Issue 34's demo data: a year behind the demo's own weeks, so that every chart and report has a shape. Read straight
// from the tables, not through the reports that draw it.
let t: TestApp;
let merchant: number;

beforeAll(async () => {
  t = await makeTestApp({ history: true });
  [{ m: merchant }] = await t.db.query<{ m: number }>(`select merchant_id as m from users where email = $1`, [
    'admin@demo.test',
  ]);
});
afterAll(() => t?.close());

/** Shifts of the demo agency's history (before its own four weeks of timesheets), per week and client. */
async function historyWeeks() {
  return t.db.query<{ week: string; client_id: number; shifts: number; cancelled: number; lines: number }>(
    `with own as (select date_trunc('week', now() at time zone m.time_zone)::date - 28 as first_own
                    from merchants m where m.id = $1)
     select to_char(date_trunc('week', s.start_at at time zone m.time_zone), 'YYYY-MM-DD') as week, s.client_id,
            count(*)::int as shifts, count(*) filter (where s.status = 'cancelled')::int as cancelled,
            count(l.id)::int as lines
       from shifts s join merchants m on m.id = s.merchant_id cross join own
       left join timesheet_lines l on l.shift_id = s.id
      where s.merchant_id = $1 and (s.start_at at time zone m.time_zone)::date < own.first_own
      group by 1, 2`,
    [merchant],
  );
}

describe('the demo’s year of history', () => {
  it('fills the weeks before the demo’s own with worked, cancelled and unfilled shifts', async () => {
    const rows = await historyWeeks();
    const weeks = new Set(rows.map((r) => r.week));
    expect(weeks.size).toBeGreaterThanOrEqual(HISTORY_WEEKS - 2);
    const sum = (k: 'shifts' | 'cancelled' | 'lines') => rows.reduce((n, r) => n + r[k], 0);
    expect(sum('cancelled')).toBeGreaterThan(0);
    expect(sum('lines')).toBeGreaterThan(sum('shifts') / 3);
    // Some shifts were left unfilled: neither cancelled nor on a timesheet.
    expect(sum('shifts') - sum('cancelled') - sum('lines')).toBeGreaterThan(0);
  });

  it('has a client that started within the last half year and ramps up', async () => {
    const rows = await historyWeeks();
    const byClient = new Map<number, { week: string; shifts: number }[]>();
    for (const r of rows) byClient.set(r.client_id, [...(byClient.get(r.client_id) ?? []), r]);
    const allWeeks = [...new Set(rows.map((r) => r.week))].sort();
    const ramping = [...byClient.values()].filter((ws) => {
      const sorted = ws.sort((a, b) => a.week.localeCompare(b.week));
      // New within the last half year, with two months of weeks behind it at least.
      if (sorted.length < 8 || sorted[0].week < allWeeks[allWeeks.length - 26]) return false;
      const half = Math.floor(sorted.length / 2);
      const early = sorted.slice(0, half).reduce((n, w) => n + w.shifts, 0);
      const late = sorted.slice(half).reduce((n, w) => n + w.shifts, 0);
      return late > early;
    });
    expect(ramping.length).toBeGreaterThan(0);
  });
});
