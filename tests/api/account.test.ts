import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO, login, loginAs, makeTestApp, postLogin, type TestApp } from './helpers';

// Personal Settings (issue 7, item 11): the agency's name and logo (its admins), one's own name and password.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
let merchantId: number;
let otherMerchantId: number;

// The smallest valid PNG (1×1, transparent) and a PDF: the store types uploads by their bytes.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

async function upload(token: string, bytes: Buffer, kind: 'image' | 'document' = 'image'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/files?kind=${kind}`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-name': 'logo.png',
    },
    payload: bytes,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}
const logoEntry = async (token: string) =>
  (await call(t.app, token, 'GET', '/api/agency_logo_list')).json().data.find((l: any) => l.logo_type === 'agency_logo')
    ?.logo_url ?? null;
const auditOf = (resource: string, id: number) =>
  t.db.query<any>(
    'select event, action, changes, user_name from audit_log where resource = $1 and record_id = $2 order by id',
    [resource, id],
  );

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, client, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  merchantId = (
    await t.db.query<{ id: number }>(`select id from merchants where company_name = 'Brightway Staffing'`)
  )[0].id;
  otherMerchantId = (
    await t.db.query<{ id: number }>(`select id from merchants where company_name = 'Northern Care Recruitment'`)
  )[0].id;
});
afterAll(async () => {
  await t?.close();
});

describe('PUT /api/merchants/:id', () => {
  it("an admin changes the agency's name (trimmed); GET answers it, and the audit trail says who", async () => {
    const res = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, {
      company_name: '  Brightway Staffing Ltd  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: merchantId, company_name: 'Brightway Staffing Ltd' });
    expect((await call(t.app, client, 'GET', `/api/merchants/${merchantId}`)).json().data.company_name).toBe(
      'Brightway Staffing Ltd',
    );
    // Written as the agency settings are (issue 35): the entry is theirs.
    const entries = await auditOf('agency_settings', merchantId);
    expect(entries.at(-1)).toMatchObject({
      event: 'update',
      user_name: 'Alex Morgan',
      changes: { company_name: { from: 'Brightway Staffing', to: 'Brightway Staffing Ltd' } },
    });
    await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { company_name: 'Brightway Staffing' });
  });

  it('refuses a name too short or too long, naming the field, and stores nothing', async () => {
    for (const company_name of [' a ', '', 'x'.repeat(121)]) {
      const res = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { company_name });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.company_name).toBeTruthy();
    }
    expect((await call(t.app, admin, 'GET', `/api/merchants/${merchantId}`)).json().data.company_name).toBe(
      'Brightway Staffing',
    );
  });

  it('consultants and client users are refused (403), another agency does not find it (404)', async () => {
    expect(
      (await call(t.app, consultant, 'PUT', `/api/merchants/${merchantId}`, { company_name: 'Taken Over' })).statusCode,
    ).toBe(403);
    expect(
      (await call(t.app, client, 'PUT', `/api/merchants/${merchantId}`, { company_name: 'Taken Over' })).statusCode,
    ).toBe(403);
    expect(
      (await call(t.app, otherAdmin, 'PUT', `/api/merchants/${merchantId}`, { company_name: 'Taken Over' })).statusCode,
    ).toBe(404);
    expect(
      (await call(t.app, admin, 'PUT', `/api/merchants/${otherMerchantId}`, { company_name: 'Taken Over' })).statusCode,
    ).toBe(404);
    const [a, b] = await Promise.all(
      [merchantId, otherMerchantId].map(
        async (id) => (await t.db.query<any>('select company_name from merchants where id = $1', [id]))[0].company_name,
      ),
    );
    expect([a, b]).toEqual(['Brightway Staffing', 'Northern Care Recruitment']);
  });

  it('a save from a stale version answers 409 in words and stores nothing; the current version saves (issue 30.18)', async () => {
    const before = (await call(t.app, admin, 'GET', `/api/merchants/${merchantId}`)).json().data;
    expect(before.version).toBeGreaterThanOrEqual(1);
    const first = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, {
      company_name: 'Brightway Staffing One',
      version: before.version,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.version).toBe(before.version + 1);
    // A second admin's screen still holds the old version.
    const stale = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, {
      company_name: 'Brightway Staffing Two',
      version: before.version,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/^The agency's details were changed by someone else/);
    const [row] = await t.db.query<any>('select company_name, version from merchants where id = $1', [merchantId]);
    expect(row).toEqual({ company_name: 'Brightway Staffing One', version: before.version + 1 });
    const back = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, {
      company_name: 'Brightway Staffing',
      version: before.version + 1,
    });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('decides who may before looking at the body: 403 and 404 with an invalid body too, never 422 (issue 30.17)', async () => {
    const invalid = { company_name: 42, profile_photo: ['x'], unknown: true };
    expect((await call(t.app, consultant, 'PUT', `/api/merchants/${merchantId}`, invalid)).statusCode).toBe(403);
    expect((await call(t.app, client, 'PUT', `/api/merchants/${merchantId}`, invalid)).statusCode).toBe(403);
    expect((await call(t.app, otherAdmin, 'PUT', `/api/merchants/${merchantId}`, invalid)).statusCode).toBe(404);
    expect((await call(t.app, admin, 'PUT', `/api/merchants/not-a-number`, invalid)).statusCode).toBe(404);
    expect((await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, invalid)).statusCode).toBe(422);
  });

  it('a new logo replaces the demo one everywhere the shell reads it; every user of the agency may load it; removing it leaves none', async () => {
    // The demo's logo comes from its old agency_logos row until a logo is saved.
    expect(await logoEntry(admin)).toBe('/demo/agency-logo.svg');
    const id = await upload(admin, PNG);
    const res = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { profile_photo: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.profile_photo).toBe(id);
    expect(await logoEntry(client)).toBe(id);
    expect((await call(t.app, consultant, 'GET', `/api/merchants/${merchantId}`)).json().data.profile_photo).toBe(id);
    // The file now belongs to the agency: client users of the agency see it, the other agency does not.
    const file = await call(t.app, client, 'GET', `/api/files/${id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect((await call(t.app, otherAdmin, 'GET', `/api/files/${id}`)).statusCode).toBe(404);
    expect((await auditOf('agency_settings', merchantId)).at(-1).changes).toEqual({
      profile_photo: { from: '/demo/agency-logo.svg', to: id },
    });
    // Sending the current logo back with a new name changes only the name.
    const again = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, {
      company_name: 'Brightway Staffing',
      profile_photo: id,
    });
    expect(again.statusCode).toBe(200);

    const removed = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { profile_photo: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.profile_photo).toBeNull();
    // The old demo row does not come back.
    expect(await logoEntry(admin)).toBeNull();
    // The demo's own logo, a file the product ships, can be put back.
    expect(
      (
        await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { profile_photo: '/demo/agency-logo.svg' })
      ).json().data.profile_photo,
    ).toBe('/demo/agency-logo.svg');
    expect(await logoEntry(client)).toBe('/demo/agency-logo.svg');
    await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { profile_photo: null });
  });

  it("refuses as a logo: a PDF, someone else's upload, another agency's file, a file of another record, anything not a file id", async () => {
    const pdf = await upload(admin, PDF, 'document');
    const consultantsUpload = await upload(consultant, PNG);
    const otherAgencys = await upload(otherAdmin, PNG);
    const staffPhoto = await upload(admin, PNG);
    const [staff] = await t.db.query<{ id: number }>(
      'select id from candidates where merchant_id = $1 order by id limit 1',
      [merchantId],
    );
    expect(
      (await call(t.app, admin, 'PUT', `/api/candidates/${staff.id}`, { profile_photo: staffPhoto })).statusCode,
    ).toBe(200);
    for (const profile_photo of [
      pdf,
      consultantsUpload,
      otherAgencys,
      staffPhoto,
      'https://evil.example/logo.png',
      '//evil.example/logo.png',
      'javascript:alert(1)',
      '00000000-0000-0000-0000-000000000000',
    ]) {
      const res = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { profile_photo });
      expect(res.statusCode, profile_photo).toBe(422);
      expect(res.json().errors.profile_photo).toBeTruthy();
    }
    const [m] = await t.db.query<any>('select profile_photo from merchants where id = $1', [merchantId]);
    expect(m.profile_photo).toBeNull();
    // Nothing was attached to the agency on the way.
    const [f] = await t.db.query<any>('select owner_id from files where id = $1', [consultantsUpload]);
    expect(f.owner_id).toBeNull();
  });

  it('refuses unknown fields and a bad id without a 500', async () => {
    expect((await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { email: 'x@y.z' })).statusCode).toBe(422);
    expect((await call(t.app, admin, 'PUT', '/api/merchants/abc', {})).statusCode).toBeLessThan(500);
    expect(
      (await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { company_name: 42 })).statusCode,
    ).toBeLessThan(500);
  });
});

