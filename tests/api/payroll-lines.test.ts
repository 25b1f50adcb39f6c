import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, monday, timesheetKit, type DemoIds } from './timesheetKit';
import { payrollKit } from './payrollKit';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

// Pay lines (issue 33): a sleep-in is paid as its own line at the rules' flat allowance; a late cancellation the client
// is charged for is paid once where the agency's rule pays the worker; holiday accrues as hours for an employment
// type that accrues it (a balance on the profile after two runs, holiday taken paid from it); umbrella workers are
// paid gross to their company; finalising marks the timesheet lines paid, which then refuse every change in words,
// and two runs at once never pay a line twice.
let t: TestApp;
let admin: string;
let ids: DemoIds;
const kit = timesheetKit(() => ({ t, admin, ids }));
const { staffOn, verifiedShift } = payrollKit(() => ({ t, admin, ids }));

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const week = (n: number) => ({ from: monday(n), to: addDaysToDate(monday(n), 6) });
const generate = (body: Record<string, unknown>) =>
  call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', { frequency: 'weekly', ...body });
const runAction = (id: number, name: string) => call(t.app, admin, 'POST', `/api/pay_runs/${id}/actions/${name}`, {});
const linesOf = (runId: number) =>
  t.db.query<{ candidate_id: number; kind: string; amount: string; hours: string | null; timesheet_line_id: number }>(
    `select p.candidate_id, l.kind, l.amount, l.hours, l.timesheet_line_id from payslip_lines l
       join payslips p on p.id = l.payslip_id where p.pay_run_id = $1 order by l.id`,
    [runId],
  );

beforeAll(async () => {
  t = await makeTestApp();
  admin = await loginAs(t.app, 'admin');
  ids = await demoIds(t);
});
afterAll(() => t?.close());

