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

const root = new URL('..', import.meta.url).pathname;
const STAMP = join(root, 'dist/.sources');
const SOURCES = ['src', 'server', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];

function* files(path) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) yield* files(join(path, entry));
  else yield path;
}

function sourcesHash() {
  const hash = createHash('sha256');
  for (const source of SOURCES) {
    for (const file of files(join(root, source))) {
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

const built = ['dist/server/index.mjs', 'dist/client/index.html'].every((f) => existsSync(join(root, f)));
const current = sourcesHash();
const previous = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (!built || previous !== current) {
  console.log(built ? 'Sources changed since the last build: building…' : 'No build yet: building…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(STAMP, `${current}\n`);
} else {
  console.log('Sources unchanged since the last build: starting it.');
}
