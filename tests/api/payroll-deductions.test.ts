import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { demoIds, monday as mondayBack, type DemoIds } from './timesheetKit';
import { payrollKit } from './payrollKit';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

// Staff deductions and pay adjustments (issue 33): a run takes each staff member's deductions (a cap held across runs,
// before tax off taxable pay only), a draft's payslip takes one-off additions and deductions and is worked out again
// with its run's totals, refused in words once the run is approved, and a correction after that waits for the staff
// member's next run.
let t: TestApp;
let admin: string;
let consultant: string;
let merchantId: number;
/** Four PAYE staff of this file's own, each with a verified line in two weeks, and those Mondays (oldest first). */
let staff: { id: number; weeks: string[] }[];
let ids: DemoIds;
const { newStaff, verifiedShift } = payrollKit(() => ({ t, admin, ids }));

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'consultant')]);
  ids = await demoIds(t);
  merchantId = ids.merchantId;
  const [paye] = await t.db.query<{ id: number }>(
    `select id from employment_types where merchant_id = $1 and name = 'PAYE'`,
    [merchantId],
  );
  staff = [];
  for (const name of ['Deductions one', 'Deductions two', 'Deductions three', 'Deductions four']) {
    const id = await newStaff(name, paye.id);
    for (const back of [21, 20]) await verifiedShift(id, back);
    staff.push({ id, weeks: [mondayBack(21), mondayBack(20)] });
  }
});
afterAll(() => t?.close());

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const weekOf = (monday: string) => ({ from: monday, to: addDaysToDate(monday, 6) });
const run = (who: number, monday: string, preview = false) =>
  call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
    frequency: 'weekly',
    ...weekOf(monday),
    candidate_ids: [who],
    preview,
  });
const slipOf = async (runId: number) =>
  (await t.db.query<Record<string, any>>('select * from payslips where pay_run_id = $1', [runId]))[0];
const linesOf = (payslipId: number) =>
  t.db.query<{ kind: string; amount: string; staff_deduction_id: number | null; payroll_adjustment_id: number | null }>(
    'select kind, amount, staff_deduction_id, payroll_adjustment_id from payslip_lines where payslip_id = $1 order by id',
    [payslipId],
  );
const act = (runId: number, action: string, body: Record<string, unknown> = {}) =>
  call(t.app, admin, 'POST', `/api/pay_runs/${runId}/actions/${action}`, body);
const netRule = (s: Record<string, any>) =>
  Number(s.gross) -
  Number(s.tax) -
  Number(s.employee_ni) -
  Number(s.student_loan) -
  Number(s.pension_employee) -
  Number(s.deductions);

describe('a recurring deduction with a cap', () => {
  it('takes an instalment each run, cuts the last to the cap across runs, and shows its running total', async () => {
    const who = staff[0];
    const made = await ok(
      await call(t.app, admin, 'POST', '/api/staff_deductions', {
        candidate_id: who.id,
        description: 'Uniform loan',
        method: 'fixed',
        amount: 1_000,
        recurring: true,
        start_date: who.weeks[0],
        cap: 1_500,
      }),
      201,
    );
    const taken: number[] = [];
    for (const monday of who.weeks.slice(0, 2)) {
      const r = await ok(await run(who.id, monday));
      const slip = await slipOf(r.run_id);
      const lines = (await linesOf(slip.id)).filter((l) => l.kind === 'deduction');
      taken.push(-lines.reduce((s, l) => s + Number(l.amount), 0));
      expect(Number(slip.net)).toBe(netRule(slip));
      expect(Number(slip.deductions)).toBe(taken.at(-1));
      await ok(await act(r.run_id, 'approve'));
    }
    // £10, then the £5 the £15 cap leaves.
    expect(taken).toEqual([1_000, 500]);
    const shown = await ok(await call(t.app, consultant, 'GET', `/api/staff_deductions/${made.id}`));
    expect(shown.taken).toBe(1_500);
  });

  it('gives a cancelled run’s instalment back: the next run takes it again', async () => {
    const who = staff[1];
    const d = await ok(
      await call(t.app, admin, 'POST', '/api/staff_deductions', {
        candidate_id: who.id,
        description: 'Locker key',
        method: 'fixed',
        amount: 700,
        recurring: false,
        start_date: who.weeks[0],
      }),
      201,
    );
    const first = await ok(await run(who.id, who.weeks[0]));
    expect((await ok(await call(t.app, admin, 'GET', `/api/staff_deductions/${d.id}`))).taken).toBe(700);
    await ok(await act(first.run_id, 'cancel', { reason: 'Wrong staff' }));
    expect((await ok(await call(t.app, admin, 'GET', `/api/staff_deductions/${d.id}`))).taken).toBe(0);
    const again = await ok(await run(who.id, who.weeks[0]));
    const lines = await linesOf((await slipOf(again.run_id)).id);
    expect(lines.filter((l) => l.staff_deduction_id === d.id).map((l) => Number(l.amount))).toEqual([-700]);
    // A one-off is taken once: a later run takes nothing of it.
    const later = await ok(await run(who.id, who.weeks[1], true));
    expect(later.payslips[0].lines.some((l: any) => l.staff_deduction_id === d.id)).toBe(false);
  });

  it('refuses a fixed deduction without an amount, and an end before its start, in words on the field', async () => {
    const res = await call(t.app, admin, 'POST', '/api/staff_deductions', {
      candidate_id: staff[0].id,
      description: 'Nothing',
      method: 'fixed',
      start_date: '2026-11-10',
      end_date: '2026-11-01',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      amount: 'Give the amount taken each pay day.',
      end_date: 'The last day is before the first.',
    });
  });
});

