import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { verifyAuditCompleteness } from './auditCheck';

// The check every API test file ends with (tests/api/auditCheck.ts), shown to catch what it is for: a write of a
// declared table with no audit entry or no new version fails, naming the table and the row; an engine write, a
// test's own marked set-up and a derived column do not.
let t: TestApp;
let admin: string;
let client: { id: number; version: number };
const lastEntry = async () =>
  (await t.db.query<{ last: number }>('select coalesce(max(id), 0)::int as last from audit_log'))[0].last;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  admin = await loginAs(t.app, 'admin');
  [client] = await t.db.query(`select id, version from clients where name = 'Meadowbank Care Home'`);
});
afterAll(async () => {
  // What this file wrote behind the engine on purpose is forgotten, so its own closing check passes.
  await t?.db.query('delete from audit_check_writes');
  await t?.close();
});

describe('the audit completeness check', () => {
  it('passes an engine write, and fails a raw one naming the table and the row', async () => {
    const since = await lastEntry();
    const res = await call(t.app, admin, 'PUT', `/api/clients/${client.id}`, { notes: 'Through the engine' });
    expect(res.statusCode, res.body).toBe(200);
    await expect(verifyAuditCompleteness(t.db, since)).resolves.toBeUndefined();

    await t.db.query(`update clients set notes = 'Behind its back' where id = $1`, [client.id]);
    await expect(verifyAuditCompleteness(t.db, since)).rejects.toThrow(
      `clients: row ${client.id} (update, update: 1 entries); row ${client.id} (1 change(s) without a new version)`,
    );
    await t.db.query('delete from audit_check_writes');
  });

  it('leaves out a test’s marked set-up and the columns the server derives', async () => {
    const since = await lastEntry();
    await fixtureWrite(t.db, `update clients set notes = 'Set up by the test' where id = $1`, [client.id]);
    await t.db.query(
      'update candidates set compliance_complete = not compliance_complete where id = (select min(id) from candidates)',
    );
    await expect(verifyAuditCompleteness(t.db, since)).resolves.toBeUndefined();
  });
});
