import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { issueLinkToken } from '../../server/engine/capability';
import { remindUnsignedTimesheets } from '../../server/services/timesheetReminders';
import { JobEngine } from '../../server/jobs/engineContext';
import { systemContext } from '../../server/engine/routes';
import { at, demoIds, monday, PNG, timesheetKit, type DemoIds } from './timesheetKit';

// Issue 17: timesheets generated from worked shifts, signed three ways, amended, verified, locked; the spec's
// sign_timesheets. Shifts are made in weeks long past (weekOffset), booked directly: booking is not what this tests.
let t: TestApp;
let admin: string;
let client: string;
let client2: string;
let staff: string;
let ids: DemoIds;
let clientId: number;
let client2Id: number;
let staffId: number;
let siteId: number;
let roleId: number;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, client, client2, staff] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'client2'),
    loginAs(t.app, 'staff'),
  ]);
  ids = await demoIds(t);
  ({ clientId, client2Id, staffId, siteId, roleId } = ids);
});
afterAll(async () => {
  await t?.close();
});

const { workedShift, generate, act, lineAct, get, linesOf, signingToken } = timesheetKit(() => ({ t, admin, ids }));

describe('generation', () => {
  it('builds the week from worked shifts, a shift crossing midnight at the week end in the week it starts', async () => {
    const week = monday(12);
    const sunday = addDaysToDate(week, 6);
    const a = await workedShift(at(week, '08:00'), at(week, '16:00'));
    const night = await workedShift(at(sunday, '20:00'), at(addDaysToDate(sunday, 1), '08:00'));
    const res = await generate({ week_start: week });
    expect(res.statusCode, res.body).toBe(200);
    const { timesheets, lines } = res.json().data;
    expect(lines).toBe(2);
    const ts = await get(timesheets[0]);
    expect(ts).toMatchObject({
      status: 'draft',
      period_start: week,
      period_end: sunday,
      kind: 'weekly',
      line_count: 2,
    });
    expect(ts.number).toMatch(/^TS-\d{5}$/);
    const rows = await linesOf(ts.id);
    expect(rows.map((l) => l.shift_id).sort()).toEqual([a, night].sort());
    // Totals are the sums of the lines.
    expect(ts.charge).toBe(rows.reduce((s, l) => s + Number(l.charge), 0));
    expect(ts.pay).toBe(rows.reduce((s, l) => s + Number(l.pay), 0));
    // Generating again puts nothing twice; the next week does not take the Sunday night.
    expect((await generate({ week_start: week })).json().data.lines).toBe(0);
    expect((await generate({ week_start: addDaysToDate(week, 7) })).json().data.lines).toBe(0);
  });

  it('refuses a week that does not start on Monday, in words, and a staff token for anything but their shift', async () => {
    const res = await generate({ week_start: addDaysToDate(monday(3), 1) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.week_start).toMatch(/Monday/);
    expect((await generate({ week_start: monday(3) }, staff)).statusCode).toBe(422);
    expect((await generate({ week_start: monday(3) }, client)).statusCode).toBe(403);
  });

  it('two generations racing never put a shift twice', async () => {
    const week = monday(13);
    const ids = await Promise.all(
      [0, 1, 2].map((d) => workedShift(at(addDaysToDate(week, d), '09:00'), at(addDaysToDate(week, d), '17:00'))),
    );
    const [r1, r2] = await Promise.all([generate({ week_start: week }), generate({ week_start: week })]);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    expect(r1.json().data.lines + r2.json().data.lines).toBe(3);
    const [{ n }] = await t.db.query<any>(
      'select count(*)::int as n from timesheet_lines where shift_id = any($1::int[])',
      [ids],
    );
    expect(n).toBe(3);
  });

  it('a custom timesheet over a range or chosen shifts', async () => {
    const from = monday(15);
    const s1 = await workedShift(at(from, '08:00'), at(from, '12:00'));
    const s2 = await workedShift(at(addDaysToDate(from, 9), '08:00'), at(addDaysToDate(from, 9), '12:00'));
    const byShift = await generate({ shift_ids: [s1] });
    expect(byShift.statusCode, byShift.body).toBe(200);
    expect(await get(byShift.json().data.timesheets[0])).toMatchObject({
      kind: 'custom',
      period_start: from,
      period_end: from,
    });
    const range = await generate({ from, to: addDaysToDate(from, 13) });
    expect(range.json().data.line_ids.length).toBe(1);
    expect((await linesOf(range.json().data.timesheets[0]))[0].shift_id).toBe(s2);
  });
});

describe('signing, disputes, amendments, verification, locking', () => {
  let tsId: number;
  let lineIds: number[];
  beforeAll(async () => {
    const week = monday(20);
    for (const d of [0, 1, 2])
      await workedShift(at(addDaysToDate(week, d), '08:00'), at(addDaysToDate(week, d), '16:00'));
    const res = await generate({ week_start: week });
    tsId = res.json().data.timesheets[0];
    lineIds = res.json().data.line_ids;
  });

  it('guards every transition: nothing to approve before submission, no amend before a dispute', async () => {
    expect((await act(tsId, 'approve', { signer_name: 'A', signature: PNG }, client)).statusCode).toBe(409);
    expect((await act(tsId, 'amend', { note: 'x' })).statusCode).toBe(409);
    expect((await act(tsId, 'lock', { locked_by: 'invoice' })).statusCode).toBe(409);
    // Client users may not submit; the other client does not see it.
    expect((await act(tsId, 'submit', {}, client)).statusCode).toBe(403);
    expect((await call(t.app, client2, 'GET', `/api/timesheets/${tsId}`)).statusCode).toBe(404);
  });

  it('a client user never reads pay, margin or on-costs', async () => {
    const ts = await get(tsId, client);
    expect(ts.charge).toBeGreaterThan(0);
    expect(ts).not.toHaveProperty('pay');
    expect(ts).not.toHaveProperty('margin');
    const [line] = await linesOf(tsId, client);
    expect(line.charge).toBeGreaterThan(0);
    for (const k of ['pay', 'margin', 'on_costs', 'price_lines']) expect(line).not.toHaveProperty(k);
  });

  it('an amendment needs a note, keeps the previous times in the audit and reprices on the actual times', async () => {
    const [line] = await linesOf(tsId);
    const later = new Date(Date.parse(line.actual_end) + 2 * 3600_000).toISOString();
    const noNote = await lineAct(line.id, 'amend', { actual_start: line.actual_start, actual_end: later });
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().errors.note).toBeTruthy();
    // A PUT cannot change the times either.
    expect((await call(t.app, admin, 'PUT', `/api/timesheet_lines/${line.id}`, { actual_end: later })).statusCode).toBe(
      403,
    );
    const ok = await lineAct(line.id, 'amend', {
      actual_start: line.actual_start,
      actual_end: later,
      note: 'Stayed late',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.charge).toBeGreaterThan(line.charge);
    expect(ok.json().data.amendment_note).toBe('Stayed late');
    const [audit] = await t.db.query<any>(
      `select changes from audit_log where resource = 'timesheet_lines' and record_id = $1 and action = 'amend'`,
      [line.id],
    );
    expect(new Date(audit.changes.actual_end.from).toISOString()).toBe(line.actual_end);
    const ts = await get(tsId);
    expect(ts.revision).toBe(1);
    expect(ts.charge).toBe((await linesOf(tsId)).reduce((s, l) => s + Number(l.charge), 0));
  });

  it('the signing link: altered, on another timesheet, after an amendment, used twice', async () => {
    const submitted = await act(tsId, 'submit');
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.status).toBe('submitted');
    const [mail] = await t.db.query<any>(
      `select text from email_outbox where secret_kind = 'timesheet.sign' order by id desc limit 1`,
    );
    expect(mail.text).toContain('/sign-timesheet/');
    const token = await signingToken(tsId);
    expect((await t.app.inject({ method: 'GET', url: `/api/capability/${token}x` })).statusCode).toBe(404);
    const view = await t.app.inject({ method: 'GET', url: `/api/capability/${token}` });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data.review_lines).toHaveLength(3);
    expect(view.json().data).not.toHaveProperty('pay');
    // Disputing one line through the link, signing the rest.
    const sign = (body: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/capability/${token}/actions/approve`, payload: body as any });
    const bad = await sign({ signer_name: 'Ward Manager', signature: 'data:image/png;base64,AAAA' });
    expect(bad.statusCode).toBe(422);
    const res = await sign({
      signer_name: 'Ward Manager',
      signature: PNG,
      dispute_line_ids: [lineIds[2]],
      dispute_reason: 'Left at 14:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(tsId)).status).toBe('disputed');
    expect((await sign({ signer_name: 'Again', signature: PNG })).statusCode).toBe(410);
    const lines = await linesOf(tsId);
    expect(lines.filter((l) => l.status === 'signed')).toHaveLength(2);
    expect(lines.find((l) => l.id === lineIds[2]).dispute_reason).toBe('Left at 14:00');
  });

  it('disputed → amended → submitted again; a link sent before an amendment refuses; then signed in the panel', async () => {
    expect((await act(tsId, 'amend', { note: 'Fixed' })).statusCode).toBe(409);
    const line = (await linesOf(tsId)).find((l) => l.id === lineIds[2]);
    const end = new Date(Date.parse(line.actual_start) + 6 * 3600_000).toISOString();
    expect(
      (await lineAct(line.id, 'amend', { actual_start: line.actual_start, actual_end: end, note: 'Left at 14:00' }))
        .statusCode,
    ).toBe(200);
    expect((await act(tsId, 'amend', { note: 'Times corrected' })).json().data.status).toBe('amended');
    expect((await act(tsId, 'submit')).json().data.status).toBe('submitted');
    const token = await signingToken(tsId);
    // The client disputes the line again in the panel; the agency amends it after the link was sent.
    const disputed = await act(tsId, 'dispute', { line_ids: [line.id], reason: 'The break was not taken' }, client);
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect(disputed.json().data.status).toBe('disputed');
    const again = (await linesOf(tsId)).find((l) => l.id === lineIds[2]);
    const amended = await lineAct(again.id, 'amend', {
      actual_start: again.actual_start,
      actual_end: again.actual_end,
      break_minutes: 0,
      note: 'No break taken',
    });
    expect(amended.statusCode, amended.body).toBe(200);
    expect((await act(tsId, 'amend', { note: 'Break removed' })).json().data.status).toBe('amended');
    expect((await act(tsId, 'submit')).json().data.status).toBe('submitted');
    // The link sent before the amendment no longer signs: the submission again replaced it (issue 29.5).
    const changed = await t.app.inject({
      method: 'POST',
      url: `/api/capability/${token}/actions/approve`,
      payload: { signer_name: 'X', signature: PNG },
    });
    expect(changed.statusCode, changed.body).toBe(410);
    expect(changed.json().message).toMatch(/replaced by a newer one/);
    const signed = await act(tsId, 'approve', { signer_name: 'Jo Client', signature: PNG }, client);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().data.status).toBe('signed');
  });

  it('sign_timesheets: shape, own client only for client users, any client for agency users', async () => {
    const res = await call(t.app, client, 'GET', `/api/sign_timesheets/${clientId}`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().sign_timesheets;
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list[0]).toMatchObject({
      timesheet_id: tsId,
      signer_name: 'Jo Client',
      signed_via: 'panel',
      signature: PNG,
    });
    expect(list.map((s: any) => s.signed_via)).toContain('link');
    expect(list[0].ip_address).toBeTruthy();
    expect((await call(t.app, client, 'GET', `/api/sign_timesheets/${client2Id}`)).statusCode).toBe(404);
    expect((await call(t.app, admin, 'GET', `/api/sign_timesheets/${client2Id}`)).statusCode).toBe(200);
    expect((await call(t.app, staff, 'GET', `/api/sign_timesheets/${clientId}`)).statusCode).toBe(403);
    const pdf = await call(t.app, admin, 'GET', `/api/timesheets/${tsId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });

  it('locking: once invoiced, nothing changes', async () => {
    const locked = await act(tsId, 'lock', { locked_by: 'invoice' });
    expect(locked.statusCode, locked.body).toBe(200);
    expect((await act(tsId, 'verify', { reason: 'x' })).statusCode).toBe(409);
    expect((await call(t.app, admin, 'PUT', `/api/timesheets/${tsId}`, { notes: 'x' })).statusCode).toBe(409);
    const [line] = await linesOf(tsId);
    expect(
      (await lineAct(line.id, 'amend', { actual_start: line.actual_start, actual_end: line.actual_end, note: 'n' }))
        .statusCode,
    ).toBe(409);
  });
});

describe('verification by the agency and the staff member’s phone', () => {
  it('verified lines are payable without a signature; a lock then passes', async () => {
    const week = monday(22);
    await workedShift(at(week, '08:00'), at(week, '16:00'));
    const ts = (await generate({ week_start: week })).json().data.timesheets[0];
    expect((await act(ts, 'submit')).statusCode).toBe(200);
    expect((await act(ts, 'lock', { locked_by: 'payroll' })).statusCode).toBe(409);
    expect((await act(ts, 'verify', { reason: 'Signing-in sheet' }, client)).statusCode).toBe(403);
    const v = await act(ts, 'verify', { reason: 'Signing-in sheet checked', all_lines: 1 });
    expect(v.statusCode, v.body).toBe(200);
    const [line] = await linesOf(ts);
    expect(line).toMatchObject({ status: 'verified', payable: true });
    const paid = await call(t.app, admin, 'GET', `/api/timesheet_lines?payable=true&timesheet_id=${ts}`);
    expect(paid.json().data).toHaveLength(1);
    expect((await act(ts, 'lock', { locked_by: 'payroll' })).statusCode).toBe(200);
  });

  it('a staff member generates their line, enters their times and the manager signs on the phone', async () => {
    const day = addDaysToDate(monday(25), 2);
    const shift = await workedShift(at(day, '07:00'), at(day, '15:00'));
    const g = await generate({ shift_ids: [shift] }, staff);
    expect(g.statusCode, g.body).toBe(200);
    const [lineId] = g.json().data.line_ids;
    const mine = await call(t.app, staff, 'GET', '/api/timesheet_lines');
    expect(mine.statusCode).toBe(200);
    const row = mine.json().data.find((l: any) => l.id === lineId);
    expect(row.pay).toBeGreaterThan(0);
    expect(row).not.toHaveProperty('charge');
    const times = await lineAct(
      lineId,
      'record_times',
      { actual_start: at(day, '07:00'), actual_end: at(day, '15:30'), break_minutes: 30 },
      staff,
    );
    expect(times.statusCode, times.body).toBe(200);
    // The client's approver signs with their own PIN (issue 29.1: tests/api/timesheets-phone.test.ts).
    const approver = (
      await call(t.app, client, 'POST', '/api/timesheet_approvers', { client_id: clientId, name: 'Ward Manager' })
    ).json().data.id;
    await call(t.app, client, 'POST', `/api/timesheet_approvers/${approver}/actions/set_pin`, { pin: '864200' });
    const signed = await lineAct(lineId, 'sign', { approver_id: approver, pin: '864200', signature: PNG }, staff);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().data.status).toBe('signed');
    // The timesheet is still a draft (it may take more lines); sent with every line signed, it is signed at once,
    // with no link to e-mail.
    const ts = g.json().data.timesheets[0];
    expect((await get(ts)).status).toBe('draft');
    const sent = await act(ts, 'submit');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.status).toBe('signed');
    const links = await t.db.query(`select 1 from capability_links where resource = 'timesheets' and record_id = $1`, [
      ts,
    ]);
    expect(links).toHaveLength(0);
    // Not another staff member's line, nor the agency's actions.
    expect(
      (
        await lineAct(
          lineId,
          'amend',
          { actual_start: at(day, '07:00'), actual_end: at(day, '15:00'), note: 'x' },
          staff,
        )
      ).statusCode,
    ).toBe(403);
    expect((await call(t.app, staff, 'GET', '/api/timesheets')).statusCode).toBe(403);
  });
});

