import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, call, expectAudited, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import {
  addDaysToDate,
  agencyToday,
  dayOfWeek,
  formatDisplayDate,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';
import { refreshCompliance } from '../../server/services/compliance';
import { BANDS } from '../../core/domain/pricing/types';

// Shifts through real requests: creating (priced), every booking check refused in words, soft checks overridden
// only by an admin with a reason (audited), the transitions, the client's scope and hidden pay, requests and late
// cancellations, bulk creation across the clocks changing, suggested staff and the schedule.
let t: TestApp;
const tok = {} as Record<'admin' | 'consultant' | 'client' | 'client2' | 'otherAdmin', string>;
const TZ = 'Europe/London';
let merchantA: number;
let meadowbank: number;
let otherClient: number;
let site: number;
let site2: number;
let otherSite: number;
let role: number;
let otherRole: number;
let today: string;
/** A date far from the demo's shifts, so the tests' staff and shifts meet nothing else. */
let base: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40 });
  const who = ['admin', 'consultant', 'client', 'client2', 'otherAdmin'] as const;
  const tokens = await Promise.all(who.map((w) => loginAs(t.app, w)));
  who.forEach((w, i) => (tok[w] = tokens[i]));
  merchantA = (await t.db.query(`select id from merchants where company_name = 'Brightway Staffing'`))[0].id;
  const clients = await t.db.query<{ id: number; name: string }>(
    'select id, name from clients where merchant_id = $1 order by id',
    [merchantA],
  );
  meadowbank = clients.find((c) => c.name === 'Meadowbank Care Home')!.id;
  const [c2] = await t.db.query(`select client_id from users where email = 'client2@demo.test'`);
  otherClient = c2.client_id;
  const sites = await t.db.query<{ id: number; client_id: number }>(
    'select id, client_id from sites where merchant_id = $1 and deleted_at is null order by id',
    [merchantA],
  );
  [site, site2] = sites.filter((s) => s.client_id === meadowbank).map((s) => s.id);
  otherSite = sites.find((s) => s.client_id === otherClient)!.id;
  const roles = await t.db.query<{ id: number }>('select id from job_roles where merchant_id = $1 order by id', [
    merchantA,
  ]);
  role = roles[0].id;
  otherRole = roles[2].id;
  today = agencyToday(TZ);
  base = addDaysToDate(today, 70);
  expect(site2, 'Meadowbank has two sites').toBeDefined();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, token = tok.admin) => call(t.app, token, 'GET', url);
const post = (url: string, body: unknown, token = tok.admin) => call(t.app, token, 'POST', url, body);
const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body.slice(0, 600)).toBe(status);
  return res.json().data;
};
const refused = (res: LightMyRequestResponse, status: number) => {
  expect(res.statusCode, res.body.slice(0, 600)).toBe(status);
  return res.json() as { message: string; errors?: Record<string, string> };
};
/** An instant `days` after `base` at a wall-clock time in London. */
const at = (days: number, time: string, from = base) =>
  zonedDateTimeToInstant(addDaysToDate(from, days), time, TZ).toISOString();

let n = 0;
/**
 * A staff member of agency A for the tests: approved, active and compliant for their job role unless told
 * otherwise (documents are the required categories' own, verified, valid for years).
 */
