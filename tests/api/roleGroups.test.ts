import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { newRole, userWithRole } from './customRoles';
import { agencyToday, wideAround } from './reportCalls';

// Issue 35, users and privileges: the guarded field groups (pay rates, margins, bank details) and the declared
// reports are privileges of a custom role, granted one by one and enforced by the one canRead()/mayRunReport() of
// the API and the screens — in lists, records, exports and reports alike.
let t: TestApp;
let admin: string;
let wide: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  admin = await loginAs(t.app, 'admin');
  const [{ m }] = await t.db.query<{ m: number }>(`select merchant_id as m from users where email = 'admin@demo.test'`);
  wide = wideAround(await agencyToday(t, m));
});
afterAll(async () => {
  await t?.close();
});
// Each holder's invitation sets a password (Argon2id): on a busy machine that takes longer than the default.
const slow = { timeout: 120_000 };

/** A user holding a new role with these privileges: their session token. */
const holder = async (privileges: string[]) =>
  (await userWithRole(t, admin, await newRole(t, admin, privileges))).token;

const READS = ['rate_cards.list', 'rate_cards.show', 'rate_cards.export', 'shifts.list', 'shifts.show'];
const PAY = ['pay_weekday_day', 'pay_saturday', 'wage_flag'];
const CHARGE = ['charge_weekday_day', 'margin_weekday_day'];

/** A list's first row, a record and the export's header, as the holder receives them. */
async function seen(token: string) {
  const list = await call(t.app, token, 'GET', '/api/rate_cards?per_page=1');
  expect(list.statusCode, list.body).toBe(200);
  const first = list.json().data[0];
  const show = await call(t.app, token, 'GET', `/api/rate_cards/${first.id}`);
  expect(show.statusCode, show.body).toBe(200);
  const csv = await call(t.app, token, 'GET', '/api/rate_cards/export?format=csv');
  expect(csv.statusCode, csv.body).toBe(200);
  const header = csv.body.replace(/^\uFEFF/, '').split('\r\n')[0];
  const shift = (await call(t.app, token, 'GET', '/api/shifts?per_page=1')).json().data[0];
  return { list: Object.keys(first), show: Object.keys(show.json().data), header, shift: Object.keys(shift) };
}

