#!/usr/bin/env node
// `npm run dev`: the API server (tsx watch, port 8080 unless PORT is set) and Vite with hot reload (which
// proxies /api to it, see vite.config.ts), together. Ctrl-C, or either one exiting, stops both.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const apiPort = process.env.PORT || '8080';

const children = [
  [
    'api',
    bin('tsx'),
    ['watch', '--clear-screen=false', 'server/index.ts'],
    { PORT: apiPort, STATIC_DIR: join(root, 'no-static-in-dev') },
  ],
  ['vite', bin('vite'), [], { API_PORT: apiPort }],
].map(([name, cmd, args, env]) => {
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
    detached: process.platform !== 'win32',
  });
  child.on('exit', (code, signal) => {
    console.log(`[dev] ${name} exited (${signal ?? code}); stopping the rest`);
    stop(code ?? 1);
  });
  return child;
});

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    // Each child leads its own process group: this also ends what it started (tsx's watched node, esbuild).
    try {
      process.kill(-c.pid, 'SIGTERM');
    } catch {
      c.kill('SIGTERM');
    }
  }
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(
    children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r)))),
  ).then(() => process.exit(code));
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stop(0));
process.on('exit', () => {
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null)
      try {
        process.kill(-c.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
});
