import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO, loginAs, makeTestApp, postLogin, type TestApp, fixtureWrite } from './helpers';
import { addDaysToDate, agencyToday } from '../../core/domain/time/agencyTime';
import { daysLeft, DUE_WITHIN_DAYS, expiryState } from '../../core/domain/compliance/documents';

// The workflow engine, proven through real requests on staff compliance: actions and guards, the field write
// policy, client row scope, stale writes and deletes in use, integrity in the database, the audit trail,
// custom fields, headers and the document report.
let t: TestApp;
const tok = {} as Record<'admin' | 'consultant' | 'client' | 'client2' | 'otherAdmin', string>;
let merchantA: number;
let merchantB: number;
let meadowbank: number;
let oakwood: number;
/** Job roles and document categories of agency A, by name. */
const role: Record<string, number> = {};
const category: Record<string, number> = {};
let today: string;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40 });
  const who = ['admin', 'consultant', 'client', 'client2', 'otherAdmin'] as const;
  const tokens = await Promise.all(who.map((w) => loginAs(t.app, w)));
  who.forEach((w, i) => (tok[w] = tokens[i]));
  const ms = await t.db.query<{ id: number; company_name: string }>('select id, company_name from merchants');
  merchantA = ms.find((m) => m.company_name === 'Brightway Staffing')!.id;
  merchantB = ms.find((m) => m.company_name === 'Northern Care Recruitment')!.id;
  const clients = await t.db.query<{ id: number; name: string }>(
    'select id, name from clients where merchant_id = $1',
    [merchantA],
  );
  meadowbank = clients.find((c) => c.name === 'Meadowbank Care Home')!.id;
  oakwood = clients.find((c) => c.name === 'Oakwood Lodge')!.id;
  for (const r of await t.db.query<{ id: number; name: string }>(
    'select id, name from job_roles where merchant_id = $1',
    [merchantA],
  ))
    role[r.name] = r.id;
  for (const c of await t.db.query<{ id: number; name: string }>(
    'select id, name from document_categories where merchant_id = $1',
    [merchantA],
  ))
    category[c.name] = c.id;
  today = agencyToday('Europe/London');
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, token = tok.admin) => call(t.app, token, 'GET', url);
const post = (url: string, body: unknown, token = tok.admin) => call(t.app, token, 'POST', url, body);
const put = (url: string, body: unknown, token = tok.admin) => call(t.app, token, 'PUT', url, body);
const del = (url: string, token = tok.admin) => call(t.app, token, 'DELETE', url);
const ok = (res: LightMyRequestResponse, status = 200) => {
  expect(res.statusCode, res.body.slice(0, 400)).toBe(status);
  return res.json().data;
};
const stored = async (table: string, id: number) => (await t.db.query(`select * from ${table} where id = $1`, [id]))[0];
/** What a statement written by hand fails with: the database error's SQLSTATE. */
async function sqlError(sql: string, params: unknown[] = []): Promise<string | undefined> {
  try {
    await t.db.query(sql, params);
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

let seq = 0;
/** A new pending staff member of agency A. */
async function newStaff(extra: Record<string, unknown> = {}): Promise<number> {
  seq += 1;
  const data = ok(
    await post('/api/candidates', {
      first_name: 'Test',
      last_name: `Worker${seq}`,
      email: `worker${seq}.${Date.now()}@wf.example`,
      job_role_id: role['Healthcare Assistant'],
      ...extra,
    }),
    201,
  );
  expect(data.status).toBe('pending');
  return data.id;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
async function uploadPdf(token = tok.admin): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/files?kind=document',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-name': 'scan.pdf',
    },
    payload: PDF,
  });
  return ok(res, 201).id;
}
/** Uploads a document of a category for a staff member (awaiting check); verified when asked. */
async function addDocument(
  candidateId: number,
  categoryId: number,
  expiry: string | null,
  options: { verify?: boolean; issue?: string } = {},
) {
  const file = await uploadPdf();
  const doc = ok(
    await post('/api/candidate_documents', {
      candidate_id: candidateId,
      document_category_id: categoryId,
      number: `N-${++seq}`,
      file,
      issue_date: options.issue ?? addDaysToDate(today, -30),
      expiry_date: expiry,
    }),
    201,
  );
  expect(doc.status).toBe('awaiting');
  if (options.verify)
    expect(ok(await post(`/api/candidate_documents/${doc.id}/actions/verify`, {})).status).toBe('verified');
  return doc;
}
const auditOf = async (resource: string, recordId: number) =>
  (await get(`/api/audit_entries?resource=${resource}&record_id=${recordId}&sort=id&order=asc&per_page=100`)).json()
    .data as any[];

