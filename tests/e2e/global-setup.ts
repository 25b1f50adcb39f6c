import type { TestProject } from 'vitest/node';
import { snapshotBuild, startServer, TEST_SERVER_ENV } from './product';

// One product process for all browser test files: the production build (a private copy of dist/, see
// snapshotBuild) on a brand-new embedded database, which loads the demo. Its password hashes are cheap
// (TEST_SERVER_ENV).
export default async function setup(project: TestProject) {
  const build = snapshotBuild();
  try {
    const server = await startServer({
      build,
      env: TEST_SERVER_ENV,
      timeoutMs: Number(process.env.E2E_START_TIMEOUT_MS) || 120_000,
    });
    project.provide('e2eBaseURL', server.url);
    return async () => {
      await server.stop();
      build.dispose();
    };
  } catch (e) {
    build.dispose();
    throw e;
  }
}
