import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { pdfTextOf } from '../pdfText';

// Issue 35, agency settings (/appsetting/agencysetting): the agency's names, address, registrations, time zone,
// default region, logo and favicon, one row per agency written by the engine; and its business units.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let staff: string;
let otherAdmin: string;
let merchantId: number;
let clientId: number;

// The smallest valid PNG (1×1) and a PDF: the store types uploads by their bytes.
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
      'x-file-name': 'icon.png',
    },
    payload: bytes,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

const ok = async (res: { statusCode: number; body: string; json(): any }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const settings = async (token = admin) => ok(await call(t.app, token, 'GET', '/api/agency_settings'));
const save = (body: Record<string, unknown>, token = admin) => call(t.app, token, 'PUT', '/api/agency_settings', body);
const auditOf = (resource: string, id: number) =>
  t.db.query<any>(
    'select event, changes, user_name from audit_log where resource = $1 and record_id = $2 order by id',
    [resource, id],
  );

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, client, staff, otherAdmin] = await Promise.all(
    (['admin', 'consultant', 'client', 'staff', 'otherAdmin'] as const).map((w) => loginAs(t.app, w)),
  );
  const [u] = await t.db.query<{ merchant_id: number; client_id: number }>(
    `select merchant_id, client_id from users where email = 'client@demo.test'`,
  );
  merchantId = u.merchant_id;
  clientId = u.client_id;
}, 600_000);
afterAll(() => t?.close());

