import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';
import { refreshCompliance } from '../../server/services/compliance';

// Issue 14, "A coordinator's real week": the staff member told of their bookings, fair cancellations, the legal
// minimum wage as a booking check, restrictions against existing bookings, the client's quote, paid hours.
let t: TestApp;
const tok = {} as Record<'admin' | 'consultant' | 'client' | 'client2' | 'staff', string>;
const TZ = 'Europe/London';
let merchantA: number;
let meadowbank: number;
let site: number;
let role: number;
let today: string;
let base: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  const who = ['admin', 'consultant', 'client', 'client2', 'staff'] as const;
  const tokens = await Promise.all(who.map((w) => loginAs(t.app, w)));
  who.forEach((w, i) => (tok[w] = tokens[i]));
  merchantA = (await t.db.query(`select id from merchants where company_name = 'Brightway Staffing'`))[0].id;
  meadowbank = (
    await t.db.query(`select id from clients where merchant_id = $1 and name = 'Meadowbank Care Home'`, [merchantA])
  )[0].id;
  site = (
    await t.db.query(
      'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
      [merchantA, meadowbank],
    )
  )[0].id;
  role = (await t.db.query('select id from job_roles where merchant_id = $1 order by id limit 1', [merchantA]))[0].id;
  today = agencyToday(TZ);
  base = addDaysToDate(today, 120);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, token = tok.admin) => call(t.app, token, 'GET', url);
const post = (url: string, body: unknown, token = tok.admin) => call(t.app, token, 'POST', url, body);
const put = (url: string, body: unknown, token = tok.admin) => call(t.app, token, 'PUT', url, body);
const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body.slice(0, 600)).toBe(status);
  return res.json().data;
};
const refused = (res: LightMyRequestResponse, status: number) => {
  expect(res.statusCode, res.body.slice(0, 600)).toBe(status);
  return res.json() as { message: string; errors?: Record<string, string> };
};
const at = (days: number, time: string, from = base) =>
  zonedDateTimeToInstant(addDaysToDate(from, days), time, TZ).toISOString();
const hoursFromNow = (h: number) => {
  const d = new Date(Date.now() + h * 3600_000);
  d.setUTCSeconds(0, 0);
  return d.toISOString();
};

let n = 0;
/** An approved, active, compliant staff member of agency A for the shared job role. */
async function staff(
  o: { dob?: string | null; paye?: boolean; employment?: string; phone?: string } = {},
): Promise<number> {
  n += 1;
  let employmentType: number | null = null;
  if (o.paye !== undefined) {
    [{ id: employmentType }] = await fixtureWrite(
      t.db,
      `insert into employment_types (merchant_id, name, paye) values ($1, $2, $3) returning id`,
      [merchantA, o.employment ?? `Week type ${n}`, o.paye],
    );
  }
  const [c] = await fixtureWrite(
    t.db,
    `insert into candidates (merchant_id, first_name, last_name, email, phone, job_role_id, status, activated, date_of_birth, employment_type_id)
     values ($1, 'Wes', $2, $3, $4, $5, 'approved', true, $6, $7) returning id`,
    [merchantA, `Week${n}`, `week-${n}@example.test`, o.phone ?? null, role, o.dob ?? null, employmentType],
  );
  const categories = await t.db.query<{ id: number }>(
    'select id from document_categories where merchant_id = $1 and (mandatory or $2 = any(job_role_ids))',
    [merchantA, role],
  );
  for (const cat of categories) {
    await fixtureWrite(
      t.db,
      `insert into candidate_documents (merchant_id, candidate_id, document_category_id, file, status, expiry_date, current) values ($1, $2, $3, 'w.pdf', 'verified', $4, true)`,
      [merchantA, c.id, cat.id, addDaysToDate(today, 900)],
    );
  }
  await refreshCompliance(t.db, merchantA, [c.id]);
  return c.id;
}

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

