import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import JsdomFilesFirst from './tests/sequencer';

// Three projects, one per kind of test (see scripts/test.mjs for the order `npm test` runs them in):
//   unit — jsdom, React and the providers against msw handlers that reproduce the API contract;
//   api  — node, the Fastify app over app.inject against a real database (PGlite, or PostgreSQL when
//          TEST_DATABASE_URL is set);
//   e2e  — node, the built product started as a process and driven by headless Chromium.
export default defineConfig({
  test: {
    sequence: { sequencer: JsdomFilesFirst },
    projects: [
      {
        plugins: [react()],
        // One router module for the screens, the tests and react-admin (which imports react-router-dom): under Node,
        // 'react-router' and react-router-dom's own import of it can load two copies, each with its router context,
        // and a link of one under the other's router fails ("Cannot destructure property 'basename'"). Files that
        // mocked it one by one still failed when a worker had loaded the screens unmocked for an earlier file
        // (`isolate: false`).
        resolve: { alias: [{ find: /^react-router$/, replacement: 'react-router-dom' }] },
        test: {
          name: 'unit',
          environment: 'jsdom',
          // Vitest's default is one worker fewer than the cores: on 2 cores, one.
          maxWorkers: 2,
          // A worker's files share one module graph (React, MUI, react-admin load once per worker, not per file): the
          // stage went from 136 s to 86 s. What the providers keep between calls is forgotten after each test
          // (tests/unit/setup.ts).
          isolate: false,
          // A watchdog, not a measure: a screen's wait (asyncUtilTimeout, 10 s in tests/unit/setup.ts) must run out
          // before the test does. Vitest's default 5 s failed two screens' tests at load 25 on the 2 cores.
          testTimeout: 30_000,
          globals: true,
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          environmentOptions: { jsdom: { url: 'http://localhost:3000/' } },
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          globals: true,
          include: ['tests/api/**/*.test.ts'],
          // A server process killed with SIGKILL needs a database outside it: on PGlite, which lives inside the
          // process, invoice-runs.test.ts and pay-run-jobs.test.ts kill the worker's connection instead.
          exclude: process.env.TEST_DATABASE_URL
            ? []
            : ['tests/api/invoice-runs-kill.test.ts', 'tests/api/pay-run-kill.test.ts'],
          // Makes the run's databases once; each file gets a copy (tests/api/databases.ts).
          globalSetup: ['tests/api/global-setup.ts'],
          // Cheap password hashes in tests (tests/api/setup.ts).
          setupFiles: ['tests/api/setup.ts'],
          // Two files at a time: each has its own database (and, on PostgreSQL, the server does half the work), so
          // the suite takes about 60% of the time of one file at a time on a 2-core machine.
          maxWorkers: 2,
          // A worker runs its files one after another in one module graph instead of loading the server's modules
          // afresh for each of them: about 40% less CPU. Each file still has its own database and app; the module
          // caches keyed by agency id are emptied for each file (tests/api/setup.ts).
          isolate: false,
          testTimeout: 30_000,
          // The first file to need a database content migrates and seeds it for the others: about 20 s on a quiet
          // machine, but seen at 160 s (migrations 57 s, the demo 106 s) with the two cores shared twenty ways.
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          globals: true,
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Three files at a time, each on a product of its own (tests/e2e/harness.ts): a browser test mostly waits
          // (the page, the product and the runner for one another), so on 2 cores two files at a time still left them
          // idle a quarter of the time; three at a time, a tenth (the stage 242 s against 298 s, the same CPU).
          maxWorkers: 3,
          // A worker loads Playwright and the helpers once for its files instead of once per file (each file still
          // starts its own product): 18% less of the runner's CPU. It also keeps its Chromium (tests/e2e/harness.ts).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // One more try for a browser test that fails. Beside the PostgreSQL pass, the 2 cores run three products,
          // three browsers and the runners at load 10–25; two clean-clone runs in a row each lost one different test
          // (of 152) to a wait that a quiet machine never reaches, and either loss kept a whole day's work from
          // landing. A second try is not a pass in silence: `npm test` names every test that needed it, with its
          // first failure, under the summary (scripts/test.mjs), and those are mended as found.
          retry: 1,
          // A screen settles within the locators' own wait (15 s), not vitest's default second: a poll waits as long.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
