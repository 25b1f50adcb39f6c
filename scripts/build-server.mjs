#!/usr/bin/env node
// `npm run build:server`: the server, its command line and the XLSX writer's worker thread as bundles in dist/server,
// for Node 24.
// Packages stay outside the bundles (node_modules is there at run time, and some hold files of their own such as
// PGlite's WebAssembly), as esbuild's --packages=external leaves them, with two exceptions: date-fns and typebox.
// Their ES modules are hundreds of small files (date-fns: every parser, formatter and locale part of `parse` and
// `format`; typebox: one per kind of schema), and loading them one by one was about 400 ms (date-fns) and 40 ms
// (typebox) of CPU of every server start; bundled, what the server uses costs a few.
//
// dist/server/index.mjs, what `npm start` runs, only turns on Node's compile cache and then loads the server's bundle
// (server.mjs): a start then reads the code it compiled last time (the bundle, fastify, PGlite's JavaScript) instead
// of compiling it again, about 80 ms less CPU before the first answer. It has to come first, as what a module imports
// is loaded before the module itself runs. The cache is Node's own (in the system's temporary directory), keyed by
// each file's content, so a new build is compiled afresh.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const BUNDLED = /^(date-fns|typebox)(\/|$)/;

await build({
  entryPoints: [
    { in: 'server/index.ts', out: 'server' },
    { in: 'server/cli.ts', out: 'cli' },
    // A worker thread's script (server/exports/routes.ts starts it by this name, beside the server's bundle).
    { in: 'server/exports/xlsxWorker.ts', out: 'xlsxWorker' },
  ],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  outdir: 'dist/server',
  outExtension: { '.js': '.mjs' },
  logLevel: 'info',
  plugins: [
    {
      name: 'packages-external-but-date-fns-and-typebox',
      setup(b) {
        // A bare specifier (not ./, ../ or /) names a package or a Node built-in.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

writeFileSync(
  'dist/server/index.mjs',
  `// The server, with Node's compile cache on (see scripts/build-server.mjs).
import { enableCompileCache } from 'node:module';
enableCompileCache();
await import('./server.mjs');
`,
);