describe('pay lines', () => {
  it('pays a sleep-in as its own line at the rules’ flat allowance, with rolled-up holiday on it', async () => {
    const who = await staffOn({ name: 'Lines rolled', paye: true, holiday_pay: 'rolled_up' });
    const line = await verifiedShift(who, 12, true);
    const [{ sleep_in_pay }] = await t.db.query<{ sleep_in_pay: string }>(
      'select sleep_in_pay from client_rules where merchant_id = $1 and client_id is null',
      [ids.merchantId],
    );
    expect(Number(line.pay)).toBe(Number(sleep_in_pay));
    const preview = await ok(await generate({ ...week(12), candidate_ids: [who], preview: true }));
    const lines = preview.payslips[0].lines;
    expect(lines.map((l: any) => [l.kind, l.timesheet_line_id, l.amount])).toEqual([
      ['sleep_in', line.id, Number(sleep_in_pay)],
      ['holiday', null, Math.round((Number(sleep_in_pay) * 1207) / 10_000)],
    ]);
  });

  it('pays a charged late cancellation once where the agency’s rule pays the worker; never when waived', async () => {
    await fixtureWrite(
      t.db,
      'update client_rules set late_cancel_pay_hours = 3 where merchant_id = $1 and client_id is null',
      [ids.merchantId],
    );
    const who = await staffOn({ name: 'Lines cancel', paye: true, holiday_pay: 'rolled_up' });
    const shiftIn = async (hours: number) => {
      const start = new Date(Date.now() + hours * 3600_000);
      start.setUTCMinutes(0, 0, 0);
      const res = await call(t.app, admin, 'POST', '/api/shifts', {
        client_id: ids.clientId,
        site_id: ids.siteId,
        job_role_id: ids.roleId,
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 8 * 3600_000).toISOString(),
      });
      const id = (await ok(res, 201)).id;
      await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = $2`, [who, id]);
      return id;
    };
    const charged = await shiftIn(3);
    const waived = await shiftIn(12);
    const cancel = (id: number, waive: boolean) =>
      call(t.app, admin, 'POST', `/api/shifts/${id}/actions/cancel`, {
        reason: 'Resident in hospital',
        requested_by: 'client',
        waive_charge: waive,
      });
    const c = await ok(await cancel(charged, false));
    expect(Number(c.cancellation_charge)).toBeGreaterThan(0);
    expect(Number(c.cancellation_pay)).toBeGreaterThan(0);
    await ok(await cancel(waived, true));
    const [s] = await t.db.query<{ start: string; pay: string }>(
      `select (start_at at time zone 'Europe/London')::date::text as start, cancellation_pay as pay from shifts where id = $1`,
      [charged],
    );
    const period = { from: addDaysToDate(s.start, -6), to: addDaysToDate(s.start, 6) };
    // Two runs at once: one pays it, the other finds nothing left.
    const [a, b] = await Promise.all([
      generate({ ...period, candidate_ids: [who] }),
      generate({ ...period, candidate_ids: [who] }),
    ]);
    const made = [await ok(a), await ok(b)].filter((m) => m.run_id !== null);
    expect(made).toHaveLength(1);
    const paid = await linesOf(made[0].run_id);
    expect(paid.map((l) => [l.kind, Number(l.amount), Number(l.hours)])).toEqual([
      ['late_cancellation', Number(s.pay), 3],
    ]);
    const [{ n }] = await t.db.query<{ n: number }>(
      'select count(*)::int as n from payslip_lines where cancelled_shift_id = any($1::int[]) and released_at is null',
      [[charged, waived]],
    );
    expect(n).toBe(1);
    expect(await ok(await generate({ ...period, candidate_ids: [who] }))).toEqual({
      run_id: null,
      payslips: [],
      lines: 0,
    });
  });

  it('pays umbrella workers gross to their company: no tax, NI, pension, student loan or holiday', async () => {
    const who = await staffOn({ name: 'Lines umbrella', paye: false, holiday_pay: 'rolled_up' }, 'Blue Umbrella Ltd');
    await fixtureWrite(t.db, `update candidates set student_loan_plans = '{plan2}' where id = $1`, [who]);
    const line = await verifiedShift(who, 13);
    const made = await ok(await generate({ ...week(13), candidate_ids: [who] }));
    const [slip] = await t.db.query<Record<string, any>>('select * from payslips where id = $1', [made.payslips[0]]);
    expect(slip).toMatchObject({ paye: false, paid_to: 'Blue Umbrella Ltd' });
    expect(
      [
        slip.gross,
        slip.net,
        slip.tax,
        slip.employee_ni,
        slip.pension_employee,
        slip.student_loan,
        slip.holiday_pay,
      ].map(Number),
    ).toEqual([Number(line.pay), Number(line.pay), 0, 0, 0, 0, 0]);
    expect((await linesOf(made.run_id)).map((l) => l.kind)).toEqual(['pay']);
  });
});

describe('accrued holiday', () => {
  let who: number;
  let first: { id: number; pay: string; paid_minutes: number };
  let firstRun: number;
  const accrued = (minutes: number) => Math.floor((minutes * 1207 * 2 + 6_000) / 12_000) / 100;
  const balance = async () =>
    Number((await ok(await call(t.app, admin, 'GET', `/api/candidates/${who}`))).holiday_balance_hours);

  it('banks 12.07% of the hours worked instead of a holiday line', async () => {
    who = await staffOn({ name: 'Lines accrued', paye: true, holiday_pay: 'accrued' });
    first = await verifiedShift(who, 16);
    const made = await ok(await generate({ ...week(16), candidate_ids: [who] }));
    firstRun = made.run_id;
    expect((await linesOf(firstRun)).map((l) => l.kind)).toEqual(['pay']);
    const [slip] = await t.db.query<{ holiday_hours_accrued: string; holiday_pay: string }>(
      'select holiday_hours_accrued, holiday_pay from payslips where id = $1',
      [made.payslips[0]],
    );
    expect(Number(slip.holiday_hours_accrued)).toBe(accrued(first.paid_minutes));
    expect(Number(slip.holiday_pay)).toBe(0);
    // A draft may still change: no balance until the run is approved.
    expect(await balance()).toBe(0);
    await ok(await runAction(firstRun, 'approve'));
    await ok(await runAction(firstRun, 'finalise'));
    expect(await balance()).toBe(accrued(first.paid_minutes));
  });

  it('refuses holiday beyond the balance, in words; pays what it covers in the next run, and the balance falls', async () => {
    const over = await call(t.app, admin, 'POST', '/api/staff_holidays', {
      candidate_id: who,
      starts_on: monday(15),
      ends_on: monday(15),
      hours: 50,
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.hours).toMatch(/hours of holiday left/);
    const holiday = await ok(
      await call(t.app, admin, 'POST', '/api/staff_holidays', {
        candidate_id: who,
        starts_on: addDaysToDate(monday(15), 2),
        ends_on: addDaysToDate(monday(15), 2),
        hours: 1,
      }),
      201,
    );
    const second = await verifiedShift(who, 15);
    const made = await ok(await generate({ ...week(15), candidate_ids: [who] }));
    const lines = await linesOf(made.run_id);
    expect(lines.map((l) => [l.kind, Number(l.hours)])).toEqual([
      ['pay', second.paid_minutes / 60],
      ['holiday', 1],
    ]);
    // At the average hourly pay of the 52 weeks before it: the first shift's.
    const holidayPay = Number(lines[1].amount);
    expect(holidayPay).toBe(Math.round((Number(first.pay) * 60) / first.paid_minutes));
    await ok(await runAction(made.run_id, 'approve'));
    await ok(await runAction(made.run_id, 'finalise'));
    expect(await balance()).toBeCloseTo(accrued(first.paid_minutes) + accrued(second.paid_minutes) - 1, 2);
    expect((await ok(await call(t.app, admin, 'GET', `/api/staff_holidays/${holiday.id}`))).state).toBe('paid');
  });

  it('refuses holiday for a type that rolls holiday up, in words', async () => {
    const rolled = await staffOn({ name: 'Lines rolled two', paye: true, holiday_pay: 'rolled_up' });
    const res = await call(t.app, admin, 'POST', '/api/staff_holidays', {
      candidate_id: rolled,
      starts_on: monday(15),
      ends_on: monday(15),
      hours: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.candidate_id).toMatch(/does not accrue holiday/);
  });

  it('locks the timesheet lines a finalised run paid: they refuse every change and are never paid again', async () => {
    const [line] = await t.db.query<{ id: number; paid_in_run: number }>(
      'select id, paid_in_run from timesheet_lines where id = $1',
      [first.id],
    );
    expect(line.paid_in_run).toBe(firstRun);
    const withdraw = await kit.lineAct(first.id, 'withdraw_verification', { reason: 'Wrong hours' });
    expect(withdraw.statusCode).toBe(409);
    expect(withdraw.json().message).toMatch(/paid in finalised pay run .*adjustment in the next pay run/);
    // Nothing left to pay in its week, even after its run's payslip line were released.
    expect(await ok(await generate({ ...week(16), candidate_ids: [who] }))).toMatchObject({ run_id: null });
    await fixtureWrite(t.db, 'update payslip_lines set released_at = now() where timesheet_line_id = $1', [first.id]);
    expect(await ok(await generate({ ...week(16), candidate_ids: [who] }))).toMatchObject({ run_id: null });
  });
});
