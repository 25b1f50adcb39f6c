import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { systemContext } from '../../server/engine/routes';
import { systemPrincipal, withEngine } from '../../server/engine/handle';
import { JobEngine } from '../../server/jobs/engineContext';
import type { EnginePrincipal } from '../../server/engine/context';
import { permits } from '../../core/resources/access';
import { declarationByName } from '../../core/resources/declarations';

// The engine context of issue 16: its clock (ctx.now, fixed for a test app) and its handle (ctx.engine) that
// hooks, services and jobs write through.
const NOW = '2030-01-10T12:00:00.000Z';
let t: TestApp;
let admin: string;
let client: string;
let merchantId: number;
let clientId: number;
let site: number;
let role: number;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5, now: NOW });
  [admin, client] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'client')]);
  const [u] = await t.db.query<{ client_id: number; merchant_id: number }>(
    `select client_id, merchant_id from users where email = 'client@demo.test'`,
  );
  ({ client_id: clientId, merchant_id: merchantId } = u);
  [{ id: site }] = await t.db.query<{ id: number }>(
    'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [merchantId, clientId],
  );
  [{ id: role }] = await t.db.query<{ id: number }>(
    'select job_role_id as id from rate_cards where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [merchantId, clientId],
  );
});
afterAll(async () => {
  await t?.close();
});

const request = (app = t.app, start: string) =>
  call(app, client, 'POST', '/api/shifts', {
    client_id: clientId,
    site_id: site,
    job_role_id: role,
    start_at: start,
    end_at: new Date(Date.parse(start) + 8 * 3600_000).toISOString(),
  });

describe('the server clock (ctx.now)', () => {
  it('decides what is past: a client may not request a shift before the fixed now, and may after it', async () => {
    // Still ahead of the real clock, but before the app's now.
    const past = await request(t.app, '2030-01-09T08:00:00.000Z');
    expect(past.statusCode, past.body).toBe(422);
    expect(past.json().errors.start_at).toBe('A requested shift must start in the future.');
    const soon = await request(t.app, '2030-01-20T08:00:00.000Z');
    expect(soon.statusCode, soon.body).toBe(201);
    // On the real clock the same request is more than two years ahead, past the field's limit.
    const real = await t.extraApp();
    const far = await request(real, '2030-01-20T08:00:00.000Z');
    expect(far.statusCode, far.body).toBe(422);
    expect(far.json().errors.start_at).toBeDefined();
  });

  it("gives a context today in the agency's zone at that instant", async () => {
    const ctx = await systemContext(t.app, t.db, merchantId);
    expect(ctx.now.toISOString()).toBe(NOW);
    expect(ctx.today).toBe('2030-01-10');
  });
});

describe('writes through ctx.engine', () => {
  it('validate, bump the version and audit as the caller; the system principal is audited as "system"', async () => {
    const [c] = await t.db.query<{ id: number; name: string; version: number }>(
      'select id, name, version from clients where merchant_id = $1 and id = $2',
      [merchantId, clientId],
    );
    await t.db.transaction(async (tx) => {
      const ctx = await systemContext(t.app, tx, merchantId);
      await expect(ctx.engine.update('clients', c.id, { name: '' })).rejects.toMatchObject({
        status: 422,
        errors: { name: expect.any(String) },
      });
    });
    const saved = await t.db.transaction(async (tx) =>
      (await systemContext(t.app, tx, merchantId)).engine.update(
        'clients',
        c.id,
        { name: `${c.name} Ltd` },
        { reason: 'Renamed by a job' },
      ),
    );
    expect(saved.name).toBe(`${c.name} Ltd`);
    expect(Number(saved.version)).toBe(Number(c.version) + 1);
    const [entry] = await t.db.query<{ user_name: string; user_id: number | null; changes: any; input: any }>(
      `select user_name, user_id, changes, input from audit_log where resource = 'clients' and record_id = $1 order by id desc limit 1`,
      [c.id],
    );
    expect(entry).toMatchObject({
      user_name: 'system',
      user_id: null,
      changes: { name: { from: c.name, to: `${c.name} Ltd` } },
      input: { reason: 'Renamed by a job' },
    });
    const shown = await call(t.app, admin, 'GET', `/api/clients/${c.id}`);
    expect(shown.json().data.name).toBe(`${c.name} Ltd`);
  });

  it("keep to the caller's row scope: another client's shift is not found for a client user", async () => {
    const [other] = await t.db.query<{ id: number }>(
      'select id from shifts where merchant_id = $1 and client_id <> $2 and deleted_at is null order by id limit 1',
      [merchantId, clientId],
    );
    const [u] = await t.db.query<{ id: number; role: 'admin' }>(
      `select id, role from users where email = 'client@demo.test'`,
    );
    await t.db.transaction(async (tx) => {
      const base = await systemContext(t.app, tx, merchantId);
      const ctx = withEngine(
        {
          ...base,
          principal: { userId: u.id, name: 'Client', loginType: 'client', role: u.role, merchantId, clientId },
        },
        t.app.engine,
      );
      await expect(ctx.engine.update('shifts', other.id, { notes: 'x' })).rejects.toMatchObject({ status: 404 });
    });
  });
});

describe('a job context', () => {
  it("reads a principal queued before login types were renamed (the agency's as 'admin') as the agency's", async () => {
    const queued = { ...systemPrincipal(merchantId), userId: 1, name: 'Alex Morgan' };
    const stale = { ...queued, loginType: 'admin' } as unknown as EnginePrincipal;
    const shifts = declarationByName.get('shifts')!;
    // As stored, the rules would grant it nothing: an agency role counts only in the agency's panel.
    expect(permits(stale, shifts, 'list')).toBe(false);
    const jobs = new JobEngine(t.app);
    const ctx = await jobs.context(t.db, stale, new Date(NOW));
    expect(ctx.principal).toEqual(queued);
    expect(permits(ctx.principal, shifts, 'list')).toBe(true);
    // One queued since is read as it was.
    expect((await jobs.context(t.db, queued, new Date(NOW))).principal).toBe(queued);
  });
});
