import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, NOT_ON_A_PAY_RUN, type TestApp } from './helpers';
import { addDaysToDate, startOfWeekMonday } from '../../core/domain/time/agencyTime';

// The payroll report (/report/PayrollReport, issue 33): the payslips list with its tabs by the run's state, chosen by
// run, pay day, staff member, employment type and client, each figure totalled over every matching row (listTotals),
// the whole list as CSV for admins. Runs made here over the demo's payable lines (two finalised, a draft) are what it
// reads: its figures must be the payslips' own sums. Admins and consultants read it, admins export it; client users
// never.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let staff: string;
let merchantId: number;
/** The runs this file makes, oldest first. */
const ownRuns: number[] = [];

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, staff] = await Promise.all(
    ['admin', 'consultant', 'client', 'staff'].map((w) => loginAs(t.app, w as 'admin')),
  );
  [{ merchantId }] = await t.db.query<{ merchantId: number }>(
    `select merchant_id as "merchantId" from users where email = 'admin@demo.test'`,
  );
  // Weekly runs over the three oldest weeks with payable demo lines, as the agency makes them: the two older
  // approved and finalised, the latest left a draft.
  const days = await t.db.query<{ day: string }>(
    `select distinct work_date::text as day from timesheet_lines
      where merchant_id = $1 and status in ('signed', 'verified') and candidate_id is not null and ${NOT_ON_A_PAY_RUN} order by 1`,
    [merchantId],
  );
  const mondays = [...new Set(days.map((d) => startOfWeekMonday(d.day)))].slice(0, 3);
  expect(mondays).toHaveLength(3);
  for (const [i, monday] of mondays.entries()) {
    const made = await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
      frequency: 'weekly',
      from: monday,
      to: addDaysToDate(monday, 6),
    });
    expect(made.statusCode, made.body).toBe(200);
    ownRuns.push(made.json().data.run_id);
    if (i === mondays.length - 1) continue;
    for (const action of ['approve', 'finalise'])
      expect(
        (await call(t.app, admin, 'POST', `/api/pay_runs/${made.json().data.run_id}/actions/${action}`, {})).statusCode,
      ).toBe(200);
  }
});
afterAll(() => t?.close());