describe('the guarded field groups of a custom role', slow, () => {
  it.each([
    // [groups granted, pay received, charges and margins received]
    [[], false, false],
    [['fields.pay_rates'], true, false],
    [['fields.margins'], false, true],
    [['fields.pay_rates', 'fields.margins'], true, true],
  ])('granted %j: pay rates %s, charges and margins %s (list, record, export, shifts)', async (groups, pay, charge) => {
    const s = await seen(await holder([...READS, ...groups]));
    for (const f of PAY) {
      expect(s.list.includes(f), `list ${f}`).toBe(pay);
      expect(s.show.includes(f), `show ${f}`).toBe(pay);
    }
    for (const f of CHARGE) {
      expect(s.list.includes(f), `list ${f}`).toBe(charge);
      expect(s.show.includes(f), `show ${f}`).toBe(charge);
    }
    expect(s.header.includes('"Pay: weekday day (per hour)"'), 'export pay').toBe(pay);
    expect(s.header.includes('"Charge: weekday day (per hour)"'), 'export charge').toBe(charge);
    expect(s.shift.includes('pay'), 'shift pay').toBe(pay);
    expect(s.shift.includes('margin'), 'shift margin').toBe(charge);
    // What is not in a group reads as before.
    expect(s.show).toContain('job_role_id');
  });

  it('a field it may not read cannot be sorted by either (400)', async () => {
    const url = '/api/job_roles?sort=default_pay_rate';
    expect((await call(t.app, await holder(['job_roles.list']), 'GET', url)).statusCode).toBe(400);
    const granted = await holder(['job_roles.list', 'fields.pay_rates']);
    const res = await call(t.app, granted, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json().data[0])).toContain('default_pay_rate');
  });

  it('bank details (masked) reach only a role granted them; the other groups do not bring them', async () => {
    const reads = ['candidates.list', 'candidates.show'];
    const [id] = (await call(t.app, admin, 'GET', '/api/candidates?per_page=1')).json().data.map((c: any) => c.id);
    for (const [groups, shown] of [
      [['fields.pay_rates', 'fields.margins'], false],
      [['fields.bank_details'], true],
    ] as const) {
      const token = await holder([...reads, ...groups]);
      const res = await call(t.app, token, 'GET', `/api/candidates/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json().data).includes('bank_details_masked'), String(groups)).toBe(shown);
    }
  });

  it('the full view of bank details needs the group too; setting them does not', async () => {
    const [id] = (await call(t.app, admin, 'GET', '/api/candidates?per_page=1')).json().data.map((c: any) => c.id);
    const BANK = { sort_code: '12-34-56', account_number: '12345678', account_name: 'Group Test' };
    const setter = ['candidates.show', 'candidates.set_bank_details'];
    const without = await holder(setter);
    const set = await call(t.app, without, 'POST', `/api/candidates/${id}/actions/set_bank_details`, BANK);
    expect(set.statusCode, set.body).toBe(200);
    expect((await call(t.app, without, 'GET', `/api/candidates/${id}/bank_details`)).statusCode).toBe(403);
    const reader = await holder([...setter, 'fields.bank_details']);
    const full = await call(t.app, reader, 'GET', `/api/candidates/${id}/bank_details`);
    expect(full.statusCode, full.body).toBe(200);
    expect(JSON.stringify(full.json())).toContain('12345678');
  });

  it('the role’s groups are in its record and refused when unknown', async () => {
    const role = await newRole(t, admin, ['fields.pay_rates', 'reports.vat']);
    const res = await call(t.app, admin, 'GET', `/api/agency_roles/${role}`);
    expect(res.json().data.privileges).toEqual(['fields.pay_rates', 'reports.vat']);
    for (const privileges of [['fields.salary'], ['reports.not_a_report']]) {
      const bad = await call(t.app, admin, 'POST', '/api/agency_roles', { name: `Bad ${privileges}`, privileges });
      expect(bad.statusCode, String(privileges)).toBe(422);
      expect(bad.json().errors).toHaveProperty('privileges');
    }
  });
});

describe('the declared reports as privileges of a custom role', slow, () => {
  it('without the report: 403 on it and its file, though the role lists its rows', async () => {
    const token = await holder(['shifts.list', 'fields.pay_rates', 'fields.margins']);
    for (const url of ['/api/reports/client_activity', '/api/reports/client_activity/export', '/api/reports/vat'])
      expect((await call(t.app, token, 'GET', `${url}?${wide}`)).statusCode, url).toBe(403);
  });

  it('with the report: answered, with only the measures of the field groups it holds', async () => {
    const measures = async (privileges: string[]) => {
      const res = await call(t.app, await holder(privileges), 'GET', `/api/reports/client_activity?${wide}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().measures.map((m: { id: string }) => m.id) as string[];
    };
    const without = await measures(['shifts.list', 'reports.client_activity']);
    expect(without).toContain('filled');
    expect(without).not.toContain('margin');
    expect(without).not.toContain('margin_pct');
    const withMargins = await measures(['shifts.list', 'reports.client_activity', 'fields.margins']);
    expect(withMargins).toContain('margin');
    expect(withMargins).toContain('margin_pct');
  });

  it('the staff report’s pay follows the pay rates group, in the answer and the file', async () => {
    const token = await holder(['shifts.list', 'reports.staff_activity']);
    const res = await call(t.app, token, 'GET', `/api/reports/staff_activity?${wide}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().measures.map((m: { id: string }) => m.id)).not.toContain('pay');
    const file = await call(t.app, token, 'GET', `/api/reports/staff_activity/export?format=csv&${wide}`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).not.toContain('Pay');
    const paid = await holder(['shifts.list', 'reports.staff_activity', 'fields.pay_rates']);
    const answer = await call(t.app, paid, 'GET', `/api/reports/staff_activity?${wide}`);
    expect(answer.json().measures.map((m: { id: string }) => m.id)).toContain('pay');
  });

  it('the report alone is not enough: its rows are its base list’s (403 without shifts.list)', async () => {
    const token = await holder(['reports.client_activity']);
    expect((await call(t.app, token, 'GET', `/api/reports/client_activity?${wide}`)).statusCode).toBe(403);
  });
});