describe('lines added by hand', () => {
  it('a worked shift as booked needs no note; other times, or no shift, are an amendment and need one', async () => {
    const week = monday(27);
    await workedShift(at(week, '08:00'), at(week, '16:00'));
    const ts = (await generate({ week_start: week })).json().data.timesheets[0];
    const day = addDaysToDate(week, 1);
    const late = await workedShift(at(day, '08:00'), at(day, '16:00'));
    const add = (body: Record<string, unknown>) =>
      call(t.app, admin, 'POST', '/api/timesheet_lines', {
        timesheet_id: ts,
        candidate_id: staffId,
        site_id: siteId,
        job_role_id: roleId,
        ...body,
      });
    const otherTimes = await add({ shift_id: late, actual_start: at(day, '08:00'), actual_end: at(day, '18:00') });
    expect(otherTimes.statusCode).toBe(422);
    expect(otherTimes.json().errors.amendment_note).toMatch(/note/);
    const noShift = await add({ actual_start: at(day, '18:00'), actual_end: at(day, '20:00') });
    expect(noShift.statusCode).toBe(422);
    expect(noShift.json().errors.amendment_note).toMatch(/note/);
    const asBooked = await add({ shift_id: late });
    expect(asBooked.statusCode, asBooked.body).toBe(201);
    expect(asBooked.json().data).toMatchObject({ actual_start: at(day, '08:00'), actual_end: at(day, '16:00') });
    expect(asBooked.json().data.charge).toBeGreaterThan(0);
    // A line as booked is no amendment: the revision a signing link is bound to does not move.
    expect(await get(ts)).toMatchObject({ line_count: 2, revision: 0 });
  });
});

