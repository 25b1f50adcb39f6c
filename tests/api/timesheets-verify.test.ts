import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { fixtureWrite } from './auditCheck';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { at, demoIds, monday, timesheetKit, type DemoIds } from './timesheetKit';

// Issue 29.6–8 and 11, issue 30.20: the agency verifies the lines it chose (all of them only when it confirms their
// number), withdraws a verification with a reason until the timesheet is locked, keeps the evidence uploaded through
// the file store, takes a submitted timesheet back from the client, and a timesheet verified in full says so.
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let ids: DemoIds;
let merchantId: number;
let clientId: number;
let staffId: number;
let siteId: number;
let roleId: number;
let weeksBack = 40;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, client] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
  ]);
  ids = await demoIds(t);
  ({ merchantId, clientId, staffId, siteId, roleId } = ids);
});
afterAll(async () => {
  await t?.close();
});

const { workedShift, generate, act, lineAct, get, linesOf, signingToken } = timesheetKit(() => ({ t, admin, ids }));

/** A timesheet of `days` worked shifts (one a day) in a week long past, of its own; submitted unless a draft. */
async function timesheetOf(days: number, submit = true): Promise<{ id: number; lines: number[] }> {
  const week = monday(weeksBack++);
  for (let d = 0; d < days; d++) {
    await workedShift(at(addDaysToDate(week, d), '08:00'), at(addDaysToDate(week, d), '16:00'));
  }
  const g = await generate({ week_start: week });
  expect(g.statusCode, g.body).toBe(200);
  const id = g.json().data.timesheets[0] as number;
  if (submit) expect((await act(id, 'submit')).statusCode).toBe(200);
  return { id, lines: (await linesOf(id)).map((l) => l.id) };
}

async function upload(token = admin): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/files?kind=document',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-name': 'sheet.pdf',
    },
    payload: PDF,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

