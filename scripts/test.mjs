#!/usr/bin/env node
// `npm test`: every test of the product, in rounds, stopping after the first round that fails (non-zero exit).
//   round 1, side by side:
//     typecheck                       npm run typecheck (scripts/check-layers.mjs, then tsc per side)
//     lint                            npm run format:check (Prettier) and npm run lint (ESLint)
//     unit                            vitest project unit (jsdom + msw)
//     build                           npm run build (the production build the browser tests start)
//   round 2:
//     api on PGlite                   vitest project api
//   round 3, side by side:
//     api on PostgreSQL               vitest project api with TEST_DATABASE_URL
//                                     (default postgres://postgres@127.0.0.1:5432/test). Required when CI=true
//                                     or TEST_DATABASE_URL is set; otherwise skipped, with a notice, when no
//                                     server answers.
//     e2e                             vitest project e2e (headless Chromium against the product)
// Stages side by side print their output whole as each ends. Ends with a summary line: "N passed, N failed" (tests)
// and the run's wall time, plus one line per stage.
// For work in progress: `npm test -- --only unit,api` or `npm test -- --skip e2e` (stages: typecheck, lint, unit,
// api, api-pg, build, e2e). A full run takes neither.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { findOrInstallChromium } from './chromium.mjs';
import { runInGroup } from './process-group.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const ci = process.env.CI === 'true' || process.env.CI === '1';
const explicitPg = !!process.env.TEST_DATABASE_URL;
const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const reports = mkdtempSync(join(tmpdir(), 'npm-test-'));

const stageKeys = ['typecheck', 'lint', 'unit', 'api', 'api-pg', 'build', 'e2e'];
const listArg = (flag) => {
  const i = process.argv.indexOf(flag);
  if (i < 0) return undefined;
  const keys = (process.argv[i + 1] ?? '').split(',').filter(Boolean);
  const bad = keys.filter((k) => !stageKeys.includes(k));
  if (bad.length || keys.length === 0) {
    console.error(`${flag} takes a comma-separated list of: ${stageKeys.join(', ')}`);
    process.exit(2);
  }
  return keys;
};
const only = listArg('--only');
const skip = listArg('--skip') ?? [];
const wanted = (key) => (only ? only.includes(key) : true) && !skip.includes(key);

const stages = [];
/** Tests that passed on their second try, with their first try's failure (printed in the summary). */
const secondTries = [];
let passed = 0;
let failed = 0;

/**
 * Runs a command; its output goes to the terminal, or into `logFile` when stages run side by side (printed whole
 * when the stage ends, so the log reads one stage at a time). In a process group of its own, which is ended when the
 * command ends: whatever a stage started (products, browsers, workers) stops with it, even when the stage fails.
 */
async function run(cmd, args, env = {}, logFile) {
  const out = logFile ? openSync(logFile, 'a') : 'inherit';
  try {
    return await runInGroup(cmd, args, { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, ...env } });
  } finally {
    if (logFile) closeSync(out);
  }
}

function banner(name) {
  console.log(`\n\x1b[1m━━ ${name} ━━\x1b[0m`);
}

function finish(code) {
  rmSync(reports, { recursive: true, force: true });
  console.log('\n\x1b[1m━━ Summary ━━\x1b[0m');
  for (const s of stages) console.log(`  ${s.status.padEnd(8)} ${s.name}${s.detail ? `  (${s.detail})` : ''}`);
  if (secondTries.length) {
    console.log('\n\x1b[33mPassed on a second try (failed first; mend them):\x1b[0m');
    for (const t of secondTries) console.log(`  ${t.name}\n      first try: ${t.first}`);
  }
  const failedAt = stages.find((s) => s.status === 'FAILED');
  const partial =
    only || skip.length ? `  (partial run: ${only ? `only ${only.join(',')}` : `skipping ${skip.join(',')}`})` : '';
  console.log(
    `\n${passed} passed, ${failed} failed in ${((Date.now() - began) / 1000).toFixed(0)} s${code === 0 ? '' : `  — npm test FAILED at ${failedAt?.name ?? 'an unknown stage'}`}${partial}`,
  );
  process.exit(code);
}

const began = Date.now();

/** A plain command stage (typecheck, lint, build): each [cmd, args] runs, all of them; it fails if any fails. */
function step(name, ...commands) {
  return {
    name,
    async run(logFile) {
      let code = 0;
      for (const [cmd, args] of commands) code = (await run(cmd, args, {}, logFile)) || code;
      return { code };
    },
  };
}

/** A vitest project; counts tests from the JSON reporter. */
function vitest(name, project, env = {}) {
  return {
    name,
    async run(logFile) {
      const out = join(reports, `${name.replace(/\W+/g, '-')}.json`);
      const code = await run(
        bin('vitest'),
        ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
        env,
        logFile,
      );
      let p = 0;
      let f = 0;
      let s = 0;
      let retried = [];
      if (existsSync(out)) {
        const r = JSON.parse(readFileSync(out, 'utf8'));
        p = r.numPassedTests ?? 0;
        f = (r.numFailedTests ?? 0) + (code !== 0 && !r.numFailedTests ? (r.numFailedTestSuites ?? 0) : 0);
        s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
        // A test that passed with a failure on record failed its first try (the browser tests' one retry): named in
        // the summary with that failure, so a test that needs its second try is seen and mended, never hidden.
        retried = (r.testResults ?? []).flatMap((file) =>
          (file.assertionResults ?? [])
            .filter((t) => t.status === 'passed' && t.failureMessages?.length)
            .map((t) => ({
              name: `${relative(root, file.name)} › ${t.fullName}`,
              first: String(t.failureMessages[0]).split('\n')[0].slice(0, 300),
            })),
        );
        secondTries.push(...retried);
      } else if (code !== 0) {
        f = 1;
      }
      passed += p;
      failed += f;
      const again = retried.length ? `, ${retried.length} of them on a second try` : '';
      return { code, detail: `${p} passed${again}, ${f} failed${s ? `, ${s} skipped` : ''}` };
    },
  };
}