describe('the staff member is told (item 1)', () => {
  it('of a booking, a move and a cancellation, in their own words, by every channel the settings name, and on their page', async () => {
    for (const event of ['shift.filled', 'shift.cancelled']) {
      ok(
        await put(`/api/notification_settings/${event}`, {
          channels: ['email', 'sms', 'push', 'alert'],
          recipients: ['agency_admins', 'client_users', 'staff'],
        }),
        200,
      );
    }
    const who = await staff({ phone: '07700 900123' });
    // The demo staff sign-in stands for this staff member.
    await fixtureWrite(t.db, `update users set candidate_id = $1 where email = 'staff@demo.test'`, [who]);
    const s = await shift(at(0, '08:00'), at(0, '16:00'));
    ok(await assign(s.id, who));

    const mine = await t.db.query(
      `select title, body from notifications where merchant_id = $1 and candidate_id = $2 order by id`,
      [merchantA, who],
    );
    expect(mine).toHaveLength(1);
    expect(mine[0].title).toBe('You are booked');
    expect(mine[0].body).toMatch(/^You are booked at .+ \(Meadowbank Care Home\) on .+08:00–16:00, as .+\.$/);
    const [mail] = await t.db.query(`select subject, text from email_outbox where recipient = $1`, [
      `week-${n}@example.test`,
    ]);
    expect(mail.text).toContain('You are booked at');
    const messages = await t.db.query(
      `select channel, recipient, body from message_outbox where recipient in ($1, $2) order by channel`,
      ['07700 900123', `candidate:${who}`],
    );
    expect(messages.map((m) => m.channel)).toEqual(['push', 'sms']);
    for (const m of messages) expect(m.body).toMatch(/^You are booked: You are booked at /);
    // The agency and the client still read the agency's words.
    const [agency] = await t.db.query(
      `select body from notifications where merchant_id = $1 and client_id is null and candidate_id is null and event = 'shift.filled' order by id desc limit 1`,
      [merchantA],
    );
    expect(agency.body).toMatch(/will work as/);

    ok(await post(`/api/shifts/${s.id}/actions/move`, { start: at(1, '09:00'), end: at(1, '17:00') }));
    ok(await post(`/api/shifts/${s.id}/actions/cancel`, { reason: 'Resident in hospital', requested_by: 'client' }));

    const page = await get('/api/staff_notifications?page=1&per_page=10', tok.staff);
    expect(page.statusCode, page.body).toBe(200);
    const list = page.json();
    expect(list.notifications.map((x: { title: string }) => x.title)).toEqual([
      'You are no longer booked',
      'Your shift has moved',
      'You are booked',
    ]);
    expect(list.notifications[0].body).toMatch(/the shift was cancelled \(Resident in hospital\)\.$/);
    // Never the client's charge, never another audience's rows.
    expect(list.notifications.some((x: { body: string }) => /charge/i.test(x.body))).toBe(false);
    expect(list.total_count).toBe(3);
    expect((await put('/api/staff_notification_read_all', {}, tok.staff)).statusCode).toBe(200);
    expect((await get('/api/staff_notifications', tok.admin)).statusCode).toBe(403);
  });

  it('tells the staff member taken off a shift', async () => {
    const who = await staff();
    const s = await shift(at(3, '08:00'), at(3, '16:00'));
    ok(await assign(s.id, who));
    ok(await post(`/api/shifts/${s.id}/actions/unassign`, {}));
    const [last] = await t.db.query(
      `select title, body from notifications where merchant_id = $1 and candidate_id = $2 order by id desc limit 1`,
      [merchantA, who],
    );
    expect(last.title).toBe('You are no longer booked');
    expect(last.body).toMatch(/you were taken off the shift\.$/);
  });
});

