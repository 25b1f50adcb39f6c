// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverCycles } from '../../../scripts/check-layers.mjs';

// `npm run typecheck` refuses an import cycle among server/'s modules (issue 31.9): the areas, the seed, the jobs
// and a service once imported each other in a circle of 17 modules, hidden behind a dynamic import.
let dir = '';
const write = (files: Record<string, string>) => {
  dir = mkdtempSync(join(tmpdir(), 'server-cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
};
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const names = (cycles: string[][]) => cycles.map((c) => c.map((f) => f.slice(f.lastIndexOf('/') + 1)));

describe('serverCycles', () => {
  it('finds none in server/ as it is', () => {
    expect(serverCycles()).toEqual([]);
  });

  it('names the modules of a cycle, through a folder, a dynamic import and an export', () => {
    const cycles = serverCycles(
      write({
        'areas/index.ts': "import { seed } from '../seed/index.js';\nexport const areas = [seed];\n",
        'seed/index.ts': "export { later } from '../jobs/run.js';\nexport const seed = 1;\n",
        'jobs/run.ts': "export const later = () => import('../areas/index.js');\n",
        'other.ts': "import { areas } from './areas/index.js';\nexport const n = areas.length;\n",
      }),
    );
    expect(names(cycles)).toEqual([['index.ts', 'run.ts', 'index.ts']]);
  });

  it('leaves out imports of types only, which run nothing', () => {
    const files = {
      'area.ts': "import type { Seed } from './seed.js';\nexport interface Area { seed: Seed }\n",
      'seed.ts': "export type { Area } from './area.js';\nexport type Seed = () => void;\n",
    };
    expect(serverCycles(write(files))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    // The same modules importing values: a cycle.
    const values = {
      'area.ts': "import { type Seed, seeds } from './seed.js';\nexport const kinds: Seed[] = seeds;\n",
      'seed.ts': "import { type Area, kinds } from './area.js';\nexport const seeds = kinds.map((k: Area) => k);\n",
    };
    expect(names(serverCycles(write(values)))).toEqual([['area.ts', 'seed.ts']]);
  });
});
