import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKind, loginAs, makeTestApp, type TestApp } from './helpers';
import { fixtureWrite } from './auditCheck';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';
import { issueLinkToken } from '../../server/engine/capability';
import { pngDataUrl } from '../fixtures/png';

// Issue 29 (points 4, 5, 10, 16, 19, 20, 21): timesheets a client, a worker and a coordinator can trust. Shifts are
// made in weeks long past (monday(n)), booked directly: booking is not what this tests.
const TZ = 'Europe/London';
const PNG = pngDataUrl(600, 160);
let t: TestApp;
let admin: string;
let client: string;
let staff: string;
let clientId: number;
let staffId: number;
let siteId: number;
let roleId: number;
const at = (date: string, time: string) => zonedDateTimeToInstant(date, time, TZ).toISOString();
const monday = (weeksBack: number) => addDaysToDate(startOfWeekMonday(agencyToday(TZ)), -7 * weeksBack);

beforeAll(async () => {
  t = await makeTestApp({ candidates: 6 });
  [admin, client, staff] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'staff'),
  ]);
  const [u] = await t.db.query<any>(`select merchant_id, client_id from users where email = 'client@demo.test'`);
  clientId = u.client_id;
  const [s] = await t.db.query<any>(`select candidate_id from users where email = 'staff@demo.test'`);
  staffId = s.candidate_id;
  const [site] = await t.db.query<any>(
    'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [u.merchant_id, clientId],
  );
  siteId = site.id;
  const [card] = await t.db.query<any>(
    'select job_role_id from rate_cards where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [u.merchant_id, clientId],
  );
  roleId = card.job_role_id;
});
afterAll(async () => {
  await t?.close();
});

/** A worked shift of the client for a staff member (the demo's own by default), booked directly. */
async function workedShift(start: string, end: string, candidateId = staffId): Promise<number> {
  const res = await call(t.app, admin, 'POST', '/api/shifts', {
    client_id: clientId,
    site_id: siteId,
    job_role_id: roleId,
    start_at: start,
    end_at: end,
    break_minutes: 30,
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as number;
  await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = $2`, [candidateId, id]);
  return id;
}

const generate = (body: unknown, token = admin) => call(t.app, token, 'POST', '/api/timesheets/actions/generate', body);
const act = (id: number, name: string, body: unknown = {}, token = admin) =>
  call(t.app, token, 'POST', `/api/timesheets/${id}/actions/${name}`, body);
const lineAct = (id: number, name: string, body: unknown = {}, token = admin) =>
  call(t.app, token, 'POST', `/api/timesheet_lines/${id}/actions/${name}`, body);
const get = async (id: number, token = admin) => (await call(t.app, token, 'GET', `/api/timesheets/${id}`)).json().data;
const linesOf = async (id: number, token = admin) =>
  (await call(t.app, token, 'GET', `/api/timesheet_lines?timesheet_id=${id}&per_page=100`)).json().data as any[];
/** The newest signing link's token, as the outbox worker would put it in the e-mail. */
async function signingToken(timesheetId: number): Promise<string> {
  const [link] = await t.db.query<any>(
    `select id from capability_links where resource = 'timesheets' and record_id = $1 order by id desc limit 1`,
    [timesheetId],
  );
  return (await issueLinkToken(t.db, link.id))!;
}
const byLink = (token: string, body: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/capability/${token}/actions/approve`, payload: body as any });

/** A week's timesheet with `days` day shifts of the staff member (08:00–16:00, 30 min break), generated. */
async function weekWith(weeksBack: number, days: number[]): Promise<{ id: number; lines: number[] }> {
  const week = monday(weeksBack);
  for (const d of days) await workedShift(at(addDaysToDate(week, d), '08:00'), at(addDaysToDate(week, d), '16:00'));
  const res = await generate({ week_start: week });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().data.timesheets[0], lines: res.json().data.line_ids };
}

describe('29.19 a signature larger than a pad draws is refused in words', () => {
  const huge = pngDataUrl(6000, 6000);
  const words = /6000 × 6000 pixels; a signature is at most 2000 × 1000/;

  it('in the panel, by the link and on the phone; nothing is kept', async () => {
    // 64 kB: under the length limit, so only the image's own size refuses it.
    expect(huge.length).toBeLessThan(200_000);
    const ts = await weekWith(40, [0, 1]);
    expect((await act(ts.id, 'submit')).statusCode).toBe(200);
    const panel = await act(ts.id, 'approve', { signer_name: 'Jo Client', signature: huge }, client);
    expect(panel.statusCode).toBe(422);
    expect(panel.json().errors.signature).toMatch(words);
    const link = await byLink(await signingToken(ts.id), { signer_name: 'Jo Client', signature: huge });
    expect(link.statusCode).toBe(422);
    expect(link.json().errors.signature).toMatch(words);
    const phone = await lineAct(ts.lines[0], 'sign', { signer_name: 'Ward Manager', signature: huge }, staff);
    expect(phone.statusCode).toBe(422);
    const [{ n }] = await t.db.query<any>(
      'select count(*)::int as n from timesheet_signatures where timesheet_id = $1',
      [ts.id],
    );
    expect(n).toBe(0);
    // The largest a pad draws is kept.
    const ok = await act(ts.id, 'approve', { signer_name: 'Jo Client', signature: pngDataUrl(2000, 1000) }, client);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('29.21 and 29.16: what people read', () => {
  it('a locked timesheet refuses a change in one clear sentence', async () => {
    const ts = await weekWith(41, [0]);
    expect((await act(ts.id, 'verify', { reason: 'Signing-in sheet checked' })).statusCode).toBe(200);
    expect((await act(ts.id, 'lock', { locked_by: 'invoice' })).statusCode).toBe(200);
    const put = await call(t.app, admin, 'PUT', `/api/timesheets/${ts.id}`, { notes: 'x' });
    expect(put.statusCode).toBe(409);
    expect(put.json().message).toBe('This timesheet is locked: it can no longer be changed.');
  });

  it('the "Timesheet to sign" e-mail to client users opens their panel’s review of that timesheet', async () => {
    const ts = await weekWith(42, [0]);
    expect((await act(ts.id, 'submit')).statusCode).toBe(200);
    const mails = await t.db.query<any>(
      `select recipient, text from email_outbox where event = 'timesheet.submitted' and secret_kind is null
          and subject like '%Timesheet to sign%' and recipient = 'client@demo.test' order by id desc limit 1`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`/client/signedTimesheet?id=${ts.id}`);
    expect(mails[0].text).not.toContain(`/timesheets/${ts.id}/show`);
    const [bell] = await t.db.query<any>(
      `select link from notifications where event = 'timesheet.submitted' and client_id = $1 order by id desc limit 1`,
      [clientId],
    );
    expect(bell.link).toBe(`/client/signedTimesheet?id=${ts.id}`);
  });
});

void dbKind;
