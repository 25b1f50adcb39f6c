import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { fixtureWrite } from './auditCheck';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { formatPounds } from '../../core/engine/money';
import { pdfTextOf } from '../pdfText';
import { letterheadOf } from '../../server/notifications/notify';
import { at, demoIds, monday, timesheetKit, type DemoIds } from './timesheetKit';

// Issue 31.5: a record's document from its declaration (GET /api/{resource}/{id}/pdf?template=…), read back as text
// for each principal: only what each may read; kept as issued once locked, whatever the agency changes later.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let client2: string;
let staff: string;
let ids: DemoIds;

const NAMES = [
  ['Łukasz', 'Kowalczyk'],
  ['Zoë', 'Fairbairn'],
  ['Siobhán', 'Ó Briain'],
  ['Thị Lan', 'Nguyễn'],
  ['Kari', 'Ødegaard'],
];
// PNG of 1 × 1: a logo the PDF embeds.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, client, client2, staff] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'client2'),
    loginAs(t.app, 'staff'),
  ]);
  ids = await demoIds(t);
});
afterAll(async () => {
  await t?.close();
});

const { workedShift, generate, act, get, linesOf } = timesheetKit(() => ({ t, admin, ids }));

const pdfOf = (id: number, token: string, query = '') => call(t.app, token, 'GET', `/api/timesheets/${id}/pdf${query}`);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A timesheet of client A over `weeksBack`'s week: one worked day for each of the five named staff members. */
async function timesheetOfNames(weeksBack: number): Promise<number> {
  const week = monday(weeksBack);
  for (const [i, [first, last]] of NAMES.entries()) {
    const made = await call(t.app, admin, 'POST', '/api/candidates', {
      first_name: first,
      last_name: last,
      email: `doc.${weeksBack}.${i}@example.test`,
    });
    expect(made.statusCode, made.body).toBe(201);
    const day = addDaysToDate(week, i);
    await workedShift(at(day, '08:00'), at(day, '16:00'), made.json().data.id);
  }
  const res = await generate({ week_start: week });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.timesheets).toHaveLength(1);
  return res.json().data.timesheets[0];
}

/** Verified by the agency line by line, then locked: the transition that issues the timesheet's document. */
async function lock(id: number) {
  const lines = await linesOf(id);
  const verified = await act(id, 'verify', { all_lines: lines.length, reason: 'Checked against the site register' });
  expect(verified.statusCode, verified.body).toBe(200);
  const locked = await act(id, 'lock');
  expect(locked.statusCode, locked.body).toBe(200);
}

