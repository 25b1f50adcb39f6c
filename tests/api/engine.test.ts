import type { FastifyInstance } from 'fastify';
import { parse } from 'csv-parse/sync';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// The generic resource API, exercised through the declared entities: clients, sites, staff and staff settings.
let t: TestApp;
let app: FastifyInstance;
let admin: string;
let consultant: string;
let other: string;
let client: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 60 });
  app = t.app;
  [admin, consultant, other, client] = await Promise.all([
    loginAs(app, 'admin'),
    loginAs(app, 'consultant'),
    loginAs(app, 'otherAdmin'),
    loginAs(app, 'client'),
  ]);
});
afterAll(() => t?.close());

const get = (url: string, token = admin) => call(app, token, 'GET', url);
const post = (url: string, body: unknown, token = admin) => call(app, token, 'POST', url, body);
const put = (url: string, body: unknown, token = admin) => call(app, token, 'PUT', url, body);
const del = (url: string, token = admin) => call(app, token, 'DELETE', url);
const count = async (table: string, where = 'true') =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`))[0].n;

describe('lists', () => {
  it('answer the convention shape, sorted by the declared default', async () => {
    const res = await get('/api/clients');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total_count: 20, total_pages: 1, current_page: 1 });
    const names = body.data.map((c: any) => c.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(body.data[0]).not.toHaveProperty('merchant_id');
    expect(body.data[0]).not.toHaveProperty('search_text');
  });

  it('paginate on the server, with clear errors at the edges', async () => {
    const p4 = (await get('/api/clients?page=4&per_page=5')).json();
    expect(p4.data).toHaveLength(5);
    expect(p4).toMatchObject({ total_count: 20, total_pages: 4, current_page: 4 });
    const p5 = (await get('/api/clients?page=5&per_page=5')).json();
    expect(p5.data).toEqual([]);
    expect(p5.total_count).toBe(20);
    const pages = await Promise.all([1, 2, 3, 4].map((p) => get(`/api/clients?page=${p}&per_page=5`)));
    const ids = pages.flatMap((r) => r.json().data.map((c: any) => c.id));
    expect(new Set(ids).size).toBe(20);
    for (const bad of ['page=0', 'page=-1', 'per_page=0', 'per_page=101', 'per_page=abc', 'page=1.5']) {
      const res = await get(`/api/clients?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(Object.keys(res.json().errors)).toHaveLength(1);
    }
  });

  it('sort only by whitelisted fields, both ways, ties broken by id', async () => {
    const desc = (await get('/api/clients?sort=code&order=desc&per_page=100')).json().data.map((c: any) => c.code);
    expect(desc).toEqual([...desc].sort().reverse());
    const bySort = await get('/api/clients?sort=vat_number');
    expect(bySort.statusCode).toBe(400);
    expect(bySort.json().errors.sort).toMatch(/Cannot sort by vat_number/);
    expect((await get('/api/clients?sort=name&order=sideways')).statusCode).toBe(400);
    expect((await get('/api/clients?sort=name;drop table clients')).statusCode).toBe(400);
  });

  it('filter only by declared filters, and search with q', async () => {
    const active = (await get('/api/clients?status=active&per_page=100')).json();
    expect(active.data.every((c: any) => c.status === 'active')).toBe(true);
    const inactive = (await get('/api/clients?status=inactive&per_page=100')).json();
    expect(active.total_count + inactive.total_count).toBe(20);
    expect(inactive.total_count).toBeGreaterThan(0);
    const unknown = await get('/api/clients?vat_number=GB1');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.vat_number).toBe('Unknown filter');
    const oak = (await get('/api/clients?q=OAKW')).json();
    expect(oak.data.map((c: any) => c.name)).toEqual(['Oakwood Lodge']);
    const literal = (await get('/api/clients?q=' + encodeURIComponent('100%'))).json();
    expect(literal.total_count).toBe(0);
    const hospitals = (await get('/api/clients?client_type=Hospital,Care%20home&per_page=100')).json();
    expect(hospitals.total_count).toBe(20);
  });

  it('serve named tabs as filters', async () => {
    const tab = (await get('/api/clients?tab=Inactive-Client&per_page=100')).json();
    const filtered = (await get('/api/clients?status=inactive&per_page=100')).json();
    expect(tab.data.map((c: any) => c.id)).toEqual(filtered.data.map((c: any) => c.id));
    expect((await get('/api/clients?tab=nope')).statusCode).toBe(400);
  });

  it('count what every write changes, at once', async () => {
    const total = async () => (await get('/api/clients?tab=activeClient&per_page=1')).json().total_count;
    const before = await total();
    const { data } = (await post('/api/clients', { name: 'Counted', billing_email: 'c@count.example' })).json();
    expect(await total()).toBe(before + 1);
    await put(`/api/clients/${data.id}`, { status: 'inactive' });
    expect(await total()).toBe(before);
    await put(`/api/clients/${data.id}`, { status: 'active' });
    expect(await total()).toBe(before + 1);
    await del(`/api/clients/${data.id}`);
    expect(await total()).toBe(before);
    // Another agency's writes are counted for that agency only.
    const theirs = async () => (await get('/api/clients?per_page=1', other)).json().total_count;
    const theirBefore = await theirs();
    await post('/api/clients', { name: 'Theirs', billing_email: 't@count.example' }, other);
    expect(await theirs()).toBe(theirBefore + 1);
  });

  it('search long and short fragments alike, sorted and paged', async () => {
    const long = (await get('/api/candidates?q=son&sort=last_name&per_page=100')).json();
    const short = (await get('/api/candidates?q=so&sort=last_name&per_page=100')).json();
    expect(long.total_count).toBeGreaterThan(0);
    expect(long.data.every((c: any) => `${c.first_name} ${c.last_name} ${c.email}`.toLowerCase().includes('son'))).toBe(
      true,
    );
    expect(short.total_count).toBeGreaterThanOrEqual(long.total_count);
    const names = long.data.map((c: any) => c.last_name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const p2 = (await get('/api/candidates?q=son&sort=last_name&per_page=2&page=2')).json().data.map((c: any) => c.id);
    expect(p2).toEqual(long.data.slice(2, 4).map((c: any) => c.id));
  });

  it('carry only the fields a screen asks for (?fields=), with the references of those alone', async () => {
    const all = (await get('/api/candidates?per_page=25&sort=id')).json();
    const some = (await get('/api/candidates?per_page=25&sort=id&fields=first_name,last_name,job_role_id')).json();
    expect(some.total_count).toBe(all.total_count);
    expect(some.data).toEqual(
      all.data.map((r: any) => ({
        id: r.id,
        first_name: r.first_name,
        last_name: r.last_name,
        job_role_id: r.job_role_id,
      })),
    );
    expect(Object.keys(some.references)).toEqual(['job_roles']);
    expect(some.references.job_roles).toEqual(all.references.job_roles);
    // A computed field is asked for like a stored one; a name the declaration does not know is refused in words.
    expect(Object.keys((await get('/api/candidates?per_page=1&fields=compliance')).json().data[0]).sort()).toEqual([
      'compliance',
      'id',
    ]);
    const unknown = await get('/api/candidates?fields=first_name,password_hash');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.fields).toBe('Unknown field password_hash');
  });

  it('bring along references as they are after any write of the agency', async () => {
    const roleOf = async () => {
      const page = (await get('/api/candidates?per_page=25&sort=id&fields=job_role_id')).json();
      return page.references.job_roles.find((r: any) => r.id === page.data[0].job_role_id);
    };
    const before = await roleOf();
    const renamed = (await put(`/api/job_roles/${before.id}`, { name: `${before.name} (renamed)` })).json().data;
    expect((await roleOf()).name).toBe(`${before.name} (renamed)`);
    await put(`/api/job_roles/${before.id}`, { name: before.name, version: renamed.version });
    expect((await roleOf()).name).toBe(before.name);
  });

  it('fetch many by ids, for references', async () => {
    const res = (await get('/api/job_roles?ids=1,2,3')).json();
    expect(res.data.map((r: any) => r.id).sort()).toEqual([1, 2, 3]);
    expect((await get('/api/job_roles?ids=1,x')).statusCode).toBe(400);
  });
});

