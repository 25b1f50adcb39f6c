import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';
import { fireDueReminders } from '../../server/notifications/diaryReminders';

// Diary notes: the note count of the profile menu, the list's tabs (whole days on the agency's clock), "mine",
// the reminder rule, and reminders becoming notifications exactly once.
const TZ = 'Europe/London';
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
let today: string;
const userIds: Record<string, number> = {};
let n = 0;
const uid = () => `${Date.now().toString(36)}${++n}`;

/** An instant on the agency's wall clock, `days` from today. */
const at = (days: number, time: string) => zonedDateTimeToInstant(addDaysToDate(today, days), time, TZ).toISOString();

async function note(token: string, body: Record<string, unknown>) {
  const res = await call(t.app, token, 'POST', '/api/diary_notes', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}
const count = async (token: string) => {
  const res = await call(t.app, token, 'GET', '/api/get_note_count');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const titles = async (token: string, query: string) => {
  const res = await call(t.app, token, 'GET', `/api/diary_notes?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json()
    .data.map((r: { title: string }) => r.title)
    .sort();
};
/** The notifications addressed to one user with this title. */
const notificationsOf = (userId: number, title: string) =>
  t.db.query<{ id: number; body: string; link: string }>(
    'select id, body, link from notifications where user_id = $1 and title = $2',
    [userId, title],
  );

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  [admin, consultant, client, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  for (const email of ['admin@demo.test', 'consultant@demo.test', 'admin@other.test']) {
    userIds[email] = (await t.db.query<{ id: number }>('select id from users where email = $1', [email]))[0].id;
  }
  today = agencyToday(TZ);
});
afterAll(() => t?.close());

// First, before the other tests add notes of their own.
describe('the demo diary', () => {
  it('has notes for today and the coming week, some about staff and clients, some with reminders', async () => {
    const [demo] = await t.db.query<{ today: number; week: number; staff: number; clients: number; reminders: number }>(
      `select count(*) filter (where note_at >= $1 and note_at < $2)::int as today,
              count(*) filter (where note_at >= $2 and note_at < $3)::int as week,
              count(candidate_id)::int as staff, count(client_id)::int as clients, count(remind_at)::int as reminders
         from diary_notes n join merchants m on m.id = n.merchant_id
        where m.company_name = 'Brightway Staffing'`,
      [at(0, '00:00'), at(1, '00:00'), at(7, '00:00')],
    );
    expect(demo.today).toBeGreaterThanOrEqual(3);
    expect(demo.week).toBeGreaterThanOrEqual(5);
    expect(demo.staff).toBeGreaterThan(0);
    expect(demo.clients).toBeGreaterThan(0);
    expect(demo.reminders).toBeGreaterThan(0);
  });
});

describe('GET /api/get_note_count', () => {
  it("counts the caller's own notes of today on the agency's clock, nothing else", async () => {
    const before = (await count(admin)).count;
    const beforeConsultant = (await count(consultant)).count;
    // 00:30 and 23:30 are today in London even when they are yesterday or tomorrow in UTC.
    await note(admin, { title: `Early ${uid()}`, note_at: at(0, '00:30') });
    await note(admin, { title: `Late ${uid()}`, note_at: at(0, '23:30') });
    await note(admin, { title: `Tomorrow ${uid()}`, note_at: at(1, '00:30') });
    await note(admin, { title: `Yesterday ${uid()}`, note_at: at(-1, '23:30') });
    await note(consultant, { title: `Consultant's ${uid()}`, note_at: at(0, '12:00') });
    const deleted = await note(admin, { title: `Deleted ${uid()}`, note_at: at(0, '12:00') });
    expect((await call(t.app, admin, 'DELETE', `/api/diary_notes/${deleted.id}`)).statusCode).toBe(200);
    await note(otherAdmin, { title: `Other agency ${uid()}`, note_at: at(0, '12:00') });

    expect(await count(admin)).toEqual({ count: before + 2 });
    expect(await count(consultant)).toEqual({ count: beforeConsultant + 1 });
  });

  it('agrees with the Today tab filtered to my notes', async () => {
    const res = await call(t.app, admin, 'GET', '/api/diary_notes?tab=today&user_id=me&per_page=1');
    expect(res.json().total_count).toBe((await count(admin)).count);
  });

  it('is for agency users: a client user is refused, an anonymous caller must sign in', async () => {
    expect((await call(t.app, client, 'GET', '/api/get_note_count')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/get_note_count')).statusCode).toBe(401);
  });
});

describe('the diary list', () => {
  it('splits whole days into the tabs: today, upcoming (after today), past (before today)', async () => {
    const tag = uid();
    await note(admin, { title: `${tag} yesterday`, note_at: at(-1, '23:59') });
    await note(admin, { title: `${tag} today early`, note_at: at(0, '00:00') });
    await note(admin, { title: `${tag} today late`, note_at: at(0, '23:59') });
    await note(admin, { title: `${tag} next week`, note_at: at(7, '09:00') });
    await note(admin, { title: `${tag} tomorrow`, note_at: at(1, '00:00') });
    expect(await titles(admin, `tab=today&q=${tag}`)).toEqual([`${tag} today early`, `${tag} today late`]);
    expect(await titles(admin, `tab=upcoming&q=${tag}`)).toEqual([`${tag} next week`, `${tag} tomorrow`]);
    expect(await titles(admin, `tab=past&q=${tag}`)).toEqual([`${tag} yesterday`]);
  });

  it("shows everyone's notes, and only mine with user_id=me", async () => {
    const tag = uid();
    await note(admin, { title: `${tag} admin's`, note_at: at(2, '10:00') });
    await note(consultant, { title: `${tag} consultant's`, note_at: at(2, '11:00') });
    expect(await titles(consultant, `q=${tag}`)).toEqual([`${tag} admin's`, `${tag} consultant's`]);
    expect(await titles(consultant, `q=${tag}&user_id=me`)).toEqual([`${tag} consultant's`]);
    expect(await titles(admin, `q=${tag}&user_id=me`)).toEqual([`${tag} admin's`]);
  });

  it("records the writer from the session, whatever the body says, and 'me' only on fields that hold users", async () => {
    const created = await note(consultant, {
      title: `Writer ${uid()}`,
      note_at: at(1, '10:00'),
      user_id: userIds['admin@demo.test'],
      owner_name: 'Someone else',
    });
    expect(created).toMatchObject({ user_id: userIds['consultant@demo.test'], owner_name: 'Sam Patel' });
    expect((await call(t.app, admin, 'GET', '/api/diary_notes?candidate_id=me')).statusCode).toBe(400);
  });

  it('refuses a reminder after the note, and a note without a title or time, naming the fields', async () => {
    const late = await call(t.app, admin, 'POST', '/api/diary_notes', {
      title: `Late reminder ${uid()}`,
      note_at: at(1, '10:00'),
      remind_at: at(1, '10:01'),
    });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors).toEqual({ remind_at: 'The reminder must be at or before the note’s time' });
    const empty = await call(t.app, admin, 'POST', '/api/diary_notes', { title: '  ' });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors).sort()).toEqual(['note_at', 'title']);
  });

  it('refuses a staff member or client of another agency (they do not exist for the caller)', async () => {
    const [{ id: theirClient }] = await t.db.query<{ id: number }>(
      `select c.id from clients c join merchants m on m.id = c.merchant_id where m.company_name = 'Northern Care Recruitment' limit 1`,
    );
    const res = await call(t.app, admin, 'POST', '/api/diary_notes', {
      title: `Foreign ${uid()}`,
      note_at: at(1, '10:00'),
      client_id: theirClient,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['client_id']);
  });

  it('lists the notes about one staff member or client (their profiles show them)', async () => {
    const [{ id: clientId }] = await t.db.query<{ id: number }>(
      `select id from clients where name = 'Meadowbank Care Home'`,
    );
    const tag = uid();
    await note(admin, { title: `${tag} about the client`, note_at: at(3, '10:00'), client_id: clientId });
    await note(admin, { title: `${tag} general`, note_at: at(3, '11:00') });
    expect(await titles(admin, `q=${tag}&client_id=${clientId}`)).toEqual([`${tag} about the client`]);
  });
});