describe('fair cancellation (item 2)', () => {
  it('a past unfilled shift is "unfilled" and cannot be cancelled for a charge', async () => {
    const past = await shift(hoursFromNow(-30), hoursFromNow(-22));
    expect(ok(await get(`/api/shifts/${past.id}`)).state).toBe('unfilled');
    const preview = ok(await get(`/api/shifts/${past.id}/cancellation?requested_by=client`));
    expect(preview).toMatchObject({ allowed: false, charge: 0 });
    expect(
      refused(
        await post(`/api/shifts/${past.id}/actions/cancel`, { reason: 'Late paperwork', requested_by: 'client' }),
        409,
      ).message,
    ).toMatch(/passed unfilled/);
    expect(
      refused(await post(`/api/shifts/${past.id}/actions/cancel`, { reason: 'Late paperwork' }, tok.client), 409)
        .message,
    ).toMatch(/passed unfilled/);
    // The unfilled list finds it.
    const unfilled = (await get(`/api/shifts?state=unfilled&per_page=100`))
      .json()
      .data.map((r: { id: number }) => r.id);
    expect(unfilled).toContain(past.id);
  });

  it('a client cannot cancel a shift under way; the agency may, and is not charged for its own decision', async () => {
    const who = await staff();
    const s = await shift(hoursFromNow(-2), hoursFromNow(6));
    ok(await assign(s.id, who));
    expect(
      refused(await post(`/api/shifts/${s.id}/actions/cancel`, { reason: 'Send them home' }, tok.client), 409).message,
    ).toMatch(/already started/);
    const cancelled = ok(
      await post(`/api/shifts/${s.id}/actions/cancel`, { reason: 'Worker taken ill on shift', requested_by: 'worker' }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_requested_by: 'worker', cancellation_charge: null });
  });

  it('records a no-show once a booked shift has started, even the day after, never charged; the staff report counts it', async () => {
    const who = await staff();
    const ahead = await shift(hoursFromNow(5), hoursFromNow(13));
    ok(await assign(ahead.id, who));
    expect(
      refused(await post(`/api/shifts/${ahead.id}/actions/cancel`, { reason: 'x', requested_by: 'no_show' }), 409)
        .message,
    ).toBe('This shift has not started yet: a no-show is recorded once it has.');
    // A client user's cancellation is the client's, whatever it says of who asked: only the agency records a no-show.
    const theirs = await shift(hoursFromNow(30), hoursFromNow(38));
    ok(await assign(theirs.id, who));
    ok(
      await post(
        `/api/shifts/${theirs.id}/actions/cancel`,
        { reason: 'Resident in hospital', requested_by: 'no_show' },
        tok.client,
      ),
    );
    const [recorded] = await t.db.query<{ cancel_requested_by: string }>(
      'select cancel_requested_by from shifts where id = $1',
      [theirs.id],
    );
    expect(recorded.cancel_requested_by).toBe('client');
    const unfilled = await shift(hoursFromNow(-3), hoursFromNow(5));
    expect(
      refused(await post(`/api/shifts/${unfilled.id}/actions/cancel`, { reason: 'x', requested_by: 'no_show' }), 409)
        .message,
    ).toBe('Nobody is booked on this shift, so there is no one to be a no-show.');
    // Ended yesterday, booked and not closed: the home says the next day that nobody came.
    const missed = await shift(hoursFromNow(-30), hoursFromNow(-22));
    await fixtureWrite(t.db, `update shifts set status = 'assigned', candidate_id = $2 where id = $1`, [
      missed.id,
      who,
    ]);
    expect(ok(await get(`/api/shifts/${missed.id}/cancellation?requested_by=no_show`))).toMatchObject({
      allowed: true,
      charge: 0,
    });
    const noShow = ok(
      await post(`/api/shifts/${missed.id}/actions/cancel`, {
        reason: 'Did not arrive; the home covered the shift itself.',
        requested_by: 'no_show',
      }),
    );
    expect(noShow).toMatchObject({
      status: 'cancelled',
      cancel_requested_by: 'no_show',
      cancellation_charge: null,
      cancellation_pay: null,
    });
    // The agency's notice says why.
    const [notice] = await t.db.query<{ body: string }>(
      `select body from notifications where merchant_id = $1 and title = 'Shift cancelled' order by id desc limit 1`,
      [merchantA],
    );
    expect(notice.body).toContain('because the staff member did not turn up');
    const report = await get(
      `/api/reports/staff_activity?period=custom&from=${addDaysToDate(today, -3)}&to=${today}&candidate_id=${who}`,
    );
    expect(report.statusCode, report.body.slice(0, 300)).toBe(200);
    expect(report.json().totals).toMatchObject({ no_shows: 1, staff_cancellations: 0, cancellations: 1 });
  });

  it('charges the client only for its own late cancellation of a booked shift', async () => {
    const agencySick = await shift(hoursFromNow(5), hoursFromNow(13));
    ok(await assign(agencySick.id, await staff()));
    expect(ok(await get(`/api/shifts/${agencySick.id}/cancellation?requested_by=agency`))).toMatchObject({
      allowed: true,
      late: false,
      charge: 0,
    });
    expect(ok(await get(`/api/shifts/${agencySick.id}/cancellation?requested_by=client`)).charge).toBeGreaterThan(0);
    const byAgency = ok(
      await post(`/api/shifts/${agencySick.id}/actions/cancel`, {
        reason: 'Our worker is off sick',
        requested_by: 'agency',
      }),
    );
    expect(byAgency).toMatchObject({
      cancel_requested_by: 'agency',
      cancellation_charge: null,
      cancel_reason: 'Our worker is off sick',
    });

    const unfilled = await shift(hoursFromNow(5), hoursFromNow(13), {}, tok.client);
    expect(
      ok(await post(`/api/shifts/${unfilled.id}/actions/cancel`, { reason: 'Not needed after all' }, tok.client))
        .cancellation_charge,
    ).toBeNull();

    const booked = await shift(hoursFromNow(5), hoursFromNow(13));
    ok(await assign(booked.id, await staff()));
    // A client user speaks for the client whatever it sends.
    const byClient = ok(
      await post(
        `/api/shifts/${booked.id}/actions/cancel`,
        { reason: 'Resident in hospital', requested_by: 'agency' },
        tok.client,
      ),
    );
    expect(byClient.cancel_requested_by).toBe('client');
    expect(byClient.cancellation_charge).toBeGreaterThan(0);
    // Shown in the client's cancelled list and the agency's.
    const clientRes = await get(`/api/shifts?state=cancelled&per_page=100`, tok.client);
    expect(clientRes.statusCode, clientRes.body.slice(0, 300)).toBe(200);
    const clientList = clientRes.json().data;
    expect(clientList.find((r: { id: number }) => r.id === booked.id).cancellation_charge).toBe(
      byClient.cancellation_charge,
    );
    const agencyList = (await get(`/api/shifts?state=cancelled&per_page=100`)).json().data;
    expect(agencyList.find((r: { id: number }) => r.id === booked.id).cancellation_charge).toBe(
      byClient.cancellation_charge,
    );

    // The agency waives or changes it, with a reason; the client may not.
    expect(
      (await post(`/api/shifts/${booked.id}/actions/change_charge`, { charge: 0, reason: 'Goodwill' }, tok.client))
        .statusCode,
    ).toBe(403);
    expect(
      refused(await post(`/api/shifts/${booked.id}/actions/change_charge`, { charge: 0 }), 422).errors?.reason,
    ).toBeTruthy();
    const changed = ok(
      await post(`/api/shifts/${booked.id}/actions/change_charge`, {
        charge: 5000,
        reason: 'Agreed half with the manager',
      }),
    );
    expect(changed).toMatchObject({
      cancellation_charge: 5000,
      cancellation_rule_charge: byClient.cancellation_charge,
      cancellation_charge_reason: 'Agreed half with the manager',
    });
    const waived = ok(await post(`/api/shifts/${booked.id}/actions/change_charge`, { charge: 0, reason: 'Goodwill' }));
    expect(waived).toMatchObject({
      cancellation_charge: null,
      cancellation_rule_charge: byClient.cancellation_charge,
      cancellation_charge_changed_by: expect.any(String),
    });
    expect(
      refused(await post(`/api/shifts/${agencySick.id}/actions/change_charge`, { charge: -1, reason: 'x' }), 422).errors
        ?.charge,
    ).toBeTruthy();
    const open = await shift(at(9, '08:00'), at(9, '16:00'));
    expect(
      refused(await post(`/api/shifts/${open.id}/actions/change_charge`, { charge: 100, reason: 'x' }), 409).message,
    ).toBe('This shift is open: Change cancellation charge is only for a cancelled shift.');
  });
});

