import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openAsBlob, openSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Db, type PgliteDb } from '../../server/db';
import { migrate } from '../../server/db/migrate';
import { seedDemo } from '../../server/seed/index';
import { areas } from '../../server/areas/index';
import { registryOf } from '../../server/areas/registry';
import { installAuditCheck, verifyAuditCompleteness } from './auditCheck';

/**
 * The API tests' databases. Opening PGlite, migrating and seeding took about 9 s of each test file, 52 times over
 * the two passes; the demo's content only depends on the number of staff asked for. So each content is made once
 * per run, by the first file that needs it, and every file gets a copy of its own:
 *  - PGlite: the made database is dumped to a tarball in the run's directory (tests/api/global-setup.ts); a file
 *    opens a new PGlite from it (no initdb, no migrations, no seed);
 *  - PostgreSQL: the made database is a template (`t_<run>_tmpl_<content>`) and a file's database is
 *    `CREATE DATABASE … TEMPLATE` of it, dropped when the file closes it. Dropped with the run: the templates.
 * Each content is made from the one before it (empty → migrated → demo), so that is done once too.
 */
export type Content = 'empty' | 'migrated' | { demo: DemoSize; history?: boolean };
/**
 * The demo's sizes (its first agency's staff) the files choose from. Each size is a database made once per run (about
 * 6 s of seeding on a quiet machine, in each pass): the eleven sizes the files used to choose cost about a minute of
 * each pass, where these four cover what they need (a small agency, a middling one, the demo's default, and more
 * staff than a page of 50).
 */
export type DemoSize = 5 | 10 | 40 | 60;

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export interface TestDb {
  db: Db;
  /** On PostgreSQL: a connection URL of this file's own database (for child processes). */
  url?: string;
  /** Checks the audit trail holds every write of the file (tests/api/auditCheck.ts), closes the database and, on
   * PostgreSQL, drops it. */
  close(): Promise<void>;
}

const keyOf = (c: Content) => (typeof c === 'string' ? c : `demo_${c.demo}${c.history ? '_history' : ''}`);
const parentOf = (c: Content): Content | undefined =>
  c === 'empty' ? undefined : c === 'migrated' ? 'empty' : 'migrated';
async function fill(db: Db, c: Content) {
  if (c === 'migrated') await migrate(db);
  else if (typeof c === 'object') await seedDemo(db, registryOf(areas), { candidates: c.demo, history: !!c.history });
}

function run() {
  const provided = inject('apiDatabases');
  if (!provided) throw new Error('The api project\u2019s global setup (tests/api/global-setup.ts) did not run.');
  return provided;
}

/** A database holding `content` for one test file. */
export async function openTestDb(content: Content = 'empty'): Promise<TestDb> {
  if (!TEST_DATABASE_URL) {
    const db = await openPglite(undefined, { from: await pgliteTemplate(content) });
    const since = await installAuditCheck(db).catch(async (e) => {
      await db.close();
      throw e;
    });
    return { db, close: () => checkedClose(db, since, () => db.close()) };
  }
  const admin = await connectAdmin(TEST_DATABASE_URL);
  try {
    const name = `t_${run().run}_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database "${name}" template "${await postgresTemplate(admin, content)}"`);
    const url = databaseUrl(TEST_DATABASE_URL, name);
    const db = await openPostgres(url, { max: 5 });
    const drop = async () => {
      await db.close().catch(() => undefined);
      // WITH (FORCE): a child process a failed test left behind must not keep the database.
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
    const since = await installAuditCheck(db).catch(async (e) => {
      await drop();
      throw e;
    });
    return { db, url, close: () => checkedClose(db, since, drop) };
  } catch (e) {
    await admin.end().catch(() => undefined);
    throw e;
  }
}

/**
 * Runs the audit completeness check (tests/api/auditCheck.ts) on the file's writes, then closes the database
 * whatever it found; a failed check fails the file's afterAll.
 */
async function checkedClose(db: Db, since: number | null, close: () => Promise<void>): Promise<void> {
  try {
    if (since !== null) await verifyAuditCompleteness(db, since);
  } finally {
    await close();
  }
}

// ---- PGlite ----------------------------------------------------------------------------------------------------

/** The tarball of a PGlite database holding `content`: read from the run's directory, or made there first. */
async function pgliteTemplate(content: Content): Promise<Blob> {
  const file = join(run().dir, `${keyOf(content)}.tar`);
  await madeOnce(file, async () => {
    const parent = parentOf(content);
    const db = await openPglite(undefined, { from: parent && (await pgliteTemplate(parent)) });
    try {
      await fill(db, content);
      return await compactDump(db);
    } finally {
      await db.close();
    }
  });
  return openAsBlob(file);
}

