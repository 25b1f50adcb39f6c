import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from './helpers';
import { HISTORY_WEEKS } from '../../server/seed/history';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

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
    // Some of the bookings were no-shows.
    const [{ no_shows }] = await t.db.query<{ no_shows: number }>(
      `select count(*)::int as no_shows from shifts where merchant_id = $1 and cancel_requested_by = 'no_show'
          and candidate_id is not null`,
      [merchant],
    );
    expect(no_shows).toBeGreaterThan(5);
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

  it('is billed month by month, numbered in the order issued, mostly paid, with debts of several ages', async () => {
    const [own] = await t.db.query<{ first_own: string; today: string }>(
      `select (date_trunc('week', now() at time zone time_zone)::date - 28)::text as first_own,
              (now() at time zone time_zone)::date::text as today
         from merchants where id = $1`,
      [merchant],
    );
    // Every worked line of the history's weeks is on an invoice.
    const [unbilled] = await t.db.query<{ lines: number; unbilled: number }>(
      `select count(*)::int as lines,
              count(*) filter (where not exists (select 1 from invoice_lines il
                where il.merchant_id = l.merchant_id and il.timesheet_line_id = l.id))::int as unbilled
         from timesheet_lines l where l.merchant_id = $1 and l.work_date < $2::date`,
      [merchant, own.first_own],
    );
    expect(unbilled.lines).toBeGreaterThan(300);
    expect(unbilled.unbilled).toBe(0);
    const invoices = await t.db.query<{
      number: string;
      issue_date: string;
      state: string;
      overdue_days: number;
      left: number;
      credit_notes: number;
      exempt_lines: number;
    }>(
      `select i.number, i.issue_date::text, i.state, $2::date - i.due_date as overdue_days,
              (i.total + i.credited - i.paid)::int as left,
              (select count(*)::int from credit_notes n where n.invoice_id = i.id) as credit_notes,
              (select count(*)::int from invoice_lines l where l.invoice_id = i.id and l.vat_treatment = 'exempt')
                as exempt_lines
         from invoices i where i.merchant_id = $1 and i.number is not null order by i.number`,
      [merchant, own.today],
    );
    // Numbered in the order issued: the history's invoices first, the current weeks' after them.
    const dates = invoices.map((i) => i.issue_date);
    expect(dates).toEqual([...dates].sort());
    const history = invoices.filter((i) => i.issue_date <= addDaysToDate(own.first_own, 2));
    expect(new Set(history.map((i) => i.issue_date.slice(0, 7))).size).toBeGreaterThanOrEqual(10);
    // Work before the agency elected the nursing concession (60 days ago) is standard-rated; after it, some is exempt.
    const concession = addDaysToDate(own.today, -60);
    expect(history.filter((i) => i.issue_date < concession && i.exempt_lines > 0)).toEqual([]);
    expect(history.some((i) => i.issue_date > concession && i.exempt_lines > 0)).toBe(true);
    // Mostly paid; one paid in part, one credited; debts of several ages still owed.
    expect(history.filter((i) => i.state === 'paid').length).toBeGreaterThan(history.length * 0.8);
    expect(history.some((i) => i.state === 'part_paid')).toBe(true);
    expect(history.some((i) => i.credit_notes > 0 && i.state === 'paid')).toBe(true);
    const owed = history.filter((i) => i.left > 0).map((i) => i.overdue_days);
    expect(owed.some((d) => d > 30)).toBe(true);
    expect(owed.some((d) => d > 0 && d <= 30)).toBe(true);
  });

  it("dates what the year notified when it happened, read: the unread notices are the current weeks'", async () => {
    const [n] = await t.db.query<{ before: number; unread_before: number; invoices_before: number }>(
      `with own as (select (date_trunc('week', now() at time zone m.time_zone)::date - 28)::timestamp
                             at time zone m.time_zone as first_own
                      from merchants m where m.id = $1)
       select count(*) filter (where created_at < own.first_own)::int as before,
              count(*) filter (where created_at < own.first_own and not read)::int as unread_before,
              count(*) filter (where created_at < own.first_own and event like 'invoice.%')::int as invoices_before
         from notifications cross join own where merchant_id = $1`,
      [merchant],
    );
    expect(n.before).toBeGreaterThan(50);
    expect(n.invoices_before).toBeGreaterThan(0);
    expect(n.unread_before).toBe(0);
  });
});
