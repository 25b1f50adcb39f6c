import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { at, demoIds, monday, PNG, timesheetKit, type DemoIds } from './timesheetKit';

// Issue 29.1: hours signed on a staff member's phone are signed by one of the client's approvers with a PIN of their
// own (never a name typed by the person paid); times beyond the client's tolerance of the booking, a line the client
// disputed, and a timesheet already sent go to the client instead; the client is told who signed on a phone.
let t: TestApp;
let admin: string;
let client: string;
let client2: string;
let staff: string;
let ids: DemoIds;
let clientId: number;
let client2Id: number;
/** Client A's approver (PIN 246810) and client B's (PIN 135790). */
let wardManager: number;
let otherClientsApprover: number;
const PIN = '246810';

// The shifts here book a 30-minute break; a line's actions are the staff member's unless a token is given.
const kit = timesheetKit(() => ({ t, admin, ids }), { breakMinutes: 30 });
const { act } = kit;
const lineAct = (id: number, name: string, body: unknown, token = staff) => kit.lineAct(id, name, body, token);
const lineOf = async (id: number, token = admin) =>
  (await call(t.app, token, 'GET', `/api/timesheet_lines/${id}`)).json().data;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, client, client2, staff] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'client2'),
    loginAs(t.app, 'staff'),
  ]);
  ids = await demoIds(t);
  ({ clientId, client2Id } = ids);
  // The clients' managers keep their own approvers (the tests below check what that means).
  const made = await call(t.app, client, 'POST', '/api/timesheet_approvers', {
    client_id: clientId,
    name: 'Sam Ward-Manager',
    job_title: 'Unit manager',
  });
  expect(made.statusCode, made.body).toBe(201);
  wardManager = made.json().data.id;
  expect(
    (await call(t.app, client, 'POST', `/api/timesheet_approvers/${wardManager}/actions/set_pin`, { pin: PIN }))
      .statusCode,
  ).toBe(200);
  const other = await call(t.app, client2, 'POST', '/api/timesheet_approvers', {
    client_id: client2Id,
    name: 'Oak Lead',
  });
  expect(other.statusCode, other.body).toBe(201);
  otherClientsApprover = other.json().data.id;
  await call(t.app, client2, 'POST', `/api/timesheet_approvers/${otherClientsApprover}/actions/set_pin`, {
    pin: '135790',
  });
});
afterAll(async () => {
  await t?.close();
});

/** A worked shift of client A for the staff member (booked directly), on `date` from `from` to `to`. */
const workedShift = (date: string, from = '08:00', to = '16:00') => kit.workedShift(at(date, from), at(date, to));

/** The staff member's line of a worked shift, with their times entered (as booked unless given). */
async function myLine(date: string, times?: { from: string; to: string; breakMinutes: number }) {
  const shift = await workedShift(date);
  const g = await kit.generate({ shift_ids: [shift] }, staff);
  expect(g.statusCode, g.body).toBe(200);
  const lineId = g.json().data.line_ids[0] as number;
  const w = times ?? { from: '08:00', to: '16:00', breakMinutes: 30 };
  const r = await lineAct(lineId, 'record_times', {
    actual_start: at(date, w.from),
    actual_end: at(date, w.to),
    break_minutes: w.breakMinutes,
  });
  expect(r.statusCode, r.body).toBe(200);
  return { lineId, timesheetId: g.json().data.timesheets[0] as number, shift };
}