describe('on the clock: an expired signing link, and reminders', () => {
  let tsId: number;
  let sentAt: number;
  beforeAll(async () => {
    const week = monday(30);
    await workedShift(at(week, '08:00'), at(week, '16:00'));
    tsId = (await generate({ week_start: week })).json().data.timesheets[0];
    // The client's links work for 2 days, not 7.
    const put = await call(t.app, admin, 'PUT', `/api/clients/${clientId}`, { timesheet_link_days: 2 });
    expect(put.statusCode, put.body).toBe(200);
    sentAt = Date.now();
    expect((await act(tsId, 'submit')).json().data.status).toBe('submitted');
    await call(t.app, admin, 'PUT', `/api/clients/${clientId}`, { timesheet_link_days: 7 });
  });
  /** The server as it will be `days` after the timesheet was sent. */
  const later = (days: number) => t.extraApp({ now: new Date(sentAt + days * 86_400_000) });

  it('a link used after its days answers 410 in words, reading and signing; before them it works', async () => {
    const token = await signingToken(tsId);
    const tomorrow = await later(1);
    expect((await tomorrow.inject({ method: 'GET', url: `/api/capability/${token}` })).statusCode).toBe(200);
    const expired = await later(2.01);
    const view = await expired.inject({ method: 'GET', url: `/api/capability/${token}` });
    expect(view.statusCode).toBe(410);
    expect(view.json().message).toMatch(/expired/);
    const sign = await expired.inject({
      method: 'POST',
      url: `/api/capability/${token}/actions/approve`,
      payload: { signer_name: 'Late Manager', signature: PNG },
    });
    expect(sign.statusCode).toBe(410);
    expect((await get(tsId)).status).toBe('submitted');
  });

  it('an unsigned timesheet is reminded after the client’s days, once, then again after as many', async () => {
    const remindedAt = async () => (await get(tsId)).reminded_at as string | null;
    const reminders = async () =>
      (
        await t.db.query<{ n: number }>(
          `select count(*)::int as n from notifications where event = 'timesheet.reminder' and client_id = $1 and body like $2`,
          [clientId, `%${(await get(tsId)).number}%`],
        )
      )[0].n;
    const at = (days: number) => new Date(sentAt + days * 86_400_000);
    await remindUnsignedTimesheets(t.db, new JobEngine(t.app), at(2.9));
    expect(await remindedAt()).toBeNull();
    await remindUnsignedTimesheets(t.db, new JobEngine(t.app), at(3.01));
    expect(await remindedAt()).toBe(at(3.01).toISOString());
    expect(await reminders()).toBe(1);
    const [entry] = await t.db.query<any>(
      `select user_name, input from audit_log where resource = 'timesheets' and record_id = $1 and event = 'update'`,
      [tsId],
    );
    expect(entry).toMatchObject({ user_name: 'system', input: { reason: 'Reminder sent' } });
    // The link e-mailed with the submission expired after 2 days: the reminder e-mails the approver a new one, which
    // works, and the old one no longer does.
    const mails = await t.db.query<any>(
      `select subject, secret_ref from email_outbox where event in ('timesheet.submitted', 'timesheet.reminder')
          and secret_kind = 'timesheet.sign' and subject like $1 order by id`,
      [`%${(await get(tsId)).number}%`],
    );
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Timesheet TS-\d+ to sign$/),
      expect.stringMatching(/^Reminder: timesheet TS-\d+ to sign$/),
    ]);
    expect(await issueLinkToken(t.db, mails[0].secret_ref, at(3.01))).toBeNull();
    const fresh = await issueLinkToken(t.db, mails[1].secret_ref, at(3.01));
    expect(fresh).toEqual(expect.any(String));
    const opened = await (await later(3.02)).inject({ method: 'GET', url: `/api/capability/${fresh}` });
    expect(opened.statusCode, opened.body).toBe(200);
    // Not again before as many days have passed since the reminder.
    await remindUnsignedTimesheets(t.db, new JobEngine(t.app), at(5));
    expect(await reminders()).toBe(1);
    await remindUnsignedTimesheets(t.db, new JobEngine(t.app), at(6.02));
    expect(await remindedAt()).toBe(at(6.02).toISOString());
    expect(await reminders()).toBe(2);
    // Signed: no more reminders.
    expect((await act(tsId, 'approve', { signer_name: 'Jo Client', signature: PNG }, client)).statusCode).toBe(200);
    await remindUnsignedTimesheets(t.db, new JobEngine(t.app), at(9.1));
    expect(await reminders()).toBe(2);
  });
});

