import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime';

// What a client user reads of the agency's vocabulary to request a shift: the job roles and shift templates, never
// a pay or charge rate (not in a list, a record, a sort or a filter), and nothing they may change.
let t: TestApp;
const tok = {} as Record<'admin' | 'client' | 'client2' | 'viewer' | 'otherAdmin', string>;
let merchantA: number;

/** Every field of the two resources that tells what the agency pays or charges. */
const PAY = /pay|charge|rate|margin|cost/i;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  // A second client user who only views: client2 made a viewer, before signing in.
  await fixtureWrite(t.db, `update users set role = 'viewer' where email = 'client2@demo.test'`);
  const [admin, client, viewer, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'client2'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  Object.assign(tok, { admin, client, viewer, otherAdmin });
  merchantA = (
    await t.db.query<{ id: number }>(`select id from merchants where company_name = 'Brightway Staffing'`)
  )[0].id;
});
afterAll(async () => {
  await t?.close();
});

const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body.slice(0, 600)).toBe(status);
  return res.json();
};
/** Every key of every record of an answer (list or record). */
const keysOf = (answer: any) =>
  (Array.isArray(answer.data) ? answer.data : [answer.data]).flatMap((r: Record<string, unknown>) => Object.keys(r));

describe.each(['client', 'viewer'] as const)('a client %s', (who) => {
  it('lists and opens the agency’s job roles without any pay or charge rate', async () => {
    const list = ok(await call(t.app, tok[who], 'GET', '/api/job_roles?per_page=100&sort=name&order=ASC'));
    const [{ count }] = await t.db.query<{ count: number }>(
      'select count(*)::int as count from job_roles where merchant_id = $1',
      [merchantA],
    );
    expect(list.data.length).toBe(count);
    expect(list.data.map((r: any) => r.name)).toContain('Healthcare Assistant');
    expect(keysOf(list).filter((k: string) => PAY.test(k))).toEqual([]);
    const one = ok(await call(t.app, tok[who], 'GET', `/api/job_roles/${list.data[0].id}`));
    expect(one.data.name).toBe(list.data[0].name);
    expect(keysOf(one).filter((k: string) => PAY.test(k))).toEqual([]);
    // The job roles a page of their shifts refers to come without rates too.
    const shifts = ok(await call(t.app, tok[who], 'GET', '/api/shifts?per_page=25'));
    expect(shifts.references.job_roles.length).toBeGreaterThan(0);
    expect(
      shifts.references.job_roles
        .flatMap((r: Record<string, unknown>) => Object.keys(r))
        .filter((k: string) => PAY.test(k)),
    ).toEqual([]);
    // The agency's own users still see the rates.
    const asAdmin = ok(await call(t.app, tok.admin, 'GET', `/api/job_roles/${list.data[0].id}`));
    expect(asAdmin.data.default_pay_rate).toEqual(expect.any(Number));
    expect(asAdmin.data.default_charge_rate).toEqual(expect.any(Number));
  });

  it('cannot find out a rate by sorting or filtering on it', async () => {
    for (const url of [
      '/api/job_roles?sort=default_pay_rate&order=DESC',
      '/api/job_roles?default_charge_rate_gte=1',
      '/api/job_roles?default_pay_rate=1250',
    ]) {
      const res = await call(t.app, tok[who], 'GET', url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });

  it('lists and opens the shift templates, with their times', async () => {
    const list = ok(await call(t.app, tok[who], 'GET', '/api/shift_templates?per_page=100'));
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data[0]).toMatchObject({
      name: expect.any(String),
      start_time: expect.stringMatching(/^\d\d:\d\d/),
      end_time: expect.stringMatching(/^\d\d:\d\d/),
    });
    expect(keysOf(list).filter((k: string) => PAY.test(k))).toEqual([]);
    const one = ok(await call(t.app, tok[who], 'GET', `/api/shift_templates/${list.data[0].id}`));
    expect(keysOf(one).filter((k: string) => PAY.test(k))).toEqual([]);
  });

  it('cannot create, change or delete a job role or a template (403), and nothing changes', async () => {
    const role = ok(await call(t.app, tok[who], 'GET', '/api/job_roles?per_page=1')).data[0];
    const template = ok(await call(t.app, tok[who], 'GET', '/api/shift_templates?per_page=1')).data[0];
    const attempts: [string, string, unknown?][] = [
      ['POST', '/api/job_roles', { name: `Client role ${who}` }],
      ['PUT', `/api/job_roles/${role.id}`, { name: 'Renamed by a client' }],
      ['DELETE', `/api/job_roles/${role.id}`],
      [
        'POST',
        '/api/shift_templates',
        { name: `Client template ${who}`, start_time: '07:00', end_time: '15:00', break_minutes: 0 },
      ],
      ['PUT', `/api/shift_templates/${template.id}`, { name: 'Renamed by a client' }],
      ['DELETE', `/api/shift_templates/${template.id}`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(t.app, tok[who], method as 'POST', url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBe(403);
    }
    expect(ok(await call(t.app, tok.admin, 'GET', `/api/job_roles/${role.id}`)).data.name).toBe(role.name);
    expect(ok(await call(t.app, tok.admin, 'GET', `/api/shift_templates/${template.id}`)).data.name).toBe(
      template.name,
    );
  });
});

describe('scope', () => {
  it('another agency’s job role or template does not exist for a client user (404)', async () => {
    const role = ok(await call(t.app, tok.otherAdmin, 'GET', '/api/job_roles?per_page=1')).data[0];
    const template = ok(
      await call(t.app, tok.otherAdmin, 'POST', '/api/shift_templates', {
        name: 'Other agency early',
        start_time: '07:00',
        end_time: '15:00',
        break_minutes: 30,
      }),
      201,
    ).data;
    expect((await call(t.app, tok.client, 'GET', `/api/job_roles/${role.id}`)).statusCode).toBe(404);
    expect((await call(t.app, tok.client, 'GET', `/api/shift_templates/${template.id}`)).statusCode).toBe(404);
    const mine = ok(await call(t.app, tok.client, 'GET', '/api/job_roles?per_page=100')).data.map((r: any) => r.id);
    expect(mine).not.toContain(role.id);
  });
});

describe('a shift’s name', () => {
  it('says when (on the agency’s clock) and where, for its titles', async () => {
    const [row] = await t.db.query<{ id: number; site: string }>(
      `select s.id, si.name as site from shifts s join sites si on si.id = s.site_id join clients c on c.id = s.client_id
        where c.name = 'Meadowbank Care Home' and s.start_at < '2030-01-01' order by s.id limit 1`,
    );
    const shift = ok(await call(t.app, tok.admin, 'GET', `/api/shifts/${row.id}`)).data;
    // The product's words for a date ("2 Sep 2026"), not the test runner's ICU ("2 Sept 2026" in Node 24).
    const london = instantToZoned(new Date(shift.start_at), 'Europe/London');
    expect(shift.summary).toBe(`${formatDisplayDate(london.date)}, ${london.time} at ${row.site}`);
    // The client user's own shift carries the same name.
    expect(ok(await call(t.app, tok.client, 'GET', `/api/shifts/${row.id}`)).data.summary).toBe(shift.summary);
  });
});
