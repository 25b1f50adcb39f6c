import { readFile } from 'node:fs/promises';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's own order (longest first by the last run's times; largest first on a fresh clone, which has none), with the
 * files that run in jsdom before the pure ones that declare `// @vitest-environment node` (tests/unit/setup.ts). A
 * worker keeps its loaded modules for the next file (`isolate: false`) only while the environment stays the same. By
 * size alone the two kinds alternate, so the workers kept restarting and loading React, MUI and react-admin again:
 * on a fresh clone the unit tests took 52 s and 94 core-seconds; in this order, 26 s and 43.
 */
export default class JsdomFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const pure = await Promise.all(
      sorted.map(async (file) => (await readFile(file.moduleId, 'utf8')).startsWith('// @vitest-environment node')),
    );
    return [...sorted.filter((_, i) => !pure[i]), ...sorted.filter((_, i) => pure[i])];
  }
}