describe('actions and their guards', () => {
  it('approve moves pending to approved; approving again is refused with the reason (409)', async () => {
    const id = await newStaff();
    expect(ok(await post(`/api/candidates/${id}/actions/approve`, {})).status).toBe('approved');
    const again = await post(`/api/candidates/${id}/actions/approve`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'This staff member is approved: Approve is only for a pending or rejected staff member.',
    );
    expect((await stored('candidates', id)).version).toBe(2);
  });

  it('activate needs approval first (409), and changes nothing', async () => {
    const id = await newStaff();
    const res = await post(`/api/candidates/${id}/actions/activate`, { override_reason: 'Needed tonight' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/approve/i);
    expect((await stored('candidates', id)).activated).toBe(false);
  });

  it('reject takes a reason, deactivates, and the audit entry keeps the reason', async () => {
    const id = await newStaff();
    const data = ok(await post(`/api/candidates/${id}/actions/reject`, { reason: 'No right to work shown' }));
    expect(data).toMatchObject({ status: 'rejected', activated: false });
    const entry = (await auditOf('candidates', id)).find((e) => e.event === 'action');
    expect(entry).toMatchObject({
      action: 'reject',
      input: { reason: 'No right to work shown' },
      changes: { status: { from: 'pending', to: 'rejected' } },
    });
    expect((await post(`/api/candidates/${id}/actions/reject`, {})).statusCode).toBe(409);
  });

  it('a bulk approve is all or nothing: one already approved → 409 naming it, and none of the three changed', async () => {
    const [a, b, c] = [await newStaff(), await newStaff(), await newStaff()];
    ok(await post(`/api/candidates/${c}/actions/approve`, {}));
    const versions = await Promise.all([a, b, c].map(async (id) => (await stored('candidates', id)).version));
    const res = await post('/api/candidates/actions/approve', { ids: [a, b, c] });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/1 of the 3 .*nothing was changed/i);
    expect(Object.keys(res.json().errors)).toEqual([String(c)]);
    for (const [i, id] of [a, b, c].entries())
      expect((await stored('candidates', id)).version, `#${id}`).toBe(versions[i]);
    expect((await stored('candidates', a)).status).toBe('pending');
    expect((await stored('candidates', b)).status).toBe('pending');
    // Without the approved one, both are approved in one go.
    const both = ok(await post('/api/candidates/actions/approve', { ids: [a, b] }));
    expect(both.map((r: any) => r.status)).toEqual(['approved', 'approved']);
  });

  it("a bulk run naming another agency's staff member → 404, and none changed", async () => {
    const a = await newStaff();
    const [foreign] = await t.db.query<{ id: number }>(
      'select id from candidates where merchant_id = $1 and status = $2 limit 1',
      [merchantB, 'pending'],
    );
    const res = await post('/api/candidates/actions/approve', { ids: [a, foreign.id] });
    expect(res.statusCode).toBe(404);
    expect((await stored('candidates', a)).status).toBe('pending');
    expect((await stored('candidates', foreign.id)).status).toBe('pending');
    expect((await post(`/api/candidates/${foreign.id}/actions/approve`, {})).statusCode).toBe(404);
  });

  it('a consultant may approve; a client user may not (403); an unknown action is 404', async () => {
    const id = await newStaff();
    expect((await post(`/api/candidates/${id}/actions/approve`, {}, tok.client)).statusCode).toBe(403);
    expect((await post('/api/candidates/actions/approve', { ids: [id] }, tok.client)).statusCode).toBe(403);
    expect((await stored('candidates', id)).status).toBe('pending');
    expect(ok(await post(`/api/candidates/${id}/actions/approve`, {}, tok.consultant)).status).toBe('approved');
    expect((await post(`/api/candidates/${id}/actions/promote`, {})).statusCode).toBe(404);
    expect((await post('/api/candidates/actions/promote', { ids: [id] })).statusCode).toBe(404);
  });
});

