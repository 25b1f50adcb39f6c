import type { FastifyInstance } from 'fastify';
import { compileAll } from '../../server/engine/routes';
import { declarations } from '../../core/resources/declarations';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// Constraints as declarations: a reference within another (a site within the record's client) and values unique
// together, each refused with 422 on the field, in words.
let t: TestApp;
let app: FastifyInstance;
let admin: string;
let n = 0;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  app = t.app;
  admin = await loginAs(app, 'admin');
});
afterAll(() => t?.close());

const post = (url: string, body: unknown) => call(app, admin, 'POST', url, body);
const put = (url: string, body: unknown) => call(app, admin, 'PUT', url, body);
async function created(url: string, body: unknown) {
  const res = await post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}
const refusedWith = async (res: Promise<{ statusCode: number; json(): any; body: string }>) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(422);
  return r.json().errors;
};

const CARD = Object.fromEntries(
  ['weekday_day', 'weekday_night', 'saturday', 'sunday', 'bank_holiday'].flatMap((b) => [
    [`pay_${b}`, 1300],
    [`charge_${b}`, 2000],
  ]),
);

/** Two clients with a site each, a job role and a staff member. */
async function setup() {
  const i = ++n;
  const address = { line1: '1 Constraint Street', city: 'Leeds', postcode: 'LS1 1AA' };
  const a = await created('/api/clients', { name: `Within A${i}`, billing_email: 'a@within.example' });
  const b = await created('/api/clients', { name: `Within B${i}`, billing_email: 'b@within.example' });
  const siteA = await created('/api/sites', { name: `Site A${i}`, client_id: a.id, address });
  const siteB = await created('/api/sites', { name: `Site B${i}`, client_id: b.id, address });
  const role = await created('/api/job_roles', { name: `Within Role ${i}` });
  const [who] = await t.db.query<{ id: number }>(
    `select id from candidates where merchant_id = (select merchant_id from users where email = 'admin@demo.test') order by id limit 1`,
  );
  return { a: a.id, b: b.id, siteA: siteA.id, siteB: siteB.id, role: role.id, who: who.id };
}

describe('within', () => {
  it('refuses a site of another client on shifts, rate cards and restrictions, on create and on a change of either field', async () => {
    const s = await setup();
    const start = new Date(Date.now() + 30 * 86400_000);
    start.setUTCHours(8, 0, 0, 0);
    const end = new Date(start.getTime() + 8 * 3600_000);
    const shift = {
      client_id: s.a,
      site_id: s.siteB,
      job_role_id: s.role,
      start_at: start.toISOString(),
      end_at: end.toISOString(),
    };
    expect(await refusedWith(post('/api/shifts', shift))).toEqual({ site_id: 'Choose one of the client’s sites.' });
    expect(
      await refusedWith(
        post('/api/rate_cards', {
          client_id: s.a,
          site_id: s.siteB,
          job_role_id: s.role,
          effective_from: '2026-01-01',
          ...CARD,
        }),
      ),
    ).toEqual({ site_id: 'Choose one of the client’s sites.' });
    const restriction = {
      candidate_id: s.who,
      client_id: s.a,
      site_id: s.siteB,
      reason: 'Complaint',
      restricted_on: '2026-01-01',
    };
    expect(await refusedWith(post('/api/candidate_restrictions', restriction))).toEqual({
      site_id: 'This site belongs to another client',
    });
    // Its own client's site passes; moving the restriction to the other client alone would leave the site outside it.
    const ok = await created('/api/candidate_restrictions', { ...restriction, site_id: s.siteA });
    expect(await refusedWith(put(`/api/candidate_restrictions/${ok.id}`, { client_id: s.b }))).toEqual({
      site_id: 'This site belongs to another client',
    });
    expect((await put(`/api/candidate_restrictions/${ok.id}`, { client_id: s.b, site_id: s.siteB })).statusCode).toBe(
      200,
    );
  });
});

describe('uniqueTogether', () => {
  it('refuses a second set of pricing rules for a client, and a second default set, in words', async () => {
    const s = await setup();
    await created('/api/client_rules', { client_id: s.a });
    expect(await refusedWith(post('/api/client_rules', { client_id: s.a }))).toEqual({
      client_id: 'This client already has its rules. Edit them instead.',
    });
    // The demo agency has its default rules (no client) already.
    const [{ n: defaults }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from client_rules where client_id is null and merchant_id = (select merchant_id from users where email = 'admin@demo.test')`,
    );
    if (defaults === 0) await created('/api/client_rules', {});
    expect(await refusedWith(post('/api/client_rules', {}))).toEqual({
      client_id: 'The agency’s default rules already exist. Edit them instead.',
    });
  });

  it('refuses a staff member’s second pay rates for one role and date, and a holiday change made twice, naming what exists', async () => {
    const s = await setup();
    const rates = { candidate_id: s.who, job_role_id: s.role, effective_from: '2026-03-01', pay_weekday_day: 1400 };
    await created('/api/candidate_rates', rates);
    expect(await refusedWith(post('/api/candidate_rates', { ...rates, pay_weekday_day: 1500 }))).toEqual({
      effective_from: 'This staff member already has pay rates for this job role from that date. Edit them instead.',
    });
    // Another role, or every role (empty), is another key.
    await created('/api/candidate_rates', { ...rates, job_role_id: null });
    expect(await refusedWith(post('/api/candidate_rates', { ...rates, job_role_id: null }))).toEqual({
      effective_from: 'This staff member already has pay rates for this job role from that date. Edit them instead.',
    });

    await created('/api/holiday_overrides', {
      region: 'england_wales',
      date: '2031-06-03',
      name: 'Local fair',
      kind: 'add',
    });
    expect(
      await refusedWith(
        post('/api/holiday_overrides', { region: 'england_wales', date: '2031-06-03', name: 'Again', kind: 'add' }),
      ),
    ).toEqual({ date: 'This day is already added for this region.' });
    await created('/api/holiday_overrides', {
      region: 'scotland',
      date: '2031-06-03',
      name: 'Local fair',
      kind: 'add',
    });
  });

  it('lets only one of two simultaneous creates of the same values through', async () => {
    const s = await setup();
    const day = { candidate_id: s.who, date: '2027-02-03', status: 'unavailable' };
    const both = await Promise.all([
      post('/api/availability', day),
      post('/api/availability', { ...day, status: 'available' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const [{ n: rows }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from availability where candidate_id = $1 and date = '2027-02-03'`,
      [s.who],
    );
    expect(rows).toBe(1);
  });

  it('is checked when compiled: a field that is not declared fails at start-up', () => {
    const [rules] = declarations.filter((d) => d.name === 'client_rules');
    expect(() => compileAll([{ ...rules, uniqueTogether: [{ fields: ['client_id', 'nope'], message: 'x' }] }])).toThrow(
      /uniqueTogether names nope/,
    );
  });
});