describe('the agency settings', () => {
  it('are the demo’s as seeded, read by admins and consultants; client users and staff are refused', async () => {
    expect(await settings()).toMatchObject({
      id: merchantId,
      company_name: 'Brightway Staffing',
      legal_name: 'Brightway Staffing Ltd',
      address: { line1: '12 Harbour Street', city: 'Bristol', postcode: 'BS1 4QA' },
      company_number: '09876543',
      vat_number: 'GB 123 4567 89',
      time_zone: 'Europe/London',
      default_region: 'england_wales',
      profile_photo: '/demo/agency-logo.svg',
      favicon: '/demo/agency-favicon.svg',
      slug: 'brightway-staffing',
    });
    expect((await settings(consultant)).legal_name).toBe('Brightway Staffing Ltd');
    for (const token of [client, staff]) {
      expect((await call(t.app, token, 'GET', '/api/agency_settings')).statusCode).toBe(403);
      expect((await save({ legal_name: 'Taken over Ltd' }, token)).statusCode).toBe(403);
    }
    expect((await save({ legal_name: 'Consultant Ltd' }, consultant)).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/agency_settings')).statusCode).toBe(401);
    expect((await settings()).legal_name).toBe('Brightway Staffing Ltd');
  });

  it('are each agency’s own: another agency’s admin reads and changes only theirs', async () => {
    const other = await settings(otherAdmin);
    expect(other.id).not.toBe(merchantId);
    expect(other.company_name).toBe('Northern Care Recruitment');
    expect(other.legal_name).toBeNull();
    await ok(await save({ legal_name: 'Northern Care Recruitment Ltd', version: other.version }, otherAdmin));
    expect((await settings()).legal_name).toBe('Brightway Staffing Ltd');
    expect((await settings(otherAdmin)).legal_name).toBe('Northern Care Recruitment Ltd');
    // Its files are its own: agency A's admin cannot make agency B's favicon theirs.
    const theirs = await upload(otherAdmin, PNG);
    const refused = await save({ favicon: theirs });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.favicon).toBeTruthy();
  });

  it('refuse bad input in words next to each field, and store none of it', async () => {
    const before = await settings();
    const res = await save({
      company_name: ' ',
      company_number: '1234',
      vat_number: 'GB12345',
      time_zone: 'Mars/Olympus_Mons',
      default_region: 'wales',
      address: { city: 'Bristol' },
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors).toMatchObject({
      company_number: 'Enter the 8-character company number from Companies House, such as 01234567 or SC123456.',
      vat_number: 'Enter the VAT number as GB and 9 digits (GB 123 4567 89), or GB and 12 digits.',
      time_zone: 'Choose a time zone from the list, such as Europe/London.',
      address: 'Give at least the first line and the postcode of the agency’s address.',
    });
    expect(errors.company_name).toEqual(expect.any(String));
    expect(errors.default_region).toEqual(expect.any(String));
    // A PDF is no favicon: the file store's type check, in words.
    const pdf = await upload(admin, PDF, 'document');
    const notImage = await save({ favicon: pdf });
    expect(notImage.statusCode).toBe(422);
    expect(notImage.json().errors.favicon).toMatch(/PNG, JPEG or WebP/);
    expect(await settings()).toEqual(before);
  });

  it('save the agency’s details through the engine: audited, versioned, and the name and zone are the product’s', async () => {
    const before = await settings();
    const saved = await ok(
      await save({
        company_name: 'Brightway Care',
        legal_name: 'Brightway Staffing Limited',
        company_number: 'sc123456',
        vat_number: 'GB123456789012',
        time_zone: 'Europe/Dublin',
        default_region: 'scotland',
        version: before.version,
      }),
    );
    expect(saved).toMatchObject({
      company_name: 'Brightway Care',
      company_number: 'sc123456',
      time_zone: 'Europe/Dublin',
      default_region: 'scotland',
      version: before.version + 1,
    });
    // The shell, the sign-in and the e-mails read the agency's name and zone from merchants: this save changed them.
    const shell = await ok(await call(t.app, client, 'GET', `/api/merchants/${merchantId}`));
    expect(shell).toMatchObject({ company_name: 'Brightway Care', time_zone: 'Europe/Dublin' });
    const [entry] = (await auditOf('agency_settings', merchantId)).slice(-1);
    expect(entry).toMatchObject({
      event: 'update',
      user_name: 'Alex Morgan',
      changes: {
        company_name: { from: 'Brightway Staffing', to: 'Brightway Care' },
        legal_name: { from: 'Brightway Staffing Ltd', to: 'Brightway Staffing Limited' },
        time_zone: { from: 'Europe/London', to: 'Europe/Dublin' },
      },
    });
    // A save from the screen as it was read before is refused, not merged over the change.
    const stale = await save({ legal_name: 'Stale Ltd', version: before.version });
    expect(stale.statusCode).toBe(409);
    await ok(
      await save({
        company_name: 'Brightway Staffing',
        legal_name: 'Brightway Staffing Ltd',
        company_number: '09876543',
        vat_number: 'GB 123 4567 89',
        time_zone: 'Europe/London',
        default_region: 'england_wales',
      }),
    );
  });

  it('take a favicon from the file store, listed for every user of the agency and readable by them alone', async () => {
    const id = await upload(admin, PNG);
    await ok(await save({ favicon: id }));
    for (const token of [admin, client]) {
      const logos = await ok(await call(t.app, token, 'GET', '/api/agency_logo_list'));
      expect(logos.find((l: { logo_type: string }) => l.logo_type === 'favicon')?.logo_url).toBe(id);
    }
    expect((await call(t.app, client, 'GET', `/api/files/${id}`)).statusCode).toBe(200);
    expect((await call(t.app, otherAdmin, 'GET', `/api/files/${id}`)).statusCode).toBe(404);
    const [entry] = (await auditOf('agency_settings', merchantId)).slice(-1);
    expect(entry.changes).toEqual({ favicon: { from: '/demo/agency-favicon.svg', to: id } });
    await ok(await save({ favicon: '/demo/agency-favicon.svg' }));
  });

  it('are what an issued invoice prints: the trading name, address, VAT number and the registered name and number', async () => {
    await ok(
      await save({
        company_name: 'Brightway Care',
        legal_name: 'Brightway Care Holdings Ltd',
        company_number: 'SC654321',
        address: { line1: '3 Quay Road', city: 'Glasgow', postcode: 'G1 1AA' },
      }),
    );
    const inv = await ok(await call(t.app, admin, 'POST', '/api/invoices', { client_id: clientId }), 201);
    await ok(
      await call(t.app, admin, 'POST', '/api/invoice_lines', {
        invoice_id: inv.id,
        work_date: '2030-01-07',
        description: 'Care assistant, 7 Jan',
        quantity: 8,
        unit_price: 2000,
      }),
      201,
    );
    await ok(await call(t.app, admin, 'POST', `/api/invoices/${inv.id}/actions/issue`, {}));
    const pdf = await call(t.app, client, 'GET', `/api/invoices/${inv.id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = pdfTextOf(pdf.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain('Brightway Care');
    expect(text).toContain('3 Quay Road, Glasgow, G1 1AA');
    expect(text).toContain('VAT number GB 123 4567 89');
    expect(text).toContain('Brightway Care Holdings Ltd, registered in Scotland, company number SC654321');
    await ok(
      await save({
        company_name: 'Brightway Staffing',
        legal_name: 'Brightway Staffing Ltd',
        company_number: '09876543',
        address: { line1: '12 Harbour Street', city: 'Bristol', postcode: 'BS1 4QA', country: 'United Kingdom' },
      }),
    );
  });

  it('are the one place the account screen’s name change goes through (audited as the agency settings)', async () => {
    const res = await call(t.app, admin, 'PUT', `/api/merchants/${merchantId}`, { company_name: 'Brightway Two' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await settings()).company_name).toBe('Brightway Two');
    const [entry] = (await auditOf('agency_settings', merchantId)).slice(-1);
    expect(entry.changes).toEqual({ company_name: { from: 'Brightway Staffing', to: 'Brightway Two' } });
    await ok(await save({ company_name: 'Brightway Staffing' }));
  });
});

describe('the job board address', () => {
  const board = (slug: string) => t.app.inject({ method: 'GET', url: `/careers/${slug}` });
  const slugOf = async (id: number) =>
    (await t.db.query<{ slug: string | null }>('select slug from merchants where id = $1', [id]))[0].slug;

  it('is changed by an admin: audited, the board moves (the old address 404s), other agencies untouched', async () => {
    const before = await settings();
    const theirs = await settings(otherAdmin);
    expect((await board('brightway-staffing')).statusCode).toBe(200);
    const saved = await ok(await save({ slug: 'brightway-jobs-2026', version: before.version }));
    expect(saved).toMatchObject({ slug: 'brightway-jobs-2026', version: before.version + 1 });
    expect(await slugOf(merchantId)).toBe('brightway-jobs-2026');
    const moved = await board('brightway-jobs-2026');
    expect(moved.statusCode).toBe(200);
    expect(moved.body).toContain('Brightway Staffing');
    expect((await board('brightway-staffing')).statusCode).toBe(404);
    const [entry] = (await auditOf('agency_settings', merchantId)).slice(-1);
    expect(entry).toMatchObject({
      event: 'update',
      user_name: 'Alex Morgan',
      changes: { slug: { from: 'brightway-staffing', to: 'brightway-jobs-2026' } },
    });
    expect(await settings(otherAdmin)).toEqual(theirs);
    expect(await slugOf(theirs.id)).toBe('northern-care-recruitment');
    // The screen sends the address back unchanged with every other setting: that is no change.
    await ok(await save({ legal_name: 'Brightway Staffing Ltd', slug: 'brightway-jobs-2026' }));
    // Read by consultants, changed only by admins.
    expect((await settings(consultant)).slug).toBe('brightway-jobs-2026');
    const refused = await save({ slug: 'consultant-board' }, consultant);
    expect(refused.statusCode).toBe(403);
    expect(await slugOf(merchantId)).toBe('brightway-jobs-2026');
    await ok(await save({ slug: 'brightway-staffing' }));
    expect((await board('brightway-staffing')).statusCode).toBe(200);
    expect((await board('brightway-jobs-2026')).statusCode).toBe(404);
  });

  it.each([
    ['Brightway-Jobs', /lower-case letters and digits/],
    ['brightway jobs', /lower-case letters and digits/],
    ['brightway--jobs', /single hyphens/],
    ['-brightway', /single hyphens/],
    ['ab', /3 to 60 characters/],
    ['a'.repeat(61), /3 to 60 characters/],
    ['', /Give the job board an address/],
    [null, /Give the job board an address/],
    ['admin', /kept for the product/],
    ['careers', /kept for the product/],
  ])('refuses %j in words next to the field, and keeps the address', async (slug, words) => {
    const before = await settings();
    const res = await save({ slug, legal_name: 'Not saved Ltd' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.slug).toMatch(words);
    expect(await settings()).toEqual(before);
    expect(await slugOf(merchantId)).toBe('brightway-staffing');
  });

  it("refuses another agency's address in words, and changes neither", async () => {
    const res = await save({ slug: 'northern-care-recruitment' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.slug).toBe('Another agency uses this address already: choose another.');
    expect(await slugOf(merchantId)).toBe('brightway-staffing');
    expect((await settings(otherAdmin)).slug).toBe('northern-care-recruitment');
    const theirs = await board('northern-care-recruitment');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).toContain('Northern Care Recruitment');
  });

  it('keeps an address an older agency was given that would not be taken now, while other settings change', async () => {
    // Migration 123 made one from the name, whatever its length: it stays until an admin changes it.
    const theirs = `(select merchant_id from users where email = 'admin@other.test')`;
    await fixtureWrite(t.db, `update merchants set slug = 'nc' where id = ${theirs}`);
    await fixtureWrite(t.db, `update agency_settings set slug = 'nc' where merchant_id = ${theirs}`);
    try {
      const saved = await ok(await save({ legal_name: 'Northern Care Ltd', slug: 'nc' }, otherAdmin));
      expect(saved).toMatchObject({ legal_name: 'Northern Care Ltd', slug: 'nc' });
      expect((await save({ slug: 'n2' }, otherAdmin)).json().errors.slug).toMatch(/3 to 60 characters/);
    } finally {
      await ok(await save({ slug: 'northern-care-recruitment' }, otherAdmin));
    }
  });
});

describe('business units', () => {
  it('are the demo’s two, listed for agency users; client users and staff are refused', async () => {
    const units = await ok(await call(t.app, consultant, 'GET', '/api/business_units?sort=name&order=ASC'));
    expect(units.map((u: { name: string }) => u.name)).toEqual(['Care homes', 'Hospitals']);
    for (const token of [client, staff])
      expect((await call(t.app, token, 'GET', '/api/business_units')).statusCode).toBe(403);
    // The other agency has none of them.
    expect(await ok(await call(t.app, otherAdmin, 'GET', '/api/business_units'))).toEqual([]);
  });

  it('are created, renamed and archived by admins, unique by name, and another agency’s are not found', async () => {
    const made = await ok(await call(t.app, admin, 'POST', '/api/business_units', { name: 'Community' }), 201);
    expect(made).toMatchObject({ name: 'Community', active: true });
    const twice = await call(t.app, admin, 'POST', '/api/business_units', { name: 'community' });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.name).toEqual(expect.any(String));
    const renamed = await ok(
      await call(t.app, admin, 'PUT', `/api/business_units/${made.id}`, {
        name: 'Community care',
        version: made.version,
      }),
    );
    const archived = await ok(
      await call(t.app, admin, 'PUT', `/api/business_units/${made.id}`, { active: false, version: renamed.version }),
    );
    expect(archived).toMatchObject({ name: 'Community care', active: false });
    expect(
      (await call(t.app, consultant, 'POST', '/api/business_units', { name: 'Consultants’ unit' })).statusCode,
    ).toBe(403);
    expect((await call(t.app, otherAdmin, 'GET', `/api/business_units/${made.id}`)).statusCode).toBe(404);
    expect((await call(t.app, otherAdmin, 'PUT', `/api/business_units/${made.id}`, { name: 'Mine' })).statusCode).toBe(
      404,
    );
    const entries = await auditOf('business_units', made.id);
    expect(entries.map((e: { event: string }) => e.event)).toEqual(['create', 'update', 'update']);
    // Nothing refers to it yet: it can be deleted (a unit in use is refused by the engine's references rule).
    expect((await call(t.app, admin, 'DELETE', `/api/business_units/${made.id}`)).statusCode).toBe(200);
  });
});

// Issue 34: a unit's manager, and the clients and consultants in it.
describe('business units: manager, clients and consultants', () => {
  const unitsByName = async () =>
    Object.fromEntries(
      (await ok(await call(t.app, admin, 'GET', '/api/business_units'))).map((u: { name: string }) => [u.name, u]),
    );

  it('the demo’s units have managers, the consultant works in one, and most clients are placed', async () => {
    const units = await unitsByName();
    const [sam] = await t.db.query<{ id: number; business_unit_id: number }>(
      `select id, business_unit_id from users where email = 'consultant@demo.test'`,
    );
    expect(units['Care homes'].manager_id).toBe(sam.id);
    expect(sam.business_unit_id).toBe(units['Care homes'].id);
    const [placed] = await t.db.query<{ placed: string; unplaced: string }>(
      `select count(*) filter (where business_unit_id is not null) as placed,
              count(*) filter (where business_unit_id is null) as unplaced
         from clients where merchant_id = $1 and deleted_at is null`,
      [merchantId],
    );
    expect(Number(placed.placed)).toBeGreaterThan(0);
    expect(Number(placed.unplaced)).toBeGreaterThan(0);
  });

  it('a manager is an agency user: a client’s user is refused in words', async () => {
    const [clientUser] = await t.db.query<{ id: number }>(`select id from users where email = 'client@demo.test'`);
    const res = await call(t.app, admin, 'POST', '/api/business_units', { name: 'Acute', manager_id: clientUser.id });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.manager_id).toBe('Choose a user of the agency panel.');
    // Another agency's user is no reference at all.
    const [other] = await t.db.query<{ id: number }>(`select id from users where email = 'admin@other.test'`);
    expect(
      (await call(t.app, admin, 'POST', '/api/business_units', { name: 'Acute', manager_id: other.id })).statusCode,
    ).toBe(422);
  });

  it('a client is placed in a unit by a consultant, filtered by it, and a unit in use is archived, not deleted', async () => {
    const unit = await ok(await call(t.app, admin, 'POST', '/api/business_units', { name: 'Acute' }), 201);
    const before = await ok(await call(t.app, consultant, 'GET', `/api/clients/${clientId}`));
    const moved = await ok(
      await call(t.app, consultant, 'PUT', `/api/clients/${clientId}`, {
        business_unit_id: unit.id,
        version: before.version,
      }),
    );
    expect(moved.business_unit_id).toBe(unit.id);
    const listed = await ok(await call(t.app, consultant, 'GET', `/api/clients?business_unit_id=${unit.id}`));
    expect(listed.map((x: { id: number }) => x.id)).toEqual([clientId]);
    // The client's own user does not read how the agency organises itself.
    const own = await ok(await call(t.app, client, 'GET', `/api/clients/${clientId}`));
    expect(own).not.toHaveProperty('business_unit_id');
    // In use: the delete is refused, and the unit is archived instead.
    expect((await call(t.app, admin, 'DELETE', `/api/business_units/${unit.id}`)).statusCode).toBe(409);
    const archived = await ok(
      await call(t.app, admin, 'PUT', `/api/business_units/${unit.id}`, { active: false, version: unit.version }),
    );
    // The client keeps its archived unit, but nothing new is placed in it.
    const again = await ok(
      await call(t.app, consultant, 'PUT', `/api/clients/${clientId}`, { notes: 'Kept', version: moved.version }),
    );
    expect(again.business_unit_id).toBe(unit.id);
    const [second] = await t.db.query<{ id: number; version: number }>(
      'select id, version from clients where merchant_id = $1 and id <> $2 and deleted_at is null order by id limit 1',
      [merchantId, clientId],
    );
    const refused = await call(t.app, consultant, 'PUT', `/api/clients/${second.id}`, {
      business_unit_id: archived.id,
      version: second.version,
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors.business_unit_id).toBe('Choose a business unit in use.');
    // Back where it was, for the other tests.
    await ok(
      await call(t.app, admin, 'PUT', `/api/clients/${clientId}`, {
        business_unit_id: before.business_unit_id,
        version: again.version,
      }),
    );
  });

  it('a consultant is placed in a unit by an admin only', async () => {
    const units = await unitsByName();
    const [sam] = await t.db.query<{ id: number }>(`select id from users where email = 'consultant@demo.test'`);
    // Consultants change no user (the users resource), their own unit included.
    const res = await call(t.app, consultant, 'PUT', `/api/users/${sam.id}`, { business_unit_id: units.Hospitals.id });
    expect(res.statusCode).toBe(403);
    const user = await ok(await call(t.app, admin, 'GET', `/api/users/${sam.id}`));
    const moved = await ok(
      await call(t.app, admin, 'PUT', `/api/users/${sam.id}`, {
        business_unit_id: units.Hospitals.id,
        version: user.version,
      }),
    );
    expect(moved.business_unit_id).toBe(units.Hospitals.id);
    const listed = await ok(await call(t.app, admin, 'GET', `/api/users?business_unit_id=${units.Hospitals.id}`));
    expect(listed.map((x: { id: number }) => x.id)).toEqual([sam.id]);
    await ok(
      await call(t.app, admin, 'PUT', `/api/users/${sam.id}`, {
        business_unit_id: units['Care homes'].id,
        version: moved.version,
      }),
    );
  });
});