describe('GET /api/timesheets/{id}/pdf (a declared document)', () => {
  let draft: number;
  beforeAll(async () => {
    draft = await timesheetOfNames(40);
  });

  it("draws what each reader may read: pay for the agency's users, never for the client's; every name as typed", async () => {
    const ts = await get(draft);
    expect(ts.pay).toBeGreaterThan(0);
    const agency = await pdfOf(draft, admin);
    expect(agency.statusCode, agency.body).toBe(200);
    expect(agency.headers['content-type']).toContain('application/pdf');
    expect(agency.headers['content-disposition']).toBe(`attachment; filename="timesheet-${ts.number}.pdf"`);
    const agencyText = pdfTextOf(agency.rawPayload);
    const clientText = pdfTextOf((await pdfOf(draft, client)).rawPayload);
    for (const text of [agencyText, clientText]) {
      expect(text).toContain(`Timesheet ${ts.number}`);
      for (const [first, last] of NAMES) expect(text).toContain(`${first} ${last}`);
      expect(text).toContain(`charge ${formatPounds(ts.charge)}`);
      expect(text).not.toContain('Margin');
    }
    expect(agencyText.split('\n')).toContain('Pay');
    expect(agencyText).toContain(`pay ${formatPounds(ts.pay)}`);
    expect(clientText.split('\n')).not.toContain('Pay');
    expect(clientText).not.toContain(formatPounds(ts.pay));
    expect(clientText).not.toMatch(/\bpay\b/i);
  });

  it("answers a row outside the reader's scope 404, a staff member 403, an unknown template 400, each in words", async () => {
    const other = await call(t.app, client2, 'GET', `/api/timesheets/${draft}/pdf`);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Timesheet not found.');
    expect((await pdfOf(999999, admin)).statusCode).toBe(404);
    const staffs = await pdfOf(draft, staff);
    expect(staffs.statusCode).toBe(403);
    expect(staffs.json().message).toMatch(/permission/);
    const unknown = await pdfOf(draft, admin, '?template=invoice2');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Timesheets have no document called "invoice2". Ask for one of: timesheet.');
    expect((await pdfOf(draft, admin, '?template=timesheet')).statusCode).toBe(200);
  });

  it('keeps the document as locked: rendered at the lock, served as kept after the logo, name and contacts change', async () => {
    const id = await timesheetOfNames(41);
    // Before the lock nothing is kept: the draft is drawn as it is now.
    expect(await t.db.query('select 1 from issued_documents where record_id = $1', [id])).toHaveLength(0);
    await lock(id);
    const kept = await t.db.query<{ role: string; sha256: string; file_id: string; template: string }>(
      `select role, sha256, file_id::text, template from issued_documents where resource = 'timesheets' and record_id = $1 order by role`,
      [id],
    );
    // One copy for the agency's roles (with pay), one for the client's (without).
    expect(kept.map((k) => k.role)).toEqual(['admin', 'consultant', 'manager', 'viewer']);
    expect(kept.every((k) => k.template === 'timesheet')).toBe(true);
    expect(kept[0].file_id).toBe(kept[1].file_id);
    expect(kept[2].file_id).toBe(kept[3].file_id);
    expect(kept[0].file_id).not.toBe(kept[2].file_id);

    const before = { admin: await pdfOf(id, admin), client: await pdfOf(id, client) };
    expect(before.admin.headers.etag).toBe(`"${kept[0].sha256}"`);
    expect(sha256(before.admin.rawPayload)).toBe(kept[0].sha256);
    expect(sha256(before.client.rawPayload)).toBe(kept[2].sha256);
    expect(sha256((await pdfOf(id, consultant)).rawPayload)).toBe(kept[0].sha256);
    expect(pdfTextOf(before.admin.rawPayload).split('\n')).toContain('Pay');
    expect(pdfTextOf(before.client.rawPayload).split('\n')).not.toContain('Pay');
    // The stored file is nobody's download by its id: the copy with pay never reaches a client that way.
    for (const token of [admin, client])
      expect((await call(t.app, token, 'GET', `/api/files/${kept[0].file_id}`)).statusCode).toBe(404);

    const logo = await t.app.inject({
      method: 'POST',
      url: '/api/files?kind=image',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/octet-stream', 'x-file-name': 'l.png' },
      payload: PNG,
    });
    expect(logo.statusCode, logo.body).toBe(201);
    const changed = await call(t.app, admin, 'PUT', `/api/merchants/${ids.merchantId}`, {
      company_name: 'Renamed Staffing Ltd',
      profile_photo: logo.json().data.id,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // The letterhead's contact line (no screen edits it yet): the agency moved.
    await fixtureWrite(
      t.db,
      `update merchants set email = 'office@renamed.example', phone = '+44 20 7946 0000' where id = $1`,
      [ids.merchantId],
    );
    // A document drawn now shows the change; the locked one stays as it was.
    expect(pdfTextOf((await pdfOf(draft, admin)).rawPayload)).toContain('Renamed Staffing Ltd');
    expect(pdfTextOf((await pdfOf(draft, admin)).rawPayload)).toContain('office@renamed.example');
    const after = { admin: await pdfOf(id, admin), client: await pdfOf(id, client) };
    expect(after.admin.rawPayload.equals(before.admin.rawPayload)).toBe(true);
    expect(after.client.rawPayload.equals(before.client.rawPayload)).toBe(true);
    expect(pdfTextOf(after.admin.rawPayload)).not.toContain('Renamed Staffing Ltd');
    for (const [first, last] of NAMES) expect(pdfTextOf(after.client.rawPayload)).toContain(`${first} ${last}`);
  });

  it("a bulk lock keeps each timesheet's copies, in the one transaction", async () => {
    const ids2 = [await timesheetOfNames(43), await timesheetOfNames(44)];
    for (const id of ids2) {
      const lines = await linesOf(id);
      const verified = await act(id, 'verify', { all_lines: lines.length, reason: 'Checked against the register' });
      expect(verified.statusCode, verified.body).toBe(200);
    }
    const locked = await call(t.app, admin, 'POST', '/api/timesheets/actions/lock', { ids: ids2 });
    expect(locked.statusCode, locked.body).toBe(200);
    const kept = await t.db.query<{ record_id: number; copies: number }>(
      `select record_id, count(distinct file_id)::int as copies from issued_documents
        where resource = 'timesheets' and record_id = any($1::int[]) group by record_id order by record_id`,
      [ids2],
    );
    expect(kept).toEqual(ids2.map((record_id) => ({ record_id, copies: 2 })));
    for (const id of ids2) {
      const text = pdfTextOf((await pdfOf(id, client)).rawPayload);
      expect(text).toContain(`Timesheet ${(await get(id)).number}`);
    }
  });

  it('a refused lock keeps nothing; a timesheet locked before documents were kept is kept at its first print', async () => {
    const id = await timesheetOfNames(42);
    // Its lines are neither signed nor verified: the lock is refused, and nothing is kept.
    expect((await act(id, 'lock')).statusCode).toBe(409);
    expect(await t.db.query('select 1 from issued_documents where record_id = $1', [id])).toHaveLength(0);
    await fixtureWrite(t.db, `update timesheets set status = 'locked' where id = $1`, [id]);
    const first = await pdfOf(id, admin);
    expect(first.statusCode, first.body).toBe(200);
    const kept = await t.db.query<{ sha256: string }>(
      `select sha256 from issued_documents where resource = 'timesheets' and record_id = $1 and role = 'admin'`,
      [id],
    );
    expect(kept).toHaveLength(1);
    expect(sha256(first.rawPayload)).toBe(kept[0].sha256);
    expect((await pdfOf(id, admin)).rawPayload.equals(first.rawPayload)).toBe(true);
    // A kept copy cannot be changed, even by a statement.
    await expect(t.db.query(`update issued_documents set sha256 = 'x' where record_id = $1`, [id])).rejects.toThrow(
      /cannot be changed/,
    );
  });
});

describe('one letterhead', () => {
  it("the e-mails' letterhead shows the logo the shell shows: the agency's own before an old agency_logos row", async () => {
    const [{ id: other }] = await fixtureWrite<{ id: number }>(
      t.db,
      `insert into merchants (company_name, profile_photo) values ('Letterhead Test Ltd', '/demo/new-logo.svg') returning id`,
    );
    await fixtureWrite(
      t.db,
      `insert into agency_logos (merchant_id, logo_type, logo_url) values ($1, 'agency_logo', '/demo/old-logo.svg')`,
      [other],
    );
    expect((await letterheadOf(t.db, other)).logoUrl).toBe('/demo/new-logo.svg');
    expect((await letterheadOf(t.db, ids.merchantId)).logoUrl).toBe(
      (await call(t.app, admin, 'GET', `/api/merchants/${ids.merchantId}`)).json().data.profile_photo,
    );
  });
});
