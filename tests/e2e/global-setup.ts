import type { TestProject } from 'vitest/node';
import { ensureBuilt, startServer } from './product';

// One product process for all browser test files: a brand-new embedded database loaded with the demo.
export default async function setup(project: TestProject) {
  ensureBuilt();
  const server = await startServer();
  project.provide('e2eBaseURL', server.url);
  return async () => {
    await server.stop();
  };
}