async function staff(
  o: {
    role?: number;
    status?: string;
    activated?: boolean;
    docs?: 'valid' | 'none' | 'awaiting';
    expiry?: string;
    first?: string;
  } = {},
): Promise<number> {
  n += 1;
  const jobRole = o.role ?? role;
  const [c] = await fixtureWrite(
    t.db,
    `insert into candidates (merchant_id, first_name, last_name, email, job_role_id, status, activated) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      merchantA,
      o.first ?? 'Sam',
      `Tester${n}`,
      `shift-tester-${n}@example.test`,
      jobRole,
      o.status ?? 'approved',
      o.activated ?? true,
    ],
  );
  if ((o.docs ?? 'valid') !== 'none') {
    const categories = await t.db.query<{ id: number }>(
      'select id from document_categories where merchant_id = $1 and (mandatory or $2 = any(job_role_ids))',
      [merchantA, jobRole],
    );
    for (const cat of categories) {
      await fixtureWrite(
        t.db,
        `insert into candidate_documents (merchant_id, candidate_id, document_category_id, file, status, expiry_date, current) values ($1, $2, $3, 'test.pdf', $4, $5, true)`,
        [
          merchantA,
          c.id,
          cat.id,
          o.docs === 'awaiting' ? 'awaiting' : 'verified',
          o.expiry ?? addDaysToDate(today, 900),
        ],
      );
    }
  }
  await refreshCompliance(t.db, merchantA, [c.id]);
  return c.id;
}

/** A new open shift at Meadowbank (or as given), created through the API. */
async function shift(start: string, end: string, o: Record<string, unknown> = {}, token = tok.admin) {
  return ok(
    await post(
      '/api/shifts',
      { client_id: meadowbank, site_id: site, job_role_id: role, start_at: start, end_at: end, ...o },
      token,
    ),
    201,
  );
}
const assign = (id: number, candidate_id: number, body: Record<string, unknown> = {}, token = tok.admin) =>
  post(`/api/shifts/${id}/actions/assign`, { candidate_id, ...body }, token);

describe('creating a shift', () => {
  it('prices it when it is created and shows pay, charge and margin to the agency', async () => {
    const s = await shift(at(0, '08:00'), at(0, '20:00'));
    expect(s.status).toBe('open');
    expect(s.created_by).toBeTruthy();
    expect(s.charge).toBeGreaterThan(0);
    expect(s.pay).toBeGreaterThan(0);
    expect(s.margin).toBe(s.charge - s.pay - s.on_costs);
    expect(s.hours).toBe(11.5);
    expect(s.price_lines.length).toBeGreaterThan(0);
    expect(s.price_lines.reduce((sum: number, l: { charge: number }) => sum + l.charge, 0)).toBe(s.charge);
  });

  it('refuses a site of another client, an end before the start and a shift longer than a day, in words', async () => {
    const wrongSite = refused(
      await post('/api/shifts', {
        client_id: meadowbank,
        site_id: otherSite,
        job_role_id: role,
        start_at: at(1, '08:00'),
        end_at: at(1, '16:00'),
      }),
      422,
    );
    expect(wrongSite.errors?.site_id).toMatch(/site/i);
    const backwards = refused(
      await post('/api/shifts', {
        client_id: meadowbank,
        site_id: site,
        job_role_id: role,
        start_at: at(1, '16:00'),
        end_at: at(1, '08:00'),
      }),
      422,
    );
    expect(backwards.errors?.end_at).toBe('The shift must end after it starts.');
    const long = refused(
      await post('/api/shifts', {
        client_id: meadowbank,
        site_id: site,
        job_role_id: role,
        start_at: at(1, '08:00'),
        end_at: at(2, '09:00'),
      }),
      422,
    );
    expect(long.errors?.end_at).toBe('A shift lasts at most 24 hours.');
    expect((await t.db.query('select count(*)::int as n from shifts where start_at = $1', [at(1, '16:00')]))[0].n).toBe(
      0,
    );
  });

  it('never lets a create or an edit set the state, the staff member or the price', async () => {
    const s = await shift(at(2, '08:00'), at(2, '16:00'));
    const someone = await staff();
    const create = refused(
      await post('/api/shifts', {
        client_id: meadowbank,
        site_id: site,
        job_role_id: role,
        start_at: at(2, '08:00'),
        end_at: at(2, '16:00'),
        status: 'assigned',
        candidate_id: someone,
      }),
      422,
    );
    expect(Object.keys(create.errors!)).toEqual(expect.arrayContaining(['status', 'candidate_id']));
    const edit = await call(t.app, tok.admin, 'PUT', `/api/shifts/${s.id}`, {
      notes: 'Bring a uniform',
      pay: 1,
      charge: 2,
    });
    const saved = ok(edit);
    expect(saved.notes).toBe('Bring a uniform');
    expect(saved.pay).toBe(s.pay);
    expect(saved.charge).toBe(s.charge);
    expect(
      refused(await call(t.app, tok.admin, 'PUT', `/api/shifts/${s.id}`, { start_at: at(3, '08:00') }), 422).errors
        ?.start_at,
    ).toBeTruthy();
    // A shift is deleted with a reason (soft: it stays, listed as deleted), the same as its 'remove' button.
    expect(refused(await call(t.app, tok.admin, 'DELETE', `/api/shifts/${s.id}`), 422).errors).toEqual({
      reason: 'Required',
    });
    expect((await call(t.app, tok.client, 'DELETE', `/api/shifts/${s.id}`, { reason: 'Mine' })).statusCode).toBe(403);
    const { result } = await expectAudited(t.app, tok.admin, { resource: 'shifts', id: s.id, event: 'delete' }, () =>
      call(t.app, tok.admin, 'DELETE', `/api/shifts/${s.id}`, { reason: 'Entered twice' }),
    );
    expect(ok(result)).toMatchObject({ id: s.id });
    const deleted = ok(await get(`/api/shifts/${s.id}`));
    expect(deleted).toMatchObject({
      deleted_reason: 'Entered twice',
      deleted_by: expect.any(String),
      state: 'deleted',
    });
    const [entry] = (await auditTrail(t.app, tok.admin, 'shifts', s.id)).filter((e) => e.event === 'delete');
    expect(entry.input).toEqual({ reason: 'Entered twice' });
    expect(
      refused(await call(t.app, tok.admin, 'DELETE', `/api/shifts/${s.id}`, { reason: 'Again' }), 409).message,
    ).toBe('This shift has been deleted.');
    expect(refused(await call(t.app, tok.admin, 'PUT', `/api/shifts/${s.id}`, { notes: 'After' }), 409).message).toBe(
      'This shift has been deleted.',
    );
  });
});

describe('hard booking checks', () => {
  it('refuses a staff member who is not approved and active', async () => {
    const s = await shift(at(5, '08:00'), at(5, '16:00'));
    const pending = await staff({ status: 'pending', activated: false });
    const r = refused(await assign(s.id, pending), 409);
    expect(r.errors?.candidate_id).toMatch(
      /is not approved and active: their status is pending and they are not activated\./,
    );
  });

  it('refuses another job role', async () => {
    const s = await shift(at(6, '08:00'), at(6, '16:00'));
    const other = await staff({ role: otherRole });
    expect(refused(await assign(s.id, other), 409).errors?.candidate_id).toMatch(/, not an? /);
  });

  it('refuses missing, unverified and expired documents', async () => {
    const s = await shift(at(7, '08:00'), at(7, '16:00'));
    expect(refused(await assign(s.id, await staff({ docs: 'none' })), 409).errors?.candidate_id).toMatch(
      /is missing mandatory documents for .*: .*DBS certificate/,
    );
    expect(refused(await assign(s.id, await staff({ docs: 'awaiting' })), 409).errors?.candidate_id).toMatch(
      /not verified yet/,
    );
    expect(
      refused(await assign(s.id, await staff({ expiry: addDaysToDate(base, 3) })), 409).errors?.candidate_id,
    ).toMatch(/will have expired by/);
    // Expired already: said as it is, on its date.
    const gone = addDaysToDate(today, -2);
    const words = refused(await assign(s.id, await staff({ expiry: gone })), 409).errors?.candidate_id;
    expect(words).toMatch(new RegExp(`DBS certificate expired on ${formatDisplayDate(gone)}.*\\.$`));
    expect(words).not.toMatch(/will have expired/);
  });

  it('refuses a staff member restricted at the client or at the site', async () => {
    const s = await shift(at(8, '08:00'), at(8, '16:00'));
    const atClient = await staff();
    await fixtureWrite(
      t.db,
      `insert into candidate_restrictions (merchant_id, candidate_id, client_id, site_id, reason, restricted_on) values ($1, $2, $3, null, 'Complaint from the manager', $4)`,
      [merchantA, atClient, meadowbank, today],
    );
    expect(refused(await assign(s.id, atClient), 409).errors?.candidate_id).toMatch(
      /is restricted at Meadowbank Care Home: Complaint from the manager\./,
    );
    const atSite = await staff();
    await fixtureWrite(
      t.db,
      `insert into candidate_restrictions (merchant_id, candidate_id, client_id, site_id, reason, restricted_on) values ($1, $2, $3, $4, 'Not inducted', $5)`,
      [merchantA, atSite, meadowbank, site, today],
    );
    expect(refused(await assign(s.id, atSite), 409).errors?.candidate_id).toMatch(
      /is restricted at .* \(Meadowbank Care Home\): Not inducted\./,
    );
    // The restriction at one site leaves the other open to them.
    const elsewhere = await shift(at(8, '08:00'), at(8, '16:00'), { site_id: site2 });
    ok(await assign(elsewhere.id, atSite));
  });

  it('refuses overlapping shifts, including a night across midnight', async () => {
    const night = await shift(at(10, '20:00'), at(11, '08:00'));
    const early = await shift(at(11, '07:00'), at(11, '15:00'));
    const who = await staff();
    ok(await assign(night.id, who, { override_reason: undefined }));
    const r = refused(await assign(early.id, who), 409);
    expect(r.errors?.candidate_id).toMatch(/is already booked .* 20:00–08:00, which overlaps this shift\./);
    expect((await t.db.query('select status, candidate_id from shifts where id = $1', [early.id]))[0]).toEqual({
      status: 'open',
      candidate_id: null,
    });
  });

  it('lets the database refuse a double booking written by hand', async () => {
    const a = await shift(at(12, '08:00'), at(12, '16:00'));
    const b = await shift(at(12, '12:00'), at(12, '20:00'));
    const who = await staff();
    ok(await assign(a.id, who));
    const code = await t.db
      .query(`update shifts set status = 'assigned', candidate_id = $1 where id = $2`, [who, b.id])
      .then(
        () => 'stored',
        (e) => e.code,
      );
    expect(code).toBe('23P01');
  });
});

describe('soft booking checks', () => {
  /**
   * Refused for a consultant and for an admin without a reason; booked by an admin with one, recorded in the audit
   * trail.
   */
  async function overriddenByAdmin(shiftId: number, who: number, words: RegExp) {
    const byConsultant = refused(
      await assign(shiftId, who, { override_reason: 'Short of staff' }, tok.consultant),
      409,
    );
    expect(byConsultant.message).toMatch(words);
    expect(byConsultant.message).toMatch(/Only an admin can book .* anyway, with a reason\./);
    const noReason = refused(await assign(shiftId, who), 422);
    expect(noReason.errors?.override_reason).toMatch(words);
    const booked = ok(await assign(shiftId, who, { override_reason: 'Agreed with the home manager' }));
    expect(booked.status).toBe('assigned');
    expect(booked.override_reason).toBe('Agreed with the home manager');
    expect(booked.booking_checks.overridden.map((c: { message: string }) => c.message).join(' ')).toMatch(words);
    const [entry] = await t.db.query(
      `select input, changes, user_name from audit_log where resource = 'shifts' and record_id = $1 and action = 'assign' order by id desc limit 1`,
      [shiftId],
    );
    expect(entry.input.override_reason).toBe('Agreed with the home manager');
    expect(JSON.stringify(entry.changes.booking_checks.to)).toMatch(words);
    return booked;
  }

  it('availability says unavailable', async () => {
    const s = await shift(at(14, '08:00'), at(14, '16:00'));
    const who = await staff();
    await fixtureWrite(
      t.db,
      `insert into availability (merchant_id, candidate_id, date, status) values ($1, $2, $3, 'unavailable')`,
      [merchantA, who, addDaysToDate(base, 14)],
    );
    await overriddenByAdmin(s.id, who, /is unavailable on /);
  });

  it('less than 11 hours of rest between shifts', async () => {
    const late = await shift(at(16, '14:00'), at(16, '22:00'));
    const early = await shift(at(17, '06:00'), at(17, '14:00'));
    const who = await staff();
    ok(await assign(late.id, who));
    await overriddenByAdmin(
      early.id,
      who,
      /would have only 8 hours rest after their previous shift \(at least 11 hours\)\./,
    );
  });

  it('more than 48 hours a week over 17 weeks, unless they opted out', async () => {
    const s = await shift(at(20, '08:00'), at(20, '20:00'));
    const who = await staff();
    const optedOut = await staff();
    await fixtureWrite(
      t.db,
      `insert into candidate_preferences (merchant_id, candidate_id, opted_out_48h, opt_out_signed_on) values ($1, $2, true, $3)`,
      [merchantA, optedOut, today],
    );
    // Five 12-hour days a week for the 17 weeks before: 60 hours a week.
    for (const id of [who, optedOut]) {
      await fixtureWrite(
        t.db,
        `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, status, candidate_id)
         select $1, $2, $3, $4, d + time '08:00', d + time '20:00', 'closed', $5
           from generate_series($6::date - 119, $6::date - 1, interval '1 day') as g(d0), lateral (select g.d0::date as d) x
          where extract(isodow from d) <= 5`,
        [merchantA, meadowbank, site, role, id, addDaysToDate(base, 20)],
      );
    }
    await overriddenByAdmin(
      s.id,
      who,
      /would average .* a week over the 17 weeks to .*, above 48 hours, and has not opted out\./,
    );
    const twin = await shift(at(20, '08:00'), at(20, '20:00'));
    expect(ok(await assign(twin.id, optedOut)).override_reason).toBeNull();
  });

  it('above their preferred maximum hours', async () => {
    const monday = addDaysToDate(base, 21 + ((8 - dayOfWeek(addDaysToDate(base, 21))) % 7));
    const who = await staff();
    await fixtureWrite(
      t.db,
      `insert into candidate_preferences (merchant_id, candidate_id, max_hours_per_week) values ($1, $2, 20)`,
      [merchantA, who],
    );
    const first = await shift(at(0, '08:00', monday), at(0, '20:00', monday));
    ok(await assign(first.id, who));
    const second = await shift(at(2, '08:00', monday), at(2, '20:00', monday));
    // Two 12-hour days with the rules' 30-minute unpaid breaks: 23 paid hours.
    await overriddenByAdmin(second.id, who, /would work 23 hours in the week of .*, above their preferred 20 hours\./);
  });

  it('shows the checks and the AWR count before assigning', async () => {
    const s = await shift(at(30, '08:00'), at(30, '16:00'));
    const who = await staff();
    await fixtureWrite(
      t.db,
      `insert into availability (merchant_id, candidate_id, date, status) values ($1, $2, $3, 'unavailable')`,
      [merchantA, who, addDaysToDate(base, 30)],
    );
    const check = ok(await get(`/api/shifts/${s.id}/check?candidate_id=${who}`));
    expect(check.passes).toBe(true);
    expect(check.hard).toEqual([]);
    expect(check.soft.map((c: { code: string }) => c.code)).toEqual(['unavailable']);
    expect(check.info[0].message).toMatch(/Agency Workers Regulations: week 1 of 12 at Meadowbank Care Home/);
    expect(check.awr.weeks).toBe(1);
    expect((await get(`/api/shifts/${s.id}/check?candidate_id=${who}`, tok.client)).statusCode).toBe(403);
  });
});

describe('transitions', () => {
  it('unassigns, closes only once worked, cancels, reopens and removes with a reason', async () => {
    const who = await staff();
    const future = await shift(at(35, '08:00'), at(35, '16:00'));
    ok(await assign(future.id, who));
    expect(refused(await post(`/api/shifts/${future.id}/actions/close`, {}), 409).message).toMatch(/has not ended yet/);
    const booked = 'This shift is assigned: only an open or cancelled shift can be deleted.';
    expect(
      refused(await call(t.app, tok.admin, 'DELETE', `/api/shifts/${future.id}`, { reason: 'x' }), 409).message,
    ).toBe(booked);
    expect(refused(await post(`/api/shifts/${future.id}/actions/remove`, { reason: 'x' }), 409).message).toBe(booked);
    const open = ok(await post(`/api/shifts/${future.id}/actions/unassign`, {}));
    expect(open).toMatchObject({ status: 'open', candidate_id: null });

    const past = await shift(at(-80, '08:00'), at(-80, '16:00'));
    ok(await assign(past.id, who));
    expect(ok(await post(`/api/shifts/${past.id}/actions/close`, {})).status).toBe('closed');
    // The status is the lifecycle's: only transitions change it, and a closed (worked) shift is locked.
    expect(
      refused(await call(t.app, tok.admin, 'PUT', `/api/shifts/${future.id}`, { status: 'closed' }), 422).errors,
    ).toEqual({ status: 'Changed only through its actions (the buttons on the record)' });
    const locked = 'This shift is closed and locked: it can no longer be changed.';
    expect(
      refused(await call(t.app, tok.admin, 'PUT', `/api/shifts/${past.id}`, { notes: 'Late note' }), 409).message,
    ).toBe(locked);
    expect(refused(await post(`/api/shifts/${past.id}/actions/unassign`, {}), 409).message).toBe(
      'This shift is closed: Unassign is only for an assigned shift.',
    );
    expect(refused(await post(`/api/shifts/${past.id}/actions/cancel`, { reason: 'x' }), 409).message).toBe(
      'This shift is closed: Cancel shift is only for an open or assigned shift.',
    );

    const cancelled = ok(await post(`/api/shifts/${future.id}/actions/cancel`, { reason: 'Not needed' }));
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'Not needed', cancellation_charge: null });
    expect(cancelled.cancelled_by).toBeTruthy();
    expect(ok(await post(`/api/shifts/${future.id}/actions/reopen`, {})).status).toBe('open');
    expect(refused(await post(`/api/shifts/${future.id}/actions/remove`, {}), 422).errors?.reason).toBeTruthy();
    const removed = ok(await post(`/api/shifts/${future.id}/actions/remove`, { reason: 'Entered twice' }));
    expect(removed).toMatchObject({ deleted_reason: 'Entered twice' });
    expect(removed.deleted_at).toBeTruthy();
    // Still readable, and listed on the deleted tab only.
    ok(await get(`/api/shifts/${future.id}`));
    const list = async (tab: string) =>
      (await get(`/api/shifts?tab=${tab}&per_page=100&start_at_gte=${at(35, '00:00')}&start_at_lte=${at(36, '00:00')}`))
        .json()
        .data.map((r: { id: number }) => r.id);
    expect(await list('deleted')).toContain(future.id);
    expect(await list('open')).not.toContain(future.id);
    expect(refused(await post(`/api/shifts/${future.id}/actions/assign`, { candidate_id: who }), 409).message).toBe(
      'This shift has been deleted.',
    );
  });

  it('moves a shift (a drag on the schedule): re-priced, and checked again when someone is booked', async () => {
    const who = await staff();
    const a = await shift(at(40, '08:00'), at(40, '16:00'));
    const b = await shift(at(41, '08:00'), at(41, '16:00'));
    ok(await assign(a.id, who));
    ok(await assign(b.id, who));
    const longer = ok(await post(`/api/shifts/${a.id}/actions/move`, { start: at(40, '08:00'), end: at(40, '20:00') }));
    expect(longer.end_at).toBe(at(40, '20:00'));
    expect(longer.charge).toBeGreaterThan(a.charge);
    const clash = refused(
      await post(`/api/shifts/${a.id}/actions/move`, { start: at(41, '10:00'), end: at(41, '18:00') }),
      409,
    );
    expect(clash.errors?.candidate_id).toMatch(/which overlaps this shift/);
    // Dropped on another staff member: booked to them.
    const other = await staff();
    const moved = ok(
      await post(`/api/shifts/${b.id}/actions/move`, {
        start: at(41, '08:00'),
        end: at(41, '16:00'),
        candidate_id: other,
      }),
    );
    expect(moved).toMatchObject({ status: 'assigned', candidate_id: other });
  });

  it('assigns in bulk, all or nothing', async () => {
    const who = await staff();
    const days = [44, 45, 46];
    const ids = [];
    for (const d of days) ids.push((await shift(at(d, '08:00'), at(d, '16:00'))).id);
    const data = ok(await post('/api/shifts/actions/assign', { ids, candidate_id: who }));
    expect(data.map((s: { status: string }) => s.status)).toEqual(['assigned', 'assigned', 'assigned']);
    const clash = await shift(at(44, '10:00'), at(44, '12:00'));
    const more = await shift(at(47, '08:00'), at(47, '16:00'));
    expect((await post('/api/shifts/actions/assign', { ids: [clash.id, more.id], candidate_id: who })).statusCode).toBe(
      409,
    );
    expect((await t.db.query('select status from shifts where id = $1', [more.id]))[0].status).toBe('open');
  });
});

describe('statements per booking', () => {
  /** The statements one request runs, in or out of its transaction. */
  async function statementsOf(request: () => Promise<LightMyRequestResponse>) {
    const seen: string[] = [];
    const db = t.db as typeof t.db & Record<string, unknown>;
    const { query, transaction } = db;
    db.query = (sql: string, params?: unknown[]) => (seen.push(sql), query.call(db, sql, params)) as never;
    db.transaction = ((fn: (tx: { query: typeof query }) => Promise<unknown>) =>
      transaction.call(db, (tx) =>
        fn({ query: (sql: string, params?: unknown[]) => (seen.push(sql), tx.query(sql, params)) as never }),
      )) as never;
    try {
      ok(await request());
    } finally {
      Object.assign(db, { query, transaction });
    }
    // The rate limit's counts are written in batches (server/auth/rateLimit.ts), by whichever request a batch falls
    // on: no statement of the assign's own.
    return seen.filter((sql) => !sql.includes('api_request_counts'));
  }

  it('an assign runs the same few statements however many shifts the staff member has worked (no N+1)', async () => {
    const fresh = await staff();
    const busy = await staff();
    // Twelve past weeks of shifts at the client: history the rest, 48-hour and AWR checks all read.
    for (let w = 1; w <= 12; w++)
      ok(
        await assign(
          (await shift(at(-7 * w, '08:00', addDaysToDate(base, 60)), at(-7 * w, '16:00', addDaysToDate(base, 60)))).id,
          busy,
        ),
      );
    const [a, b] = [await shift(at(60, '08:00'), at(60, '16:00')), await shift(at(60, '08:00'), at(60, '16:00'))];
    const first = await statementsOf(() => assign(a.id, fresh));
    const second = await statementsOf(() => assign(b.id, busy));
    expect(second.length).toBe(first.length);
    // The lock, the checks' facts in one statement, the notice, the engine's write under its savepoint (which lets a
    // double booking the constraint sees be put in words) and its audit.
    expect(first.length).toBeLessThanOrEqual(13);
    expect(first.filter((sql) => /from shifts o where/.test(sql))).toHaveLength(1);
  });
});

describe('client users', () => {
  const hidden = ['pay', 'margin', 'on_costs', 'price_lines', 'override_reason', 'booking_checks', 'rate_card_id'];
  const noPay = (row: Record<string, unknown>) => {
    for (const k of hidden) expect(row, k).not.toHaveProperty(k);
    expect(row).toHaveProperty('charge');
  };

  it('see only their own client’s shifts, with the charge and never pay or margin', async () => {
    const mine = await shift(at(50, '08:00'), at(50, '16:00'));
    const theirs = await shift(at(50, '08:00'), at(50, '16:00'), { client_id: otherClient, site_id: otherSite });
    const who = await staff();
    ok(await assign(mine.id, who));
    const list = (await get('/api/shifts?per_page=100', tok.client)).json();
    expect(list.data.length).toBeGreaterThan(0);
    for (const r of list.data) {
      expect(r.client_id).toBe(meadowbank);
      noPay(r);
    }
    noPay(ok(await get(`/api/shifts/${mine.id}`, tok.client)));
    // Asking for them by name changes nothing: ?fields= narrows what a row carries, never widens it.
    const asked = (
      await get('/api/shifts?per_page=100&fields=client_id,charge,pay,margin,on_costs', tok.client)
    ).json();
    expect(asked.data.length).toBe(list.data.length);
    for (const r of asked.data) expect(Object.keys(r).sort()).toEqual(['charge', 'client_id', 'id']);
    // Nor can a sort or a filter on pay or margin tell them the order of what the agency pays.
    for (const url of [
      '/api/shifts?sort=margin&order=DESC',
      '/api/shifts?sort=pay',
      '/api/shifts?pay_gte=1',
      '/api/shifts?margin=0',
    ]) {
      const res = await get(url, tok.client);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect(ok(await get(`/api/shifts/${mine.id}`, tok.client)).candidate_name).toMatch(/Sam Tester/);
    expect((await get(`/api/shifts/${theirs.id}`, tok.client)).statusCode).toBe(404);
    expect((await get(`/api/shifts/${mine.id}`, tok.client2)).statusCode).toBe(404);
    expect((await get(`/api/shifts/${mine.id}`, tok.otherAdmin)).statusCode).toBe(404);
    expect(
      (await get(`/api/shifts?per_page=100`, tok.client2))
        .json()
        .data.some((r: { client_id: number }) => r.client_id === meadowbank),
    ).toBe(false);
    const week = ok(
      await get(`/api/schedule?from=${addDaysToDate(base, 50)}&to=${addDaysToDate(base, 51)}`, tok.client),
    );
    expect(week.map((r: { id: number }) => r.id)).toContain(mine.id);
    expect(week.map((r: { id: number }) => r.id)).not.toContain(theirs.id);
    for (const r of week) noPay(r);
    // Another agency's schedule never holds it (the engine's row scope, as for a list of shifts).
    const elsewhere = ok(
      await get(`/api/schedule?from=${addDaysToDate(base, 50)}&to=${addDaysToDate(base, 51)}`, tok.otherAdmin),
    );
    expect(elsewhere.map((r: { id: number }) => r.id)).not.toContain(mine.id);
    expect(week.find((r: { id: number }) => r.id === mine.id)).toMatchObject({
      candidate_name: expect.stringMatching(/Sam Tester/),
      job_role_name: expect.any(String),
      site_name: expect.any(String),
    });
    // Agency users see pay and margin in the schedule.
    const agency = ok(await get(`/api/schedule?from=${addDaysToDate(base, 50)}&to=${addDaysToDate(base, 51)}`));
    expect(agency.find((r: { id: number }) => r.id === mine.id)).toMatchObject({
      pay: expect.any(Number),
      margin: expect.any(Number),
      client_name: 'Meadowbank Care Home',
    });
    expect((await get(`/api/schedule?from=${addDaysToDate(base, 50)}&to=${addDaysToDate(base, 150)}`)).statusCode).toBe(
      422,
    );
  });

  it('request a shift at their own site, not at another client’s; the agency is told', async () => {
    const start = at(52, '08:00');
    const req = ok(
      await post(
        '/api/shifts',
        {
          client_id: meadowbank,
          site_id: site,
          job_role_id: role,
          start_at: start,
          end_at: at(52, '16:00'),
          notes: 'Covering sickness',
        },
        tok.client,
      ),
      201,
    );
    expect(req).toMatchObject({ status: 'open', requested_by_client: true, client_id: meadowbank });
    noPay(req);
    const [notice] = await t.db.query(
      `select title, body from notifications where merchant_id = $1 order by id desc limit 1`,
      [merchantA],
    );
    expect(notice.title).toBe('Shift requested');
    expect(
      refused(
        await post(
          '/api/shifts',
          { client_id: meadowbank, site_id: otherSite, job_role_id: role, start_at: start, end_at: at(52, '16:00') },
          tok.client,
        ),
        422,
      ).errors?.site_id,
    ).toBeTruthy();
    expect(
      refused(
        await post(
          '/api/shifts',
          { client_id: otherClient, site_id: otherSite, job_role_id: role, start_at: start, end_at: at(52, '16:00') },
          tok.client,
        ),
        422,
      ).errors?.client_id,
    ).toBeTruthy();
    // A client user may not book, move or remove.
    expect((await post(`/api/shifts/${req.id}/actions/assign`, { candidate_id: 1 }, tok.client)).statusCode).toBe(403);
    expect((await post(`/api/shifts/${req.id}/actions/remove`, { reason: 'x' }, tok.client)).statusCode).toBe(403);
  });

  it('request several shifts at once; the agency reads them in words, one date said once', async () => {
    const [names] = await t.db.query(
      `select (select name from job_roles where id = $1) as role, (select name from sites where id = $2) as site`,
      [role, site],
    );
    const day = addDaysToDate(base, 58);
    const notice = async () =>
      (
        await t.db.query(
          `select title, body from notifications where merchant_id = $1 and client_id is null order by id desc limit 1`,
          [merchantA],
        )
      )[0];
    ok(
      await post(
        '/api/shifts/bulk',
        {
          client_id: meadowbank,
          site_id: site,
          job_role_id: role,
          start_time: '08:00',
          end_time: '16:00',
          dates: [day],
          staff_needed: 2,
        },
        tok.client,
      ),
      201,
    );
    expect(await notice()).toEqual({
      title: 'Shifts requested',
      body: `Helen Carter (Meadowbank Care Home) requests 2 ${names.role} shifts at ${names.site} on ${formatDisplayDate(day)}, 08:00–16:00.`,
    });
    const days = [0, 1, 3].map((d) => addDaysToDate(base, 60 + d));
    ok(
      await post(
        '/api/shifts/bulk',
        {
          client_id: meadowbank,
          site_id: site,
          job_role_id: role,
          start_time: '20:00',
          end_time: '08:00',
          dates: days,
        },
        tok.client,
      ),
      201,
    );
    expect((await notice()).body).toBe(
      `Helen Carter (Meadowbank Care Home) requests 3 ${names.role} shifts at ${names.site} on 3 dates from ${formatDisplayDate(days[0])} to ${formatDisplayDate(days[2])}, 20:00–08:00.`,
    );
  });

  it('cancel their own shift within the late window: the charge is shown before and stored after', async () => {
    const soon = new Date(Date.now() + 3 * 3600_000);
    soon.setUTCMinutes(0, 0, 0);
    const s = ok(
      await post(
        '/api/shifts',
        {
          client_id: meadowbank,
          site_id: site,
          job_role_id: role,
          start_at: soon.toISOString(),
          end_at: new Date(soon.getTime() + 8 * 3600_000).toISOString(),
        },
        tok.client,
      ),
      201,
    );
    // Only a booked shift's late cancellation is charged.
    expect(ok(await get(`/api/shifts/${s.id}/cancellation`, tok.client))).toMatchObject({
      allowed: true,
      late: false,
      charge: 0,
    });
    ok(await assign(s.id, await staff()));
    const preview = ok(await get(`/api/shifts/${s.id}/cancellation`, tok.client));
    expect(preview).toMatchObject({ late: true, hours: 4 });
    expect(preview.charge).toBeGreaterThan(0);
    expect(
      refused(
        await post(
          `/api/shifts/${s.id}/actions/cancel`,
          { reason: 'Resident in hospital', waive_charge: true },
          tok.client,
        ),
        422,
      ).errors?.waive_charge,
    ).toBeTruthy();
    expect((await post(`/api/shifts/${s.id}/actions/cancel`, { reason: 'Not ours' }, tok.client2)).statusCode).toBe(
      404,
    );
    const cancelled = ok(
      await post(`/api/shifts/${s.id}/actions/cancel`, { reason: 'Resident in hospital' }, tok.client),
    );
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancellation_charge: preview.charge,
      cancellation_hours: 4,
      cancelled_by: 'Helen Carter',
    });
    noPay(cancelled);
    expect(ok(await get(`/api/shifts/${s.id}`, tok.client)).cancellation_charge).toBe(preview.charge);
    const [notice] = await t.db.query(
      `select title, body from notifications where merchant_id = $1 and candidate_id is null order by id desc limit 1`,
      [merchantA],
    );
    expect(notice.title).toBe('Shift cancelled');
    // The reason is a sentence of its own, ended before the charge's.
    expect(notice.body).toMatch(
      /, was cancelled by Helen Carter[^:]*: Resident in hospital\. A late-cancellation charge of £\d+\.\d{2} applies\.$/,
    );
  });

  it('a late cancellation the agency records for the client charges too, unless the agency waives it; an early one is free', async () => {
    const soon = new Date(Date.now() + 5 * 3600_000);
    const late = await shift(soon.toISOString(), new Date(soon.getTime() + 6 * 3600_000).toISOString());
    ok(await assign(late.id, await staff()));
    expect(
      ok(await post(`/api/shifts/${late.id}/actions/cancel`, { reason: 'Client phoned', requested_by: 'client' }))
        .cancellation_charge,
    ).toBeGreaterThan(0);
    const waived = await shift(soon.toISOString(), new Date(soon.getTime() + 6 * 3600_000).toISOString());
    ok(await assign(waived.id, await staff()));
    expect(
      ok(
        await post(`/api/shifts/${waived.id}/actions/cancel`, {
          reason: 'We could not fill it',
          requested_by: 'client',
          waive_charge: true,
        }),
      ).cancellation_charge,
    ).toBeNull();
    const early = await shift(at(55, '08:00'), at(55, '16:00'));
    expect(ok(await get(`/api/shifts/${early.id}/cancellation`))).toMatchObject({ late: false, charge: 0 });
    expect(
      ok(await post(`/api/shifts/${early.id}/actions/cancel`, { reason: 'Not needed' })).cancellation_charge,
    ).toBeNull();
    const [notice] = await t.db.query(
      `select body from notifications where merchant_id = $1 and event = 'shift.cancelled' and candidate_id is null order by id desc limit 1`,
      [merchantA],
    );
    expect(notice.body).toMatch(/: Not needed\.$/);
  });
});

describe('bulk create', () => {
  /** The next last Sunday of `month` (3 or 10) after today: the clocks change in its early hours. */
  const nextChange = (month: number) => {
    for (let y = Number(today.slice(0, 4)); ; y++) {
      let d = addDaysToDate(`${y}-${String(month + 1).padStart(2, '0')}-01`, -1);
      while (dayOfWeek(d) !== 7) d = addDaysToDate(d, -1);
      if (d > addDaysToDate(today, 1)) return d;
    }
  };

  it('creates dates × staff needed open shifts from a template, nights across both clock changes', async () => {
    const [night] = await t.db.query(`select id from shift_templates where merchant_id = $1 and name = 'Night'`, [
      merchantA,
    ]);
    const back = addDaysToDate(nextChange(10), -1);
    const forward = addDaysToDate(nextChange(3), -1);
    const normal = addDaysToDate(back, -7);
    const res = await post('/api/shifts/bulk', {
      client_id: meadowbank,
      site_id: site,
      job_role_id: role,
      template_id: night.id,
      dates: [normal, back, forward],
      staff_needed: 2,
      notes: 'Winter cover',
    });
    const data = ok(res, 201);
    expect(res.json().count).toBe(6);
    const lengths = Object.fromEntries(
      data.map((s: { start_at: string; end_at: string }) => [
        s.start_at,
        (Date.parse(s.end_at) - Date.parse(s.start_at)) / 3600_000,
      ]),
    );
    expect(lengths[zonedDateTimeToInstant(normal, '20:00', TZ).toISOString()]).toBe(12);
    expect(lengths[zonedDateTimeToInstant(back, '20:00', TZ).toISOString()]).toBe(13);
    expect(lengths[zonedDateTimeToInstant(forward, '20:00', TZ).toISOString()]).toBe(11);
    for (const s of data)
      expect(s).toMatchObject({ status: 'open', notes: 'Winter cover', template_id: night.id, break_minutes: 30 });
    const audited = await t.db.query(
      `select count(*)::int as n from audit_log where resource = 'shifts' and event = 'create' and record_id = any($1)`,
      [data.map((s: { id: number }) => s.id)],
    );
    expect(audited[0].n).toBe(6);
  });

  it('takes times typed in, and refuses more than 500 shifts or another client’s site', async () => {
    const dates = Array.from({ length: 7 }, (_, i) => addDaysToDate(base, 60 + i));
    const res = await post('/api/shifts/bulk', {
      client_id: meadowbank,
      site_id: site,
      job_role_id: role,
      start_time: '07:00',
      end_time: '15:00',
      dates,
      staff_needed: 3,
    });
    expect(ok(res, 201)).toHaveLength(21);
    const many = Array.from({ length: 260 }, (_, i) => addDaysToDate(base, i));
    expect(
      refused(
        await post('/api/shifts/bulk', {
          client_id: meadowbank,
          site_id: site,
          job_role_id: role,
          start_time: '07:00',
          end_time: '15:00',
          dates: many,
          staff_needed: 2,
        }),
        422,
      ).errors?.staff_needed,
    ).toMatch(/At most 500/);
    expect(
      refused(
        await post('/api/shifts/bulk', {
          client_id: meadowbank,
          site_id: otherSite,
          job_role_id: role,
          start_time: '07:00',
          end_time: '15:00',
          dates,
        }),
        422,
      ).errors?.site_id,
    ).toBeTruthy();
    expect(
      refused(
        await post('/api/shifts/bulk', {
          client_id: meadowbank,
          site_id: site,
          job_role_id: role,
          start_time: '7am',
          end_time: '15:00',
          dates,
        }),
        422,
      ).errors?.start_time,
    ).toBeTruthy();
    expect(
      refused(
        await post(
          '/api/shifts/bulk',
          {
            client_id: otherClient,
            site_id: otherSite,
            job_role_id: role,
            start_time: '07:00',
            end_time: '15:00',
            dates,
          },
          tok.client,
        ),
        422,
      ).errors?.client_id,
    ).toBeTruthy();
  });
});

describe('suggested staff', () => {
  it('lists those who pass the hard checks: available first, then preferred, then fewest hours this week', async () => {
    // A job role of its own, so that only this test's staff are in the pool.
    const [r] = await fixtureWrite(
      t.db,
      `insert into job_roles (merchant_id, name, code, default_pay_rate, default_charge_rate) values ($1, 'Activities coordinator', 'ACT', 1300, 2000) returning id`,
      [merchantA],
    );
    const cols = BANDS.flatMap((b) => [`pay_${b}`, `charge_${b}`]).join(', ');
    await fixtureWrite(
      t.db,
      `insert into rate_cards (merchant_id, client_id, site_id, job_role_id, effective_from, ${cols})
      select merchant_id, client_id, site_id, $2, effective_from, ${cols}
      from rate_cards
      where merchant_id = $1 and client_id = $3 and job_role_id = $4 and site_id is null and effective_to is null`,
      [merchantA, r.id, meadowbank, role],
    );
    const day = addDaysToDate(base, 80);
    const s = await shift(at(80, '08:00'), at(80, '16:00'), { job_role_id: r.id });
    const mk = (first: string) => staff({ role: r.id, first });
    const [availablePreferred, available, busyAvailable, preferredOnly, restricted, booked, notCompliant] = [
      await mk('Ann'),
      await mk('Ben'),
      await mk('Abe'),
      await mk('Dee'),
      await mk('Eve'),
      await mk('Fay'),
      await staff({ role: r.id, first: 'Gus', docs: 'none' }),
    ];
    for (const id of [availablePreferred, available, busyAvailable])
      await fixtureWrite(
        t.db,
        `insert into availability (merchant_id, candidate_id, date, status) values ($1, $2, $3, 'available')`,
        [merchantA, id, day],
      );
    for (const id of [availablePreferred, preferredOnly])
      await fixtureWrite(
        t.db,
        `insert into candidate_preferences (merchant_id, candidate_id, preferred_client_ids) values ($1, $2, $3)`,
        [merchantA, id, [meadowbank]],
      );
    await fixtureWrite(
      t.db,
      `insert into candidate_restrictions (merchant_id, candidate_id, client_id, reason, restricted_on) values ($1, $2, $3, 'Conduct', $4)`,
      [merchantA, restricted, meadowbank, today],
    );
    const other = await shift(at(80, '06:00'), at(80, '12:00'), { job_role_id: r.id });
    ok(await assign(other.id, booked));
    // Abe worked the early hours of the same day: 6 hours this week (and too little rest, a soft check).
    const earlier = await shift(at(80, '00:00'), at(80, '06:00'), { job_role_id: r.id });
    ok(await assign(earlier.id, busyAvailable));
    const list = ok(await get(`/api/shifts/${s.id}/suggestions?limit=10`));
    expect(list.map((x: { name: string }) => x.name.split(' ')[0])).toEqual(['Ann', 'Ben', 'Abe', 'Dee']);
    expect(list[0]).toMatchObject({
      candidate_id: availablePreferred,
      available: true,
      preferred: true,
      hours_this_week: 0,
      soft: [],
      job_role: 'Activities coordinator',
    });
    expect(list[2]).toMatchObject({
      candidate_id: busyAvailable,
      hours_this_week: 5.5,
      soft: [expect.objectContaining({ code: 'short_rest' })],
    });
    expect(list[3]).toMatchObject({ candidate_id: preferredOnly, available: false, preferred: true });
    // Not available because nothing is entered, not because they said no.
    expect(list[0].availability).toBe('fits');
    expect(list[3].availability).toBe('not_set');
    const listed = list.map((x: { candidate_id: number }) => x.candidate_id);
    for (const absent of [restricted, booked, notCompliant]) expect(listed).not.toContain(absent);
    // Assigning from the list in one click.
    expect(ok(await assign(s.id, list[0].candidate_id)).candidate_id).toBe(availablePreferred);
  });
});