/**
 * The database's tarball as a file's copy opens it fastest: after a checkpoint, so a copy starts with nothing to
 * replay (a dump is of the files as they stand, the latest writes only in the WAL), and without the WAL segments a
 * start does not read: those before the checkpoint's redo point and the spare one the server keeps ready past its
 * insert position. The demo with 40 staff: 75 MB, now 58 MB; a copy opens in 1.07 s of CPU instead of 1.28 s, in each
 * of the PGlite pass's 90-odd files.
 */
async function compactDump(db: PgliteDb): Promise<Uint8Array> {
  await db.query('checkpoint');
  const tar = new Uint8Array(await (await db.dump()).arrayBuffer());
  // Read after the dump, which writes nothing: the segments the dumped files need.
  const [{ first, last }] = await db.query<{ first: string; last: string }>(
    `select pg_walfile_name(redo_lsn) as first, pg_walfile_name(pg_current_wal_insert_lsn() + 1) as last
       from pg_control_checkpoint()`,
  );
  const kept: Uint8Array[] = [];
  const text = (at: number, length: number) =>
    new TextDecoder().decode(tar.subarray(at, at + length)).replace(/\0.*$/s, '');
  let at = 0;
  while (at + 512 <= tar.length && tar[at] !== 0) {
    const prefix = text(at + 345, 155);
    const name = prefix ? `${prefix}/${text(at, 100)}` : text(at, 100);
    const end = at + 512 + Math.ceil(parseInt(text(at + 124, 12).trim() || '0', 8) / 512) * 512;
    const segment = /(?:^|\/)pg_wal\/([0-9A-F]{24})$/.exec(name)?.[1];
    if (!segment || (segment >= first && segment <= last)) kept.push(tar.subarray(at, end));
    at = end;
  }
  // The archive's end: two empty records.
  kept.push(new Uint8Array(1024));
  const out = new Uint8Array(kept.reduce((n, k) => n + k.length, 0));
  let to = 0;
  for (const k of kept) {
    out.set(k, to);
    to += k.length;
  }
  return out;
}

/**
 * Makes `file` with `make` in the one test file (of all the run's worker processes) that claims it first; the
 * others wait until it is there, or fail with the maker's error.
 */
async function madeOnce(file: string, make: () => Promise<Uint8Array>): Promise<void> {
  if (existsSync(file)) return;
  try {
    closeSync(openSync(`${file}.claimed`, 'wx'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return appeared(file);
  }
  try {
    const bytes = await make();
    // Written aside, then renamed: a waiting file never reads half of it.
    writeFileSync(`${file}.part`, bytes);
    renameSync(`${file}.part`, file);
  } catch (e) {
    writeFileSync(`${file}.failed`, String((e as Error).stack ?? e));
    throw e;
  }
}

/** Resolves when `file` exists; rejects when its maker failed. */
function appeared(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(join(file, '..'), () => check());
    const check = () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      } else if (existsSync(`${file}.failed`)) {
        watcher.close();
        reject(new Error(`Another test file failed to make ${file}:\n${readFileSync(`${file}.failed`, 'utf8')}`));
      }
    };
    // After the watcher starts: a file made in between is seen here.
    check();
  });
}

// ---- PostgreSQL ------------------------------------------------------------------------------------------------

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function connectAdmin(url: string): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (e) {
    throw new Error(`PostgreSQL at TEST_DATABASE_URL=${url} is unreachable: ${(e as Error).message}`);
  }
  return admin;
}

/** The template database holding `content`, made under a lock by the first test file that needs it. */
async function postgresTemplate(admin: pg.Client, content: Content): Promise<string> {
  const parent = parentOf(content);
  if (!parent) return 'template0';
  const name = `t_${run().run}_tmpl_${keyOf(content)}`;
  // Locks are taken child before parent (demo → migrated), always in that order: no deadlock.
  await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
  try {
    if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) return name;
    const from = await postgresTemplate(admin, parent);
    // Made under another name and renamed when complete: a file never clones a half-made template.
    const part = `${name}_part`;
    await admin.query(`drop database if exists "${part}" with (force)`);
    await admin.query(`create database "${part}" template "${from}"`);
    const db = await openPostgres(databaseUrl(TEST_DATABASE_URL!, part), { max: 5 });
    try {
      await fill(db, content);
    } finally {
      await db.close();
    }
    await admin.query(`alter database "${part}" rename to "${name}"`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * From tests/api/global-setup.ts: the run's name (in its PostgreSQL databases' names) and its PGlite templates'
     * directory.
     */
    apiDatabases: { run: string; dir: string };
    /**
     * The run's key for bank details (hex of 32 bytes): one for every worker, since a database one worker seeded (the
     * demo seals its staff's bank details) is copied by the others.
     */
    bankDetailsKey: string;
  }
}
