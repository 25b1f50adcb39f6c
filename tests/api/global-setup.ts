import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

// The run's place for the databases every API test file copies (tests/api/databases.ts): a temporary directory
// for PGlite tarballs, and a name that prefixes the run's PostgreSQL databases, so the run drops its own at the end.
// The name holds this process's id: a run that was killed is recognised by the next one, which drops what it left.
const RUN_NAME = /^t_r(\d+)_[0-9a-f]{6}_/;

export default async function setup(project: TestProject) {
  const run = `r${process.pid}_${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'api-databases-'));
  const serverUrl = process.env.TEST_DATABASE_URL || undefined;
  // Unreachable: the files fail, each saying so (tests/api/databases.ts); nothing to clean here.
  if (serverUrl)
    await dropDatabases(serverUrl, (name) => !alive(Number(RUN_NAME.exec(name)![1]))).catch(() => undefined);
  project.provide('apiDatabases', { run, dir });
  project.provide('bankDetailsKey', randomBytes(32).toString('hex'));
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (serverUrl) await dropDatabases(serverUrl, (name) => name.startsWith(`t_${run}_`));
  };
}

async function dropDatabases(serverUrl: string, which: (name: string) => boolean) {
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    const names = (await admin.query<{ datname: string }>('select datname from pg_database')).rows.map(
      (r) => r.datname,
    );
    for (const name of names.filter((n) => RUN_NAME.test(n) && which(n)))
      await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