describe('activating a staff member who is not compliant', () => {
  let id: number;
  beforeAll(async () => {
    id = await newStaff();
    ok(await post(`/api/candidates/${id}/actions/approve`, {}));
  });

  it('a consultant is refused (422) with what is missing', async () => {
    const res = await post(`/api/candidates/${id}/actions/activate`, {}, tok.consultant);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.override_reason).toMatch(/Missing: .*DBS certificate/);
    expect((await stored('candidates', id)).activated).toBe(false);
    // A reason does not help a consultant.
    expect(
      (await post(`/api/candidates/${id}/actions/activate`, { override_reason: 'Trust me' }, tok.consultant))
        .statusCode,
    ).toBe(422);
  });

  it('an admin needs a reason (422 without), and the reason is recorded', async () => {
    const res = await post(`/api/candidates/${id}/actions/activate`, {});
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.override_reason).toMatch(/Give a reason/);
    expect(
      ok(await post(`/api/candidates/${id}/actions/activate`, { override_reason: 'Urgent cover; DBS seen on paper' }))
        .activated,
    ).toBe(true);
    const entry = (await auditOf('candidates', id)).find((e) => e.action === 'activate');
    expect(entry).toMatchObject({
      event: 'action',
      input: { override_reason: 'Urgent cover; DBS seen on paper' },
      changes: { activated: { from: false, to: true } },
    });
  });

  it('with every required document verified (mandatory ones and those of their job role) no override is needed', async () => {
    const jobRole = role['Registered Nurse'];
    // NMC PIN is not mandatory; tied to the job role it becomes required of this staff member.
    ok(await put(`/api/document_categories/${category['NMC PIN']}`, { job_role_ids: [jobRole] }));
    const staff = await newStaff({ job_role_id: jobRole });
    ok(await post(`/api/candidates/${staff}/actions/approve`, {}));
    const mandatory = ['DBS certificate', 'Right to work', 'Manual handling training'];
    for (const name of mandatory) await addDocument(staff, category[name], addDaysToDate(today, 200), { verify: true });
    const partial = ok(await get(`/api/candidates/${staff}/compliance`));
    expect(partial.compliant).toBe(false);
    expect(partial.missing.map((m: any) => m.name)).toEqual(['NMC PIN']);
    expect(
      (await post(`/api/candidates/${staff}/actions/activate`, {}, tok.consultant)).json().errors.override_reason,
    ).toMatch(/Missing: NMC PIN/);

    // Awaiting check does not count; verified does.
    const pin = await addDocument(staff, category['NMC PIN'], addDaysToDate(today, 200));
    expect(ok(await get(`/api/candidates/${staff}/compliance`)).compliant).toBe(false);
    ok(await post(`/api/candidate_documents/${pin.id}/actions/verify`, {}));
    const full = ok(await get(`/api/candidates/${staff}/compliance`));
    expect(full).toMatchObject({ compliant: true, missing: [], expired: [], today });

    expect(ok(await post(`/api/candidates/${staff}/actions/activate`, {}, tok.consultant)).activated).toBe(true);
    const compliant = (await get('/api/candidates?compliance=compliant&per_page=100'))
      .json()
      .data.map((r: any) => r.id);
    expect(compliant).toContain(staff);
    expect(compliant).not.toContain(id);
    const notCompliant = (await get('/api/candidates?compliance=not_compliant&per_page=100'))
      .json()
      .data.map((r: any) => r.id);
    expect(notCompliant).toContain(id);
    expect(notCompliant).not.toContain(staff);
    expect(ok(await get(`/api/candidates/${staff}`)).compliance).toBe('compliant');
    ok(await put(`/api/document_categories/${category['NMC PIN']}`, { job_role_ids: [] }));
  });
});

