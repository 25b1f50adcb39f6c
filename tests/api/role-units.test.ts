import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { newRole, userWithRole } from './customRoles';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';
import { agencyToday, askReport, wideAround } from './reportCalls';

// Issue 35, roles limited to business units: a custom role naming units sees only those units' clients and what
// hangs off them (the engine's row scope, scopeWhere), in lists, totals, exports and reports, is answered 404 for
// another unit's record, cannot create for another unit's client, and a change of its units applies to the next
// request in another process. Every count is checked against a recount in plain SQL.
let t: TestApp;
let second: FastifyInstance;
let admin: string;
let merchant: number;
let today: string;
const unit = { care: 0, hospitals: 0 };
let roleId: number;
let user: { id: number; token: string };

const PRIVILEGES = [
  ...['clients', 'sites', 'shifts', 'timesheets', 'invoices', 'payments', 'diary_notes', 'rate_cards'].flatMap((r) => [
    `${r}.list`,
    `${r}.show`,
  ]),
  'shifts.create',
  'shifts.export',
  'invoices.generate',
  'job_roles.list',
  'business_units.list',
  'reports.business_unit_activity',
  'fields.pay_rates',
  'fields.margins',
];

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  second = await t.extraApp();
  admin = await loginAs(t.app, 'admin');
  [{ m: merchant }] = await t.db.query<{ m: number }>('select merchant_id as m from users where email = $1', [
    'admin@demo.test',
  ]);
  today = await agencyToday(t, merchant);
  for (const u of await t.db.query<{ id: number; name: string }>(
    'select id, name from business_units where merchant_id = $1',
    [merchant],
  ))
    unit[u.name === 'Care homes' ? 'care' : 'hospitals'] = Number(u.id);
  roleId = await newRole(t, admin, PRIVILEGES, 'Care homes consultant');
  const limit = await call(t.app, admin, 'PUT', `/api/agency_roles/${roleId}`, { business_unit_ids: [unit.care] });
  expect(limit.statusCode, limit.body).toBe(200);
  user = await userWithRole(t, admin, roleId);
});
afterAll(async () => {
  await t?.close();
});
const slow = { timeout: 120_000 };

