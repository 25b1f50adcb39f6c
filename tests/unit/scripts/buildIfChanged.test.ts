// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script, without types
import { needsBuild, stampBuild } from '../../../scripts/build-if-changed.mjs';

// npm start builds only when the sources changed since the last build (issue 15): a restart of an unchanged
// checkout starts at once, and any change to what a build reads builds again.
let root = '';
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start builds only when the sources changed', () => {
  it('builds with no build yet, not again for the same sources, and again after a change to any of them', () => {
    root = mkdtempSync(join(tmpdir(), 'build-if-changed-'));
    write('src/App.tsx', 'export const a = 1;');
    write('server/index.ts', 'export {};');
    write('package-lock.json', '{}');
    expect(needsBuild(root)).toBe(true);
    write('dist/server/index.mjs', '');
    write('dist/client/index.html', '');
    // A build of unknown sources (made before stamps, or by `npm run build` alone) is built again once.
    expect(needsBuild(root)).toBe(true);
    stampBuild(root);
    expect(needsBuild(root)).toBe(false);
    // The same content written again (a checkout of the same commit) is no change.
    write('src/App.tsx', 'export const a = 1;');
    expect(needsBuild(root)).toBe(false);
    write('src/App.tsx', 'export const a = 2;');
    expect(needsBuild(root)).toBe(true);
    stampBuild(root);
    write('server/routes/new.ts', 'export {};');
    expect(needsBuild(root)).toBe(true);
    stampBuild(root);
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(needsBuild(root)).toBe(true);
    // Files outside the sources (the database, the tests) never ask for a build.
    stampBuild(root);
    write('data/pglite/base', 'x');
    write('tests/unit/x.test.ts', 'x');
    expect(needsBuild(root)).toBe(false);
  });
});