describe('pay below the legal minimum (item 4; issue 30.6)', () => {
  it('refuses a PAYE worker with no override, warns for an umbrella worker naming it; flags the card and the staff rates', async () => {
    const [r] = await fixtureWrite(
      t.db,
      `insert into job_roles (merchant_id, name, code, default_pay_rate, default_charge_rate) values ($1, 'Night porter', 'NPT', 1250, 2000) returning id`,
      [merchantA],
    );
    const pay = {
      pay_weekday_day: 1300,
      pay_weekday_night: 1250,
      pay_saturday: 1300,
      pay_sunday: 1300,
      pay_bank_holiday: 1900,
    };
    const charge = {
      charge_weekday_day: 2000,
      charge_weekday_night: 2000,
      charge_saturday: 2100,
      charge_sunday: 2100,
      charge_bank_holiday: 2800,
    };
    const card = ok(
      await post('/api/rate_cards', {
        client_id: meadowbank,
        job_role_id: r.id,
        effective_from: today,
        ...pay,
        ...charge,
      }),
      201,
    );
    expect(card.wage_flag).toBe('Pay below the minimum wage of £12.71 an hour: PAYE staff cannot be booked at it');
    const fine = ok(
      await post('/api/rate_cards', {
        client_id: meadowbank,
        site_id: site,
        job_role_id: r.id,
        effective_from: today,
        ...pay,
        pay_weekday_night: 1300,
        ...charge,
      }),
      201,
    );
    expect(fine.wage_flag).toBeNull();
    const listed = (await get(`/api/rate_cards?job_role_id=${r.id}`)).json().data;
    expect(listed.map((c: { wage_flag: string | null }) => c.wage_flag).sort()).toEqual(
      [null, 'Pay below the minimum wage of £12.71 an hour: PAYE staff cannot be booked at it'].sort(),
    );

    // The job role's default pay (£12.50) is flagged for the agency too; a client's user never reads it (issue 30.6).
    expect(ok(await get(`/api/job_roles/${r.id}`)).wage_flag).toBe(
      'Pay below the minimum wage of £12.71 an hour: PAYE staff cannot be booked at it',
    );
    const roleForClient = ok(await get(`/api/job_roles/${r.id}`, tok.client));
    expect(roleForClient).not.toHaveProperty('wage_flag');
    expect(roleForClient).not.toHaveProperty('default_pay_rate');
    await fixtureWrite(t.db, 'update job_roles set default_pay_rate = 1300 where id = $1', [r.id]);
    expect(ok(await get(`/api/job_roles/${r.id}`)).wage_flag).toBeNull();

    // The client-wide card prices the other site (the site's own card pays £13.00).
    const [{ id: otherSite }] = await t.db.query(
      'select id from sites where merchant_id = $1 and client_id = $2 and id <> $3 and deleted_at is null order by id limit 1',
      [merchantA, meadowbank, site],
    );
    // Nights from a Monday (Monday to Wednesday), whatever day the run falls on: the cards pay £12.50 on weekday nights
    // only (£13.00 at weekends, which no check refuses). Counted from the run's date, they fell at a weekend two days a
    // week.
    const monday = startOfWeekMonday(addDaysToDate(base, 20));
    const night = (d: number) =>
      shift(at(d, '20:00', monday), at(d + 1, '06:00', monday), { job_role_id: r.id, site_id: otherSite });
    const paye = async (dob: string | null) => {
      const id = await staff({ dob, paye: true });
      await fixtureWrite(t.db, 'update candidates set job_role_id = $2 where id = $1', [id, r.id]);
      return id;
    };
    const adult = await paye('1972-01-15');
    const s = await night(0);
    // A PAYE worker below the legal minimum is refused, for an admin too, whatever reason is given (issue 30.6).
    const byConsultant = refused(await assign(s.id, adult, {}, tok.consultant), 409);
    expect(byConsultant.message).toMatch(
      /cannot be booked on this shift\. .*would be paid £12\.50 an hour \(Weekday night\), below the National Living Wage of £12\.71 an hour from 1 April 2026 at age \d+\. A PAYE worker cannot be paid below the legal minimum/,
    );
    const byAdmin = refused(
      await assign(s.id, adult, { override_reason: 'Agreed rise from next week; HR approved the difference' }),
      409,
    );
    expect(byAdmin.errors?.candidate_id).toMatch(/A PAYE worker cannot be paid below the legal minimum/);
    const check = ok(await get(`/api/shifts/${s.id}/check?candidate_id=${adult}`));
    expect(check.hard).toEqual([expect.objectContaining({ code: 'below_minimum_wage' })]);
    expect(check.hard[0].overridable).toBeUndefined();
    const [still] = await t.db.query('select status, candidate_id from shifts where id = $1', [s.id]);
    expect(still).toEqual({ status: 'open', candidate_id: null });

    // Employed through an umbrella: a warning naming it, which only an admin may book past, with a reason.
    const umbrella = await staff({ paye: false, employment: 'Umbrella company (week)' });
    await fixtureWrite(t.db, 'update candidates set job_role_id = $2 where id = $1', [umbrella, r.id]);
    expect(refused(await assign(s.id, umbrella, {}, tok.consultant), 409).message).toMatch(
      /below the National Living Wage of £12\.71 an hour from 1 April 2026\. They are employed through Umbrella company \(week\), not on the agency's PAYE payroll.* Only an admin can book/,
    );
    expect(refused(await assign(s.id, umbrella), 422).errors?.override_reason).toMatch(
      /employed through Umbrella company \(week\)/,
    );
    const booked = ok(await assign(s.id, umbrella, { override_reason: 'Umbrella confirmed the NLW is met' }));
    expect(booked.booking_checks.overridden).toEqual([
      expect.objectContaining({ code: 'below_minimum_wage', message: expect.stringContaining('Umbrella company') }),
    ]);

    // Aged 19 (£10.85 from April 2026): booked without a word.
    ok(await assign((await night(2)).id, await paye(addDaysToDate(today, -19 * 366))));

    // Their own rates below the floor are flagged on their rate card tab.
    const own = ok(
      await post('/api/candidate_rates', { candidate_id: adult, effective_from: today, pay_weekday_night: 1200 }),
      201,
    );
    expect(own.wage_flag).toBe('Pay below the minimum wage of £12.71 an hour: PAYE staff cannot be booked at it');
  });
});