describe('field write policy', () => {
  it("the consultant's PUT making a rejected staff member approved and active → 422 naming both, nothing stored", async () => {
    const id = await newStaff();
    ok(await post(`/api/candidates/${id}/actions/reject`, { reason: 'References failed' }));
    const before = await stored('candidates', id);
    const res = await put(
      `/api/candidates/${id}`,
      { status: 'approved', activated: true, notes: 'sneaky' },
      tok.consultant,
    );
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['activated', 'status']);
    const after = await stored('candidates', id);
    expect(after).toMatchObject({ status: 'rejected', activated: false, version: before.version, notes: before.notes });
    // The admin is refused the same way: a state changes through actions only.
    expect((await put(`/api/candidates/${id}`, { status: 'approved' })).statusCode).toBe(422);
  });

  it('a create-only field cannot change (422); the record sent back unchanged is accepted (200)', async () => {
    const [a, b] = [await newStaff(), await newStaff()];
    const doc = await addDocument(a, category['Right to work'], null);
    const res = await put(`/api/candidate_documents/${doc.id}`, { candidate_id: b });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.candidate_id).toMatch(/cannot be changed/i);
    expect((await stored('candidate_documents', doc.id)).candidate_id).toBe(a);
    // A form sends the whole record back, computed and action-only fields included.
    const whole = ok(await get(`/api/candidate_documents/${doc.id}`));
    const back = ok(await put(`/api/candidate_documents/${doc.id}`, whole));
    expect(back).toMatchObject({ candidate_id: a, status: 'awaiting', version: whole.version });
    const changed = ok(await put(`/api/candidate_documents/${doc.id}`, { ...whole, number: 'RTW-2' }));
    expect(changed).toMatchObject({ number: 'RTW-2', version: whole.version + 1 });
  });
});

describe('row scope on a resource opened to client users', () => {
  it("a client user lists only their own client's sites", async () => {
    const res = await get('/api/sites?per_page=100', tok.client);
    expect(res.statusCode).toBe(200);
    const own = await t.db.query('select id from sites where client_id = $1 and deleted_at is null order by id', [
      meadowbank,
    ]);
    expect(own.length).toBeGreaterThan(0);
    expect(res.json().total_count).toBe(own.length);
    expect(
      res
        .json()
        .data.map((s: any) => s.id)
        .sort((x: number, y: number) => x - y),
    ).toEqual(own.map((s) => s.id));
    expect(res.json().data.every((s: any) => s.client_id === meadowbank && !('notes' in s))).toBe(true);
    // Asking for another client's sites by filter finds nothing.
    expect((await get(`/api/sites?client_id=${oakwood}`, tok.client)).json().total_count).toBe(0);
    const theirs = (await get('/api/sites?per_page=100', tok.client2)).json().data;
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((s: any) => s.client_id === oakwood)).toBe(true);
  });

  it("another client's site is 404; their own client is 200 without the agency's notes", async () => {
    const [other] = await t.db.query<{ id: number }>('select id from sites where client_id = $1 limit 1', [oakwood]);
    expect((await get(`/api/sites/${other.id}`, tok.client)).statusCode).toBe(404);
    expect(ok(await get(`/api/sites/${other.id}`, tok.client2)).client_id).toBe(oakwood);
    await fixtureWrite(t.db, 'update clients set notes = $2 where id = $1', [meadowbank, 'Agency only: slow payer']);
    const mine = ok(await get(`/api/clients/${meadowbank}`, tok.client));
    expect(mine.name).toBe('Meadowbank Care Home');
    expect(mine).not.toHaveProperty('notes');
    expect(ok(await get(`/api/clients/${meadowbank}`)).notes).toBe('Agency only: slow payer');
    expect((await get(`/api/clients/${oakwood}`, tok.client)).statusCode).toBe(404);
  });

  it('only what is granted: the clients list and the staff are 403 for a client user', async () => {
    expect((await get('/api/clients', tok.client)).statusCode).toBe(403);
    expect((await get('/api/candidates', tok.client)).statusCode).toBe(403);
    expect((await put(`/api/clients/${meadowbank}`, { name: 'Mine now' }, tok.client)).statusCode).toBe(403);
  });
});

