#!/usr/bin/env node
// `npm start`'s first half: builds the product only when its sources differ from those of the last build, so a
// restart of an unchanged checkout takes seconds instead of a whole Vite and esbuild build. (The server is then
// started by npm's shell itself, as before, so signals reach it the usual way.)
// The sources are everything a build reads from the repository (the browser and server code, the page, the
// build settings and the locked packages); their content, not their dates, decides, so a fresh clone or a
// `git checkout` of the same commit is recognised as unchanged.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCES = [
  'core',
  'src',
  'server',
  'public',
  'index.html',
  'vite.config.ts',
  'scripts/build-server.mjs',
  'tsconfig.json',
  'tsconfig.base.json',
  'package.json',
  'package-lock.json',
];
const BUILT = ['dist/server/index.mjs', 'dist/client/index.html'];
const stampOf = (root) => join(root, 'dist/.sources');

function* files(path) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) yield* files(join(path, entry));
  else yield path;
}

/** One hash of every source file's path and content. */
export function sourcesHash(root) {
  const hash = createHash('sha256');
  for (const source of SOURCES) {
    for (const file of files(join(root, source)))
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Whether `root` has no build, or one made from other sources than today's. */
export function needsBuild(root) {
  if (!BUILT.every((f) => existsSync(join(root, f)))) return true;
  const stamp = stampOf(root);
  return !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== sourcesHash(root);
}

/** Records that the build in `root` was made from its sources as they are now. */
export function stampBuild(root) {
  writeFileSync(stampOf(root), `${sourcesHash(root)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (needsBuild(root)) {
    console.log('Building (no build yet, or the sources changed since the last one)…');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
    stampBuild(root);
  } else {
    console.log('Sources unchanged since the last build: starting it.');
  }
}
