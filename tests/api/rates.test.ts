import type { FastifyInstance } from 'fastify';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { lateCancellation, quoteShift } from '../../server/services/pricing';
import type { Queryable } from '../../server/db/index';

// Rates & rules: rate cards versioned by dates, a staff member's own pay, and the quote that prices a shift with
// them, the client's rules and the site region's bank holidays. Each test builds its own client, sites and role.
let t: TestApp;
let app: FastifyInstance;
let admin: string;
let consultant: string;
let client: string;
let other: string;
let merchantId: number;
let n = 0;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40 });
  app = t.app;
  [admin, consultant, client, other] = await Promise.all([
    loginAs(app, 'admin'),
    loginAs(app, 'consultant'),
    loginAs(app, 'client'),
    loginAs(app, 'otherAdmin'),
  ]);
  [{ merchant_id: merchantId }] = await t.db.query(`select merchant_id from users where email = 'admin@demo.test'`);
});
afterAll(() => t?.close());

const post = (url: string, body: unknown, token = admin) => call(app, token, 'POST', url, body);
const get = (url: string, token = admin) => call(app, token, 'GET', url);

async function created(url: string, body: unknown) {
  const res = await post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** Pay 13.00 / charge 20.00 on weekday days, and a distinct pair per band so a line's band shows in its rates. */
const CARD = {
  pay_weekday_day: 1300,
  charge_weekday_day: 2000,
  pay_weekday_night: 1400,
  charge_weekday_night: 2200,
  pay_saturday: 1500,
  charge_saturday: 2300,
  pay_sunday: 1600,
  charge_sunday: 2400,
  pay_bank_holiday: 2000,
  charge_bank_holiday: 3000,
};

/** A client with an English and a Scottish site, a job role and a card for it from 1 January 2026. */
async function setup() {
  const i = ++n;
  const c = await created('/api/clients', { name: `Rates Client ${i}`, billing_email: 'accounts@rates.example' });
  const address = { line1: '1 Rate Street', city: 'Leeds', postcode: 'LS1 1AA' };
  const england = await created('/api/sites', { name: `Rates Site E${i}`, client_id: c.id, address });
  const scotland = await created('/api/sites', {
    name: `Rates Site S${i}`,
    client_id: c.id,
    region: 'scotland',
    address: { ...address, city: 'Perth', postcode: 'PH1 1AA' },
  });
  const role = await created('/api/job_roles', { name: `Rates Role ${i}` });
  const card = await created('/api/rate_cards', {
    client_id: c.id,
    job_role_id: role.id,
    effective_from: '2026-01-01',
    ...CARD,
  });
  return { clientId: c.id, england: england.id, scotland: scotland.id, roleId: role.id, card };
}

const quote = (body: Record<string, unknown>, token = admin) => post('/api/rates/quote', body, token);

describe('the quote', () => {
  it("prices a weekday day: one line, the rules' break, pay, charge, on-costs and margin in pence", async () => {
    const s = await setup();
    // Wednesday 2 December 2026, 09:00–17:00 in London (GMT): 8 hours less the default 30-minute break.
    const res = await quote({
      client_id: s.clientId,
      site_id: s.england,
      job_role_id: s.roleId,
      start: '2026-12-02T09:00:00Z',
      end: '2026-12-02T17:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json();
    expect(q.lines).toEqual([
      {
        band: 'weekday_day',
        start: '2026-12-02T09:00:00.000Z',
        end: '2026-12-02T17:00:00.000Z',
        hours: 7.5,
        minutes: 450,
        pay_rate: 1300,
        charge_rate: 2000,
        pay: 9750,
        charge: 15000,
      },
    ]);
    // PAYE on-costs at the rates from April 2025: holiday pay 12.07% (1177), employer NI 15% of pay and holiday pay
    // (1639).
    expect(q.on_costs).toBe(1177 + 1639);
    expect(q.totals).toEqual({ hours: 7.5, pay: 9750, charge: 15000, margin: 15000 - 9750 - 2816 });
    expect(q.warnings).toEqual([]);
    expect(q.rate_card_id).toBe(s.card.id);
  });

  it('splits a weekday night at midnight into the night band', async () => {
    const s = await setup();
    const q = (
      await quote({
        client_id: s.clientId,
        site_id: s.england,
        job_role_id: s.roleId,
        start: '2026-12-01T20:00:00Z',
        end: '2026-12-02T08:00:00Z',
        break_minutes: 0,
      })
    ).json();
    expect(q.lines.map((l: any) => [l.band, l.hours])).toEqual([['weekday_night', 12]]);
    expect(q.totals.pay).toBe(12 * 1400);
    expect(q.totals.charge).toBe(12 * 2200);
  });

  it('counts the real hours of a 20:00–08:00 night across both daylight-saving changes', async () => {
    const s = await setup();
    const base = { client_id: s.clientId, site_id: s.england, job_role_id: s.roleId, break_minutes: 0 };
    // Saturday 28 March 2026 20:00 GMT to Sunday 08:00 BST: clocks go forward, 11 hours (4 Saturday, 7 Sunday).
    const spring = (await quote({ ...base, start: '2026-03-28T20:00:00Z', end: '2026-03-29T07:00:00Z' })).json();
    expect(spring.totals.hours).toBe(11);
    expect(spring.lines.map((l: any) => [l.band, l.hours])).toEqual([
      ['saturday', 4],
      ['sunday', 7],
    ]);
    // Saturday 24 October 2026 20:00 BST to Sunday 08:00 GMT: clocks go back, 13 hours (4 Saturday, 9 Sunday).
    const autumn = (await quote({ ...base, start: '2026-10-24T19:00:00Z', end: '2026-10-25T08:00:00Z' })).json();
    expect(autumn.totals.hours).toBe(13);
    expect(autumn.lines.map((l: any) => [l.band, l.hours])).toEqual([
      ['saturday', 4],
      ['sunday', 9],
    ]);
    expect(autumn.totals.pay).toBe(4 * 1500 + 9 * 1600);
  });

  it("rates St Andrew's Day (30 November 2026) as a bank holiday at a Scottish site only", async () => {
    const s = await setup();
    const shift = {
      client_id: s.clientId,
      job_role_id: s.roleId,
      start: '2026-11-30T08:00:00Z',
      end: '2026-11-30T16:00:00Z',
      break_minutes: 0,
    };
    const scottish = (await quote({ ...shift, site_id: s.scotland })).json();
    expect(scottish.lines.map((l: any) => l.band)).toEqual(['bank_holiday']);
    expect(scottish.totals).toMatchObject({ hours: 8, pay: 8 * 2000, charge: 8 * 3000 });
    const english = (await quote({ ...shift, site_id: s.england })).json();
    expect(english.lines.map((l: any) => l.band)).toEqual(['weekday_day']);
  });

  it("honours the agency's holiday changes: a removed day is an ordinary day again", async () => {
    const s = await setup();
    const shift = {
      client_id: s.clientId,
      site_id: s.scotland,
      job_role_id: s.roleId,
      start: '2027-11-30T08:00:00Z',
      end: '2027-11-30T16:00:00Z',
      break_minutes: 0,
    };
    expect((await quote(shift)).json().lines[0].band).toBe('bank_holiday');
    const o = await created('/api/holiday_overrides', {
      region: 'scotland',
      date: '2027-11-30',
      name: 'Worked as normal',
      kind: 'remove',
    });
    expect((await quote(shift)).json().lines[0].band).toBe('weekday_day');
    expect((await call(app, admin, 'DELETE', `/api/holiday_overrides/${o.id}`)).statusCode).toBe(200);
  });

  it("pays a staff member their own rate for a band and the card's for the others; the charge stays the card's", async () => {
    const s = await setup();
    const person = await created('/api/candidates', {
      first_name: 'Own',
      last_name: `Rate${n}`,
      email: `own.rate${n}@rates.example`,
      job_role_id: s.roleId,
    });
    await created('/api/candidate_rates', {
      candidate_id: person.id,
      job_role_id: s.roleId,
      effective_from: '2026-06-01',
      pay_weekday_day: 1500,
    });
    const base = {
      client_id: s.clientId,
      site_id: s.england,
      job_role_id: s.roleId,
      candidate_id: person.id,
      break_minutes: 0,
    };
    const day = (await quote({ ...base, start: '2026-12-02T09:00:00Z', end: '2026-12-02T17:00:00Z' })).json();
    expect(day.lines[0]).toMatchObject({ pay_rate: 1500, charge_rate: 2000, pay: 12000, charge: 16000 });
    const night = (await quote({ ...base, start: '2026-12-01T20:00:00Z', end: '2026-12-02T06:00:00Z' })).json();
    expect(night.lines[0]).toMatchObject({ band: 'weekday_night', pay_rate: 1400 });
    // Before their own rate began, the card pays.
    const before = (await quote({ ...base, start: '2026-05-06T09:00:00Z', end: '2026-05-06T17:00:00Z' })).json();
    expect(before.lines[0].pay_rate).toBe(1300);
  });

  it("warns when the pay is below the National Living Wage on the shift's date", async () => {
    const s = await setup();
    await created('/api/rate_cards', {
      client_id: s.clientId,
      site_id: s.england,
      job_role_id: s.roleId,
      effective_from: '2026-01-01',
      ...CARD,
      pay_weekday_day: 1250,
    });
    const base = { client_id: s.clientId, site_id: s.england, job_role_id: s.roleId, break_minutes: 0 };
    // £12.50 is above £12.21 (from April 2025) and below £12.71 (from April 2026).
    expect(
      (await quote({ ...base, start: '2026-03-04T09:00:00Z', end: '2026-03-04T17:00:00Z' })).json().warnings,
    ).toEqual([]);
    const after = (await quote({ ...base, start: '2026-12-02T09:00:00Z', end: '2026-12-02T17:00:00Z' })).json();
    expect(after.warnings).toEqual([
      'Weekday day pay £12.50 an hour: below the National Living Wage of £12.71 an hour from 1 April 2026.',
    ]);
  });

  it("prices a site's own card over the client-wide one", async () => {
    const s = await setup();
    const own = await created('/api/rate_cards', {
      client_id: s.clientId,
      site_id: s.scotland,
      job_role_id: s.roleId,
      effective_from: '2026-01-01',
      ...CARD,
      charge_weekday_day: 2500,
    });
    const body = {
      client_id: s.clientId,
      job_role_id: s.roleId,
      start: '2026-12-02T09:00:00Z',
      end: '2026-12-02T10:00:00Z',
    };
    expect((await quote({ ...body, site_id: s.scotland })).json()).toMatchObject({
      rate_card_id: own.id,
      lines: [{ charge_rate: 2500 }],
    });
    expect((await quote({ ...body, site_id: s.england })).json()).toMatchObject({
      rate_card_id: s.card.id,
      lines: [{ charge_rate: 2000 }],
    });
  });

  it('charges a sleep-in its flat amounts from the rules', async () => {
    const s = await setup();
    const q = (
      await quote({
        client_id: s.clientId,
        site_id: s.england,
        job_role_id: s.roleId,
        start: '2026-12-02T22:00:00Z',
        end: '2026-12-03T07:00:00Z',
        sleep_in: true,
      })
    ).json();
    // The demo agency's default rules: £60 pay, £95 charge.
    expect(q.lines).toMatchObject([{ band: 'flat', pay: 6000, charge: 9500 }]);
  });
});

describe('rate cards over time', () => {
  it('a later card closes the earlier one and never changes a quote dated before it', async () => {
    const s = await setup();
    const body = {
      client_id: s.clientId,
      site_id: s.england,
      job_role_id: s.roleId,
      start: '2026-12-02T09:00:00Z',
      end: '2026-12-02T17:00:00Z',
    };
    const before = (await quote(body)).json();
    const later = await created('/api/rate_cards', {
      client_id: s.clientId,
      job_role_id: s.roleId,
      effective_from: '2027-01-01',
      ...CARD,
      pay_weekday_day: 1400,
      charge_weekday_day: 2100,
    });
    const earlier = (await get(`/api/rate_cards/${s.card.id}`)).json().data;
    expect(earlier.effective_to).toBe('2027-01-01');
    expect((await quote(body)).json()).toEqual(before);
    const january = (await quote({ ...body, start: '2027-01-06T09:00:00Z', end: '2027-01-06T17:00:00Z' })).json();
    expect(january).toMatchObject({ rate_card_id: later.id, lines: [{ pay_rate: 1400, charge_rate: 2100 }] });
  });

  it('refuses a period that overlaps another card of the same client, site and role, naming the field', async () => {
    const s = await setup();
    await created('/api/rate_cards', {
      client_id: s.clientId,
      job_role_id: s.roleId,
      effective_from: '2027-01-01',
      ...CARD,
    });
    const key = { client_id: s.clientId, job_role_id: s.roleId, ...CARD };
    const sameStart = await post('/api/rate_cards', { ...key, effective_from: '2027-01-01' });
    expect(sameStart.statusCode).toBe(422);
    expect(sameStart.json().errors.effective_from).toMatch(/already starts on 2027-01-01/);
    // Open-ended from before the later card: it would run into it.
    const intoLater = await post('/api/rate_cards', { ...key, effective_from: '2025-06-01' });
    expect(intoLater.statusCode).toBe(422);
    expect(intoLater.json().errors.effective_to).toMatch(/starts on 2026-01-01/);
    // A bounded period inside the earlier card would leave a gap after it.
    const inside = await post('/api/rate_cards', { ...key, effective_from: '2026-03-01', effective_to: '2026-05-01' });
    expect(inside.statusCode).toBe(422);
    expect(inside.json().errors.effective_from).toMatch(/overlaps/);
    // Nothing was stored or changed.
    const cards = (await get(`/api/rate_cards?client_id=${s.clientId}&per_page=100`)).json().data;
    expect(cards.map((c: any) => [c.effective_from, c.effective_to]).sort()).toEqual([
      ['2026-01-01', '2027-01-01'],
      ['2027-01-01', null],
    ]);
    // Another site's card for the same role is another key.
    expect(
      (await post('/api/rate_cards', { ...key, site_id: s.scotland, effective_from: '2026-01-01' })).statusCode,
    ).toBe(201);
  });

  it('refuses a site of another client and an end before the start', async () => {
    const s = await setup();
    const t2 = await setup();
    const res = await post('/api/rate_cards', {
      client_id: s.clientId,
      site_id: t2.england,
      job_role_id: s.roleId,
      effective_from: '2028-01-01',
      ...CARD,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['site_id']);
    const backwards = await post('/api/rate_cards', {
      client_id: s.clientId,
      job_role_id: s.roleId,
      effective_from: '2028-01-01',
      effective_to: '2027-01-01',
      ...CARD,
    });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors.effective_to).toBeDefined();
  });

  it('lists the cards in force on a date and their margins per band', async () => {
    const s = await setup();
    await created('/api/rate_cards', {
      client_id: s.clientId,
      job_role_id: s.roleId,
      effective_from: '2027-01-01',
      ...CARD,
    });
    const on = (date: string) =>
      get(`/api/rate_cards?client_id=${s.clientId}&in_force_on=${date}`).then((r) =>
        r.json().data.map((c: any) => c.effective_from),
      );
    expect(await on('2026-06-01')).toEqual(['2026-01-01']);
    expect(await on('2027-02-01')).toEqual(['2027-01-01']);
    expect(await on('2025-06-01')).toEqual([]);
    expect((await get(`/api/rate_cards?in_force_on=yesterday`)).statusCode).toBe(400);
    const [card] = (await get(`/api/rate_cards?client_id=${s.clientId}&in_force_on=2026-06-01`)).json().data;
    // 2000 − 1300 − on-costs (157 holiday pay, 219 NI) per hour.
    expect(card.margin_weekday_day).toBe(2000 - 1300 - 157 - 219);
  });

  it('costs a card of an agency with no on-cost rates of its own at the defaults', async () => {
    const [c] = (await get('/api/clients?per_page=1', other)).json().data;
    const [role] = (await get('/api/job_roles?per_page=1', other)).json().data;
    const res = await post(
      '/api/rate_cards',
      { client_id: c.id, job_role_id: role.id, effective_from: '2031-01-01', ...CARD },
      other,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.margin_weekday_day).toBe(2000 - 1300 - 157 - 219);
  });
});

describe('rules', () => {
  it("a client's own rules replace the agency default: a later night and rating by the start band", async () => {
    const s = await setup();
    await created('/api/client_rules', {
      client_id: s.clientId,
      night_start: '22:00',
      night_end: '06:00',
      weekend_start_day: 'saturday',
      weekend_start_time: '00:00',
      weekend_end_day: 'monday',
      weekend_end_time: '00:00',
      split_at_boundaries: false,
      break_rules: [],
      minimum_charge_hours: 4,
    });
    // 18:00–23:00 on a Wednesday: all weekday day (rated by its start), and 5 hours is above the 4-hour minimum.
    const q = (
      await quote({
        client_id: s.clientId,
        site_id: s.england,
        job_role_id: s.roleId,
        start: '2026-12-02T18:00:00Z',
        end: '2026-12-02T23:00:00Z',
      })
    ).json();
    expect(q.lines.map((l: any) => [l.band, l.hours])).toEqual([['weekday_day', 5]]);
    // Two hours are charged as four.
    const short = (
      await quote({
        client_id: s.clientId,
        site_id: s.england,
        job_role_id: s.roleId,
        start: '2026-12-02T09:00:00Z',
        end: '2026-12-02T11:00:00Z',
      })
    ).json();
    expect(short.totals).toMatchObject({ hours: 2, pay: 2600, charge: 8000 });
    const dup = await post('/api/client_rules', {
      client_id: s.clientId,
      night_start: '20:00',
      night_end: '08:00',
      weekend_start_day: 'saturday',
      weekend_start_time: '00:00',
      weekend_end_day: 'monday',
      weekend_end_time: '00:00',
    });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.client_id).toBeDefined();
  });

  it('refuses malformed times and breaks', async () => {
    const s = await setup();
    const base = {
      client_id: s.clientId,
      night_start: '20:00',
      night_end: '08:00',
      weekend_start_day: 'saturday',
      weekend_start_time: '00:00',
      weekend_end_day: 'monday',
      weekend_end_time: '00:00',
    };
    const time = await post('/api/client_rules', { ...base, night_start: '25:00' });
    expect(time.statusCode).toBe(422);
    expect(time.json().errors.night_start).toMatch(/HH:mm/);
    const breaks = await post('/api/client_rules', { ...base, break_rules: [{ min_hours: 6, break_minutes: 400 }] });
    expect(breaks.statusCode).toBe(422);
    expect(breaks.json().errors.break_rules).toBeDefined();
    const lateHalf = await post('/api/client_rules', {
      ...base,
      late_cancel_within_hours: 24,
      late_cancel_charge_hours: null,
    });
    expect(lateHalf.statusCode).toBe(422);
  });

  it("charges a late cancellation by the client's rule and the card in force", async () => {
    const s = await setup();
    const shift = {
      client_id: s.clientId,
      site_id: s.england,
      job_role_id: s.roleId,
      candidate_id: null,
      start: '2026-12-02T09:00:00Z',
      end: '2026-12-02T17:00:00Z',
    };
    // The agency default: less than 24 hours' notice charges 4 hours at the start band's charge rate, and pays the
    // worker 4 hours at its pay rate (issue 33's late-cancellation pay).
    expect(await lateCancellation(t.db, merchantId, shift, '2026-12-01T10:00:00Z')).toEqual({
      hours: 4,
      charge: 8000,
      payHours: 4,
      pay: 5200,
    });
    expect(await lateCancellation(t.db, merchantId, shift, '2026-11-30T10:00:00Z')).toBeNull();
  });
});

describe('access and validation', () => {
  it('keeps rate cards, pay rates, rules and quotes from client users', async () => {
    const s = await setup();
    for (const url of [
      '/api/rate_cards',
      `/api/rate_cards/${s.card.id}`,
      '/api/client_rules',
      '/api/candidate_rates',
      '/api/rates/holidays',
    ]) {
      expect((await get(url, client)).statusCode, url).toBe(403);
    }
    // A client user quotes only its own client's shifts (charge only; tests/api/coordinator-week.test.ts).
    expect(
      (
        await quote(
          {
            client_id: s.clientId,
            site_id: s.england,
            job_role_id: s.roleId,
            start: '2026-12-02T09:00:00Z',
            end: '2026-12-02T17:00:00Z',
          },
          client,
        )
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await post(
          '/api/rate_cards',
          { client_id: s.clientId, job_role_id: s.roleId, effective_from: '2029-01-01', ...CARD },
          client,
        )
      ).statusCode,
    ).toBe(403);
  });

  it('lets consultants read and quote, not change rates', async () => {
    const s = await setup();
    expect((await get(`/api/rate_cards/${s.card.id}`, consultant)).json().data.pay_weekday_day).toBe(1300);
    expect(
      (
        await quote(
          {
            client_id: s.clientId,
            site_id: s.england,
            job_role_id: s.roleId,
            start: '2026-12-02T09:00:00Z',
            end: '2026-12-02T17:00:00Z',
          },
          consultant,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(
          '/api/rate_cards',
          { client_id: s.clientId, job_role_id: s.roleId, effective_from: '2029-01-01', ...CARD },
          consultant,
        )
      ).statusCode,
    ).toBe(403);
  });

  it('answers 422 naming the field for a quote it cannot price', async () => {
    const s = await setup();
    const t2 = await setup();
    const ok = {
      client_id: s.clientId,
      site_id: s.england,
      job_role_id: s.roleId,
      start: '2026-12-02T09:00:00Z',
      end: '2026-12-02T17:00:00Z',
    };
    const cases: [Record<string, unknown>, string, RegExp?, string?][] = [
      [{ ...ok, site_id: t2.england }, 'site_id', /not a site of this client/],
      [{ ...ok, end: '2026-12-02T08:00:00Z' }, 'end', /end after it starts/],
      [{ ...ok, end: '2026-12-03T10:00:00Z' }, 'end', /at most 24 hours/],
      [{ ...ok, start: 'tomorrow' }, 'start'],
      [{ ...ok, client_id: 'x' }, 'client_id'],
      [{ ...ok, break_minutes: 600 }, 'break_minutes'],
      [
        { ...ok, job_role_id: t2.roleId },
        'job_role_id',
        /No rate card for Rates Role \d+ at Rates Site E\d+ on 2026-12-02\. Add one in Rates & Rules\./,
      ],
      [{ ...ok, start: '2025-12-02T09:00:00Z', end: '2025-12-02T17:00:00Z' }, 'job_role_id', /No rate card/],
      [{ ...ok, site_id: 2147483647 }, 'site_id'],
      // Agency A's records named by agency B's admin: not theirs, so not found, never priced.
      [ok, 'site_id', undefined, other],
      [{ ...ok, candidate_id: 2147483646 }, 'candidate_id'],
    ];
    for (const [body, field, message, token] of cases) {
      const res = await quote(body, token);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().errors), JSON.stringify(body)).toContain(field);
      if (message) expect(res.json().errors[field]).toMatch(message);
    }
    expect((await post('/api/rates/quote', [1, 2])).statusCode).toBeLessThan(500);
  });

  it('prices with at most a handful of statements', async () => {
    const s = await setup();
    let statements = 0;
    const counting = {
      query: (sql: string, params?: unknown[]) => {
        statements++;
        return t.db.query(sql, params);
      },
    } as Queryable;
    await quoteShift(counting, merchantId, {
      client_id: s.clientId,
      site_id: s.scotland,
      job_role_id: s.roleId,
      start: '2026-11-30T08:00:00Z',
      end: '2026-11-30T16:00:00Z',
    });
    expect(statements).toBeLessThanOrEqual(2);
  });
});

describe('the holiday calendar', () => {
  it("lists each region's holidays of a year with substitute days and the agency's changes", async () => {
    const added = await created('/api/holiday_overrides', {
      region: 'england_wales',
      date: '2026-06-15',
      name: 'Agency summer day',
      kind: 'add',
    });
    const body = (await get('/api/rates/holidays?year=2026', consultant)).json();
    expect(body.year).toBe(2026);
    const region = (id: string) => body.regions.find((r: any) => r.region === id);
    expect(region('scotland').days.map((d: any) => d.date)).toContain('2026-11-30');
    expect(region('england_wales').days.map((d: any) => d.date)).not.toContain('2026-11-30');
    expect(region('northern_ireland').days.map((d: any) => d.date)).toContain('2026-07-13');
    // Boxing Day 2026 is a Saturday: its substitute is Monday 28 December.
    expect(region('england_wales').days.map((d: any) => d.date)).toContain('2026-12-28');
    expect(region('england_wales').days).toContainEqual(
      expect.objectContaining({ date: '2026-06-15', source: 'added', override_id: added.id }),
    );
    expect((await get('/api/rates/holidays?year=20x6')).statusCode).toBe(422);
    const dup = await post('/api/holiday_overrides', {
      region: 'england_wales',
      date: '2026-12-25',
      name: 'Christmas',
      kind: 'add',
    });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.date).toMatch(/already a bank holiday/);
  });
});
