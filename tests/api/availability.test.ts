import type { FastifyInstance } from 'fastify';
import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../../core/domain/time/agencyTime';

// The availability week grid's API: a week per staff member from the engine's staff list, and copying a week.
let t: TestApp;
let app: FastifyInstance;
let admin: string;
let consultant: string;
let other: string;
let client: string;

// Far enough ahead that the demo's four weeks of availability never overlap it.
const WEEK = addDaysToDate(startOfWeekMonday(agencyToday('Europe/London')), 7 * 20);
const NEXT = addDaysToDate(WEEK, 7);

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40 });
  app = t.app;
  [admin, consultant, other, client] = await Promise.all([
    loginAs(app, 'admin'),
    loginAs(app, 'consultant'),
    loginAs(app, 'otherAdmin'),
    loginAs(app, 'client'),
  ]);
});
afterAll(() => t?.close());

const get = (url: string, token = admin) => call(app, token, 'GET', url);
const post = (url: string, body: unknown, token = admin) => call(app, token, 'POST', url, body);

async function newStaff(first: string, last: string, token = admin) {
  const [role] = await t.db.query<{ id: number }>(
    `select j.id from job_roles j join users u on u.merchant_id = j.merchant_id where u.email = 'admin@demo.test' order by j.id limit 1`,
  );
  const res = await post(
    '/api/candidates',
    { first_name: first, last_name: last, email: `${first}.${last}@avail.example`.toLowerCase(), job_role_id: role.id },
    token,
  );
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number };
}