describe('clients: create, update, delete', () => {
  const valid = {
    name: 'Harbour View Care',
    code: 'HVC01',
    billing_email: 'accounts@harbour.example',
    address: { line1: '1 Quay St', postcode: 'LS1 4AB', city: 'Leeds' },
  };

  it('create answers 201 with the stored record and defaults', async () => {
    const res = await post('/api/clients', valid);
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      name: 'Harbour View Care',
      code: 'HVC01',
      status: 'active',
      payment_terms_days: 30,
      address: { line1: '1 Quay St', postcode: 'LS1 4AB' },
    });
    expect((await get(`/api/clients/${data.id}`)).json().data.name).toBe('Harbour View Care');
  });

  it('refuses bad input field by field, in words, storing nothing', async () => {
    const before = await count('clients');
    const res = await post('/api/clients', {
      name: '  ',
      billing_email: 'not-an-email',
      payment_terms_days: 'soon',
      status: 'closed',
      vat_number: '!!',
      phone: 'call me',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: 'Required',
      billing_email: 'Invalid email address',
      payment_terms_days: 'Must be a number',
      status: 'Choose one of the listed options',
      vat_number: 'Enter a VAT number such as GB123456789',
      phone: 'Enter a phone number of 7 to 20 digits (spaces, +, ( ) and - allowed)',
    });
    expect(await count('clients')).toBe(before);
    expect(
      (await post('/api/clients', { ...valid, code: 'X1', payment_terms_days: 400 })).json().errors.payment_terms_days,
    ).toBe('Must be 365 or less');
    expect((await post('/api/clients', { ...valid, code: 'X2', name: 'x'.repeat(151) })).json().errors.name).toBe(
      'Must be 150 characters or less',
    );
  });

  it('keeps codes unique within the agency, case-insensitively', async () => {
    const res = await post('/api/clients', { ...valid, name: 'Another', code: 'hvc01' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.code).toBe('Already used by another record');
    // The other agency may use the same code.
    expect((await post('/api/clients', { ...valid, code: 'HVC01' }, other)).statusCode).toBe(201);
  });

  it('never answers 500 to malformed bodies', async () => {
    for (const payload of ['[1,2]', '"text"', '{"name":', 'null']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, payload).toBeLessThan(500);
    }
    expect((await post('/api/clients', { ...valid, code: 'X3', address: 'a string' })).json().errors.address).toBe(
      'Enter the address in the fields given',
    );
    expect((await get('/api/clients/abc')).statusCode).toBe(422);
    expect((await get('/api/clients/99999999999')).statusCode).toBe(422);
  });

  it('update merges into the stored record and validates the result', async () => {
    const { data } = (await post('/api/clients', { ...valid, name: 'Merge Me', code: 'MRG' })).json();
    const res = await put(`/api/clients/${data.id}`, { phone: '0113 496 0000' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Merge Me',
      phone: '0113 496 0000',
      billing_email: valid.billing_email,
    });
    const bad = await put(`/api/clients/${data.id}`, { name: '', billing_email: 'nope' });
    expect(bad.statusCode).toBe(422);
    expect((await get(`/api/clients/${data.id}`)).json().data.name).toBe('Merge Me');
  });

  it('soft-deletes: the client disappears from the API but its row is kept', async () => {
    const { data } = (await post('/api/clients', { ...valid, name: 'Gone Soon', code: 'GONE' })).json();
    const res = await del(`/api/clients/${data.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('Gone Soon');
    expect((await get(`/api/clients/${data.id}`)).statusCode).toBe(404);
    expect((await get('/api/clients?q=gone')).json().total_count).toBe(0);
    expect(await count('clients', `id = ${data.id} and deleted_at is not null`)).toBe(1);
    expect((await del(`/api/clients/${data.id}`)).statusCode).toBe(404);
    // A deleted code may be used again.
    expect((await post('/api/clients', { ...valid, name: 'Back', code: 'GONE' })).statusCode).toBe(201);
  });
});

describe('authorisation', () => {
  it('hides another agency’s records behind 404, for every verb', async () => {
    const mine = (await get('/api/clients?per_page=1')).json().data[0];
    expect((await get(`/api/clients/${mine.id}`, other)).statusCode).toBe(404);
    expect((await put(`/api/clients/${mine.id}`, { name: 'Taken' }, other)).statusCode).toBe(404);
    expect((await del(`/api/clients/${mine.id}`, other)).statusCode).toBe(404);
    expect((await get(`/api/clients/${mine.id}`)).json().data.name).toBe(mine.name);
    const theirs = (await get('/api/clients?per_page=100', other)).json().data;
    expect(theirs.some((c: any) => c.id === mine.id)).toBe(false);
    const theirStaff = (await get('/api/candidates?per_page=100', other)).json();
    expect(theirStaff.total_count).toBe(15);
  });

  it('refuses references to another agency’s records', async () => {
    const theirClient = (await get('/api/clients?per_page=1', other)).json().data[0];
    const res = await post('/api/sites', {
      name: 'Sneaky',
      client_id: theirClient.id,
      address: { line1: '1 A St', postcode: 'LS1 1AA' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.client_id).toBe('This record does not exist any more; choose another');
    const theirProfile = (await get('/api/staff_profiles?per_page=1', other)).json().data[0];
    const me = (await get('/api/candidates?per_page=1')).json().data[0];
    expect(
      (await put(`/api/candidates/${me.id}`, { staff_profile_ids: [theirProfile.id] })).json().errors.staff_profile_ids,
    ).toBeDefined();
  });

  it('applies the roles of the declaration', async () => {
    const c = (
      await post('/api/clients', { name: 'Consultant Made', billing_email: 'a@b.example', address: null }, consultant)
    ).json().data;
    expect(c.name).toBe('Consultant Made');
    expect((await del(`/api/clients/${c.id}`, consultant)).statusCode).toBe(403);
    expect((await get('/api/job_roles', consultant)).statusCode).toBe(200);
    expect((await post('/api/job_roles', { name: 'Porter' }, consultant)).statusCode).toBe(403);
    expect((await get('/api/clients', client)).statusCode).toBe(403);
    expect((await get('/api/candidates', client)).statusCode).toBe(403);
    expect((await get('/api/clients', 'garbage')).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/clients' })).statusCode).toBe(401);
  });
});

describe('client users', () => {
  it('learn the name of their own client at sign-in and from GET client_login', async () => {
    const me = (await get('/api/client_login', client)).json();
    const [row] = await t.db.query('select name from clients where id = $1', [me.client_id]);
    expect(me.client_name).toBe(row.name);
    const signIn = (
      await app.inject({
        method: 'POST',
        url: '/api/client_login',
        payload: { email: 'client2@demo.test', password: 'demo-client' },
      })
    ).json();
    const [row2] = await t.db.query('select name from clients where id = $1', [signIn.client_id]);
    expect(signIn.client_name).toBe(row2.name);
    expect(signIn.client_name).not.toBe(me.client_name);
  });
});

describe('sites', () => {
  it('belong to a client, filter by client and status, and require an address', async () => {
    const clientRow = (await get('/api/clients?per_page=1')).json().data[0];
    const mine = (await get(`/api/sites?client_id=${clientRow.id}&per_page=100`)).json();
    expect(mine.total_count).toBeGreaterThan(0);
    expect(mine.data.every((s: any) => s.client_id === clientRow.id)).toBe(true);
    const noAddress = await post('/api/sites', {
      name: 'Annexe',
      client_id: clientRow.id,
      address: { line1: '', postcode: '' },
    });
    expect(noAddress.json().errors.address).toBe('Enter at least the first line and the postcode');
    expect(
      (
        await post('/api/sites', {
          name: 'Annexe',
          client_id: clientRow.id,
          address: { line1: '2 Mill Lane', postcode: '???' },
        })
      ).json().errors.address,
    ).toBe('Enter a valid postcode');
    const created = await post('/api/sites', {
      name: 'Annexe',
      client_id: clientRow.id,
      business_unit: 'Nursing',
      address: { line1: '2 Mill Lane', postcode: 'LS2 7AA' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ status: 'active', client_id: clientRow.id });
    const inactive = (await get('/api/sites?tab=Inactive-Site&per_page=100')).json().data;
    expect(inactive.every((s: any) => s.status === 'inactive')).toBe(true);
    expect((await get('/api/sites?client_id=abc')).statusCode).toBe(400);
  });

  it('serve an export (export=1) only to those the declaration grants export: a client manager may list but not export', async () => {
    expect((await get('/api/sites?per_page=5', client)).statusCode).toBe(200);
    const refused = await get('/api/sites?per_page=5&export=1', client);
    expect(refused.statusCode).toBe(403);
    const exported = await get('/api/sites?per_page=5&export=1');
    expect(exported.statusCode).toBe(200);
    // The marker is no filter: the export holds what the list holds.
    expect(exported.json().total_count).toBe((await get('/api/sites?per_page=5')).json().total_count);
  });
});

describe('candidates (staff)', () => {
  it('answer the spec’s paged call, and all pages fetched in a loop give every active staff member once', async () => {
    const first = (await get('/api/candidates?page=1&per_page=10&status_value=approved&activated_value=true')).json();
    expect(first.total_pages).toBe(Math.ceil(first.total_count / 10));
    const seen: number[] = [];
    for (let page = 1; page <= first.total_pages; page++) {
      const r = (
        await get(`/api/candidates?page=${page}&per_page=10&status_value=approved&activated_value=true`)
      ).json();
      expect(r.data.every((c: any) => c.status === 'approved' && c.activated === true)).toBe(true);
      seen.push(...r.data.map((c: any) => c.id));
    }
    expect(new Set(seen).size).toBe(first.total_count);
    expect(seen.length).toBe(first.total_count);
    expect((await get('/api/candidates?activated_value=maybe')).statusCode).toBe(400);
  });

  it('bring along the records their listed references point at, as getMany of those ids would answer them', async () => {
    const page = (await get('/api/candidates?per_page=25')).json();
    const idsOf = (field: string) =>
      [...new Set(page.data.map((c: any) => c[field]).filter((v: unknown) => v != null))].sort(
        (a: any, b: any) => a - b,
      );
    // Only the reference fields the list shows: employment type and staff profiles are on the profile only.
    expect(Object.keys(page.references).sort()).toEqual(['job_roles', 'staff_statuses']);
    for (const [resource, field] of [
      ['job_roles', 'job_role_id'],
      ['staff_statuses', 'staff_status_id'],
    ]) {
      const ids = idsOf(field);
      expect(ids.length).toBeGreaterThan(0);
      expect(page.references[resource].map((r: any) => r.id)).toEqual(ids);
      const many = (await get(`/api/${resource}?ids=${ids.join(',')}&per_page=${ids.length}&sort=id`)).json().data;
      expect(page.references[resource]).toEqual(many);
    }
    // Another agency's lists bring only their own records.
    const theirs = (await get('/api/candidates?per_page=25', other)).json();
    const mine = new Set(page.references.job_roles.map((r: any) => r.id));
    expect(theirs.references.job_roles.length).toBeGreaterThan(0);
    expect(theirs.references.job_roles.some((r: any) => mine.has(r.id))).toBe(false);
  });

  it('bring along no records of a resource the caller may not list', async () => {
    // A client manager lists their sites but may not list clients (only show their own).
    const sites = (await get('/api/sites', client)).json();
    expect(sites.data.length).toBeGreaterThan(0);
    expect(sites.references).toEqual({});
    expect(Object.keys((await get('/api/sites')).json().references)).toEqual(['clients']);
  });

  it('answer { data } with no parameters', async () => {
    const r = (await get('/api/candidates')).json();
    expect(Array.isArray(r.data)).toBe(true);
    expect(r.data.length).toBe(25);
  });

  it('split into the spec’s tabs: active, inactive, pending and rejected', async () => {
    const n = async (tab: string) => (await get(`/api/candidates?tab=${tab}&per_page=1`)).json().total_count;
    const [all, active, inactive, pending, rejected] = await Promise.all(
      ['allStaffs', 'activeStaff', 'InactiveStaff', 'pendingStaff', 'rejectStaff'].map(n),
    );
    // The demo's 60 staff and those its recruitment hired (pending staff made from their applications).
    const hired = await count('job_applications', `stage = 'hired' and candidate_id is not null`);
    expect(hired).toBeGreaterThan(0);
    expect(all).toBe(60 + hired);
    expect(active + inactive + pending + rejected).toBe(all);
    for (const x of [active, inactive, pending, rejected]) expect(x).toBeGreaterThan(0);
  });

  it('change standing only through actions: a PUT of status or activated is refused, naming the field', async () => {
    const pending = (await get('/api/candidates?tab=pendingStaff&per_page=1')).json().data[0];
    for (const change of [{ status: 'approved' }, { activated: true }, { status: 'approved', activated: true }]) {
      const res = await put(`/api/candidates/${pending.id}`, change);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual(Object.keys(change).sort());
    }
    // Sending the stored values back (as an edit form does) is not a change.
    expect((await put(`/api/candidates/${pending.id}`, { ...pending, notes: 'Called back' })).statusCode).toBe(200);
    expect((await get(`/api/candidates/${pending.id}`)).json().data).toMatchObject({
      status: 'pending',
      activated: false,
      notes: 'Called back',
    });
  });

  it('validate e-mail uniqueness, dates and uploads', async () => {
    const base = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' };
    const created = await post('/api/candidates', base);
    expect(created.statusCode, created.body).toBe(201);
    expect((await post('/api/candidates', { ...base, email: 'ADA@example.org' })).json().errors.email).toBe(
      'Already used by another record',
    );
    expect(
      (await post('/api/candidates', { ...base, email: 'b@example.org', date_of_birth: '2001-02-31' })).json().errors
        .date_of_birth,
    ).toBe('Enter a date as yyyy-MM-dd');
    const young = new Date().getFullYear() - 10;
    expect(
      (await post('/api/candidates', { ...base, email: 'c@example.org', date_of_birth: `${young}-01-01` })).json()
        .errors.date_of_birth,
    ).toMatch(/^Must be on or before \d{4}-\d\d-\d\d$/);
    // Uploads are stored files: a data URL or a protocol-relative URL is not a stored file's id.
    for (const photo of [
      'data:image/png;base64,iVBORw0KGgo=',
      '//evil.example/pixel.png',
      'https://evil.example/p.png',
    ]) {
      expect(
        (await post('/api/candidates', { ...base, email: 'd@example.org', profile_photo: photo })).json().errors
          .profile_photo,
        photo,
      ).toBe('Upload a file');
    }
    const ok = await post('/api/candidates', { ...base, email: 'f@example.org', ni_number: 'AB 12 34 56 C' });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('carry the agency’s custom staff fields, validated like declared ones', async () => {
    const field = await post('/api/staff_detail_fields', {
      label: 'Badge number',
      key: 'badge_number',
      field_type: 'text',
      required: true,
      show_in_list: true,
    });
    expect(field.statusCode).toBe(201);
    const missing = await post('/api/candidates', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.org',
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors['custom_fields.badge_number']).toBe('Required');
    const ok = await post('/api/candidates', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.org',
      custom_fields: { badge_number: 'B-7' },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.custom_fields).toMatchObject({ badge_number: 'B-7' });
    // The staff list's export writes the custom field as a column of its own.
    const exported = parse(
      (await get('/api/candidates/export?q=grace%40example.org')).body.replace(/^\uFEFF/, ''),
    ) as string[][];
    expect(exported[1][exported[0].indexOf('Badge number')]).toBe('B-7');
    // Updating another field keeps the custom values.
    const id = ok.json().data.id;
    expect((await put(`/api/candidates/${id}`, { phone: '07700 900123' })).json().data.custom_fields.badge_number).toBe(
      'B-7',
    );
    const choice = await post('/api/candidates', {
      first_name: 'Alan',
      last_name: 'Turing',
      email: 'alan@example.org',
      custom_fields: { badge_number: 'B-8', uniform_size: 'XXXL' },
    });
    expect(choice.json().errors['custom_fields.uniform_size']).toBe('Choose one of the listed options');
    // Another agency does not see this agency's fields.
    expect((await get('/api/staff_detail_fields?q=badge', other)).json().total_count).toBe(0);
    await del(`/api/staff_detail_fields/${field.json().data.id}`);
  });
});

describe('staff settings', () => {
  it('keep money exact in minor units', async () => {
    const r = await post('/api/job_roles', { name: 'Night Carer', default_pay_rate: 1375, default_charge_rate: 2010 });
    expect(r.statusCode).toBe(201);
    expect(r.json().data).toMatchObject({ default_pay_rate: 1375, default_charge_rate: 2010, active: true });
    expect(
      (await post('/api/job_roles', { name: 'Porter', default_pay_rate: 12.5 })).json().errors.default_pay_rate,
    ).toBe('Must be a whole number');
    expect(
      (await post('/api/job_roles', { name: 'Porter', default_pay_rate: -100 })).json().errors.default_pay_rate,
    ).toBe('Must be at least 0');
    expect((await post('/api/job_roles', { name: 'night carer' })).json().errors.name).toBe(
      'Already used by another record',
    );
  });

  it('validate their own rules', async () => {
    expect(
      (await post('/api/staff_detail_fields', { label: 'Size', key: 'size', field_type: 'choice' })).json().errors
        .options,
    ).toBe('List at least one choice, separated by commas');
    expect(
      (await post('/api/staff_detail_fields', { label: 'Size', key: 'Size!', field_type: 'text' })).json().errors.key,
    ).toBe('Start with a letter; use lower-case letters, digits and _ only');
    expect(
      (await post('/api/document_categories', { name: 'Passport', validity_months: 0 })).json().errors.validity_months,
    ).toBe('Must be at least 1');
    const profile = await post('/api/staff_profiles', { name: 'Theatre', document_category_ids: [1, 2] });
    expect(profile.statusCode).toBe(201);
    expect(profile.json().data.document_category_ids).toEqual([1, 2]);
  });

  it('delete for good when unused, and say so when in use', async () => {
    const e = (await post('/api/employment_types', { name: 'Zero hours' })).json().data;
    expect((await del(`/api/employment_types/${e.id}`)).statusCode).toBe(200);
    expect(await count('employment_types', `id = ${e.id}`)).toBe(0);
    const used = (await get('/api/candidates?per_page=1')).json().data[0].job_role_id;
    const res = await del(`/api/job_roles/${used}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^This job role is in use by \d+ staff\. Remove them first\.$/);
  });
});

describe('bulk actions', () => {
  it('name each refused record as a read names it, its computed name too (issue 31.4)', async () => {
    // A shift is named by its computed summary, which the locked rows a bulk action checks do not carry.
    const open = (await get('/api/shifts?status=open&per_page=2&sort=id&order=ASC')).json().data as {
      id: number;
      summary: string;
    }[];
    expect(open).toHaveLength(2);
    const res = await post('/api/shifts/actions/close', { ids: open.map((s) => s.id) });
    expect(res.statusCode).toBe(409);
    const named = (s: { summary: string }) => s.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(res.json().message).toMatch(
      new RegExp(
        `^2 of the 2 selected shifts cannot be changed, so nothing was changed\\. ${named(open[0])}: [^;]+; ${named(open[1])}: [^;]+$`,
      ),
    );
  });
});

describe('OpenAPI', () => {
  it('describes every declared resource', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const p of [
      '/api/clients',
      '/api/clients/{id}',
      '/api/sites',
      '/api/candidates',
      '/api/job_roles',
      '/api/staff_detail_fields',
    ])
      expect(doc.paths[p], p).toBeDefined();
  });
});
