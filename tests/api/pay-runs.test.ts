import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, NOT_ON_A_PAY_RUN, type TestApp } from './helpers';
import { pdfTextOf } from '../pdfText';
import { principalFromUser, systemContext } from '../../server/engine/routes';
import { withEngine } from '../../server/engine/handle';
import type { EngineContext } from '../../server/engine/context';
import { addDaysToDate, startOfWeekMonday } from '../../core/domain/time/agencyTime';
import { formatPounds } from '../../core/engine/money';
import { taxPeriodOf } from '../../core/domain/payroll/periods';

// Pay runs (issue 33.2): a run pays each signed or verified timesheet line of its period once, whoever races it;
// gross to net per payslip with the year to date; finalising locks the run, its payslips and their lines for every
// writer and keeps each payslip's PDF; a staff member reads only their own finalised payslips, a client user none.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let staff: string;
let merchantId: number;
let me: number;
/** Mondays of the weeks with payable demo lines (no demo pay run holds), the staff principal's own first. */
let weeks: string[];

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, client, staff] = await Promise.all(
    ['admin', 'consultant', 'client', 'staff'].map((w) => loginAs(t.app, w as 'admin')),
  );
  const [u] = await t.db.query<{ merchant_id: number; candidate_id: number }>(
    `select merchant_id, candidate_id from users where email = 'staff@demo.test'`,
  );
  merchantId = u.merchant_id;
  me = u.candidate_id;
  const days = await t.db.query<{ day: string; mine: boolean }>(
    `select work_date::text as day, bool_or(candidate_id = $2) as mine from timesheet_lines
      where merchant_id = $1 and status in ('signed', 'verified') and candidate_id is not null and ${NOT_ON_A_PAY_RUN}
      group by work_date order by bool_or(candidate_id = $2) desc, work_date desc`,
    [merchantId, me],
  );
  weeks = [...new Set(days.map((d) => startOfWeekMonday(d.day)))];
});
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const generate = (body: Record<string, unknown>, token = admin) =>
  call(t.app, token, 'POST', '/api/pay_runs/actions/generate', { frequency: 'weekly', ...body });
const weekOf = (monday: string) => ({ from: monday, to: addDaysToDate(monday, 6) });
const payable = (from: string, to: string) =>
  t.db.query<{ id: number; pay: string }>(
    `select id, pay from timesheet_lines where merchant_id = $1 and status in ('signed', 'verified')
        and candidate_id is not null and ${NOT_ON_A_PAY_RUN} and work_date between $2::date and $3::date order by id`,
    [merchantId, from, to],
  );
const paidTimes = (ids: number[]) =>
  t.db.query<{ timesheet_line_id: number; n: number }>(
    `select timesheet_line_id, count(*)::int as n from payslip_lines
      where timesheet_line_id = any($1::int[]) and released_at is null group by timesheet_line_id order by 1`,
    [ids],
  );

async function asAdmin<T>(fn: (ctx: EngineContext) => Promise<T>) {
  const [u] = await t.db.query(`select * from users where email = 'admin@demo.test'`);
  return t.db.transaction(async (tx) => {
    const base = await systemContext(t.app, tx, merchantId);
    return fn(withEngine({ ...base, principal: principalFromUser(u as any) }, t.app.engine));
  });
}
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { status?: number; message: string }) => ({ status: e.status, message: e.message }),
  );

