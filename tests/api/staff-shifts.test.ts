import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';

// Issue 16 item 9: a staff member's token reaches the engine's shifts routes (the declaration's staffScope and
// access.staff), answers only the shifts they are booked on, never the agency's money on them, and changes nothing;
// resources without staffScope stay closed to staff.
let t: TestApp;
let admin: string;
let staff: string;
let mine: number[];
let theirs: number;
let candidateId: number;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, staff] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'staff')]);
  const [me] = await t.db.query<{ candidate_id: number; merchant_id: number }>(
    `select candidate_id, merchant_id from users where email = 'staff@demo.test'`,
  );
  candidateId = me.candidate_id;
  const [site] = await t.db.query<{ id: number; client_id: number }>(
    'select id, client_id from sites where merchant_id = $1 and deleted_at is null order by id limit 1',
    [me.merchant_id],
  );
  const [role] = await t.db.query<{ id: number }>(
    'select id from job_roles where merchant_id = $1 order by id limit 1',
    [me.merchant_id],
  );
  const [other] = await t.db.query<{ id: number }>(
    'select id from candidates where merchant_id = $1 and id <> $2 and deleted_at is null order by id limit 1',
    [me.merchant_id, candidateId],
  );
  const today = agencyToday('Europe/London');
  const made: number[] = [];
  for (const [i, days] of [300, 301, 302].entries()) {
    const date = addDaysToDate(today, days);
    const res = await call(t.app, admin, 'POST', '/api/shifts', {
      client_id: site.client_id,
      site_id: site.id,
      job_role_id: role.id,
      start_at: zonedDateTimeToInstant(date, '08:00', 'Europe/London').toISOString(),
      end_at: zonedDateTimeToInstant(date, '16:00', 'Europe/London').toISOString(),
      notes: `Shift note ${i}`,
    });
    expect(res.statusCode, res.body).toBe(201);
    made.push(res.json().data.id);
  }
  // Booked directly (the booking checks are not what this tests): two for the staff member, one for another.
  await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = any($2)`, [
    candidateId,
    made.slice(0, 2),
  ]);
  await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = $2`, [
    other.id,
    made[2],
  ]);
  t.app.totals.changed('shifts', me.merchant_id);
  mine = made.slice(0, 2);
  theirs = made[2];
});
afterAll(async () => {
  await t?.close();
});

describe('a staff member and the shifts', () => {
  it('lists only the shifts they are booked on, with where and what but no charge, margin or on-costs', async () => {
    const res = await call(t.app, staff, 'GET', '/api/shifts?per_page=100&start_at_gte=%2B299d');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as Record<string, unknown>[];
    expect(rows.map((r) => r.id).sort()).toEqual([...mine].sort());
    // Every shift of any other staff member stays out, whatever the filter asks.
    const asked = await call(t.app, staff, 'GET', `/api/shifts?candidate_id=${candidateId + 1}`);
    expect(asked.json().data).toEqual([]);
    const all = await call(t.app, staff, 'GET', '/api/shifts?per_page=100');
    expect((all.json().data as { candidate_id: number }[]).every((r) => r.candidate_id === candidateId)).toBe(true);
    const r = rows[0];
    expect(r).toMatchObject({
      status: 'assigned',
      candidate_id: candidateId,
      notes: expect.stringMatching(/^Shift note/),
    });
    expect(typeof r.site_name).toBe('string');
    expect(r.site_address).toHaveProperty('line1');
    expect(typeof r.job_role_name).toBe('string');
    expect(r).toHaveProperty('pay');
    for (const hidden of [
      'charge',
      'margin',
      'on_costs',
      'price_lines',
      'rate_card_id',
      'cancellation_charge',
      'override_reason',
      'booking_checks',
      'client_id',
      'custom_fields',
    ])
      expect(r, hidden).not.toHaveProperty(hidden);
    // Naming them in ?fields= does not bring them either, nor anyone else's shift.
    const named = await call(t.app, staff, 'GET', '/api/shifts?per_page=100&fields=charge,margin,pay,candidate_id');
    expect(named.json().data).toEqual(
      (all.json().data as Record<string, unknown>[]).map((x) => ({ id: x.id, pay: x.pay, candidate_id: candidateId })),
    );
    // A filter or sort on a field they may not read is refused in words, not answered by its values.
    expect((await call(t.app, staff, 'GET', '/api/shifts?sort=charge')).statusCode).toBe(400);
    expect((await call(t.app, staff, 'GET', '/api/shifts?client_id=1')).statusCode).toBe(400);
  });

  it('opens their own shift; another staff member’s answers 404', async () => {
    const own = await call(t.app, staff, 'GET', `/api/shifts/${mine[0]}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).not.toHaveProperty('charge');
    expect((await call(t.app, staff, 'GET', `/api/shifts/${theirs}`)).statusCode).toBe(404);
  });

  it('changes nothing: create, update, delete and every action are refused', async () => {
    expect((await call(t.app, staff, 'PUT', `/api/shifts/${mine[0]}`, { notes: 'mine now' })).statusCode).toBe(403);
    expect((await call(t.app, staff, 'DELETE', `/api/shifts/${mine[0]}`)).statusCode).toBe(403);
    expect((await call(t.app, staff, 'POST', '/api/shifts', {})).statusCode).toBe(403);
    expect((await call(t.app, staff, 'POST', `/api/shifts/${mine[0]}/actions/unassign`, {})).statusCode).toBe(403);
    expect(
      (await call(t.app, staff, 'POST', `/api/shifts/${mine[0]}/actions/cancel`, { reason: 'x' })).statusCode,
    ).toBe(403);
    expect((await call(t.app, staff, 'GET', '/api/shifts?export=1')).statusCode).toBe(403);
    const [row] = await t.db.query<{ notes: string; status: string }>(
      'select notes, status from shifts where id = $1',
      [mine[0]],
    );
    expect(row).toEqual({ notes: 'Shift note 0', status: 'assigned' });
  });

  // Their documents are theirs since issue 17 (tests/api/staff-requests.test.ts); document categories are in their
  // scope for their uploads to name, but have no staff route.
  it('reaches no other resource: those without staffScope and access for staff stay closed', async () => {
    for (const url of [
      '/api/candidates',
      `/api/candidates/${candidateId}`,
      '/api/sites',
      '/api/clients',
      '/api/job_roles',
      '/api/document_categories',
      '/api/audit_entries',
    ])
      expect((await call(t.app, staff, 'GET', url)).statusCode, url).toBe(403);
  });

  it('the agency’s users read shifts as before: charge for clients, pay for the agency', async () => {
    const res = await call(t.app, admin, 'GET', `/api/shifts/${mine[0]}`);
    expect(res.json().data).toHaveProperty('charge');
    expect(res.json().data).toHaveProperty('margin');
    expect(res.json().data).not.toHaveProperty('site_name');
  });

  it('the staff session answer carries the agency’s time zone, in which the page shows times', async () => {
    const me = await call(t.app, staff, 'GET', '/api/staff_login');
    expect(me.json().agency_time_zone).toBe('Europe/London');
  });
});