describe('409: stale writes and deletes in use', () => {
  it('a PUT with an old version is refused and nothing is stored', async () => {
    const c = ok(await post('/api/clients', { name: 'Stale Test Ltd', billing_email: 'a@stale.example' }), 201);
    const first = ok(await put(`/api/clients/${c.id}`, { name: 'Stale Test One', version: c.version }));
    expect(first.version).toBe(c.version + 1);
    const second = await put(`/api/clients/${c.id}`, { name: 'Stale Test Two', version: c.version });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/changed by someone else/);
    expect(await stored('clients', c.id)).toMatchObject({ name: 'Stale Test One', version: c.version + 1 });
  });

  it('deleting a staff profile that staff hold → 409 naming how many; free, it is deleted', async () => {
    const p = ok(await post('/api/staff_profiles', { name: 'Night team' }), 201);
    const [a, b] = [await newStaff({ staff_profile_ids: [p.id] }), await newStaff({ staff_profile_ids: [p.id] })];
    const res = await del(`/api/staff_profiles/${p.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/in use by 2 staff/i);
    expect(await stored('staff_profiles', p.id)).toBeTruthy();
    for (const id of [a, b]) ok(await put(`/api/candidates/${id}`, { staff_profile_ids: [] }));
    ok(await del(`/api/staff_profiles/${p.id}`));
    expect(await stored('staff_profiles', p.id)).toBeUndefined();
  });

  it('deleting a document category removes it from the staff profiles that list it, in the same write', async () => {
    const cat = ok(await post('/api/document_categories', { name: 'Fire safety' }), 201);
    const keep = category['DBS certificate'];
    const p = ok(
      await post('/api/staff_profiles', { name: 'Fire wardens', document_category_ids: [keep, cat.id] }),
      201,
    );
    ok(await del(`/api/document_categories/${cat.id}`));
    const after = await stored('staff_profiles', p.id);
    expect(after.document_category_ids).toEqual([keep]);
    expect(after.version).toBe(p.version + 1);
  });

  it("deleting a client hides its sites and ends its users' sessions at once; they cannot sign in again", async () => {
    const c = ok(await post('/api/clients', { name: 'Closing Down Care', billing_email: 'a@closing.example' }), 201);
    const site = ok(
      await post('/api/sites', {
        name: 'Closing – Main',
        client_id: c.id,
        address: { line1: '1 High St', city: 'Leeds', postcode: 'LS1 1AA' },
      }),
      201,
    );
    const email = `manager.${Date.now()}@closing.example`;
    await fixtureWrite(
      t.db,
      `insert into users (merchant_id, client_id, kind, name, email, password_hash, role)
      select merchant_id, $1, 'client', 'Closing Manager', $2, password_hash, 'manager'
      from users
      where email = $3`,
      [c.id, email, DEMO.client.email],
    );
    const userToken = (await postLogin(t.app, 'client', email, DEMO.client.password)).json().token;
    expect((await get(`/api/sites/${site.id}`, userToken)).statusCode).toBe(200);

    const gone = await del(`/api/clients/${c.id}`);
    expect(gone.statusCode).toBe(200);
    expect((await get(`/api/sites/${site.id}`)).statusCode).toBe(404);
    expect((await get(`/api/sites?client_id=${c.id}`)).json().total_count).toBe(0);
    expect((await get('/api/client_login', userToken)).statusCode).toBe(401);
    expect((await postLogin(t.app, 'client', email, DEMO.client.password)).statusCode).toBe(401);
    // The delete's audit entry says what went with it.
    expect((await auditOf('clients', c.id)).at(-1)).toMatchObject({ event: 'delete', input: { hidden: { sites: 1 } } });
  });

  it("making a client inactive ends its users' sessions and refuses their sign-in until it is active again", async () => {
    const c = ok(await post('/api/clients', { name: 'Paused Care', billing_email: 'a@paused.example' }), 201);
    const email = `manager.${Date.now()}@paused.example`;
    await fixtureWrite(
      t.db,
      `insert into users (merchant_id, client_id, kind, name, email, password_hash, role) select merchant_id, $1, 'client', 'Paused Manager', $2, password_hash, 'manager' from users where email = $3`,
      [c.id, email, DEMO.client.email],
    );
    const userToken = (await postLogin(t.app, 'client', email, DEMO.client.password)).json().token;
    expect((await get('/api/client_login', userToken)).statusCode).toBe(200);
    ok(await put(`/api/clients/${c.id}`, { status: 'inactive' }));
    expect((await get('/api/client_login', userToken)).statusCode).toBe(401);
    expect((await postLogin(t.app, 'client', email, DEMO.client.password)).statusCode).toBe(401);
    ok(await put(`/api/clients/${c.id}`, { status: 'active' }));
    expect((await postLogin(t.app, 'client', email, DEMO.client.password)).statusCode).toBe(200);
  });
});

describe('the database refuses rows that point into another agency, even written by hand', () => {
  it('a site of agency A for a client of agency B → 23503', async () => {
    const [foreign] = await t.db.query<{ id: number }>('select id from clients where merchant_id = $1 limit 1', [
      merchantB,
    ]);
    expect(
      await sqlError(`insert into sites (merchant_id, client_id, name, address) values ($1, $2, 'Trojan site', '{}')`, [
        merchantA,
        foreign.id,
      ]),
    ).toBe('23503');
    expect((await t.db.query('select 1 from sites where name = $1', ['Trojan site'])).length).toBe(0);
  });

  it("staff_profile_ids holding another agency's profile → 23503", async () => {
    const [foreign] = await t.db.query<{ id: number }>('select id from staff_profiles where merchant_id = $1 limit 1', [
      merchantB,
    ]);
    const [own] = await t.db.query<{ id: number }>('select id from candidates where merchant_id = $1 limit 1', [
      merchantA,
    ]);
    expect(
      await sqlError('update candidates set staff_profile_ids = array[$1]::integer[] where id = $2', [
        foreign.id,
        own.id,
      ]),
    ).toBe('23503');
    // And through the API the same id is a field error, not a database error.
    const res = await put(`/api/candidates/${own.id}`, { staff_profile_ids: [foreign.id] });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['staff_profile_ids']);
  });
});

describe('the audit trail', () => {
  it('records create, update (changed fields only, old and new), action and delete, with who', async () => {
    const role = ok(await post('/api/job_roles', { name: 'Audit Nurse', code: 'AUD1' }), 201);
    ok(await put(`/api/job_roles/${role.id}`, { ...role, code: 'AUD2' }));
    ok(await del(`/api/job_roles/${role.id}`));
    const entries = await auditOf('job_roles', role.id);
    expect(entries.map((e) => e.event)).toEqual(['create', 'update', 'delete']);
    expect(entries[0].changes).toMatchObject({
      name: { from: null, to: 'Audit Nurse' },
      code: { from: null, to: 'AUD1' },
    });
    expect(entries[1].changes).toEqual({ code: { from: 'AUD1', to: 'AUD2' } });
    expect(entries.every((e) => e.user_name === 'Alex Morgan')).toBe(true);

    const staff = await newStaff();
    ok(await post(`/api/candidates/${staff}/actions/approve`, {}, tok.consultant));
    const action = (await auditOf('candidates', staff)).at(-1);
    expect(action).toMatchObject({
      event: 'action',
      action: 'approve',
      input: {},
      user_name: 'Sam Patel',
      changes: { status: { from: 'pending', to: 'approved' } },
    });
  });

  it("a document's entries appear in its staff member's history", async () => {
    const staff = await newStaff();
    const doc = await addDocument(staff, category['DBS certificate'], addDaysToDate(today, 100), { verify: true });
    const history = (
      await get(`/api/audit_entries?subject_resource=candidates&subject_id=${staff}&sort=id&order=asc`)
    ).json().data;
    expect(history.map((e: any) => [e.resource, e.event, e.action])).toEqual([
      ['candidates', 'create', null],
      ['candidate_documents', 'create', null],
      ['candidate_documents', 'action', 'verify'],
    ]);
    expect(history[1].record_id).toBe(doc.id);
    // Another agency sees none of it.
    expect(
      (await get(`/api/audit_entries?subject_resource=candidates&subject_id=${staff}`, tok.otherAdmin)).json()
        .total_count,
    ).toBe(0);
  });

  it('the demo has a history: a demo staff member, client and shift each show their creation, as the engine records it', async () => {
    const [demo] = await t.db.query<{ staff: number; client: number; shift: number }>(
      `select (select d.candidate_id from candidate_documents d join candidates c on c.id = d.candidate_id where c.merchant_id = $1 order by d.id limit 1) as staff,
              (select id from clients where merchant_id = $1 order by id limit 1) as client, (select id from shifts where merchant_id = $1 order by id limit 1) as shift`,
      [merchantA],
    );
    const staffHistory = (
      await get(
        `/api/audit_entries?subject_resource=candidates&subject_id=${demo.staff}&sort=created_at&order=asc&per_page=100`,
      )
    ).json().data;
    expect(staffHistory[0]).toMatchObject({
      resource: 'candidates',
      record_id: demo.staff,
      event: 'create',
      user_name: 'Alex Morgan',
    });
    expect(staffHistory[0].changes.first_name).toEqual({
      from: null,
      to: (await stored('candidates', demo.staff)).first_name,
    });
    // Their documents are filed under them, as a document saved through the engine is.
    expect(staffHistory.some((e: any) => e.resource === 'candidate_documents' && e.event === 'create')).toBe(true);
    for (const [resource, id] of [
      ['clients', demo.client],
      ['shifts', demo.shift],
    ] as const) {
      expect(
        (await auditOf(resource, id)).map((e) => e.event),
        resource,
      ).toEqual(['create']);
    }
    // The other agency's demo has its own, never shown here.
    expect(
      (await get(`/api/audit_entries?subject_resource=candidates&subject_id=${demo.staff}`, tok.otherAdmin)).json()
        .total_count,
    ).toBe(0);
  });

  it('cannot be edited: no write route grants it (403), and the table refuses UPDATE and DELETE', async () => {
    const [entry] = (await get('/api/audit_entries?per_page=1')).json().data;
    expect((await put(`/api/audit_entries/${entry.id}`, { user_name: 'Nobody' })).statusCode).toBe(403);
    expect((await del(`/api/audit_entries/${entry.id}`)).statusCode).toBe(403);
    expect((await post('/api/audit_entries', { event: 'create' })).statusCode).toBe(403);
    expect(await sqlError('update audit_log set user_name = $1 where id = $2', ['Nobody', entry.id])).toBe('42501');
    expect(await sqlError('delete from audit_log where id = $1', [entry.id])).toBe('42501');
    expect((await stored('audit_log', entry.id)).user_name).toBe(entry.user_name);
  });
});

describe('custom_fields', () => {
  it('a string, an undeclared key, a nested object and 5,000 levels of nesting are 422, never 500', async () => {
    const id = await newStaff();
    for (const custom_fields of ['abc', { no_such_field: 'x' }, { uniform_size: { size: 'M' } }]) {
      const res = await put(`/api/candidates/${id}`, { custom_fields });
      expect(res.statusCode, JSON.stringify(custom_fields)).toBe(422);
    }
    const depth = 5000;
    const body = `{"custom_fields":{"uniform_size":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
    const deep = await t.app.inject({
      method: 'PUT',
      url: `/api/candidates/${id}`,
      headers: { authorization: `Bearer ${tok.admin}`, 'content-type': 'application/json' },
      payload: body,
    });
    expect(deep.statusCode).toBe(422);
    expect((await stored('candidates', id)).custom_fields).toEqual({});
    expect(
      ok(await put(`/api/candidates/${id}`, { custom_fields: { uniform_size: 'M', driver: true } })).custom_fields,
    ).toEqual({ uniform_size: 'M', driver: true });
  });
});

describe('headers', () => {
  it('every /api answer carries no-store, nosniff, a CSP with frame-ancestors and a Referrer-Policy', async () => {
    const id = await newStaff();
    const answers: [string, LightMyRequestResponse][] = [
      ['200', await get('/api/candidates?per_page=1')],
      ['201', await post('/api/job_roles', { name: 'Header role' })],
      ['401', await call(t.app, undefined, 'GET', '/api/candidates')],
      ['403', await get('/api/candidates', tok.client)],
      ['404', await get('/api/candidates/999999')],
      ['409', await post(`/api/candidates/${id}/actions/activate`, {})],
      ['422', await put(`/api/candidates/${id}`, { status: 'approved' })],
    ];
    for (const [status, res] of answers) {
      expect(String(res.statusCode), status).toBe(status);
      expect(res.headers['cache-control'], status).toBe('no-store');
      expect(res.headers['x-content-type-options'], status).toBe('nosniff');
      expect(String(res.headers['content-security-policy']), status).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['referrer-policy'], status).toBeTruthy();
    }
  });
});

describe('the document report', () => {
  it('DueDoc, DueDoc60Days and ExpiredDoc are relative to the agency’s today; a replaced document leaves AllDoc but stays in the history', async () => {
    const staff = await newStaff();
    const in10 = await addDocument(staff, category['DBS certificate'], addDaysToDate(today, 10));
    const in45 = await addDocument(staff, category['Manual handling training'], addDaysToDate(today, 45));
    const expired = await addDocument(staff, category['Food hygiene certificate'], addDaysToDate(today, -3), {
      issue: addDaysToDate(today, -400),
    });
    const tab = async (name: string) =>
      (await get(`/api/candidate_documents?tab=${name}&candidate_id=${staff}&per_page=100`))
        .json()
        .data.map((d: any) => d.id)
        .sort((a: number, b: number) => a - b);
    expect(await tab('DueDoc')).toEqual([in10.id]);
    expect(await tab('DueDoc60Days')).toEqual([in10.id, in45.id]);
    expect(await tab('ExpiredDoc')).toEqual([expired.id]);
    expect(await tab('AllDoc')).toEqual([in10.id, in45.id, expired.id]);
    const row = (await get(`/api/candidate_documents?tab=DueDoc&candidate_id=${staff}`)).json().data[0];
    expect(row).toMatchObject({ days_left: 10, expiry_state: 'due' });

    // The DBS certificate uploaded again replaces the first one.
    const renewed = await addDocument(staff, category['DBS certificate'], addDaysToDate(today, 365));
    expect(await tab('AllDoc')).toEqual([in45.id, expired.id, renewed.id]);
    expect(await tab('DueDoc')).toEqual([]);
    const old = ok(await get(`/api/candidate_documents/${in10.id}`));
    expect(old.current).toBe(false);
    const history = (await get(`/api/candidate_documents?candidate_id=${staff}&per_page=100`))
      .json()
      .data.map((d: any) => d.id);
    expect(history).toContain(in10.id);
    // A replaced document can no longer be verified.
    expect((await post(`/api/candidate_documents/${in10.id}/actions/verify`, {})).statusCode).toBe(409);
  });

  it("computes each document's expiry state and days left in SQL exactly as the domain rule does, around its edges", async () => {
    const expiries = [-1, 0, 1, DUE_WITHIN_DAYS, DUE_WITHIN_DAYS + 1].map((n) => addDaysToDate(today, n));
    const docs = [];
    // One staff member per expiry: a new document of the same category would replace the previous one.
    for (const expiry of expiries)
      docs.push(
        await addDocument(await newStaff(), category['DBS certificate'], expiry, { issue: addDaysToDate(today, -400) }),
      );
    // Right to work has no validity: left empty, its expiry stays empty.
    docs.push(await addDocument(await newStaff(), category['Right to work'], null));
    const rows = (await get(`/api/candidate_documents?ids=${docs.map((d) => d.id).join(',')}&per_page=100`)).json()
      .data;
    expect(rows).toHaveLength(docs.length);
    for (const r of rows) {
      expect({ id: r.id, state: r.expiry_state, left: r.days_left }).toEqual({
        id: r.id,
        state: expiryState(r.expiry_date, today),
        left: daysLeft(r.expiry_date, today),
      });
    }
    expect(new Set(rows.map((r: any) => r.expiry_state))).toEqual(new Set(['expired', 'due', 'valid', 'no_expiry']));
  });
});