describe('a pay run', () => {
  let runId: number;
  let period: { from: string; to: string };

  it('previews each staff member’s payslip and takes nothing, then pays each payable line once', async () => {
    period = weekOf(weeks[0]);
    const lines = await payable(period.from, period.to);
    expect(lines.length).toBeGreaterThan(0);
    const preview = await ok(await generate({ ...period, preview: true }));
    expect(preview.payslips.flatMap((p: any) => p.lines.filter((l: any) => l.kind === 'pay'))).toHaveLength(
      lines.length,
    );
    expect(await paidTimes(lines.map((l) => l.id))).toEqual([]);

    const made = await ok(await generate(period));
    runId = made.run_id;
    expect(made.payslips).toHaveLength(preview.payslips.length);
    const paid = await paidTimes(lines.map((l) => l.id));
    expect(paid.map((p) => p.timesheet_line_id)).toEqual(lines.map((l) => l.id));
    expect(paid.every((p) => p.n === 1)).toBe(true);

    // Each payslip: its pay lines at the pay frozen on the timesheet line, holiday pay 12.07% of it for PAYE staff,
    // net what gross to net leaves; the run's totals are its payslips' sums.
    const slips = await t.db.query<Record<string, any>>('select * from payslips where pay_run_id = $1', [runId]);
    const payOf = new Map(lines.map((l) => [l.id, Number(l.pay)]));
    for (const s of slips) {
      const own = await t.db.query<{ kind: string; amount: string; timesheet_line_id: number | null }>(
        'select kind, amount, timesheet_line_id from payslip_lines where payslip_id = $1',
        [s.id],
      );
      // Pay and sleep-in lines pay their timesheet line; late-cancellation pay (issue 33) has none and no holiday.
      const pay = own.filter((l) => l.kind === 'pay' || l.kind === 'sleep_in');
      for (const l of pay) expect(Number(l.amount)).toBe(payOf.get(l.timesheet_line_id!));
      const sum = pay.reduce((a, l) => a + Number(l.amount), 0);
      const holiday = s.paye ? Math.round((sum * 1207) / 10_000) : 0;
      expect(Number(s.holiday_pay)).toBe(holiday);
      // A pending adjustment's addition (the demo's mileage) and late-cancellation pay join gross; deductions come
      // off net (issue 33).
      const added = own
        .filter((l) => (l.kind === 'adjustment' || l.kind === 'late_cancellation') && Number(l.amount) > 0)
        .reduce((a, l) => a + Number(l.amount), 0);
      expect(Number(s.gross)).toBe(sum + holiday + added);
      expect(Number(s.net)).toBe(
        Number(s.gross) -
          Number(s.tax) -
          Number(s.employee_ni) -
          Number(s.student_loan) -
          Number(s.pension_employee) -
          Number(s.deductions),
      );
    }
    const run = await ok(await call(t.app, admin, 'GET', `/api/pay_runs/${runId}`));
    expect(run).toMatchObject({
      state: 'draft',
      frequency: 'weekly',
      tax_year: '2026-27',
      staff_count: slips.length,
      gross: slips.reduce((a, s) => a + Number(s.gross), 0),
      net: slips.reduce((a, s) => a + Number(s.net), 0),
      employer_costs: slips.reduce((a, s) => a + Number(s.employer_cost), 0),
    });
    // Again over the same period: nothing left to pay.
    expect(await ok(await generate(period))).toEqual({ run_id: null, payslips: [], lines: 0 });
  });

  it('refuses a period that ends before it starts, in words on the field', async () => {
    const res = await generate({ from: '2026-11-10', to: '2026-11-09' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.to).toBe('Ends before From.');
  });

  it('is read by consultants, who cannot run one; client users never see payroll', async () => {
    await ok(await call(t.app, consultant, 'GET', `/api/pay_runs/${runId}`));
    expect((await generate({ ...period, preview: true }, consultant)).statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/pay_runs')).statusCode).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/payslips')).statusCode).toBe(403);
    expect((await call(t.app, staff, 'GET', '/api/pay_runs')).statusCode).toBe(403);
  });

  it('keeps a draft payslip from its staff member; once finalised, theirs alone', async () => {
    const [mine] = await t.db.query<{ id: number }>(
      'select id from payslips where pay_run_id = $1 and candidate_id = $2',
      [runId, me],
    );
    expect(mine).toBeDefined();
    expect((await call(t.app, staff, 'GET', `/api/payslips/${mine.id}`)).statusCode).toBe(404);
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/approve`, {}));
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/finalise`, {}));
    const own = await ok(await call(t.app, staff, 'GET', `/api/payslips/${mine.id}`));
    expect(own).toMatchObject({ id: mine.id, candidate_id: me, state: 'finalised' });
    expect(own).not.toHaveProperty('employer_ni');
    const listed = await ok(await call(t.app, staff, 'GET', '/api/payslips?per_page=100'));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((p: any) => p.candidate_id === me)).toBe(true);
    // Someone else's finalised payslip answers them 404: the authorization matrix's row for GET /api/payslips/:id
    // (tests/api/authz/payroll.ts), whose run pays another staff member too; this run pays the principal alone.
    const lines = await ok(await call(t.app, staff, 'GET', `/api/payslip_lines?payslip_id=${mine.id}`));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).not.toHaveProperty('timesheet_line_id');
  });

  it('once finalised, locks the run, its payslips and their lines for every writer, in words', async () => {
    const cancel = await call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/cancel`, { reason: 'Late' });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toMatch(/finalised/i);
    const [slip] = await t.db.query<{ id: number }>('select id from payslips where pay_run_id = $1 limit 1', [runId]);
    const [line] = await t.db.query<{ id: number }>('select id from payslip_lines where payslip_id = $1 limit 1', [
      slip.id,
    ]);
    const slipEdit = await refusal(asAdmin((ctx) => ctx.engine.update('payslips', slip.id, { net: 1 })));
    expect(slipEdit).toMatchObject({ status: 409 });
    expect(slipEdit!.message).toMatch(/finalised/i);
    const lineEdit = await refusal(asAdmin((ctx) => ctx.engine.update('payslip_lines', line.id, { description: 'x' })));
    expect(lineEdit).toMatchObject({ status: 409 });
    expect(lineEdit!.message).toMatch(/finalised/i);
    const added = await refusal(
      asAdmin((ctx) =>
        ctx.engine.createMany('payslip_lines', [
          { payslip_id: slip.id, kind: 'adjustment', description: 'Bonus', amount: 100 },
        ]),
      ),
    );
    expect(added).toMatchObject({ status: 409 });
  });

  it('keeps each payslip’s PDF at finalising, its text holding the lines and totals', async () => {
    const slips = await t.db.query<{ id: number; net: string; gross: string }>(
      'select id, net, gross from payslips where pay_run_id = $1 order by id',
      [runId],
    );
    const kept = await t.db.query<{ record_id: number }>(
      `select distinct record_id from issued_documents where resource = 'payslips' and record_id = any($1::int[])`,
      [slips.map((s) => s.id)],
    );
    expect(kept.map((k) => k.record_id).sort()).toEqual(slips.map((s) => s.id).sort());
    const res = await call(t.app, admin, 'GET', `/api/payslips/${slips[0].id}/pdf`);
    expect(res.statusCode).toBe(200);
    const text = pdfTextOf(res.rawPayload);
    const lines = await t.db.query<{ description: string; amount: string }>(
      'select description, amount from payslip_lines where payslip_id = $1',
      [slips[0].id],
    );
    // A long description wraps in its cell: each of its words is there.
    for (const l of lines) {
      for (const word of l.description.split(/\s+/)) expect(text).toContain(word);
      expect(text).toContain(formatPounds(Number(l.amount)));
    }
    expect(text).toContain(`Net pay ${formatPounds(Number(slips[0].net))}`);
    expect(text).toContain(`Gross pay: ${formatPounds(Number(slips[0].gross))}`);
  });

  it('carries the year to date of the runs paid before a run into it, and never of a run paid after it', async () => {
    const [first] = await t.db.query<{ candidate_id: number }>(
      'select candidate_id from payslips where pay_run_id = $1 order by id limit 1',
      [runId],
    );
    /** What the approved and finalised runs paid them on pay days before `payDay` in its tax year. */
    const paidBefore = async (payDay: string) => {
      const year = taxPeriodOf(payDay, 'weekly');
      if ('error' in year) throw new Error(year.error);
      const [sums] = await t.db.query<{ gross: number; tax: number }>(
        `select coalesce(sum(p.gross), 0)::int as gross, coalesce(sum(p.tax), 0)::int as tax
           from payslips p join pay_runs r on r.id = p.pay_run_id
          where p.candidate_id = $1 and r.state in ('approved', 'finalised')
            and p.period_end < $2::date and p.period_end >= $3::date`,
        [first.candidate_id, payDay, year.year.starts],
      );
      return sums;
    };
    let checked = 0;
    for (const w of weeks.slice(1).map(weekOf)) {
      const preview = await ok(await generate({ ...w, candidate_ids: [first.candidate_id], preview: true }));
      if (!preview.payslips.length) continue;
      const [p] = preview.payslips;
      // The finalised run (paid on period.to) is in the year to date of a later pay day only: an earlier week paid
      // now, out of order, starts from what was paid before it (the demo's own older runs, if they paid them).
      const before = await paidBefore(w.to);
      if (w.to > period.to) expect(before.gross).toBeGreaterThan(0);
      expect({ gross: p.ytd_gross, tax: p.ytd_tax }).toEqual({
        gross: before.gross + p.gross,
        tax: before.tax + p.tax,
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('two runs at once', () => {
  it('never pay a line twice: one pays the period, the other finds nothing left', async () => {
    const period = weekOf(weeks[weeks.length - 1]);
    const lines = await payable(period.from, period.to);
    expect(lines.length).toBeGreaterThan(0);
    const [a, b] = await Promise.all([generate(period), generate(period)]);
    const made = [await ok(a), await ok(b)];
    expect(made.filter((m) => m.run_id !== null)).toHaveLength(1);
    const paid = await paidTimes(lines.map((l) => l.id));
    expect(paid).toHaveLength(lines.length);
    expect(paid.every((p) => p.n === 1)).toBe(true);
  });

  it('a cancelled draft releases its lines for the next run', async () => {
    const period = weekOf(weeks[weeks.length - 1]);
    const [run] = await t.db.query<{ id: number }>(
      `select id from pay_runs where merchant_id = $1 and period_start = $2 and state = 'draft'`,
      [merchantId, period.from],
    );
    await ok(await call(t.app, admin, 'POST', `/api/pay_runs/${run.id}/actions/cancel`, { reason: 'Wrong week' }));
    const [{ held }] = await t.db.query<{ held: number }>(
      `select count(*)::int as held from payslip_lines l join payslips p on p.id = l.payslip_id
        where p.pay_run_id = $1 and l.released_at is null`,
      [run.id],
    );
    expect(held).toBe(0);
    const again = await ok(await generate(period));
    expect(again.run_id).not.toBeNull();
    const lines = await payable(period.from, period.to);
    const paid = await paidTimes(lines.map((l) => l.id));
    expect(paid).toHaveLength(lines.length);
    expect(paid.every((p) => p.n === 1)).toBe(true);
  });
});
