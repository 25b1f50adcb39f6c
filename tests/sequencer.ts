import { readFile } from 'node:fs/promises';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's own order (longest first by the last run's times; largest first on a fresh clone, which has none), with:
 * - the files that open with `// @run-first` ahead of all: short files that take long (a shard of a route sweep is a
 *   few lines). By size they came last, and a file starting late ends the stage late while the other workers idle;
 * - the files that run in jsdom before the pure ones that declare `// @vitest-environment node` (tests/unit/setup.ts).
 *   A worker keeps its loaded modules for the next file (`isolate: false`) only while the environment stays the same.
 *   By size alone the two kinds alternate, so the workers kept restarting and loading React, MUI and react-admin
 *   again: on a fresh clone the unit tests took 52 s and 94 core-seconds; in this order, 26 s and 43.
 */
export default class JsdomFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const heads = await Promise.all(sorted.map(async (file) => (await readFile(file.moduleId, 'utf8')).slice(0, 40)));
    const kind = (head: string) =>
      head.startsWith('// @run-first') ? 0 : head.startsWith('// @vitest-environment node') ? 2 : 1;
    return sorted
      .map((file, i) => ({ file, k: kind(heads[i]) }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.file);
  }
}