describe('the week', () => {
  it('answers a row per staff member with seven days, Monday first, and the paging of the staff list', async () => {
    const res = await get(`/api/staff_availability?week_start=${WEEK}&per_page=10`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.week_start).toBe(WEEK);
    expect(body.dates).toHaveLength(7);
    expect(body.dates[0]).toBe(WEEK);
    expect(body.dates[6]).toBe(addDaysToDate(WEEK, 6));
    const staffList = (await get('/api/candidates?per_page=10')).json();
    expect(body).toMatchObject({
      total_count: staffList.total_count,
      total_pages: staffList.total_pages,
      current_page: 1,
      per_page: 10,
    });
    expect(body.data.map((r: any) => r.id)).toEqual(staffList.data.map((r: any) => r.id));
    for (const row of body.data) {
      expect(Object.keys(row).sort()).toEqual(['days', 'first_name', 'id', 'job_role_id', 'last_name']);
      expect(Object.keys(row.days)).toEqual(body.dates);
    }
  });

  it('defaults to this week in the agency time zone', async () => {
    const body = (await get('/api/staff_availability')).json();
    expect(body.week_start).toBe(startOfWeekMonday(agencyToday('Europe/London')));
    expect(body.per_page).toBe(25);
  });

  it('shows the days written through the engine routes, with id and version, and clears them on delete', async () => {
    const s = await newStaff('Wendy', 'Weekgrid');
    const created = await post('/api/availability', {
      candidate_id: s.id,
      date: addDaysToDate(WEEK, 2),
      status: 'night',
    });
    expect(created.statusCode).toBe(201);
    const a = created.json().data;
    let row = (await get(`/api/staff_availability?week_start=${WEEK}&q=weekgrid`)).json().data[0];
    expect(row.id).toBe(s.id);
    expect(row.days[addDaysToDate(WEEK, 2)]).toEqual({ id: a.id, status: 'night', version: a.version });
    expect(row.days[WEEK]).toBeNull();

    const changed = await call(app, admin, 'PUT', `/api/availability/${a.id}`, {
      status: 'long_day',
      version: a.version,
    });
    expect(changed.statusCode).toBe(200);
    const stale = await call(app, admin, 'PUT', `/api/availability/${a.id}`, { status: 'day', version: a.version });
    expect(stale.statusCode).toBe(409);
    row = (await get(`/api/staff_availability?week_start=${WEEK}&q=weekgrid`)).json().data[0];
    expect(row.days[addDaysToDate(WEEK, 2)]).toMatchObject({ status: 'long_day', version: a.version + 1 });

    // A second entry for the same day is refused; the grid changes the one it has.
    const dup = await post('/api/availability', { candidate_id: s.id, date: addDaysToDate(WEEK, 2), status: 'day' });
    expect(dup.statusCode).toBe(422);

    expect((await call(app, admin, 'DELETE', `/api/availability/${a.id}`)).statusCode).toBe(200);
    row = (await get(`/api/staff_availability?week_start=${WEEK}&q=weekgrid`)).json().data[0];
    expect(row.days[addDaysToDate(WEEK, 2)]).toBeNull();
  });

  it('filters staff by job role, status, activation and search, as the staff list does', async () => {
    const [role] = await t.db.query<{ id: number }>(`select job_role_id as id
      from candidates c join users u on u.merchant_id = c.merchant_id
      where u.email = 'admin@demo.test' and job_role_id is not null
      group by job_role_id
      order by count(*) desc limit 1`);
    const byRole = (await get(`/api/staff_availability?week_start=${WEEK}&job_role_id=${role.id}&per_page=100`)).json();
    expect(byRole.total_count).toBeGreaterThan(0);
    expect(byRole.data.every((r: any) => r.job_role_id === role.id)).toBe(true);
    expect(byRole.total_count).toBe((await get(`/api/candidates?job_role_id=${role.id}`)).json().total_count);

    const active = (await get(`/api/staff_availability?week_start=${WEEK}&status=approved&activated=true`)).json();
    expect(active.total_count).toBe((await get('/api/candidates?status=approved&activated=true')).json().total_count);

    const none = (await get(`/api/staff_availability?week_start=${WEEK}&q=nobody-is-called-this`)).json();
    expect(none).toMatchObject({ data: [], total_count: 0 });
  });

  it('refuses a week start that is not a date or not a Monday, naming the field', async () => {
    for (const bad of ['2026-02-30', 'next week', addDaysToDate(WEEK, 1)]) {
      const res = await get(`/api/staff_availability?week_start=${encodeURIComponent(bad)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toHaveProperty('week_start');
    }
    const copy = await post('/api/staff_availability/copy_week', { week_start: addDaysToDate(WEEK, 3) });
    expect(copy.statusCode).toBe(400);
    expect(copy.json().errors).toHaveProperty('week_start');
    expect((await get(`/api/staff_availability?week_start=${WEEK}&per_page=101`)).statusCode).toBe(400);
    expect((await get(`/api/staff_availability?week_start=${WEEK}&job_role_id=abc`)).statusCode).toBe(400);
  });
});

describe('copy week', () => {
  it('copies the week to the next, updating existing days and creating missing ones, audited', async () => {
    const s = await newStaff('Cora', 'Copyweek');
    const s2 = await newStaff('Otto', 'Copyweek');
    for (const [offset, status] of [
      [0, 'available'],
      [1, 'day'],
      [5, 'unavailable'],
    ] as const) {
      expect(
        (await post('/api/availability', { candidate_id: s.id, date: addDaysToDate(WEEK, offset), status })).statusCode,
      ).toBe(201);
    }
    await post('/api/availability', { candidate_id: s2.id, date: WEEK, status: 'night' });
    // Next Tuesday already set to something else: it is overwritten; next Wednesday (empty in the source) is kept.
    const tuesday = (
      await post('/api/availability', { candidate_id: s.id, date: addDaysToDate(NEXT, 1), status: 'night' })
    ).json().data;
    await post('/api/availability', { candidate_id: s.id, date: addDaysToDate(NEXT, 2), status: 'long_day' });

    const res = await post('/api/staff_availability/copy_week', { week_start: WEEK, candidate_ids: [s.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ copied: 3 });

    const row = (await get(`/api/staff_availability?week_start=${NEXT}&q=cora`)).json().data[0];
    expect(row.days[NEXT].status).toBe('available');
    expect(row.days[addDaysToDate(NEXT, 1)]).toMatchObject({
      id: tuesday.id,
      status: 'day',
      version: tuesday.version + 1,
    });
    expect(row.days[addDaysToDate(NEXT, 2)].status).toBe('long_day');
    expect(row.days[addDaysToDate(NEXT, 5)].status).toBe('unavailable');
    expect(row.days[addDaysToDate(NEXT, 6)]).toBeNull();
    // Only the staff asked for.
    const otto = (await get(`/api/staff_availability?week_start=${NEXT}&q=otto`)).json().data[0];
    expect(Object.values(otto.days).every((d) => d === null)).toBe(true);

    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where resource = 'availability' and record_id = $1 and event = 'update'`,
      [tuesday.id],
    );
    expect(n).toBe(1);

    // Without candidate_ids: every staff member with entries that week (Otto's Monday comes along).
    const all = await post('/api/staff_availability/copy_week', { week_start: WEEK }, consultant);
    expect(all.statusCode).toBe(200);
    expect(all.json().copied).toBeGreaterThanOrEqual(4);
    const otto2 = (await get(`/api/staff_availability?week_start=${NEXT}&q=otto`)).json().data[0];
    expect(otto2.days[NEXT].status).toBe('night');
  });

  it('copies nothing of another agency, even when its ids are named', async () => {
    const [foreign] = await t.db.query<{ id: number }>(
      `select c.id from candidates c join users u on u.merchant_id = c.merchant_id where u.email = 'admin@other.test' order by c.id limit 1`,
    );
    await fixtureWrite(
      t.db,
      `insert into availability (merchant_id, candidate_id, date, status) select merchant_id, id, $2, 'day' from candidates where id = $1`,
      [foreign.id, WEEK],
    );
    const res = await post('/api/staff_availability/copy_week', { week_start: WEEK, candidate_ids: [foreign.id] });
    expect(res.json()).toEqual({ copied: 0 });
    const [{ n }] = await t.db.query<{ n: number }>(
      'select count(*)::int as n from availability where candidate_id = $1 and date = $2',
      [foreign.id, NEXT],
    );
    expect(n).toBe(0);
  });
});

describe('access', () => {
  it("never lists another agency's staff", async () => {
    const theirs = (await get(`/api/staff_availability?week_start=${WEEK}&per_page=100`, other)).json();
    const ours = await t.db.query<{ id: number }>(
      `select c.id from candidates c join users u on u.merchant_id = c.merchant_id where u.email = 'admin@demo.test'`,
    );
    const ourIds = new Set(ours.map((r) => r.id));
    expect(theirs.total_count).toBeGreaterThan(0);
    expect(theirs.data.some((r: any) => ourIds.has(r.id))).toBe(false);
    const named = (await get(`/api/staff_availability?week_start=${WEEK}&q=copyweek`, other)).json();
    expect(named.total_count).toBe(0);
  });

  it('is for agency users: a client user gets 403, anonymous 401', async () => {
    expect((await get(`/api/staff_availability?week_start=${WEEK}`, client)).statusCode).toBe(403);
    expect((await post('/api/staff_availability/copy_week', { week_start: WEEK }, client)).statusCode).toBe(403);
    expect((await call(app, undefined, 'GET', '/api/staff_availability')).statusCode).toBe(401);
  });
});
