import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { systemContext } from '../../server/engine/routes';
import type { EngineContext } from '../../server/engine/context';
import { at, demoIds, monday, PNG, timesheetKit, type DemoIds } from './timesheetKit';

// Issue 31.3, the proof: timesheet lines are declared lines of their timesheet. The timesheet's totals are their
// rollups and its state the one timesheetFromLines derives, each change a version with an audit entry naming the
// rule; a line of a locked timesheet refuses every writer in words.
let t: TestApp;
let admin: string;
let client: string;
let ids: DemoIds;
let weeksBack = 20;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, client] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'client')]);
  ids = await demoIds(t);
});
afterAll(async () => {
  await t?.close();
});

const { workedShift, generate, act, lineAct, linesOf } = timesheetKit(() => ({ t, admin, ids }));
const asSystem = <T>(fn: (ctx: EngineContext) => Promise<T>) =>
  t.db.transaction(async (tx) => fn(await systemContext(t.app, tx, ids.merchantId)));

async function timesheetOf(days: number): Promise<{ id: number; lines: number[] }> {
  const week = monday(weeksBack++);
  for (let d = 0; d < days; d++)
    await workedShift(at(addDaysToDate(week, d), '08:00'), at(addDaysToDate(week, d), '16:00'));
  const g = await generate({ week_start: week });
  expect(g.statusCode, g.body).toBe(200);
  const id = g.json().data.timesheets[0] as number;
  return { id, lines: (await linesOf(id)).map((l) => l.id) };
}

/** The timesheet as stored, and its totals counted again from its lines. */
async function storedAndCounted(id: number) {
  const [stored] = await t.db.query(
    `select status, version, line_count, payable_lines, paid_minutes, pay::int as pay, charge::int as charge,
            on_costs::int as on_costs, margin::int as margin from timesheets where id = $1`,
    [id],
  );
  const [counted] = await t.db.query(
    `select count(*)::int as line_count, (count(*) filter (where status in ('signed', 'verified')))::int as payable_lines,
            coalesce(sum(paid_minutes), 0)::int as paid_minutes, coalesce(sum(pay), 0)::int as pay,
            coalesce(sum(charge), 0)::int as charge, coalesce(sum(on_costs), 0)::int as on_costs,
            coalesce(sum(margin), 0)::int as margin
       from timesheet_lines where timesheet_id = $1`,
    [id],
  );
  const { status, version, ...totals } = stored;
  return { status, version, totals, counted };
}

describe('timesheet lines as declared lines', () => {
  it('keeps the totals equal to a recount and derives the state through each write, each change audited', async () => {
    const ts = await timesheetOf(3);
    const check = async (status: string) => {
      const s = await storedAndCounted(ts.id);
      expect(s.totals).toEqual(s.counted);
      expect(s.status).toBe(status);
      return s;
    };
    expect((await check('draft')).totals.line_count).toBe(3);
    // An amendment reprices the line: the totals follow, and the revision rises.
    const [line] = await linesOf(ts.id);
    const amended = await lineAct(ts.lines[0], 'amend', {
      actual_start: line.actual_start,
      actual_end: at(line.work_date, '18:00'),
      note: 'Stayed late',
    });
    expect(amended.statusCode, amended.body).toBe(200);
    await check('draft');
    expect((await act(ts.id, 'submit')).statusCode).toBe(200);
    // The client signs two lines: still awaiting the third; the agency verifies it: signed, by the lines' rule.
    const approve = await act(
      ts.id,
      'approve',
      { line_ids: ts.lines.slice(0, 2), signer_name: 'Jo Client', signature: PNG },
      client,
    );
    expect(approve.statusCode, approve.body).toBe(200);
    const before = await check('submitted');
    expect(before.totals.payable_lines).toBe(2);
    expect((await lineAct(ts.lines[2], 'verify', { reason: 'Rota checked' })).statusCode).toBe(200);
    const signed = await check('signed');
    expect(signed.version).toBe(before.version + 1);
    // Withdrawn again: it awaits a signature again.
    expect((await lineAct(ts.lines[2], 'withdraw_verification', { reason: 'Wrong line' })).statusCode).toBe(200);
    await check('submitted');
    const [entry] = await t.db.query(
      `select event, changes, input from audit_log where resource = 'timesheets' and record_id = $1 order by id desc limit 1`,
      [ts.id],
    );
    expect(entry).toMatchObject({
      event: 'update',
      changes: { status: { from: 'signed', to: 'submitted' }, payable_lines: { from: 3, to: 2 } },
      input: { reason: 'Its timesheet lines changed', rule: 'timesheetFromLines' },
    });
  });

  it('refuses a line of a locked timesheet, in words, for every writer', async () => {
    const ts = await timesheetOf(2);
    expect((await act(ts.id, 'verify', { all_lines: 2, reason: 'Rota checked' })).statusCode).toBe(200);
    const locked = await act(ts.id, 'lock');
    expect(locked.statusCode, locked.body).toBe(200);
    const changes =
      'The timesheet is locked: its timesheet lines can be changed only while it is draft, disputed or amended.';
    const [line] = await linesOf(ts.id);
    // A request: a verification withdrawn (a transition its line allows), and a line added by hand.
    const withdraw = await lineAct(line.id, 'withdraw_verification', { reason: 'x' });
    expect(withdraw.statusCode).toBe(409);
    expect(withdraw.json().message).toBe(
      'The timesheet is locked: Withdraw the verification runs only while it is draft, awaiting signature, signed, fully verified, disputed or amended.',
    );
    const added = await call(t.app, admin, 'POST', '/api/timesheet_lines', {
      timesheet_id: ts.id,
      candidate_id: ids.staffId,
      site_id: ids.siteId,
      job_role_id: ids.roleId,
      actual_start: line.actual_start,
      actual_end: line.actual_end,
      amendment_note: 'Forgotten',
    });
    expect(added.statusCode).toBe(409);
    expect(added.json().message).toBe(changes);
    // The server's own writes: ctx.engine.update (as a hook would), createMany, a delete.
    for (const write of [
      (ctx: EngineContext) => ctx.engine.update('timesheet_lines', line.id, { amendment_note: 'x' }),
      (ctx: EngineContext) => ctx.engine.remove('timesheet_lines', line.id),
    ]) {
      const e = await asSystem(write).catch((x: { status?: number; message: string }) => x);
      expect(e).toMatchObject({ status: 409, message: changes });
    }
    const many = await asSystem((ctx) =>
      ctx.engine.createMany('timesheet_lines', [
        { timesheet_id: ts.id, candidate_id: ids.staffId, site_id: ids.siteId, job_role_id: ids.roleId },
      ]),
    ).catch((x: { status?: number; errors: Record<string, string> }) => x);
    expect(many).toMatchObject({ status: 409, errors: { 'rows[0]': changes } });
    const s = await storedAndCounted(ts.id);
    expect(s.status).toBe('locked');
    expect(s.totals).toEqual(s.counted);
    expect(s.totals.line_count).toBe(2);
  });
});
