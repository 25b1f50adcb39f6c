import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { snapshotBuild, startServer, TEST_SERVER_ENV } from './product';

// One product process for all browser test files: the production build (a private copy of dist/, see
// snapshotBuild) on a copy of a brand-new embedded database, which loaded the demo. The files that start a product of
// their own (with their own mail server) start it from a copy too (e2eDataTemplate): a first start migrates and
// loads the demo, about 12 s, a copy starts in about 2. Its password hashes are cheap (TEST_SERVER_ENV).
export default async function setup(project: TestProject) {
  const build = snapshotBuild();
  const template = mkdtempSync(join(tmpdir(), 'staffing-e2e-template-'));
  const dispose = () => {
    build.dispose();
    rmSync(template, { recursive: true, force: true });
  };
  try {
    const timeoutMs = Number(process.env.E2E_START_TIMEOUT_MS) || 120_000;
    const first = await startServer({ build, dataDir: template, env: TEST_SERVER_ENV, timeoutMs });
    await first.stop();
    const server = await startServer({ build, template, env: TEST_SERVER_ENV, timeoutMs });
    project.provide('e2eBaseURL', server.url);
    project.provide('e2eDataTemplate', template);
    return async () => {
      await server.stop();
      dispose();
    };
  } catch (e) {
    dispose();
    throw e;
  }
}
