import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

let t: TestApp;
const tok = {} as Record<'admin' | 'consultant' | 'client' | 'client2' | 'otherAdmin', string>;
let demoId: number;
let otherId: number;

beforeAll(async () => {
  t = await makeTestApp();
  const who = ['admin', 'consultant', 'client', 'client2', 'otherAdmin'] as const;
  const tokens = await Promise.all(who.map((w) => loginAs(t.app, w)));
  who.forEach((w, i) => (tok[w] = tokens[i]));
  const ms = await t.db.query<{ id: number; company_name: string }>('select id, company_name from merchants');
  demoId = ms.find((m) => m.company_name === 'Brightway Staffing')!.id;
  otherId = ms.find((m) => m.company_name === 'Northern Care Recruitment')!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('403 for a signed-in user without the right', () => {
  it.each([
    ['GET', '/api/search_candidate?candidate_query=smith'],
    ['GET', '/api/agency_notifications'],
    ['PUT', '/api/merchant_notification_read_all'],
    ['GET', '/api/admin_login'],
  ] as const)('client token on admin route %s %s → 403', async (method, url) => {
    const res = await call(t.app, tok.client, method, url);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('admin token on GET /api/client_login → 403', async () => {
    expect((await call(t.app, tok.admin, 'GET', '/api/client_login')).statusCode).toBe(403);
    expect((await call(t.app, tok.otherAdmin, 'GET', '/api/client_login')).statusCode).toBe(403);
  });

  it('a client 403 does not mark anything read', async () => {
    const before = (await call(t.app, tok.admin, 'GET', '/api/agency_notifications')).json().unread_count;
    await call(t.app, tok.client, 'PUT', '/api/merchant_notification_read_all');
    expect((await call(t.app, tok.admin, 'GET', '/api/agency_notifications')).json().unread_count).toBe(before);
  });
});

describe('agency isolation', () => {
  it("404 for GET /api/merchants/{other agency's id}, both ways, and for client users", async () => {
    const a = await call(t.app, tok.admin, 'GET', `/api/merchants/${otherId}`);
    const b = await call(t.app, tok.otherAdmin, 'GET', `/api/merchants/${demoId}`);
    const c = await call(t.app, tok.client, 'GET', `/api/merchants/${otherId}`);
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([404, 404, 404]);
    // Never reveals that it exists: the same answer as for an id that does not exist.
    const none = await call(t.app, tok.admin, 'GET', '/api/merchants/987654');
    expect(a.json()).toEqual(none.json());
    expect(JSON.stringify(b.json())).not.toContain('Brightway');
  });

  it('each admin sees their own agency', async () => {
    expect((await call(t.app, tok.admin, 'GET', `/api/merchants/${demoId}`)).json().data.company_name).toBe(
      'Brightway Staffing',
    );
    expect((await call(t.app, tok.otherAdmin, 'GET', `/api/merchants/${otherId}`)).json().data.company_name).toBe(
      'Northern Care Recruitment',
    );
  });

  it("the other agency's admin never finds the first agency's candidates", async () => {
    const demoIds = new Set(
      (await t.db.query<{ id: number }>('select id from candidates where merchant_id = $1', [demoId])).map((r) => r.id),
    );
    // Surnames and first names of the first agency's candidates: these queries match its rows.
    const names = await t.db.query<{ last_name: string; first_name: string }>(
      'select distinct last_name, first_name from candidates where merchant_id = $1 limit 15',
      [demoId],
    );
    const queries = ['staff.example', 'a', 'e', ...names.map((n) => n.last_name), ...names.map((n) => n.first_name)];
    let seenOwn = 0;
    for (const q of queries) {
      const mine = await call(
        t.app,
        tok.admin,
        'GET',
        `/api/search_candidate?candidate_query=${encodeURIComponent(q)}`,
      );
      const theirs = await call(
        t.app,
        tok.otherAdmin,
        'GET',
        `/api/search_candidate?candidate_query=${encodeURIComponent(q)}`,
      );
      expect(mine.statusCode, q).toBe(200); // the query does match the first agency's staff
      for (const c of mine.json().candidate) expect(demoIds.has(c.id)).toBe(true);
      if (theirs.statusCode === 200) {
        for (const c of theirs.json().candidate) {
          expect(demoIds.has(c.id), `${q}: ${c.id}`).toBe(false);
          expect(c.email).toMatch(/@northern\.example$/);
          seenOwn++;
        }
      } else {
        expect(theirs.statusCode).toBe(404);
      }
    }
    expect(
      (await call(t.app, tok.otherAdmin, 'GET', '/api/search_candidate?candidate_query=staff.example')).statusCode,
    ).toBe(404);
    expect(seenOwn).toBeGreaterThan(0); // the other agency's search works, on its own staff
  });

  it('notifications are isolated: counts and mark-all-read stay within the agency', async () => {
    const demoBefore = (await call(t.app, tok.admin, 'GET', '/api/agency_notifications')).json().total_count;
    expect(demoBefore).toBeGreaterThan(0);
    await t.db.query(`insert into notifications (merchant_id, title, read) values ($1, 'Other agency note', false)`, [
      otherId,
    ]);
    const other = (await call(t.app, tok.otherAdmin, 'GET', '/api/agency_notifications')).json();
    expect(other.total_count).toBe(1);
    expect(other.unread_count).toBe(1);
    expect(other.notifications.map((n: any) => n.title)).toEqual(['Other agency note']);
    const demo = (await call(t.app, tok.admin, 'GET', '/api/agency_notifications')).json();
    expect(demo.total_count).toBe(demoBefore);
    expect(demo.notifications.map((n: any) => n.title)).not.toContain('Other agency note');

    expect((await call(t.app, tok.admin, 'PUT', '/api/merchant_notification_read_all')).statusCode).toBe(200);
    expect((await call(t.app, tok.admin, 'GET', '/api/agency_notifications')).json().unread_count).toBe(0);
    expect((await call(t.app, tok.otherAdmin, 'GET', '/api/agency_notifications')).json().unread_count).toBe(1);
  });

  it("logos are isolated: the other agency has none of the first's", async () => {
    const mine = (await call(t.app, tok.admin, 'GET', '/api/agency_logo_list')).json().data;
    const theirs = (await call(t.app, tok.otherAdmin, 'GET', '/api/agency_logo_list')).json().data;
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs).toEqual([]);
  });
});

describe('client isolation', () => {
  it('GET /api/client_login answers each client user with their own client_id', async () => {
    const a = await call(t.app, tok.client, 'GET', '/api/client_login');
    const b = await call(t.app, tok.client2, 'GET', '/api/client_login');
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    const [ja, jb] = [a.json(), b.json()];
    expect(ja).toMatchObject({
      login_type: 'client',
      merchant_id: demoId,
      user: { email: 'client@demo.test', role: expect.any(String) },
    });
    expect(jb).toMatchObject({ login_type: 'client', merchant_id: demoId, user: { email: 'client2@demo.test' } });
    expect(ja.client_id).toEqual(expect.any(Number));
    expect(jb.client_id).toEqual(expect.any(Number));
    expect(ja.client_id).not.toBe(jb.client_id);
    expect(ja.user.client_id).toBe(ja.client_id);
    // ... and those clients are real clients of the agency.
    const rows = await t.db.query('select id from clients where merchant_id = $1 and id = any($2::int[])', [
      demoId,
      [ja.client_id, jb.client_id],
    ]);
    expect(rows).toHaveLength(2);
  });

  it('client users see only their own agency', async () => {
    expect((await call(t.app, tok.client2, 'GET', `/api/merchants/${demoId}`)).statusCode).toBe(200);
    expect((await call(t.app, tok.client2, 'GET', `/api/merchants/${otherId}`)).statusCode).toBe(404);
    const logos = (await call(t.app, tok.client, 'GET', '/api/agency_logo_list')).json().data;
    const adminLogos = (await call(t.app, tok.admin, 'GET', '/api/agency_logo_list')).json().data;
    expect(logos).toEqual(adminLogos);
  });
});