describe('verifying by the agency (issue 29.6)', () => {
  it('verifies only the chosen lines; the picker’s list is this timesheet’s unsigned lines', async () => {
    const ts = await timesheetOf(3);
    const other = await timesheetOf(1);
    // What the dialog's line picker lists: this timesheet's lines neither signed nor verified.
    expect((await linesOf(ts.id, admin, '&payable=false')).map((l) => l.id)).toEqual(ts.lines);
    // A line of another timesheet is refused, in words, and nothing is verified.
    const foreign = await act(ts.id, 'verify', { line_ids: [ts.lines[0], other.lines[0]], reason: 'Sheet' });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.line_ids).toBe('Choose lines of this timesheet.');
    const v = await act(ts.id, 'verify', { line_ids: [ts.lines[1]], reason: 'Signing-in sheet' });
    expect(v.statusCode, v.body).toBe(200);
    const lines = await linesOf(ts.id);
    expect(lines.map((l) => l.status)).toEqual(['pending', 'verified', 'pending']);
    expect((await linesOf(other.id))[0].status).toBe('pending');
    expect(await get(ts.id)).toMatchObject({ status: 'submitted', payable_lines: 1, unsigned_lines: 2 });
    expect((await linesOf(ts.id, admin, '&payable=false')).map((l) => l.id)).toEqual([ts.lines[0], ts.lines[2]]);
  });

  it('verifying every unsigned line needs their number confirmed; then the timesheet is fully verified', async () => {
    const ts = await timesheetOf(3);
    await act(ts.id, 'verify', { line_ids: [ts.lines[0]], reason: 'Sheet' });
    // Nothing chosen and nothing confirmed: refused naming how many lines it would verify, nothing verified.
    const none = await act(ts.id, 'verify', { reason: 'Sheet' });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.all_lines).toBe(
      'Choose the lines to verify, or confirm all 2 unsigned lines by typing 2.',
    );
    // A number that is no longer the count (a stale dialog) is refused too.
    expect((await act(ts.id, 'verify', { reason: 'Sheet', all_lines: 3 })).statusCode).toBe(422);
    expect((await linesOf(ts.id)).filter((l) => l.status === 'verified')).toHaveLength(1);
    const all = await act(ts.id, 'verify', { reason: 'Sheet', all_lines: 2 });
    expect(all.statusCode, all.body).toBe(200);
    // Issue 29.11: nothing is left to sign, and it says so; Verify is refused with the reason.
    expect(await get(ts.id)).toMatchObject({ status: 'verified', payable_lines: 3, unsigned_lines: 0 });
    const again = await act(ts.id, 'verify', { reason: 'Sheet', all_lines: 1 });
    expect(again.statusCode).toBe(409);
  });

  it('a verification is withdrawn with a reason, the timesheet awaits its signature again; not once locked', async () => {
    const ts = await timesheetOf(2);
    await act(ts.id, 'verify', { reason: 'Sheet', all_lines: 2 });
    expect((await get(ts.id)).status).toBe('verified');
    expect((await lineAct(ts.lines[0], 'withdraw_verification', {})).statusCode).toBe(422);
    // Only an admin withdraws (as only an admin verifies).
    expect((await lineAct(ts.lines[0], 'withdraw_verification', { reason: 'x' }, consultant)).statusCode).toBe(403);
    const w = await lineAct(ts.lines[0], 'withdraw_verification', { reason: 'Verified the wrong week' });
    expect(w.statusCode, w.body).toBe(200);
    expect(w.json().data).toMatchObject({ status: 'pending', verified_reason: null, verified_by: null });
    expect(await get(ts.id)).toMatchObject({ status: 'submitted', payable_lines: 1 });
    // The history keeps why, and what the verification had said.
    const [entry] = await t.db.query<any>(
      `select input, changes from audit_log where resource = 'timesheet_lines' and record_id = $1 and action = 'withdraw_verification'`,
      [ts.lines[0]],
    );
    expect(entry.input).toMatchObject({ reason: 'Verified the wrong week' });
    expect(JSON.stringify(entry.changes)).toContain('Sheet');
    // A line not verified has nothing to withdraw.
    expect((await lineAct(ts.lines[0], 'withdraw_verification', { reason: 'x' })).statusCode).toBe(409);
    // Once locked, never.
    await act(ts.id, 'verify', { reason: 'Sheet again', all_lines: 1 });
    expect((await act(ts.id, 'lock')).statusCode).toBe(200);
    const locked = await lineAct(ts.lines[1], 'withdraw_verification', { reason: 'Too late' });
    expect(locked.statusCode).toBe(409);
    expect((await linesOf(ts.id))[1].status).toBe('verified');
  });
});

describe('evidence through the file store (issue 29.7)', () => {
  it('is kept with the verification of a timesheet and of a line, and can be read back', async () => {
    const ts = await timesheetOf(2);
    // What the browser used to send: a blob reference, refused in words.
    const blob = await act(ts.id, 'verify', {
      line_ids: [ts.lines[0]],
      reason: 'Sheet',
      evidence: 'blob:http://localhost/0b6f',
    });
    expect(blob.statusCode).toBe(422);
    expect(blob.json().errors).toHaveProperty('evidence');
    const onTimesheet = await upload();
    const v = await act(ts.id, 'verify', { line_ids: [ts.lines[0]], reason: 'Sheet', evidence: onTimesheet });
    expect(v.statusCode, v.body).toBe(200);
    expect((await get(ts.id)).verified_evidence).toBe(onTimesheet);
    const onLine = await upload();
    const l = await lineAct(ts.lines[1], 'verify', { reason: 'Phoned the ward', evidence: onLine });
    expect(l.statusCode, l.body).toBe(200);
    expect(l.json().data.verified_evidence).toBe(onLine);
    for (const id of [onTimesheet, onLine]) {
      const file = await call(t.app, admin, 'GET', `/api/files/${id}`);
      expect(file.statusCode).toBe(200);
      expect(file.body).toContain('%PDF-1.4');
    }
    // Another user's upload is not theirs to attach.
    const notMine = await upload(consultant);
    const ts2 = await timesheetOf(1);
    expect((await act(ts2.id, 'verify', { reason: 'x', all_lines: 1, evidence: notMine })).statusCode).toBe(422);
  });
});

