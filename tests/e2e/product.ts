import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPlanHere } from '../../scripts/chromium.mjs';

/**
 * The product as a user gets it: the production build (`npm run build`) started with
 * `node dist/server/index.mjs`. Used by the browser tests (tests/e2e) and the benchmarks (bench/); free of
 * vitest so plain `tsx` can load it.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const SERVER_ENTRY = join(ROOT, 'dist/server/index.mjs');
/** Node's flags for the server, as `npm start` gives them (package.json; README, "Why each dependency"). */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
export const CLIENT_INDEX = join(ROOT, 'dist/client/index.html');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
/**
 * For the browser tests' servers: cheap password hashes (Argon2id with 256 KiB, as in the API tests). The tests sign in
 * over a hundred times, at about 0.1 s of a core each at production cost, and the cost is not what they check. The
 * benchmarks keep the production cost. Honoured only under Vitest (server/index.ts).
 */
export const TEST_SERVER_ENV = { PASSWORD_COST_FOR_TESTS: '256' };

/** The browser the benchmarks time: Debian's Chromium, the browser as users run it. */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/**
 * The browser the tests drive: Debian's chromium-headless-shell, the same Chromium (Blink and V8 of the same release)
 * without the desktop browser around it, as Playwright itself uses for headless runs. The same browser tests took
 * about a quarter less CPU on it than on the full browser in headless mode (docs/decisions.md). `npm test` installs it
 * when it can and passes its path in CHROMIUM_HEADLESS_SHELL_PATH (scripts/chromium.mjs); a browser test started on
 * its own uses the shell, else the full chromium, else fails naming the command that installs the shell.
 */
export function headlessShellPath(): string {
  const plan = chromiumPlanHere(process.env, { mayInstall: false });
  if ('use' in plan) return plan.use;
  throw new Error('missing' in plan ? plan.missing : 'no Chromium');
}

/** Builds the product when no build exists (scripts/test.mjs always builds before the e2e project). */
export function ensureBuilt() {
  if (existsSync(SERVER_ENTRY) && existsSync(CLIENT_INDEX)) return;
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export interface BuildSnapshot {
  serverEntry: string;
  staticDir: string;
  dispose(): void;
}

/**
 * A private copy of dist/ for one test run or benchmark, so a rebuild of dist/ while it runs (another
 * `npm run build` in the same tree) cannot swap the files under the running server. Kept inside the
 * repository (tests/e2e/.build-*) so the server bundle still resolves its packages from node_modules.
 */
export function snapshotBuild(): BuildSnapshot {
  ensureBuilt();
  const base = join(ROOT, 'tests/e2e');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, '.build-'));
  writeFileSync(join(dir, '.gitignore'), '*\n');
  cpSync(join(ROOT, 'dist/server'), join(dir, 'server'), { recursive: true });
  cpSync(join(ROOT, 'dist/client'), join(dir, 'client'), { recursive: true });
  return {
    serverEntry: join(dir, 'server/index.mjs'),
    staticDir: join(dir, 'client'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.unref();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output(): string;
  /** Milliseconds from spawn to the first 200 from /api/health. */
  readyMs: number;
  /**
   * Ends the process (SIGTERM: a clean shutdown, as an operator's; SIGKILL: at once, for a product whose data is thrown
   * away) and removes a data directory it made.
   */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

const products = new Set<ChildProcess>();
/** The products this process started that have not exited yet. */
export const runningProducts = (): readonly ChildProcess[] => [...products];
// Whatever ends this process (a failed hook, an uncaught error, the runner ending its worker), the products it
// started end with it: a product left running holds a port and a core's share for nothing. (scripts/test.mjs also
// ends each stage's whole process group, for a worker that is killed outright.)
const endProducts = () => {
  for (const child of products) child.kill('SIGKILL');
};
process.on('exit', endProducts);
// Vitest stops its workers with SIGTERM, which ends a process without its 'exit' event.
process.once('SIGTERM', () => {
  endProducts();
  process.exit(143);
});

/** Polls GET {url}/api/health until it answers 200; fails early if the process exits. */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, pollMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`server exited with code ${exited} before answering /api/health`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`server did not answer /api/health within ${timeoutMs} ms`);
}

/** Starts `node dist/server/index.mjs` on a free port (or `port`) with its own data directory. */
export async function startServer(
  options: {
    dataDir?: string;
    /** A stopped server's data directory to start from a copy of (instead of a brand-new database and its demo). */
    template?: string;
    port?: number;
    env?: Record<string, string>;
    timeoutMs?: number;
    build?: Pick<BuildSnapshot, 'serverEntry' | 'staticDir'>;
  } = {},
): Promise<RunningServer> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'staffing-e2e-'));
  if (options.template) cpSync(options.template, dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, options.build?.serverEntry ?? SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      STATIC_DIR: options.build?.staticDir ?? join(ROOT, 'dist/client'),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  products.add(child);
  child.once('exit', () => products.delete(child));
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    }
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, options.timeoutMs ?? 120_000);
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}\n--- server output ---\n${out}`);
  }
  return { url, port, dataDir, process: child, output: () => out, readyMs: performance.now() - started, stop };
}

export async function launchBrowser(executablePath = chromiumPath()): Promise<Browser> {
  if (!existsSync(executablePath))
    throw new Error(
      `Chromium not found at ${executablePath}: install Debian's with \`apt-get install -y chromium\` (as root), or ` +
        'set CHROMIUM_PATH',
    );
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A browser test file's product and browser, started side by side. If either fails to start, the other is stopped
 * before the error is passed on: a file whose browser cannot start leaves no product running (issue 30 point 9).
 * `launch` may hand back a browser already running (the worker's, tests/e2e/harness.ts).
 */
export async function startProductAndBrowser(
  serverOptions: Parameters<typeof startServer>[0],
  browserPath: () => string = headlessShellPath,
  launch: (executablePath: string) => Promise<Browser> = launchBrowser,
): Promise<{ server: RunningServer; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([
    startServer(serverOptions),
    (async () => launch(browserPath()))(),
  ]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled')
    return { server: server.value, browser: browser.value };
  await Promise.all([
    server.status === 'fulfilled' && server.value.stop('SIGKILL'),
    browser.status === 'fulfilled' && browser.value.close(),
  ]);
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}