describe('a line repriced from its booking (issue 30.6)', () => {
  it('says why its pay differs from the shift as booked; a line at the booked rates says nothing', async () => {
    // The demo has one: a staff member's rise agreed after their fortnight was booked (server/seed/shifts.ts).
    const [demo] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from timesheet_lines where merchant_id = $1 and repricing_note like 'Repriced from the booking: Weekday day %'`,
      [merchantA],
    );
    expect(demo.n).toBeGreaterThan(0);
    // A role of its own, with a card paying £11.50 an hour in every band from long ago.
    const [r] = await fixtureWrite(
      t.db,
      `insert into job_roles (merchant_id, name, code, default_pay_rate, default_charge_rate) values ($1, 'Kitchen porter', 'KPR', 1150, 1800) returning id`,
      [merchantA],
    );
    const every = (prefix: string, pence: number) =>
      Object.fromEntries(
        ['weekday_day', 'weekday_night', 'saturday', 'sunday', 'bank_holiday'].map((b) => [`${prefix}_${b}`, pence]),
      );
    ok(
      await post('/api/rate_cards', {
        client_id: meadowbank,
        job_role_id: r.id,
        effective_from: addDaysToDate(today, -200),
        ...every('pay', 1150),
        ...every('charge', 1800),
      }),
      201,
    );
    // Two weeks ago, a Monday day shift and a Tuesday one, for an umbrella worker: booked past the warning.
    const week = addDaysToDate(startOfWeekMonday(today), -14);
    const worker = await staff({ paye: false, employment: 'Umbrella company (repricing)' });
    await fixtureWrite(t.db, 'update candidates set job_role_id = $2 where id = $1', [worker, r.id]);
    const booked = [];
    for (const d of [0, 1]) {
      const s = await shift(at(d, '08:00', week), at(d, '16:00', week), { job_role_id: r.id });
      booked.push(ok(await assign(s.id, worker, { override_reason: 'The umbrella tops it up' })));
    }
    expect(booked.map((b) => b.price_lines[0].pay_rate)).toEqual([1150, 1150]);
    // Their own pay rate of £13.00 an hour from the Tuesday, agreed after the booking.
    ok(
      await post('/api/candidate_rates', {
        candidate_id: worker,
        job_role_id: r.id,
        effective_from: addDaysToDate(week, 1),
        ...every('pay', 1300),
      }),
      201,
    );
    ok(await post('/api/timesheets/actions/generate', { week_start: week }));
    const lines = (await get(`/api/timesheet_lines?candidate_id=${worker}&per_page=10`)).json().data as Record<
      string,
      any
    >[];
    const lineOf = (id: number) => lines.find((l) => l.shift_id === id)!;
    const [monday, tuesday] = booked;
    expect(lineOf(monday.id)).toMatchObject({ pay: monday.pay, repricing_note: null });
    const repriced = lineOf(tuesday.id);
    expect(repriced.price_lines[0].pay_rate).toBe(1300);
    expect(repriced.pay).toBeGreaterThan(tuesday.pay);
    expect(repriced.repricing_note).toMatch(
      /^Repriced from the booking: Weekday day £13\.00 an hour, booked at £11\.50 an hour\. /,
    );
    // A client's user reads neither the pay nor the note.
    const forClient = (await get(`/api/timesheet_lines/${repriced.id}`, tok.client)).json().data;
    expect(forClient).not.toHaveProperty('repricing_note');
    expect(forClient).not.toHaveProperty('pay');
  });
});

describe('the client’s quote (item 8)', () => {
  it('prices a client’s own request with the charge only; another client’s is refused', async () => {
    const body = {
      client_id: meadowbank,
      site_id: site,
      job_role_id: role,
      start: at(30, '08:00'),
      end: at(30, '20:00'),
    };
    const res = await post('/api/rates/quote', body, tok.client);
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json();
    const agency = (await post('/api/rates/quote', body)).json();
    expect(q.totals).toEqual({ hours: agency.totals.hours, charge: agency.totals.charge });
    expect(q.totals.charge).toBeGreaterThan(0);
    expect(JSON.stringify(q)).not.toMatch(/pay|margin|on_costs/);
    expect(q.lines[0]).toEqual({
      band: agency.lines[0].band,
      start: agency.lines[0].start,
      end: agency.lines[0].end,
      hours: agency.lines[0].hours,
      minutes: agency.lines[0].minutes,
      charge_rate: agency.lines[0].charge_rate,
      charge: agency.lines[0].charge,
    });
    expect(refused(await post('/api/rates/quote', body, tok.client2), 422).errors?.client_id).toBe(
      'Choose your own organisation.',
    );
    // Whatever is sent for it: the client the engine's row scope shows them is the only one they may price.
    for (const client_id of ['2', null, -1, 1.5, 999_999])
      expect(
        refused(await post('/api/rates/quote', { ...body, client_id }, tok.client), 422).errors?.client_id,
        JSON.stringify(client_id),
      ).toBe('Choose your own organisation.');
  });
});

describe('a new restriction and the existing bookings (item 7)', () => {
  it('lists the future bookings it covers, which the agency unassigns (the staff member told)', async () => {
    const who = await staff();
    const [future, past, elsewhere] = [
      await shift(at(40, '08:00'), at(40, '16:00')),
      await shift(hoursFromNow(-40), hoursFromNow(-32)),
      await shift(at(41, '08:00'), at(41, '16:00')),
    ];
    for (const s of [future, past, elsewhere]) ok(await assign(s.id, who));
    // The third booking is at the client's other site.
    const [{ id: otherSite }] = await t.db.query(
      'select id from sites where merchant_id = $1 and client_id = $2 and id <> $3 and deleted_at is null order by id limit 1',
      [merchantA, meadowbank, site],
    );
    await fixtureWrite(t.db, 'update shifts set site_id = $2 where id = $1', [elsewhere.id, otherSite]);
    const r = ok(
      await post('/api/candidate_restrictions', {
        candidate_id: who,
        client_id: meadowbank,
        site_id: site,
        reason: 'Complaint from the home',
        restricted_on: today,
      }),
      201,
    );
    expect(r.affected_shifts.map((s: { id: number }) => s.id)).toEqual([future.id]);
    expect(r.affected_shifts[0]).toMatchObject({ id: future.id, site: expect.any(String) });
    ok(await post('/api/shifts/actions/unassign', { ids: r.affected_shifts.map((s: { id: number }) => s.id) }));
    expect(ok(await get(`/api/candidate_restrictions/${r.id}`)).affected_shifts).toEqual([]);
    const [last] = await t.db.query(
      `select title from notifications where merchant_id = $1 and candidate_id = $2 order by id desc limit 1`,
      [merchantA, who],
    );
    expect(last.title).toBe('You are no longer booked');
    // Client-wide, the other site's booking is covered too.
    const wide = ok(
      await post('/api/candidate_restrictions', {
        candidate_id: who,
        client_id: meadowbank,
        reason: 'Barred by the home',
        restricted_on: today,
      }),
      201,
    );
    expect(wide.affected_shifts.map((s: { id: number }) => s.id)).toEqual([elsewhere.id]);
  });
});

describe('a drag on the schedule (item 17)', () => {
  const rowsOf = (shiftId: number) =>
    t.db.query<{ client_id: number | null; candidate_id: number | null; event: string; title: string; body: string }>(
      `select client_id, candidate_id, event, title, body from notifications where merchant_id = $1 and (data->>'shift_id')::int = $2 order by id`,
      [merchantA, shiftId],
    );

  it('moving a booked shift to other times tells the staff member booked and the client, in their own words', async () => {
    const who = await staff();
    const s = await shift(at(50, '08:00'), at(50, '16:00'));
    ok(await assign(s.id, who));
    const before = (await rowsOf(s.id)).length;
    ok(await post(`/api/shifts/${s.id}/actions/move`, { start: at(51, '10:00'), end: at(51, '18:00') }));
    const moved = (await rowsOf(s.id)).slice(before);
    expect(moved.every((r) => r.event === 'shift.moved')).toBe(true);
    const client = moved.find((r) => Number(r.client_id) === meadowbank);
    expect(client?.title).toBe('Shift moved');
    expect(client?.body).toMatch(
      /^The .+ shift at .+ \(Meadowbank Care Home\), booked for Wes Week\d+, has moved from .+08:00–16:00 to .+10:00–18:00\.$/,
    );
    const mine = moved.find((r) => Number(r.candidate_id) === who);
    expect(mine?.title).toBe('Your shift has moved');
    expect(mine?.body).toMatch(
      /^You are now booked at .+ \(Meadowbank Care Home\) on .+10:00–18:00, as .+; it was .+08:00–16:00\.$/,
    );
    // The client reads it on their own list.
    const list = await get('/api/client_notifications?page=1&per_page=10', tok.client);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().notifications[0]).toMatchObject({ title: 'Shift moved', body: client?.body });
    // Neither is told of a move that changes nothing.
    const count = (await rowsOf(s.id)).length;
    ok(await post(`/api/shifts/${s.id}/actions/move`, { start: at(51, '10:00'), end: at(51, '18:00') }));
    expect((await rowsOf(s.id)).length).toBe(count);
  });

  it('moving an open shift tells the client; giving a booked one to someone else tells both staff members and the client', async () => {
    const open = await shift(at(52, '08:00'), at(52, '16:00'));
    ok(await post(`/api/shifts/${open.id}/actions/move`, { start: at(53, '08:00'), end: at(53, '16:00') }));
    const told = await rowsOf(open.id);
    expect(told.some((r) => Number(r.client_id) === meadowbank && r.event === 'shift.moved')).toBe(true);
    expect(told.some((r) => r.candidate_id != null)).toBe(false);

    const [first, second] = [await staff(), await staff()];
    const s = await shift(at(54, '08:00'), at(54, '16:00'));
    ok(await assign(s.id, first));
    const before = (await rowsOf(s.id)).length;
    ok(
      await post(`/api/shifts/${s.id}/actions/move`, {
        start: at(54, '08:00'),
        end: at(54, '16:00'),
        candidate_id: second,
      }),
    );
    const rows = (await rowsOf(s.id)).slice(before);
    expect(rows.find((r) => Number(r.candidate_id) === first)?.title).toBe('You are no longer booked');
    expect(rows.find((r) => Number(r.candidate_id) === second)?.title).toBe('You are booked');
    expect(rows.some((r) => Number(r.client_id) === meadowbank && r.event === 'shift.filled')).toBe(true);
  });

  it('a move refused for a clash names the booking it clashes with (the schedule opens it when its filters hide it)', async () => {
    const who = await staff();
    const [{ id: otherClient }] = await t.db.query(
      `select id from clients where merchant_id = $1 and id <> $2 and deleted_at is null order by id limit 1`,
      [merchantA, meadowbank],
    );
    const [{ id: otherSite }] = await t.db.query(
      'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
      [merchantA, otherClient],
    );
    const elsewhere = ok(
      await post('/api/shifts', {
        client_id: otherClient,
        site_id: otherSite,
        job_role_id: role,
        start_at: at(60, '08:00'),
        end_at: at(60, '16:00'),
      }),
      201,
    );
    ok(await assign(elsewhere.id, who));
    const s = await shift(at(61, '08:00'), at(61, '16:00'));
    ok(await assign(s.id, who));
    const refusal = refused(
      await post(`/api/shifts/${s.id}/actions/move`, { start: at(60, '10:00'), end: at(60, '18:00') }),
      409,
    ) as { message: string; clashes?: unknown[] };
    expect(refusal.message).toMatch(/already booked/);
    expect(refusal.clashes).toEqual([
      { shift_id: elsewhere.id, client_id: otherClient, site_id: otherSite, job_role_id: role },
    ]);
  });
});