describe('withdrawing a timesheet from the client (issue 29.8)', () => {
  it('takes it back to a draft, its link stops working, its lines can be amended; before it they cannot', async () => {
    const ts = await timesheetOf(1);
    const token = await signingToken(ts.id);
    const [line] = await linesOf(ts.id);
    const times = { actual_start: line.actual_start, actual_end: line.actual_end, break_minutes: 30, note: 'Break' };
    // The line reads its timesheet's state, which says why it cannot be amended now.
    expect(line.timesheet_status).toBe('submitted');
    expect((await lineAct(line.id, 'amend', times)).statusCode).toBe(409);
    expect((await act(ts.id, 'withdraw', {})).statusCode).toBe(422);
    expect((await act(ts.id, 'withdraw', { reason: 'Wrong break' }, client)).statusCode).toBe(403);
    const w = await act(ts.id, 'withdraw', { reason: 'Wrong break' }, consultant);
    expect(w.statusCode, w.body).toBe(200);
    expect(w.json().data).toMatchObject({ status: 'draft', submitted_at: null });
    expect((await t.app.inject({ method: 'GET', url: `/api/capability/${token}` })).statusCode).toBe(410);
    const amended = await lineAct(line.id, 'amend', times);
    expect(amended.statusCode, amended.body).toBe(200);
    // Only a timesheet with the client can be withdrawn.
    expect((await act(ts.id, 'withdraw', { reason: 'Again' })).statusCode).toBe(409);
    expect((await act(ts.id, 'submit')).statusCode).toBe(200);
  });
});

describe('lock (issue 30.20)', () => {
  it('offers no invoiced or paid: a lock is the agency’s own', async () => {
    const ts = await timesheetOf(1);
    await act(ts.id, 'verify', { reason: 'Sheet', all_lines: 1 });
    const locked = await act(ts.id, 'lock', { locked_by: 'invoice' });
    expect(locked.statusCode, locked.body).toBe(200);
    expect((await get(ts.id)).locked_by).toBe('agency');
  });
});

describe('the week’s generation, confirmed (issue 29.14)', () => {
  it('a preview counts the worked shifts per client and takes none; the chosen clients only are generated', async () => {
    const week = monday(weeksBack++);
    const [other] = await t.db.query<any>(
      `select s.client_id, s.id as site_id, r.job_role_id from sites s
         join rate_cards r on r.merchant_id = s.merchant_id and r.client_id = s.client_id and r.deleted_at is null
          and (r.site_id is null or r.site_id = s.id) and r.effective_from <= $3
          and (r.effective_to is null or r.effective_to > $3)
        where s.merchant_id = $1 and s.client_id <> $2 and s.deleted_at is null order by s.id limit 1`,
      [merchantId, clientId, week],
    );
    const shifts: [number, number, number][] = [
      [clientId, siteId, roleId],
      [clientId, siteId, roleId],
      [other.client_id, other.site_id, other.job_role_id],
    ];
    for (const [d, [client_id, site_id, job_role_id]] of shifts.entries()) {
      const day = addDaysToDate(week, d * 3);
      const res = await call(t.app, admin, 'POST', '/api/shifts', {
        client_id,
        site_id,
        job_role_id,
        start_at: at(day, '08:00'),
        end_at: at(day, '16:00'),
      });
      expect(res.statusCode, res.body).toBe(201);
      await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = $2`, [
        staffId,
        res.json().data.id,
      ]);
    }
    const preview = await generate({ week_start: week, preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data.shifts).toBe(3);
    expect(preview.json().data.preview).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ client_id: clientId, shifts: 2 }),
        expect.objectContaining({ client_id: other.client_id, shifts: 1 }),
      ]),
    );
    const [{ n }] = await t.db.query<any>(
      `select count(*)::int as n from timesheets where merchant_id = $1 and period_start = $2`,
      [merchantId, week],
    );
    expect(n).toBe(0);
    const chosen = await generate({ week_start: week, client_ids: [other.client_id] });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().data.lines).toBe(1);
    expect((await generate({ week_start: week, preview: true })).json().data).toMatchObject({
      shifts: 2,
      preview: [expect.objectContaining({ client_id: clientId, shifts: 2 })],
    });
  });
});