const report = async (query: Record<string, string | number>, token = admin) => {
  const res = await call(
    t.app,
    token,
    'GET',
    `/api/payslips?${new URLSearchParams({ per_page: '100', ...query } as any)}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Record<string, any>[]; totals: Record<string, number>; total_count: number };
};

/** The payslips' own figures, summed by the database from the payslips and their lines, for the payslips chosen. */
async function sumsOf(where: string, params: unknown[]) {
  const [s] = await t.db.query<Record<string, string>>(
    `select count(*)::int as n, coalesce(sum(p.gross), 0) as gross, coalesce(sum(p.holiday_pay), 0) as holiday_pay,
            coalesce(sum(p.tax), 0) as tax, coalesce(sum(p.employee_ni), 0) as employee_ni,
            coalesce(sum(p.employer_cost), 0) as employer_cost, coalesce(sum(p.net), 0) as net,
            coalesce(sum((select sum(l.hours) from payslip_lines l where l.payslip_id = p.id and l.kind = 'pay')), 0) as hours,
            coalesce(sum(p.deductions), 0) as deductions, coalesce(sum(p.vat), 0) as vat
       from payslips p join pay_runs r on r.id = p.pay_run_id
      where p.merchant_id = $1 and ${where}`,
    [merchantId, ...params],
  );
  const { n, ...figures } = s;
  return { n: Number(n), totals: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Number(v)])) };
}

describe('the payroll report', () => {
  it("totals the finalised runs' payslips to their own sums, and each run's to the run's rollups", async () => {
    const finalised = await report({ tab: 'finalised' });
    const expected = await sumsOf(`r.state = 'finalised'`, []);
    // The two finalised weekly runs pay someone.
    expect(expected.n).toBeGreaterThan(1);
    expect(finalised.total_count).toBe(expected.n);
    expect(finalised.totals).toEqual(expected.totals);
    expect(finalised.data.every((p) => p.state === 'finalised')).toBe(true);

    const runs = await t.db.query<{
      id: number;
      state: string;
      gross: string;
      net: string;
      employer_costs: string;
      vat: string;
    }>(`select id, state, gross, net, employer_costs, vat from pay_runs where merchant_id = $1 order by id`, [
      merchantId,
    ]);
    // This file's three, beside the demo's own (server/seed/payRuns.ts): each run's figures are its payslips'.
    expect(runs.filter((r) => ownRuns.includes(r.id)).map((r) => r.state)).toEqual(['finalised', 'finalised', 'draft']);
    expect(runs.length).toBeGreaterThan(ownRuns.length);
    for (const run of runs) {
      const one = await report({ pay_run_id: run.id });
      expect(one.totals).toMatchObject({
        gross: Number(run.gross),
        net: Number(run.net),
        employer_cost: Number(run.employer_costs),
        vat: Number(run.vat),
      });
      expect(one.totals).toEqual((await sumsOf('p.pay_run_id = $2', [run.id])).totals);
    }
    // The draft is on its own tab, a finalised run on none but its own.
    const draft = await report({ tab: 'draft' });
    const drafts = runs.filter((r) => r.state === 'draft').map((r) => r.id);
    expect(new Set(draft.data.map((p) => p.pay_run_id))).toEqual(new Set(drafts));
    expect(draft.total_count).toBeGreaterThan(0);
    expect((await report({ tab: 'approved' })).total_count).toBe(0);
  });

  it('chooses by pay day, staff member, employment type and client, each total the chosen payslips’ sums', async () => {
    const [first] = await t.db.query<{ period_end: string }>(
      `select min(period_end)::text as period_end from pay_runs where merchant_id = $1`,
      [merchantId],
    );
    const byDay = await report({
      tab: 'finalised',
      period_end_gte: first.period_end,
      period_end_lte: first.period_end,
    });
    expect(byDay.total_count).toBeGreaterThan(0);
    expect(byDay.data.every((p) => p.period_end === first.period_end)).toBe(true);
    expect(byDay.totals).toEqual(
      (await sumsOf(`r.state = 'finalised' and p.period_end = $2`, [first.period_end])).totals,
    );

    const [someone] = await t.db.query<{ candidate_id: number }>(
      `select candidate_id from payslips where merchant_id = $1 group by candidate_id order by count(*) desc, candidate_id limit 1`,
      [merchantId],
    );
    const theirs = await report({ candidate_id: someone.candidate_id });
    expect(theirs.total_count).toBeGreaterThan(1);
    expect(theirs.totals).toEqual((await sumsOf('p.candidate_id = $2', [someone.candidate_id])).totals);

    // The runs pay PAYE staff and workers paid gross: each type's payslips, never another's.
    const types = await t.db.query<{ id: number; paye: boolean }>(
      `select distinct e.id, e.paye from payslips p join candidates c on c.id = p.candidate_id
         join employment_types e on e.id = c.employment_type_id where p.merchant_id = $1 order by e.id`,
      [merchantId],
    );
    expect(new Set(types.map((x) => x.paye))).toEqual(new Set([false, true]));
    for (const type of types) {
      const rows = await report({ employment_type_id: type.id });
      expect(rows.total_count).toBeGreaterThan(0);
      expect(rows.data.every((p) => p.employment_type_id === type.id && p.paye === type.paye)).toBe(true);
      expect(rows.totals).toEqual(
        (await sumsOf('p.candidate_id in (select id from candidates where employment_type_id = $2)', [type.id])).totals,
      );
    }

    const [atClient] = await t.db.query<{ client_id: number; name: string }>(
      `select t.client_id, c.name from payslip_lines l join timesheet_lines tl on tl.id = l.timesheet_line_id
         join timesheets t on t.id = tl.timesheet_id join clients c on c.id = t.client_id
        where l.merchant_id = $1 group by t.client_id, c.name order by count(*) desc, t.client_id limit 1`,
      [merchantId],
    );
    const forClient = await report({ client_ids: atClient.client_id });
    const paidThere = `p.id in (select l.payslip_id from payslip_lines l join timesheet_lines tl on tl.id = l.timesheet_line_id
                                  join timesheets t on t.id = tl.timesheet_id where t.client_id = $2)`;
    const expected = await sumsOf(paidThere, [atClient.client_id]);
    expect(forClient.total_count).toBe(expected.n);
    expect(forClient.totals).toEqual(expected.totals);
    expect(
      forClient.data.every((p) => p.client_ids.includes(atClient.client_id) && p.clients.includes(atClient.name)),
    ).toBe(true);
  });

  it('exports the chosen payslips as CSV for admins, one row each with its figures', async () => {
    const chosen = await report({ tab: 'finalised' });
    const res = await call(t.app, admin, 'GET', '/api/payslips/export?format=csv&tab=finalised');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body.trim().split(/\r?\n/);
    const header = lines[0];
    for (const column of [
      'Staff member',
      'Hours',
      'Gross',
      'Holiday pay',
      'Deductions',
      'Tax',
      'Employee NI',
      'Employer costs',
      'Net',
      'VAT',
      'Employment type',
      'Clients',
    ])
      expect(header).toContain(column);
    expect(lines).toHaveLength(chosen.total_count + 1);
  });

  it('is read by consultants but exported by admins alone; client users never see it; staff only their own', async () => {
    const asConsultant = await report({ tab: 'finalised' }, consultant);
    expect(asConsultant.totals).toEqual((await report({ tab: 'finalised' })).totals);
    expect((await call(t.app, consultant, 'GET', '/api/payslips/export?tab=finalised')).statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/payslips?tab=finalised')).statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/payslips/export?tab=finalised')).statusCode).toBe(403);
    // A staff member's list is their own payslips: the report's choices and employer figures are not theirs.
    const own = await call(t.app, staff, 'GET', '/api/payslips?tab=finalised');
    expect(own.statusCode).toBe(400);
    const mine = await report({}, staff);
    const [me] = await t.db.query<{ candidate_id: number }>(
      `select candidate_id from users where email = 'staff@demo.test'`,
    );
    expect(mine.data.every((p) => p.candidate_id === me.candidate_id)).toBe(true);
    expect(mine.totals).not.toHaveProperty('employer_cost');
    const { employer_cost: _employer, ...theirOwn } = (
      await sumsOf(`p.candidate_id = $2 and p.state = 'finalised'`, [me.candidate_id])
    ).totals;
    expect(mine.totals).toEqual(theirOwn);
  });
});