describe('bulk submit (issue 31.4: set-based)', () => {
  it('checks every timesheet’s lines in one pass, names each one refused and writes none; then submits', async () => {
    const week = monday(47);
    await workedShift(at(week, '02:00'), at(week, '05:00'));
    const generated = await generate({ week_start: week });
    expect(generated.statusCode, generated.body).toBe(200);
    const [full] = generated.json().data.timesheets as number[];
    // A timesheet with no lines (the server's own, through the engine): nothing for the client to sign.
    const empty = await t.db.transaction(async (tx) => {
      const ctx = await systemContext(t.app, tx, ids.merchantId);
      const row = await ctx.engine.create('timesheets', {
        client_id: clientId,
        period_start: addDaysToDate(week, 7),
        period_end: addDaysToDate(week, 13),
      });
      return { id: Number(row.id), number: String(row.number) };
    });
    const bulk = (name: string, ids: number[]) =>
      call(t.app, admin, 'POST', `/api/timesheets/actions/${name}`, { ids });
    const refused = await bulk('submit', [full, empty.id]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `1 of the 2 selected timesheets cannot be changed, so nothing was changed. ${empty.number}: This timesheet has no lines to sign.`,
    );
    expect((await get(full)).status).toBe('draft');
    const submitted = await bulk('submit', [full]);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect((await get(full)).status).toBe('submitted');
  });
});
