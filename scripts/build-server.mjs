#!/usr/bin/env node
// `npm run build:server`: the server and its command line as two bundles in dist/server, for Node 24.
// Packages stay outside the bundles (node_modules is there at run time, and some hold files of their own such as
// PGlite's WebAssembly), as esbuild's --packages=external leaves them, with one exception: date-fns. Its ES modules
// are hundreds of small files (every parser, formatter and locale part of `parse` and `format`), and loading them
// one by one was about 400 ms of CPU of every server start; the few functions the server uses, bundled, cost a few.
import { build } from 'esbuild';

const BUNDLED = /^date-fns(\/|$)/;

await build({
  entryPoints: ['server/index.ts', 'server/cli.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  outdir: 'dist/server',
  outExtension: { '.js': '.mjs' },
  logLevel: 'info',
  plugins: [
    {
      name: 'packages-external-but-date-fns',
      setup(b) {
        // A bare specifier (not ./, ../ or /) names a package or a Node built-in.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
