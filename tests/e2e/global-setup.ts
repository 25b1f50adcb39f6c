import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { snapshotBuild, startServer, TEST_SERVER_ENV } from './product';

// What every browser test file starts its own product from (tests/e2e/harness.ts): the production build (a private
// copy of dist/, see snapshotBuild) and a stopped product's data directory that migrated and loaded the demo. A first
// start migrates and loads the demo in about 20 s; a copy starts in about 1.5 s. Its password hashes are cheap
// (TEST_SERVER_ENV).
export default async function setup(project: TestProject) {
  const build = snapshotBuild();
  const template = mkdtempSync(join(tmpdir(), 'staffing-e2e-template-'));
  const dispose = () => {
    build.dispose();
    rmSync(template, { recursive: true, force: true });
  };
  try {
    // A watchdog, not a measure: the first start took over 120 s at load 16 (other people's tests on the 2 cores).
    const timeoutMs = Number(process.env.E2E_START_TIMEOUT_MS) || 300_000;
    const first = await startServer({ build, dataDir: template, env: TEST_SERVER_ENV, timeoutMs });
    await first.stop();
    project.provide('e2eBuild', { serverEntry: build.serverEntry, staticDir: build.staticDir });
    project.provide('e2eDataTemplate', template);
    return dispose;
  } catch (e) {
    dispose();
    throw e;
  }
}