describe('reminders', () => {
  it('become one notification to the writer when due, never twice', async () => {
    const title = `Reminder test ${uid()}`;
    const created = await note(consultant, {
      title,
      note_at: at(1, '09:00'),
      remind_at: new Date(Date.now() - 1000).toISOString(),
    });
    const notYetDue = await note(consultant, {
      title: `${title} later`,
      note_at: at(1, '09:00'),
      remind_at: at(1, '08:00'),
    });

    expect(await fireDueReminders(t.db)).toBeGreaterThanOrEqual(1);
    expect(await fireDueReminders(t.db)).toBe(0);
    const sent = await notificationsOf(userIds['consultant@demo.test'], `Reminder: ${title}`);
    expect(sent).toHaveLength(1);
    expect(sent[0].link).toBe(`/dairy_notes/${created.id}/show`);
    expect(await notificationsOf(userIds['admin@demo.test'], `Reminder: ${title}`)).toHaveLength(0);
    expect(await notificationsOf(userIds['consultant@demo.test'], `Reminder: ${title} later`)).toHaveLength(0);
    const stored = (await call(t.app, consultant, 'GET', `/api/diary_notes/${created.id}`)).json().data;
    expect(stored.reminded_at).not.toBeNull();
    expect(
      (await call(t.app, consultant, 'GET', `/api/diary_notes/${notYetDue.id}`)).json().data.reminded_at,
    ).toBeNull();
  });

  it('fires once even when several workers run at the same moment', async () => {
    const title = `Concurrent ${uid()}`;
    await note(admin, { title, note_at: at(1, '09:00'), remind_at: new Date(Date.now() - 1000).toISOString() });
    await Promise.all([fireDueReminders(t.db), fireDueReminders(t.db), fireDueReminders(t.db)]);
    expect(await notificationsOf(userIds['admin@demo.test'], `Reminder: ${title}`)).toHaveLength(1);
  });

  it('fires again when the reminder is moved, not when other fields change', async () => {
    const title = `Moved ${uid()}`;
    const created = await note(admin, {
      title,
      note_at: at(2, '09:00'),
      remind_at: new Date(Date.now() - 60_000).toISOString(),
    });
    await fireDueReminders(t.db);
    const edited = await call(t.app, admin, 'PUT', `/api/diary_notes/${created.id}`, { body: 'More detail' });
    expect(edited.json().data.reminded_at).not.toBeNull();
    await fireDueReminders(t.db);
    expect(await notificationsOf(userIds['admin@demo.test'], `Reminder: ${title}`)).toHaveLength(1);
    const moved = await call(t.app, admin, 'PUT', `/api/diary_notes/${created.id}`, {
      remind_at: new Date(Date.now() - 1000).toISOString(),
    });
    expect(moved.json().data.reminded_at).toBeNull();
    await fireDueReminders(t.db);
    expect(await notificationsOf(userIds['admin@demo.test'], `Reminder: ${title}`)).toHaveLength(2);
  });

  it('does not remind about a deleted note', async () => {
    const title = `Deleted reminder ${uid()}`;
    const created = await note(admin, {
      title,
      note_at: at(1, '09:00'),
      remind_at: new Date(Date.now() - 1000).toISOString(),
    });
    await call(t.app, admin, 'DELETE', `/api/diary_notes/${created.id}`);
    await fireDueReminders(t.db);
    expect(await notificationsOf(userIds['admin@demo.test'], `Reminder: ${title}`)).toHaveLength(0);
  });
});
