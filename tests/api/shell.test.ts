import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { declarations } from '../../core/resources/declarations';

const NOT_FOUND = 'Not Staff found for the specified criteria';
let t: TestApp;
let admin: string;
let client: string;
let merchantId: number;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, client] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'client')]);
  [{ id: merchantId }] = await t.db.query<{ id: number }>(
    `select id from merchants where company_name = 'Brightway Staffing'`,
  );
});
afterAll(async () => {
  await t?.close();
});

const search = (q: string | undefined, token = admin) =>
  call(
    t.app,
    token,
    'GET',
    q === undefined ? '/api/search_candidate' : `/api/search_candidate?candidate_query=${encodeURIComponent(q)}`,
  );

describe('GET /api/merchants/{merchant_id}', () => {
  it("answers { data } with the agency's company_name and profile_photo", async () => {
    const res = await call(t.app, admin, 'GET', `/api/merchants/${merchantId}`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ id: merchantId, company_name: 'Brightway Staffing' });
    expect(data).toHaveProperty('profile_photo');
  });

  it('answers client users of the agency too', async () => {
    const res = await call(t.app, client, 'GET', `/api/merchants/${merchantId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.company_name).toBe('Brightway Staffing');
  });

  it('404 (not 500) for an unknown id and 4xx for a non-numeric one', async () => {
    expect((await call(t.app, admin, 'GET', '/api/merchants/999999')).statusCode).toBe(404);
    const bad = await call(t.app, admin, 'GET', '/api/merchants/abc');
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
  });

  it('401 without a token', async () => {
    expect((await call(t.app, undefined, 'GET', `/api/merchants/${merchantId}`)).statusCode).toBe(401);
  });
});

describe('GET /api/agency_logo_list', () => {
  it('answers data[] of logo_type and logo_url, with the agency_logo entry', async () => {
    const res = await call(t.app, admin, 'GET', '/api/agency_logo_list');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Array.isArray(data)).toBe(true);
    for (const row of data)
      expect(row).toEqual(expect.objectContaining({ logo_type: expect.any(String), logo_url: expect.any(String) }));
    expect(data.find((l: any) => l.logo_type === 'agency_logo')).toBeTruthy();
  });
});

describe('GET /api/search_candidate', () => {
  it('answers 200 with candidate[] (at most 10) and message', async () => {
    const res = await search('staff.example'); // every demo candidate's e-mail domain
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.candidate).toHaveLength(10);
    expect(body.message).toEqual(expect.any(String));
    for (const c of body.candidate) {
      expect(c).toEqual(
        expect.objectContaining({
          id: expect.any(Number),
          first_name: expect.any(String),
          last_name: expect.any(String),
        }),
      );
      expect(c).toHaveProperty('profile_photo');
    }
  });

  it('finds by name, case-insensitively', async () => {
    const [someone] = await t.db.query<{ id: number; first_name: string; last_name: string }>(
      `select id, first_name, last_name from candidates where merchant_id = $1 order by id limit 1`,
      [merchantId],
    );
    const res = await search(`${someone.first_name} ${someone.last_name}`.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().candidate.map((c: any) => c.id)).toContain(someone.id);
  });

  it('trims the query', async () => {
    const plain = await search('smith');
    const padded = await search('   smith  ');
    expect(padded.statusCode).toBe(plain.statusCode);
    expect(padded.json()).toEqual(plain.json());
  });

  it('answers 404 with the spec message when nothing matches', async () => {
    const res = await search('zzqxj-nobody');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(NOT_FOUND);
  });

  it('answers 400 for a blank, whitespace-only or missing query', async () => {
    for (const q of ['', '   ', '\t', undefined]) {
      const res = await search(q);
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().message).toBe(NOT_FOUND);
    }
  });

  it('treats % and _ literally, not as wildcards', async () => {
    expect((await search('%')).statusCode).toBe(404);
    expect((await search('_')).statusCode).toBe(404);
    expect((await search('a%e')).statusCode).toBe(404);
    const [row] = await fixtureWrite<{ id: number }>(
      t.db,
      `insert into candidates (merchant_id, first_name, last_name, email, status, activated) values ($1, 'Under', 'Score', 'under_score@staff.example', 'approved', true) returning id`,
      [merchantId],
    );
    const res = await search('_');
    expect(res.statusCode).toBe(200);
    expect(res.json().candidate.map((c: any) => c.id)).toEqual([row.id]);
    expect((await search('r_s')).json().candidate.map((c: any) => c.id)).toEqual([row.id]);
    await fixtureWrite(t.db, 'delete from candidates where id = $1', [row.id]);
  });

  it('does not find deleted candidates', async () => {
    const [row] = await fixtureWrite<{ id: number }>(
      t.db,
      `insert into candidates (merchant_id, first_name, last_name, status, deleted_at) values ($1, 'Gone', 'Qwertyuiop', 'approved', now()) returning id`,
      [merchantId],
    );
    expect((await search('qwertyuiop')).statusCode).toBe(404);
    await fixtureWrite(t.db, 'delete from candidates where id = $1', [row.id]);
  });

  it("is a list of staff: a role the candidates declaration does not let list them is refused (403), another agency's staff are never found", async () => {
    const [someone] = await t.db.query<{ id: number; email: string }>(
      `select id, email from candidates where merchant_id = $1 and deleted_at is null order by id limit 1`,
      [merchantId],
    );
    const otherAdmin = await loginAs(t.app, 'otherAdmin');
    expect((await search(someone.email, otherAdmin)).statusCode).toBe(404);
    // The same product with consultants kept out of the staff list.
    const noStaffList = declarations.map((d) =>
      d.name === 'candidates' ? { ...d, access: { admin: d.access.admin } } : d,
    );
    const app = await t.extraApp({ declarations: noStaffList });
    const consultant = await loginAs(app, 'consultant');
    const refused = await call(
      app,
      consultant,
      'GET',
      `/api/search_candidate?candidate_query=${encodeURIComponent(someone.email)}`,
    );
    expect(refused.statusCode).toBe(403);
    expect(
      (
        await call(
          app,
          await loginAs(app, 'admin'),
          'GET',
          `/api/search_candidate?candidate_query=${encodeURIComponent(someone.email)}`,
        )
      )
        .json()
        .candidate.map((c: any) => c.id),
    ).toEqual([someone.id]);
  });

  it('refuses an over-long query with 4xx, not 500', async () => {
    const res = await search('x'.repeat(500));
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

// The notification calls are tested with the notifications (tests/api/notifications.test.ts).
describe('OpenAPI description', () => {
  it('GET /api/docs/json is an OpenAPI document listing the shell and sign-in paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/api/admin_login',
      '/api/client_login',
      '/api/logout',
      '/api/merchants/{id}',
      '/api/agency_logo_list',
      '/api/search_candidate',
      '/api/agency_notifications',
      '/api/merchant_notification_read_all',
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(doc.paths['/api/admin_login'].post).toBeTruthy();
    expect(doc.paths['/api/merchant_notification_read_all'].put).toBeTruthy();
  });

  it('GET /api/docs serves the documentation page without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBeLessThan(400);
  });
});

describe('health and unknown routes', () => {
  it('GET /api/health answers 200 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
  });

  it('an unknown /api path answers 404 JSON', async () => {
    const res = await call(t.app, admin, 'GET', '/api/no_such_thing');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toEqual(expect.any(String));
  });
});
