import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, dbKind, loginAs, makeTestApp, type TestApp, fixtureWrite, markFixture } from './helpers';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';
import { refreshCompliance } from '../../server/services/compliance';

// Double booking is impossible under concurrency: the database refuses it (an exclusion constraint), not only the
// check. On PostgreSQL the requests really run at once (a pool of connections); PGlite serialises them, and the
// answer must be the same.
let t: TestApp;
let admin: string;
let merchantA: number;
let client: number;
let site: number;
let role: number;
let who: number;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  admin = await loginAs(t.app, 'admin');
  merchantA = (await t.db.query(`select id from merchants where company_name = 'Brightway Staffing'`))[0].id;
  [{ id: client }] = await t.db.query(
    `select id from clients where merchant_id = $1 and name = 'Meadowbank Care Home'`,
    [merchantA],
  );
  [{ id: site }] = await t.db.query(
    'select id from sites where merchant_id = $1 and client_id = $2 order by id limit 1',
    [merchantA, client],
  );
  [{ id: role }] = await t.db.query('select id from job_roles where merchant_id = $1 order by id limit 1', [merchantA]);
  [{ id: who }] = await fixtureWrite(
    t.db,
    `insert into candidates (merchant_id, first_name, last_name, email, job_role_id, status, activated)
      values ($1, 'Rosa', 'Concurrent', 'rosa.concurrent@example.test', $2, 'approved', true)
      returning id`,
    [merchantA, role],
  );
  const categories = await t.db.query<{ id: number }>(
    'select id from document_categories where merchant_id = $1 and (mandatory or $2 = any(job_role_ids))',
    [merchantA, role],
  );
  for (const c of categories) {
    await fixtureWrite(
      t.db,
      `insert into candidate_documents (merchant_id, candidate_id, document_category_id, file, status, expiry_date, current) values ($1, $2, $3, 'x.pdf', 'verified', $4, true)`,
      [merchantA, who, c.id, addDaysToDate(agencyToday('Europe/London'), 900)],
    );
  }
  await refreshCompliance(t.db, merchantA, [who]);
});
afterAll(async () => {
  await t?.close();
});

/** `count` open shifts at the same time on a date far from the demo's. */
async function sameTimeShifts(daysAhead: number, count: number): Promise<number[]> {
  const date = addDaysToDate(agencyToday('Europe/London'), daysAhead);
  const res = await call(t.app, admin, 'POST', '/api/shifts/bulk', {
    client_id: client,
    site_id: site,
    job_role_id: role,
    start_time: '08:00',
    end_time: '20:00',
    dates: [date],
    staff_needed: count,
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  return res.json().data.map((s: { id: number }) => s.id);
}

it('50 simultaneous assigns of one staff member to 50 overlapping shifts: exactly one succeeds, the others are refused in words', async () => {
  const ids = await sameTimeShifts(100, 50);
  const answers = await Promise.all(
    ids.map((id) => call(t.app, admin, 'POST', `/api/shifts/${id}/actions/assign`, { candidate_id: who })),
  );
  const statuses = answers.map((a) => a.statusCode);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(49);
  for (const a of answers.filter((x) => x.statusCode === 409))
    expect(a.json().message).toMatch(
      /Rosa Concurrent (cannot be booked on this shift\. Rosa Concurrent is already booked .*, which overlaps this shift\.|is already booked from .* to .*\.)/,
    );
  const booked = await t.db.query(
    `select count(*)::int as n from shifts where candidate_id = $1 and status = 'assigned'`,
    [who],
  );
  expect(booked[0].n).toBe(1);
});

/** A gate a test opens when it chooses: `done` resolves at `release()`. */
function latch() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

/**
 * Books `who` on shift `id` in a transaction kept open until `commit` is released; `booked` resolves once the
 * (uncommitted) booking is written.
 */
function heldBooking(id: number) {
  const booked = latch();
  const commit = latch();
  const done = t.db.transaction(async (tx) => {
    await markFixture(tx);
    await tx.query(`update shifts set status = 'assigned', candidate_id = $1 where id = $2`, [who, id]);
    booked.release();
    await commit.done;
  });
  return { booked: booked.done, commit: commit.release, done };
}

/**
 * PostgreSQL: resolves once a statement of this file's database waits for a lock (the other booking, blocked by the
 * uncommitted one until it commits or rolls back). PGlite runs one transaction at a time: the other waits its turn
 * by construction, so there is nothing to wait for.
 */
async function untilAnotherWaits() {
  if (dbKind !== 'postgres') return;
  const waiting = async () =>
    (
      await t.db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      )
    )[0].n;
  while ((await waiting()) === 0);
}

it('the database itself refuses the second of two simultaneous bookings that skip the checks', async () => {
  const [a, b] = await sameTimeShifts(102, 2);
  const first = heldBooking(a);
  await first.booked;
  const second = t.db.transaction(async (tx) => {
    await markFixture(tx);
    await tx.query(`update shifts set status = 'assigned', candidate_id = $1 where id = $2`, [who, b]);
  });
  // The second booking waits on the first's, still uncommitted; then the first commits.
  await untilAnotherWaits();
  first.commit();
  const outcomes = await Promise.allSettled([first.done, second]);
  expect(outcomes[0].status).toBe('fulfilled');
  expect(outcomes[1].status).toBe('rejected');
  expect(((outcomes[1] as PromiseRejectedResult).reason as { code?: string }).code).toBe('23P01');
});

it('a clash only the database sees (a booking not yet committed) still answers 409 in words, never 500', async () => {
  const [a, b] = await sameTimeShifts(104, 2);
  const held = heldBooking(a);
  await held.booked;
  const answer = call(t.app, admin, 'POST', `/api/shifts/${b}/actions/assign`, { candidate_id: who });
  // PostgreSQL: the assign's checks passed (they cannot see the uncommitted booking) and its write waits on it.
  await untilAnotherWaits();
  held.commit();
  await held.done;
  const res = await answer;
  expect(res.statusCode, res.body).toBe(409);
  // PostgreSQL runs the two at once: the check cannot see the uncommitted booking, the constraint does. PGlite runs
  // them one after the other, so there the check sees it.
  expect(res.json().message).toMatch(
    dbKind === 'postgres'
      ? /^Rosa Concurrent is already booked from .* to .*\.$/
      : /Rosa Concurrent cannot be booked on this shift\./,
  );
  expect((await t.db.query('select status from shifts where id = $1', [b]))[0].status).toBe('open');
});