describe('a deduction before tax', () => {
  it('lowers taxable pay and tax, never NI', async () => {
    const who = staff[2];
    const monday = who.weeks.at(-1)!;
    const before = (await ok(await run(who.id, monday, true))).payslips[0];
    await ok(
      await call(t.app, admin, 'POST', '/api/staff_deductions', {
        candidate_id: who.id,
        description: 'Pension top-up',
        method: 'percent',
        percent: 10,
        before_tax: true,
        start_date: who.weeks[0],
      }),
      201,
    );
    const after = (await ok(await run(who.id, monday, true))).payslips[0];
    const cut = Math.floor(before.gross / 10);
    expect(after.gross).toBe(before.gross);
    expect(after.taxable_pay).toBe(before.gross - cut);
    expect(after.employee_ni).toBe(before.employee_ni);
    expect(after.tax).toBeLessThanOrEqual(before.tax);
    expect(after.deductions).toBe(cut);
    expect(after.net).toBe(before.net - cut + (before.tax - after.tax));
  });
});

describe('adjustments', () => {
  let runId: number;
  let slip: Record<string, any>;
  const adjust = (body: Record<string, unknown>, token = admin) =>
    call(t.app, token, 'POST', `/api/payslips/${slip.id}/actions/adjust`, body);

  it('in a draft: an addition joins gross, a deduction comes off net, the run’s totals follow, the trail says why', async () => {
    const who = staff[3];
    runId = (await ok(await run(who.id, who.weeks[0]))).run_id;
    slip = await slipOf(runId);
    await ok(await adjust({ kind: 'addition', amount: 2_500, reason: 'Missed shift on the 3rd' }));
    const added = await slipOf(runId);
    expect(Number(added.gross)).toBe(Number(slip.gross) + 2_500);
    expect(Number(added.net)).toBe(netRule(added));
    await ok(await adjust({ kind: 'deduction', amount: 1_000, reason: 'Lost badge' }));
    const taken = await slipOf(runId);
    expect(Number(taken.gross)).toBe(Number(added.gross));
    expect(Number(taken.net)).toBe(Number(added.net) - 1_000);
    expect(Number(taken.deductions)).toBe(1_000);
    const lines = (await linesOf(slip.id)).filter((l) => l.kind === 'adjustment').map((l) => Number(l.amount));
    expect(lines.sort((a, b) => a - b)).toEqual([-1_000, 2_500]);
    const r = await ok(await call(t.app, admin, 'GET', `/api/pay_runs/${runId}`));
    expect({ gross: r.gross, net: r.net }).toEqual({ gross: Number(taken.gross), net: Number(taken.net) });
    const trail = await t.db.query<{ action: string; input: any }>(
      `select action, input from audit_log where merchant_id = $1 and resource = 'payslips' and record_id = $2 and action = 'adjust' order by id`,
      [merchantId, slip.id],
    );
    expect(trail.map((e) => e.input.reason)).toEqual(['Missed shift on the 3rd', 'Lost badge']);
  });

  it('refuses a deduction larger than net pay, a consultant, and any adjustment once the run is approved', async () => {
    const big = await adjust({ kind: 'deduction', amount: 10_000_000, reason: 'Too much' });
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.amount).toMatch(/More than the net pay left/);
    expect((await adjust({ kind: 'addition', amount: 100, reason: 'x' }, consultant)).statusCode).toBe(403);
    await ok(await act(runId, 'approve'));
    const late = await adjust({ kind: 'addition', amount: 100, reason: 'Too late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/approved/);
  });

  it('after finalising: a correction waits for the staff member’s next run, which takes it', async () => {
    await ok(await act(runId, 'finalise'));
    const who = staff[3];
    const pending = await ok(
      await call(t.app, admin, 'POST', '/api/payroll_adjustments', {
        candidate_id: who.id,
        kind: 'addition',
        amount: 1_234,
        reason: 'Underpaid sleep-in',
      }),
      201,
    );
    expect(pending.payslip_id).toBeNull();
    const next = await ok(await run(who.id, who.weeks[1]));
    const nextSlip = await slipOf(next.run_id);
    const lines = await linesOf(nextSlip.id);
    expect(lines.filter((l) => l.payroll_adjustment_id === pending.id).map((l) => Number(l.amount))).toEqual([1_234]);
    const taken = await ok(await call(t.app, admin, 'GET', `/api/payroll_adjustments/${pending.id}`));
    expect(taken.payslip_id).toBe(nextSlip.id);
    // Cancelled, the run gives it back: it waits again, and a run for the staff member alone pays it without hours.
    await ok(await act(next.run_id, 'cancel', { reason: 'Redo' }));
    expect((await ok(await call(t.app, admin, 'GET', `/api/payroll_adjustments/${pending.id}`))).payslip_id).toBeNull();
    const alone = await ok(
      await call(t.app, admin, 'POST', '/api/pay_runs/actions/generate', {
        frequency: 'weekly',
        ...weekOf(addDaysToDate(who.weeks[0], -7)),
        candidate_ids: [who.id],
        preview: true,
      }),
    );
    expect(alone.payslips).toHaveLength(1);
    expect(alone.payslips[0].gross).toBe(1_234);
  });
});