/** The tables whose lists leave soft-deleted rows out (a deleted shift stays listed, in its own state). */
const SOFT_DELETED_HIDDEN = new Set(['clients', 'sites', 'diary_notes', 'rate_cards']);
/** The ids of the agency's listed rows of `table` whose client (through `clientOf`) is in the unit. */
async function idsInUnit(table: string, unitId: number, clientOf = 'x.client_id'): Promise<number[]> {
  const rows = await t.db.query<{ id: number }>(
    `select x.id from ${table} x join clients c on c.id = ${clientOf}
      where x.merchant_id = $1 and c.business_unit_id = $2 ${SOFT_DELETED_HIDDEN.has(table) ? 'and x.deleted_at is null' : ''}
      order by x.id`,
    [merchant, unitId],
  );
  return rows.map((r) => Number(r.id));
}
async function listed(app: FastifyInstance, token: string, resource: string) {
  const ids: number[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const res = await call(app, token, 'GET', `/api/${resource}?per_page=100&page=${page}&sort=id&order=ASC`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    total = body.total_count;
    ids.push(...body.data.map((r: { id: number }) => Number(r.id)));
    if (body.data.length < 100) break;
  }
  return { ids, total };
}

/** The records of a CSV file (a quoted value may hold a line break). */
function records(csv: string): number {
  let quoted = false;
  let n = 0;
  for (const ch of csv.trim()) {
    if (ch === '"') quoted = !quoted;
    else if (ch === '\n' && !quoted) n++;
  }
  return n + 1;
}

describe('a custom role limited to a business unit', slow, () => {
  it('lists only its unit’s clients, shifts, timesheets and invoices, with totals to match', async () => {
    for (const [resource, table] of [
      ['clients', 'clients'],
      ['shifts', 'shifts'],
      ['timesheets', 'timesheets'],
      ['invoices', 'invoices'],
    ]) {
      const want =
        table === 'clients' ? await idsInUnit('clients', unit.care, 'x.id') : await idsInUnit(table, unit.care);
      const got = await listed(t.app, user.token, resource);
      expect(want.length, resource).toBeGreaterThan(0);
      expect(got.ids, resource).toEqual(want);
      expect(got.total, resource).toBe(want.length);
      // The admin (every unit) sees more: the limit is the role's, not the data's.
      expect((await listed(t.app, admin, resource)).total, resource).toBeGreaterThan(want.length);
    }
  });

  it('is answered 404 for another unit’s client, shift, timesheet and invoice, and sees its own', async () => {
    for (const [resource, clientOf] of [
      ['clients', 'x.id'],
      ['shifts', 'x.client_id'],
      ['timesheets', 'x.client_id'],
      ['invoices', 'x.client_id'],
    ]) {
      const [other] = await idsInUnit(resource, unit.hospitals, clientOf);
      const [own] = await idsInUnit(resource, unit.care, clientOf);
      expect((await call(t.app, user.token, 'GET', `/api/${resource}/${other}`)).statusCode, resource).toBe(404);
      expect((await call(t.app, user.token, 'GET', `/api/${resource}/${own}`)).statusCode, resource).toBe(200);
      expect((await call(t.app, admin, 'GET', `/api/${resource}/${other}`)).statusCode, resource).toBe(200);
    }
  });

  it('follows the declared unit path of resources client users never see (payments, diary notes, rate cards)', async () => {
    let hidden = 0;
    for (const resource of ['payments', 'diary_notes', 'rate_cards']) {
      const rows = await t.db.query<{ id: number; unit: number | null; client_id: number | null }>(
        `select x.id, c.business_unit_id as unit, x.client_id from ${resource} x left join clients c on c.id = x.client_id
          where x.merchant_id = $1 ${resource === 'payments' ? '' : 'and x.deleted_at is null'} order by x.id`,
        [merchant],
      );
      // A row of no client (an agency-wide note or rate card) is every unit's.
      const want = rows.filter((r) => r.client_id === null || Number(r.unit) === unit.care).map((r) => Number(r.id));
      const got = await listed(t.app, user.token, resource);
      expect(got.ids, resource).toEqual(want);
      hidden += rows.length - want.length;
    }
    expect(hidden, 'the demo has rows of other units').toBeGreaterThan(0);
  });

  it('cannot create a shift for another unit’s client (refused on the field), and can for its own', async () => {
    const site = async (unitId: number) => {
      const [s] = await t.db.query<{ id: number; client_id: number }>(
        `select s.id, s.client_id from sites s join clients c on c.id = s.client_id
          where s.merchant_id = $1 and c.business_unit_id = $2 and c.status = 'active'
          order by s.id limit 1`,
        [merchant, unitId],
      );
      return s;
    };
    const [role] = await t.db.query<{ id: number }>(
      'select id from job_roles where merchant_id = $1 order by id limit 1',
      [merchant],
    );
    // A day a year and more ahead: the demo books nothing there.
    const day = addDaysToDate(today, 430);
    const at = (time: string) => zonedDateTimeToInstant(day, time, 'Europe/London').toISOString();
    const body = (s: { id: number; client_id: number }) => ({
      client_id: s.client_id,
      site_id: s.id,
      job_role_id: role.id,
      start_at: at('08:00'),
      end_at: at('16:00'),
    });
    const other = await site(unit.hospitals);
    const refused = await call(t.app, user.token, 'POST', '/api/shifts', body(other));
    expect(refused.statusCode, refused.body).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(expect.arrayContaining(['client_id', 'site_id']));
    const [{ n }] = await t.db.query<{ n: number }>(
      'select count(*)::int as n from shifts where client_id = $1 and start_at = $2',
      [other.client_id, at('08:00')],
    );
    expect(n).toBe(0);
    const created = await call(t.app, user.token, 'POST', '/api/shifts', body(await site(unit.care)));
    expect(created.statusCode, created.body).toBe(201);
  });

  it('exports and reports only its unit', async () => {
    const csv = await call(t.app, user.token, 'GET', '/api/shifts/export?format=csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(records(csv.body) - 1).toBe((await idsInUnit('shifts', unit.care)).length);

    const wide = wideAround(today);
    const mine = await askReport(t, user.token, 'business_unit_activity', `per_page=100&${wide}`);
    expect(mine.data.map((r) => r.business_unit_id)).toEqual([unit.care]);
    const all = await askReport(t, admin, 'business_unit_activity', `per_page=100&${wide}`);
    const care = all.data.find((r) => r.business_unit_id === unit.care)!;
    expect(mine.data[0].requested).toBe(care.requested);
    expect(mine.totals.requested).toBe(care.requested);
    expect(all.totals.requested).toBeGreaterThan(Number(care.requested));
  });

  it('an invoice run (here its preview) bills only its unit’s clients; the admin’s the others too', async () => {
    // The demo's runs billed these weeks: their lines released by hand (a fixture), so they can be billed again.
    await fixtureWrite(t.db, 'update invoice_lines set released_at = now() where merchant_id = $1', [merchant]);
    const preview = async (token: string) => {
      const res = await call(t.app, token, 'POST', '/api/invoices/actions/generate', {
        mode: 'daily',
        from: addDaysToDate(today, -35),
        to: addDaysToDate(today, -4),
        preview: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      return new Set<number>(res.json().data.invoices.map((i: { client_id: number }) => Number(i.client_id)));
    };
    const care = new Set(await idsInUnit('clients', unit.care, 'x.id'));
    const mine = await preview(user.token);
    const all = await preview(admin);
    expect(mine.size).toBeGreaterThan(0);
    expect([...mine].filter((c) => !care.has(c))).toEqual([]);
    expect([...all].filter((c) => care.has(c)).sort()).toEqual([...mine].sort());
    expect(all.size).toBeGreaterThan(mine.size);
  });

  it('a change of the role’s units applies to the holder’s next request, in another process too', async () => {
    const role = await newRole(t, admin, ['clients.list', 'clients.show'], 'Moving unit');
    const limit = (units: number[]) =>
      call(t.app, admin, 'PUT', `/api/agency_roles/${role}`, { business_unit_ids: units });
    expect((await limit([unit.care])).statusCode).toBe(200);
    const mover = await userWithRole(t, admin, role);
    const care = await idsInUnit('clients', unit.care, 'x.id');
    const hospitals = await idsInUnit('clients', unit.hospitals, 'x.id');
    expect((await listed(second, mover.token, 'clients')).ids).toEqual(care); // the second app caches the session
    expect((await limit([unit.hospitals])).statusCode).toBe(200);
    expect((await listed(second, mover.token, 'clients')).ids).toEqual(hospitals);
    expect((await call(second, mover.token, 'GET', `/api/clients/${care[0]}`)).statusCode).toBe(404);
    // Empty: every unit again, the clients in none among them.
    expect((await limit([])).statusCode).toBe(200);
    expect((await listed(t.app, mover.token, 'clients')).total).toBe((await listed(t.app, admin, 'clients')).total);
  });

  it('a unit of another agency, or one a role names, is refused in words', async () => {
    const otherAdmin = await loginAs(t.app, 'otherAdmin');
    const made = await call(t.app, otherAdmin, 'POST', '/api/business_units', { name: 'Northern wards' });
    expect(made.statusCode, made.body).toBe(201);
    const foreign = made.json().data.id;
    const res = await call(t.app, admin, 'PUT', `/api/agency_roles/${roleId}`, { business_unit_ids: [foreign] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('business_unit_ids');
    // Deleting the unit would widen the role to every unit: refused while a role names it.
    const del = await call(t.app, admin, 'DELETE', `/api/business_units/${unit.care}`);
    expect(del.statusCode).toBeGreaterThanOrEqual(400);
    expect((await call(t.app, user.token, 'GET', '/api/clients')).json().total_count).toBe(
      (await idsInUnit('clients', unit.care, 'x.id')).length,
    );
  });
});
