import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';

// Issue 16: staff members, their documents and users change state only through the transitions their declarations
// give (core/resources/*/resource.ts, lifecycle), not through guards that test the status again. A transition run
// from another state answers 409 saying the state; a verified document's checked content is no longer editable.
// (Support requests' transitions are in support.test.ts.)
let t: TestApp;
let admin: string;
let jobRole: number;
let category: number;
let seq = 0;

const post = (url: string, body: unknown = {}) => call(t.app, admin, 'POST', url, body);
const put = (url: string, body: unknown) => call(t.app, admin, 'PUT', url, body);
function ok(res: LightMyRequestResponse, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
}
function refused(res: LightMyRequestResponse, status: number, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().message).toBe(message);
}

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  admin = await loginAs(t.app, 'admin');
  const [m] = await t.db.query<{ id: number }>(`select id from merchants where company_name = 'Brightway Staffing'`);
  [{ id: jobRole }] = await t.db.query<{ id: number }>('select id from job_roles where merchant_id = $1 limit 1', [
    m.id,
  ]);
  [{ id: category }] = await t.db.query<{ id: number }>(
    'select id from document_categories where merchant_id = $1 order by id limit 1',
    [m.id],
  );
});
afterAll(async () => {
  await t?.close();
});

async function newStaff(): Promise<number> {
  seq += 1;
  return ok(
    await post('/api/candidates', {
      first_name: 'Life',
      last_name: `Cycle${seq}`,
      email: `life.cycle${seq}.${Date.now()}@lifecycle.example`,
      job_role_id: jobRole,
    }),
    201,
  ).id;
}

describe('a staff member', () => {
  it('is approved from pending or rejected, rejected from pending or approved; refused from another state in words', async () => {
    const id = await newStaff();
    const act = (name: string, body: unknown = {}) => post(`/api/candidates/${id}/actions/${name}`, body);
    refused(await act('activate'), 409, 'This staff member is pending: Activate is only for an approved staff member.');
    expect(ok(await act('reject', { reason: 'No right to work' })).status).toBe('rejected');
    refused(
      await act('reject'),
      409,
      'This staff member is rejected: Reject is only for a pending or approved staff member.',
    );
    refused(
      await act('deactivate'),
      409,
      'This staff member is rejected: Deactivate is only for an approved staff member.',
    );
    // Approved again from rejected: the transition declares it.
    expect(ok(await act('approve')).status).toBe('approved');
    refused(
      await act('approve'),
      409,
      'This staff member is approved: Approve is only for a pending or rejected staff member.',
    );
    // Within approved, the activation switch keeps its own guard.
    refused(await act('deactivate'), 409, 'Not active');
    const [row] = await t.db.query('select status, activated, version from candidates where id = $1', [id]);
    expect(row).toEqual({ status: 'approved', activated: false, version: 3 });
  });
});

describe('a compliance document', () => {
  const PDF = Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );
  async function upload(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/files?kind=document',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/octet-stream', 'x-file-name': 'a.pdf' },
      payload: PDF,
    });
    return ok(res, 201).id;
  }
  async function newDocument(candidateId: number) {
    return ok(
      await post('/api/candidate_documents', {
        candidate_id: candidateId,
        document_category_id: category,
        number: `DOC-${++seq}`,
        file: await upload(),
        issue_date: '2024-01-10',
        expiry_date: '2034-01-10',
      }),
      201,
    );
  }

  it('is verified from awaiting or rejected and rejected from awaiting or verified; refused from another state in words', async () => {
    const doc = await newDocument(await newStaff());
    const act = (name: string, body: unknown = {}) => post(`/api/candidate_documents/${doc.id}/actions/${name}`, body);
    expect(ok(await act('verify')).status).toBe('verified');
    refused(
      await act('verify'),
      409,
      'This document is verified: Verify is only for an awaiting check or rejected document.',
    );
    expect(ok(await act('reject', { reason: 'Blurred' }))).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Blurred',
    });
    refused(
      await act('reject', { reason: 'Again' }),
      409,
      'This document is rejected: Reject is only for an awaiting check or verified document.',
    );
    expect(ok(await act('verify'))).toMatchObject({ status: 'verified', rejection_reason: null });
  });

  it('keeps what was checked once verified: its file, number and dates change only while awaiting or rejected', async () => {
    const doc = await newDocument(await newStaff());
    const url = `/api/candidate_documents/${doc.id}`;
    const edited = ok(await put(url, { number: 'CHANGED-1', expiry_date: '2033-01-10' }));
    expect(edited).toMatchObject({ number: 'CHANGED-1', expiry_date: '2033-01-10' });
    const verified = ok(await post(`${url}/actions/verify`));
    for (const [field, value] of [
      ['number', 'CHANGED-2'],
      ['issue_date', '2024-02-10'],
      ['expiry_date', '2035-01-10'],
      ['file', await upload()],
    ]) {
      const res = await put(url, { [field]: value });
      expect(res.statusCode, field).toBe(422);
      expect(res.json().errors).toEqual({
        [field]: 'Can be changed only while the document is awaiting check or rejected (it is verified)',
      });
    }
    const [row] = await t.db.query('select number, version from candidate_documents where id = $1', [doc.id]);
    expect(row).toEqual({ number: 'CHANGED-1', version: verified.version });
    // Rejected, it can be corrected (and then verified again).
    ok(await post(`${url}/actions/reject`, { reason: 'Wrong number' }));
    expect(ok(await put(url, { number: 'CHANGED-3' })).number).toBe('CHANGED-3');
  });

  it('no longer takes a check once a newer upload of its category replaced it (its guard)', async () => {
    const staff = await newStaff();
    const old = await newDocument(staff);
    await newDocument(staff);
    refused(
      await post(`/api/candidate_documents/${old.id}/actions/verify`),
      409,
      'This document has been replaced by a newer one',
    );
  });
});

describe('a user', () => {
  const newUser = async () =>
    ok(
      await post('/api/users', {
        name: `Life Cycle ${++seq}`,
        email: `user${seq}.${Date.now()}@lifecycle.example`,
        role: 'consultant',
      }),
      201,
    );
  const act = (id: number, name: string) => post(`/api/users/${id}/actions/${name}`);

  it('moves between invited, active and deactivated (a state computed from the row) through declared transitions only', async () => {
    const user = await newUser();
    expect(user.status).toBe('invited');
    expect(ok(await act(user.id, 'resend')).status).toBe('invited');
    expect(ok(await act(user.id, 'deactivate')).status).toBe('inactive');
    refused(
      await act(user.id, 'deactivate'),
      409,
      'This user is deactivated: Deactivate is only for an invited or active user.',
    );
    refused(
      await act(user.id, 'resend'),
      409,
      'This user is deactivated: Resend invitation is only for an invited or active user.',
    );
    // Reactivated, an invited user is invited again (they never set a password).
    expect(ok(await act(user.id, 'reactivate')).status).toBe('invited');
    refused(await act(user.id, 'reactivate'), 409, 'This user is invited: Reactivate is only for a deactivated user.');
  });

  it('who has set a password is active again when reactivated', async () => {
    const [{ id }] = await t.db.query<{ id: number }>(`select id from users where email = 'consultant@demo.test'`);
    refused(await act(id, 'reactivate'), 409, 'This user is active: Reactivate is only for a deactivated user.');
    expect(ok(await act(id, 'deactivate')).status).toBe('inactive');
    expect(ok(await act(id, 'reactivate')).status).toBe('active');
  });
});
