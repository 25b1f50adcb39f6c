import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { snapshotBuild, startServer, TEST_SERVER_ENV, type BuildSnapshot } from './product';

// What every browser test file starts its own product from (tests/e2e/harness.ts): the production build (a private
// copy of dist/, see snapshotBuild) and a stopped product's data directory that migrated and loaded the demo. A first
// start migrates and loads the demo in about 20 s; a copy starts in about 1.5 s. Its password hashes are cheap
// (TEST_SERVER_ENV).
export default async function setup(project: TestProject) {
  const build = snapshotBuild();
  const templates = {
    full: mkdtempSync(join(tmpdir(), 'staffing-e2e-template-')),
    currentWeeks: mkdtempSync(join(tmpdir(), 'staffing-e2e-template-current-weeks-')),
  };
  const dispose = () => {
    build.dispose();
    for (const dir of Object.values(templates)) rmSync(dir, { recursive: true, force: true });
  };
  try {
    // A watchdog, not a measure: the first start took over 120 s at load 16 (other people's tests on the 2 cores).
    const timeoutMs = Number(process.env.E2E_START_TIMEOUT_MS) || 300_000;
    // The demo as a newcomer sees it, and without its year of history for the files that book the demo's staff in
    // past weeks (tests/e2e/harness.ts, `demo`): both loaded side by side.
    await Promise.all([
      loadTemplate(build, templates.full, TEST_SERVER_ENV, timeoutMs),
      loadTemplate(build, templates.currentWeeks, { ...TEST_SERVER_ENV, DEMO_HISTORY: 'off' }, timeoutMs),
    ]);
    project.provide('e2eBuild', { serverEntry: build.serverEntry, staticDir: build.staticDir });
    project.provide('e2eDataTemplate', templates.full);
    project.provide('e2eDataTemplateCurrentWeeks', templates.currentWeeks);
    return dispose;
  } catch (e) {
    dispose();
    throw e;
  }
}

/** Starts the product on an empty `dataDir`, which migrates and loads the demo, waits for its e-mail, and stops it. */
async function loadTemplate(build: BuildSnapshot, dataDir: string, env: Record<string, string>, timeoutMs: number) {
  const first = await startServer({ build, dataDir, env, timeoutMs });
  try {
    await demoMailSent(first.url, timeoutMs);
  } finally {
    await first.stop();
  }
}

/**
 * Resolves once the demo's e-mails (about 80, queued as it loads) are all sent: the template then holds them as sent,
 * in the mailbox, and each file's product starts with none to send. When the first start was stopped as soon as it
 * answered, every file's product sent the thirty-odd left (starting the embedded mail server, which parses each):
 * about 1.3 s of a core in each of the fifty-odd files, in their first seconds. Asked as each demo agency's admin (the
 * e-mail report, `email_outbox`), signed out after; an e-mail that keeps failing ends the wait at `timeoutMs`, and the
 * files' products send it as before.
 */
async function demoMailSent(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (const email of ['admin@demo.test', 'admin@other.test']) {
    const login = await fetch(`${url}/api/admin_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'demo-admin' }),
    });
    if (!login.ok) throw new Error(`admin_login for ${email} answered ${login.status}: ${await login.text()}`);
    const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    while (Date.now() < deadline) {
      const queued = await fetch(`${url}/api/email_outbox?status=queued&per_page=1`, { headers });
      if (!queued.ok) throw new Error(`the e-mail report answered ${queued.status}: ${await queued.text()}`);
      if (((await queued.json()) as { total_count: number }).total_count === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await fetch(`${url}/api/logout`, { method: 'POST', headers });
  }
}
