import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { createAgency } from '../../server/seed/index';
import { call, dbKind, DEMO, login, makeTestApp, openTestDb, postLogin, type TestApp } from './helpers';

// Every migration on a fresh database: seconds on a quiet machine; at load 28 a clean-clone run passed 30 s.
describe('migrations', { timeout: 120_000 }, () => {
  it('a fresh database reports fresh and applies every migration; a second run is a no-op', async () => {
    const { db, close } = await openTestDb();
    try {
      const first = await migrate(db);
      expect(first.fresh).toBe(true);
      expect(first.applied).toEqual(migrations.map((m) => m.id));
      const tables = (
        await db.query<{ t: string }>(
          `select table_name as t from information_schema.tables where table_schema = current_schema()`,
        )
      ).map((r) => r.t);
      for (const t of [
        'merchants',
        'users',
        'sessions',
        'candidates',
        'clients',
        'sites',
        'notifications',
        'agency_logos',
        'schema_migrations',
      ])
        expect(tables).toContain(t);
      const second = await migrate(db);
      expect(second).toEqual({ applied: [], fresh: false });
      const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
      expect(n).toBe(migrations.length);
    } finally {
      await close();
    }
  });
});

describe('a database without the demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ seed: 'none' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no default accounts: the demo logins answer 401', async () => {
    expect((await postLogin(t.app, 'admin', DEMO.admin.email, DEMO.admin.password)).statusCode).toBe(401);
    expect((await postLogin(t.app, 'client', DEMO.client.email, DEMO.client.password)).statusCode).toBe(401);
  });

  it('createAgency makes an agency whose admin signs in and sees an empty agency', async () => {
    const { merchantId } = await t.db.transaction((tx) =>
      createAgency(tx, {
        companyName: 'Acme Staffing',
        adminName: 'Jo Bloggs',
        email: 'Jo@Acme.example',
        password: 'a-long-password',
      }),
    );
    const res = await postLogin(t.app, 'admin', 'jo@acme.example', 'a-long-password');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      login_type: 'admin',
      merchant_id: merchantId,
      user: { name: 'Jo Bloggs', email: 'jo@acme.example', role: 'admin' },
    });
    const token = res.json().token;
    expect((await call(t.app, token, 'GET', `/api/merchants/${merchantId}`)).json().data.company_name).toBe(
      'Acme Staffing',
    );
    expect((await call(t.app, token, 'GET', '/api/agency_logo_list')).json().data).toEqual([]);
    const notes = (await call(t.app, token, 'GET', '/api/agency_notifications')).json();
    expect(notes).toMatchObject({ total_count: 0, unread_count: 0, notifications: [] });
  });

  it('its password is stored as an Argon2id hash, never in clear', async () => {
    const [u] = await t.db.query<{ password_hash: string }>(
      `select password_hash from users where email = 'jo@acme.example'`,
    );
    expect(u.password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,p=\d+,t=\d+\$/);
    expect(u.password_hash).not.toContain('a-long-password');
  });
});

describe('a new agency next to the demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sees none of the demo data', async () => {
    await t.db.transaction((tx) =>
      createAgency(tx, {
        companyName: 'Fresh Agency',
        adminName: 'New Admin',
        email: 'new@fresh.example',
        password: 'fresh-password-1',
      }),
    );
    const token = await login(t.app, 'admin', 'new@fresh.example', 'fresh-password-1');
    for (const q of ['staff.example', 'northern.example', 'a', 'smith']) {
      const res = await call(t.app, token, 'GET', `/api/search_candidate?candidate_query=${q}`);
      expect(res.statusCode, q).toBe(404);
    }
    expect((await call(t.app, token, 'GET', '/api/agency_notifications')).json().total_count).toBe(0);
    expect((await call(t.app, token, 'GET', '/api/agency_logo_list')).json().data).toEqual([]);
  });
});

// The documented command itself (`npm run agency:create`): on an embedded database in a temporary directory,
// or, in the PostgreSQL run, through DATABASE_URL on this file's own database.
// Each test starts the CLI (tsx compiling the server) as a child process: seconds on a quiet machine, far more on a
// busy one (at load 28 a start passed a minute).
describe('npm run agency:create (server/cli.ts)', { timeout: 400_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'agency-cli-'));
  let testDb: Awaited<ReturnType<typeof openTestDb>> | undefined;
  beforeAll(async () => {
    if (dbKind === 'postgres') testDb = await openTestDb();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await testDb?.close();
  });
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: testDb?.url ?? '' },
      encoding: 'utf8',
      timeout: 180_000,
    });

  it('refuses a short password and missing options with a non-zero exit', () => {
    const short = cli(
      'create-agency',
      '--company',
      'X',
      '--name',
      'Y',
      '--email',
      'y@x.example',
      '--password',
      'short',
    );
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/at least 10 characters/);
    const missing = cli('create-agency', '--company', 'X');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/Missing --name/);
  });

  it('creates the agency and its first admin, who can then sign in', async () => {
    const ok = cli(
      'create-agency',
      '--company',
      'Cli Agency',
      '--name',
      'Cli Admin',
      '--email',
      'cli@agency.example',
      '--password',
      'cli-password-123',
    );
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/cli@agency\.example can now sign in/);
    if (testDb) {
      const rows = await testDb.db.query(
        `select u.role, m.company_name from users u join merchants m on m.id = u.merchant_id where u.email = 'cli@agency.example'`,
      );
      expect(rows).toEqual([{ role: 'admin', company_name: 'Cli Agency' }]);
    }
  });
});