/**
 * Runs stages side by side (one alone streams to the terminal), prints each one's output as it ends, and stops the
 * run after them if any failed. Side by side because on 2 cores one stage alone may leave a core idle for much of its
 * time (tsc and ESLint use one each; Vite's build has single-threaded phases).
 */
async function together(...list) {
  if (list.length === 0) return;
  if (list.length === 1) banner(list[0].name);
  else console.log(`\n\x1b[2mside by side: ${list.map((x) => x.name).join(' · ')}\x1b[0m`);
  const results = await Promise.all(
    list.map(async (stage, i) => {
      const t = Date.now();
      const logFile = list.length > 1 ? join(reports, `stage-${stages.length + i}.log`) : undefined;
      const r = await stage.run(logFile);
      const secs = `${((Date.now() - t) / 1000).toFixed(1)} s`;
      if (logFile) {
        banner(stage.name);
        process.stdout.write(existsSync(logFile) ? readFileSync(logFile) : '');
      }
      return {
        name: stage.name,
        status: r.code === 0 ? 'ok' : 'FAILED',
        detail: r.detail ? `${r.detail}, ${secs}` : secs,
      };
    }),
  );
  stages.push(...results);
  if (results.some((r) => r.status === 'FAILED')) finish(1);
}

function reachable(url) {
  const u = new URL(url);
  return new Promise((ok) => {
    const socket = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 5432) });
    const done = (v) => {
      socket.destroy();
      ok(v);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

// The Node every stage runs on: inside `npm test`, the `node` dev dependency's (node_modules/.bin comes first on
// npm's PATH, and each stage's child inherits it), not the machine's own. Printed so a log says which it was.
console.log(`npm test on Node ${process.version} (${process.execPath})`);
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(
    'The tests need Node 22 or 24 (package.json "engines"): run them with `npm test`, which uses the Node 24 that `npm ci` installs.',
  );
  process.exit(1);
}

// The browser tests' Chromium, found or installed first (scripts/chromium.mjs): a prerequisite missing is named, with
// the command that installs it, before minutes of other stages.
const browserEnv = {};
if (wanted('e2e')) {
  const chromium = findOrInstallChromium();
  if ('missing' in chromium) {
    console.error(`\n\x1b[31m${chromium.missing}\x1b[0m\n(\`npm test -- --skip e2e\` runs everything else.)`);
    process.exit(1);
  }
  browserEnv.CHROMIUM_HEADLESS_SHELL_PATH = chromium.path;
  console.log(`browser tests on ${chromium.path}`);
}

// Checks, unit tests and the build first, side by side (the build is only for the browser tests, but uses what the
// others leave idle: tsc and ESLint use one core each); then the API tests on each database; then the browser tests.
await together(
  ...[
    wanted('typecheck') && step('typecheck', ['npm', ['run', 'typecheck']]),
    // Both, so one run shows the layout and the lint findings together.
    wanted('lint') && step('lint', ['npm', ['run', 'format:check']], ['npm', ['run', 'lint']]),
    wanted('unit') && vitest('unit', 'unit'),
    wanted('build') && step('build', ['npm', ['run', 'build']]),
  ].filter(Boolean),
);

let postgres;
if (wanted('api-pg')) {
  if (ci || explicitPg || (await reachable(pgUrl))) {
    // Required here: the api project fails (never skips) when the server does not answer.
    postgres = vitest(`api (PostgreSQL ${new URL(pgUrl).host})`, 'api', { TEST_DATABASE_URL: pgUrl });
  } else {
    const notice = `NOT RUN: no PostgreSQL server answers at ${pgUrl}; the API tests ran on PGlite only. Set TEST_DATABASE_URL (or CI=true) to require it.`;
    console.log(`\n\x1b[33m${notice}\x1b[0m`);
    stages.push({ name: 'api (PostgreSQL)', status: 'SKIPPED', detail: `no server at ${new URL(pgUrl).host}` });
  }
}
// The API tests on PGlite alone: they keep the 2 cores busy (beside the PostgreSQL pass they took 307 s, against
// 176 s and 116 s one after the other).
if (wanted('api')) await together(vitest('api (PGlite)', 'api', { TEST_DATABASE_URL: '' }));
// The PostgreSQL pass beside the browser tests: each leaves the cores idle for part of its time (the browser tests a
// quarter of it, waiting on the page, the product and the runner in turn; the PostgreSQL pass while the server
// answers), and each fills the other's gaps.
await together(...[postgres, wanted('e2e') && vitest('e2e (headless Chromium)', 'e2e', browserEnv)].filter(Boolean));
finish(0);