describe('the client’s phone approvers', () => {
  it('a client’s manager keeps them and sets each PIN; nobody reads a PIN, and the audit trail keeps none', async () => {
    const mine = await call(t.app, client, 'GET', '/api/timesheet_approvers');
    // Their own (the demo's Grace Okafor too), never the other client's.
    expect(mine.json().data.map((a: any) => a.name)).toEqual(['Grace Okafor', 'Sam Ward-Manager']);
    const agency = (await call(t.app, admin, 'GET', `/api/timesheet_approvers/${wardManager}`)).json().data;
    expect(agency).toMatchObject({ name: 'Sam Ward-Manager', client_id: clientId });
    expect(agency.pin_set_at).toBeTruthy();
    expect(agency).not.toHaveProperty('pin_hash');
    // The agency sets no PIN: the client stays the authority over its hours.
    expect(
      (await call(t.app, admin, 'POST', `/api/timesheet_approvers/${wardManager}/actions/set_pin`, { pin: '111111' }))
        .statusCode,
    ).toBe(403);
    // A PIN is 6 to 8 digits.
    const short = await call(t.app, client, 'POST', `/api/timesheet_approvers/${wardManager}/actions/set_pin`, {
      pin: '1234',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.pin).toBe('Type a PIN of 6 to 8 digits.');
    const [row] = await t.db.query<any>('select pin_hash from timesheet_approvers where id = $1', [wardManager]);
    expect(row.pin_hash).toMatch(/^\$argon2id\$/);
    const audit = await t.db.query<any>(
      `select changes::text || coalesce(input::text, '') as c from audit_log where resource = 'timesheet_approvers' and record_id = $1`,
      [wardManager],
    );
    expect(audit.length).toBeGreaterThan(0);
    for (const a of audit) {
      expect(a.c).not.toContain(PIN);
      expect(a.c).not.toContain('argon2');
    }
    // A site of another client is refused in words.
    const [otherSite] = await t.db.query<any>(
      'select id from sites where client_id = $1 and deleted_at is null order by id limit 1',
      [client2Id],
    );
    const wrongSite = await call(t.app, client, 'PUT', `/api/timesheet_approvers/${wardManager}`, {
      site_id: otherSite.id,
    });
    expect(wrongSite.statusCode).toBe(422);
  });
});

describe('a signature on the staff member’s phone', () => {
  it('the staff principal cannot sign with a typed name, a wrong PIN or another client’s approver', async () => {
    const { lineId } = await myLine(addDaysToDate(monday(30), 1));
    // What the phone used to send: a name typed by the person paid.
    const typed = await lineAct(lineId, 'sign', { signer_name: 'Ward Manager', signature: PNG });
    expect(typed.statusCode).toBe(422);
    expect(Object.keys(typed.json().errors)).toEqual(expect.arrayContaining(['approver_id', 'pin']));
    const wrong = await lineAct(lineId, 'sign', { approver_id: wardManager, pin: '000000', signature: PNG });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.pin).toMatch(/not right/);
    const otherClient = await lineAct(lineId, 'sign', {
      approver_id: otherClientsApprover,
      pin: '135790',
      signature: PNG,
    });
    expect(otherClient.statusCode).toBe(422);
    expect(otherClient.json().errors.approver_id).toMatch(/client’s approvers/);
    const line = await lineOf(lineId);
    expect(line.status).toBe('pending');
    const sigs = await t.db.query('select 1 from timesheet_signatures where timesheet_id = $1', [line.timesheet_id]);
    expect(sigs).toHaveLength(0);
  });

  it('wrong PINs are throttled: after five, even the right one waits', async () => {
    const made = await call(t.app, client, 'POST', '/api/timesheet_approvers', {
      client_id: clientId,
      name: 'Tried Hard',
    });
    const id = made.json().data.id;
    await call(t.app, client, 'POST', `/api/timesheet_approvers/${id}/actions/set_pin`, { pin: '97531086' });
    const { lineId } = await myLine(addDaysToDate(monday(30), 2));
    for (let i = 0; i < 5; i++)
      expect((await lineAct(lineId, 'sign', { approver_id: id, pin: `11111${i}`, signature: PNG })).statusCode).toBe(
        422,
      );
    const locked = await lineAct(lineId, 'sign', { approver_id: id, pin: '97531086', signature: PNG });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Too many wrong PINs/);
    expect((await lineOf(lineId)).status).toBe('pending');
  });

  it('the approver signs with their PIN: the signature names them, the client is told, the timesheet is signed', async () => {
    const date = addDaysToDate(monday(31), 3);
    const { lineId, timesheetId } = await myLine(date, { from: '07:50', to: '16:40', breakMinutes: 30 });
    const signed = await lineAct(lineId, 'sign', { approver_id: wardManager, pin: PIN, signature: PNG });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().data.status).toBe('signed');
    const line = await lineOf(lineId);
    expect(line).toMatchObject({ status: 'signed', signed_by: 'Sam Ward-Manager', outside_tolerance: null });
    const [sig] = await t.db.query<any>(
      'select signer_name, signed_via, approver_id from timesheet_signatures where id = $1',
      [line.signature_id],
    );
    expect(sig).toEqual({ signer_name: 'Sam Ward-Manager', signed_via: 'phone', approver_id: wardManager });
    // The PIN is never kept in the line's history.
    const audit = await t.db.query<any>(
      `select changes::text || coalesce(input::text, '') as c from audit_log where resource = 'timesheet_lines' and record_id = $1`,
      [lineId],
    );
    for (const a of audit) expect(a.c).not.toContain(PIN);
    // The client's users are told, with the approver's name.
    const inbox = await call(t.app, client, 'GET', '/api/client_notifications?page=1&per_page=20');
    const told = inbox.json().notifications.find((n: any) => n.title === 'Hours signed on a staff phone');
    expect(told.body).toContain('Sam Ward-Manager signed the hours of');
    expect(told.body).toContain('07:50–16:40');
    // Every line signed by the client's approver: a valid signed timesheet, listing who signed each line.
    const sent = await act(timesheetId, 'submit');
    expect(sent.json().data.status).toBe('signed');
    const lines = (await call(t.app, client, 'GET', `/api/timesheet_lines?timesheet_id=${timesheetId}`)).json().data;
    expect(lines.map((l: any) => l.signed_by)).toEqual(['Sam Ward-Manager']);
  });

  it('times beyond the client’s tolerance are not signed on the phone: they go to the client, flagged', async () => {
    const date = addDaysToDate(monday(32), 2);
    // The case: 00:30–23:29 entered for an 08:00–16:00 booking.
    const { lineId, timesheetId } = await myLine(date, { from: '00:30', to: '23:29', breakMinutes: 30 });
    const line = await lineOf(lineId);
    expect(line.outside_tolerance).toBe(
      'Outside the client’s tolerance: started 7 h 30 min before the booking (15 min allowed); finished 7 h 29 min after the booking (1 h allowed).',
    );
    const refused = await lineAct(lineId, 'sign', { approver_id: wardManager, pin: PIN, signature: PNG });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/differ from the booking by more than the client allows/);
    expect((await lineOf(lineId)).status).toBe('pending');
    // Sent to the client, who sees it (and the difference) and signs or disputes it.
    const sent = await act(timesheetId, 'submit');
    expect(sent.json().data.status).toBe('submitted');
    const theirs = await call(t.app, client, 'GET', `/api/timesheet_lines/${lineId}`);
    expect(theirs.json().data.outside_tolerance).toMatch(/^Outside the client’s tolerance/);
  });

  it('a break shorter than booked is beyond tolerance; the client’s own setting is what counts', async () => {
    const date = addDaysToDate(monday(33), 1);
    const noBreak = await myLine(date, { from: '08:00', to: '16:00', breakMinutes: 0 });
    expect((await lineOf(noBreak.lineId)).outside_tolerance).toMatch(/break 30 min shorter than booked/);
    // A client that allows an hour and a half late: 17:20 is within.
    const put = await call(t.app, admin, 'PUT', `/api/clients/${clientId}`, { timesheet_late_minutes: 90 });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const late = await myLine(addDaysToDate(date, 1), { from: '08:00', to: '17:20', breakMinutes: 30 });
      expect((await lineOf(late.lineId)).outside_tolerance).toBeNull();
      expect(
        (await lineAct(late.lineId, 'sign', { approver_id: wardManager, pin: PIN, signature: PNG })).statusCode,
      ).toBe(200);
    } finally {
      await call(t.app, admin, 'PUT', `/api/clients/${clientId}`, { timesheet_late_minutes: 60 });
    }
  });

  it('a line the client disputed is settled by the client only, even once amended; so is a timesheet sent', async () => {
    const date = addDaysToDate(monday(34), 2);
    const { lineId, timesheetId } = await myLine(date);
    // Sent to the client: the phone no longer signs it (the client's link is out).
    expect((await act(timesheetId, 'submit')).json().data.status).toBe('submitted');
    const sent = await lineAct(lineId, 'sign', { approver_id: wardManager, pin: PIN, signature: PNG });
    expect(sent.statusCode).toBe(409);
    expect(sent.json().message).toMatch(/sent to the client/);
    // The client disputes it; the agency amends it back to awaiting signature.
    const disputed = await act(timesheetId, 'dispute', { line_ids: [lineId], reason: 'Not here at all' }, client);
    expect(disputed.statusCode, disputed.body).toBe(200);
    const l = await lineOf(lineId);
    const amended = await lineAct(
      lineId,
      'amend',
      { actual_start: l.actual_start, actual_end: l.actual_end, break_minutes: 30, note: 'Checked with the ward' },
      admin,
    );
    expect(amended.statusCode, amended.body).toBe(200);
    expect((await lineOf(lineId)).status).toBe('pending');
    const again = await lineAct(lineId, 'sign', { approver_id: wardManager, pin: PIN, signature: PNG });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/client disputed this line/);
    expect((await lineOf(lineId)).status).toBe('pending');
  });

  it('the phone reads the approvers who may sign its line (names only), and whether its timesheet was sent', async () => {
    const { lineId } = await myLine(addDaysToDate(monday(35), 1));
    const mine = (await call(t.app, staff, 'GET', '/api/timesheet_lines?per_page=100')).json().data;
    const line = mine.find((l: any) => l.id === lineId);
    expect(line.timesheet_status).toBe('draft');
    const names = (line.approvers as any[]).map((a) => a.name);
    expect(names).toContain('Sam Ward-Manager');
    expect(names).not.toContain('Oak Lead');
    for (const a of line.approvers) expect(Object.keys(a).sort()).toEqual(['id', 'job_title', 'name']);
    // Neither the approvers' records nor the agency's view of the line are the staff member's.
    expect((await call(t.app, staff, 'GET', '/api/timesheet_approvers')).statusCode).toBe(403);
    expect(line).not.toHaveProperty('charge');
  });
});