describe('PUT /api/me', () => {
  it('any user changes their own name; who-am-I answers it at once; the audit trail keeps the old one', async () => {
    const res = await call(t.app, client, 'PUT', '/api/me', { name: '  Carol Client-Smith ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.name).toBe('Carol Client-Smith');
    expect((await call(t.app, client, 'GET', '/api/client_login')).json().user.name).toBe('Carol Client-Smith');
    const [user] = await t.db.query<{ id: number; name: string }>(
      'select id, name from users where lower(email) = $1',
      [DEMO.client.email],
    );
    expect((await auditOf('users', user.id)).at(-1)).toMatchObject({
      event: 'update',
      changes: { name: { to: 'Carol Client-Smith' } },
    });
    // Another user's name is untouched.
    expect((await call(t.app, admin, 'GET', '/api/admin_login')).json().user.name).not.toBe('Carol Client-Smith');
  });

  it('refuses an empty or too long name, naming the field', async () => {
    for (const name of ['   ', 'x'.repeat(121)]) {
      const res = await call(t.app, consultant, 'PUT', '/api/me', { name });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.name).toBeTruthy();
    }
    expect((await call(t.app, undefined, 'PUT', '/api/me', { name: 'Nobody' })).statusCode).toBe(401);
  });
});

describe('POST /api/me/password', () => {
  it('checks the current password and the new one, naming the field, and changes nothing', async () => {
    const wrong = await call(t.app, consultant, 'POST', '/api/me/password', {
      current_password: 'not-it',
      new_password: 'a-brand-new-one',
    });
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json().errors)).toEqual(['current_password']);
    const short = await call(t.app, consultant, 'POST', '/api/me/password', {
      current_password: DEMO.consultant.password,
      new_password: 'short',
    });
    expect(short.statusCode).toBe(422);
    expect(Object.keys(short.json().errors)).toEqual(['new_password']);
    const same = await call(t.app, consultant, 'POST', '/api/me/password', {
      current_password: 'demo-admin-x',
      new_password: 'demo-admin-x',
    });
    expect(same.json().errors.new_password).toMatch(/different/);
    expect((await call(t.app, consultant, 'POST', '/api/me/password', {})).statusCode).toBe(422);
    await loginAs(t.app, 'consultant'); // the old password still works
  });

  it('changes the password (Argon2id), ends every other session of the user in every process, keeps this one', async () => {
    const other = await t.extraApp();
    const here = await loginAs(t.app, 'client2');
    const elsewhere = await login(other, 'client', DEMO.client2.email, DEMO.client2.password);
    const again = await loginAs(t.app, 'client2');
    // Both apps have the sessions cached before the change.
    expect((await call(other, elsewhere, 'GET', '/api/client_login')).statusCode).toBe(200);
    expect((await call(t.app, again, 'GET', '/api/client_login')).statusCode).toBe(200);

    const res = await call(t.app, here, 'POST', '/api/me/password', {
      current_password: DEMO.client2.password,
      new_password: 'a-much-longer-secret',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: expect.stringMatching(/signed out everywhere else/),
      other_sessions_ended: 2,
    });

    expect((await call(t.app, here, 'GET', '/api/client_login')).statusCode).toBe(200);
    expect((await call(t.app, again, 'GET', '/api/client_login')).statusCode).toBe(401);
    expect((await call(other, elsewhere, 'GET', '/api/client_login')).statusCode).toBe(401);
    // Another user's sessions go on.
    expect((await call(t.app, client, 'GET', '/api/client_login')).statusCode).toBe(200);

    expect((await postLogin(t.app, 'client', DEMO.client2.email, DEMO.client2.password)).statusCode).toBe(401);
    expect((await postLogin(t.app, 'client', DEMO.client2.email, 'a-much-longer-secret')).statusCode).toBe(200);
    const [u] = await t.db.query<any>('select id, password_hash from users where lower(email) = $1', [
      DEMO.client2.email,
    ]);
    expect(u.password_hash).toMatch(/^\$argon2id\$/);
    expect((await auditOf('users', u.id)).at(-1)).toMatchObject({
      event: 'action',
      action: 'change_password',
      changes: {},
    });
  });

  it('wrong current passwords count towards the sign-in limit (429 after five)', async () => {
    const token = await loginAs(t.app, 'otherAdmin');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await call(t.app, token, 'POST', '/api/me/password', {
            current_password: `guess-${i}`,
            new_password: 'a-brand-new-one',
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
  });
});