describe('a colleague as a phone approver (issue 35)', () => {
  it('the manager names a colleague once; deactivated, they stop signing on phones until reactivated', async () => {
    const invited = await call(t.app, client, 'POST', '/api/users', {
      name: 'Nadia Nightshift',
      email: `nadia.${Date.now()}@meadowbank.example`,
      role: 'viewer',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const colleague = invited.json().data.id as number;
    const approver = (body: Record<string, unknown>) =>
      call(t.app, client, 'POST', '/api/timesheet_approvers', { client_id: clientId, ...body });
    const made = await approver({ user_id: colleague, name: 'Nadia Nightshift', job_title: 'Night nurse' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as number;
    expect((await call(t.app, client, 'GET', `/api/users/${colleague}`)).json().data.phone_approver).toBe('no_pin');
    await call(t.app, client, 'POST', `/api/timesheet_approvers/${id}/actions/set_pin`, { pin: '864200' });
    expect((await call(t.app, client, 'GET', `/api/users/${colleague}`)).json().data.phone_approver).toBe('pin');

    // Once per colleague, and only the manager's own client's colleagues.
    const twice = await approver({ user_id: colleague, name: 'Nadia again' });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.user_id).toBe('Nadia Nightshift is already a phone approver: set their PIN instead.');
    const [{ id: otherClientsUser }] = await t.db.query<any>('select id from users where client_id = $1 limit 1', [
      client2Id,
    ]);
    const elsewhere = await approver({ user_id: otherClientsUser, name: 'Not Ours' });
    expect(elsewhere.statusCode).toBe(422);
    expect(Object.keys(elsewhere.json().errors)).toEqual(['user_id']);

    const { lineId } = await myLine(addDaysToDate(monday(36), 1));
    const approversOfLine = async () => ((await lineOf(lineId, staff)).approvers as any[]).map((a) => a.name);
    expect(await approversOfLine()).toContain('Nadia Nightshift');
    const sign = () => lineAct(lineId, 'sign', { approver_id: id, pin: '864200', signature: PNG });

    expect((await call(t.app, client, 'POST', `/api/users/${colleague}/actions/deactivate`, {})).statusCode).toBe(200);
    expect(await approversOfLine()).not.toContain('Nadia Nightshift');
    const refused = await sign();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.approver_id).toMatch(/client’s approvers/);
    expect((await lineOf(lineId)).status).toBe('pending');

    expect((await call(t.app, client, 'POST', `/api/users/${colleague}/actions/reactivate`, {})).statusCode).toBe(200);
    const signed = await sign();
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await lineOf(lineId)).signed_by).toBe('Nadia Nightshift');
  });
});
