import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

// A real server process (`node --import tsx server/index.ts`) on a test file's PostgreSQL database, called over
// HTTP: for the tests of what two processes share, and of a process killed with SIGKILL.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}
export interface Server {
  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options?: { token?: string; payload?: unknown },
  ): Promise<Answer>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Child {
  process: ChildProcess;
  server: Server;
  output: () => string;
}

/** Starts a server on `url` (with more of the environment, if given) and answers once it listens. */
export async function startProcess(url: string, env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: `${ROOT}/.no-static`,
      TRUST_PROXY: '',
      LOG_LEVEL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Ready when it says so (server/index.ts prints its address once it listens); a process that ends first fails
  // the file with what it printed.
  const ready = new Promise<void>((resolve, reject) => {
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes(' is running at http://')) resolve();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', (code) => reject(new Error(`The server process ended (${code}):\n${output}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const server: Server = {
    async request(method, path, { token, payload } = {}) {
      const res = await fetch(base + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: payload !== undefined ? JSON.stringify(payload) : undefined,
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: text ? JSON.parse(text) : undefined,
      };
    },
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The server process did not start within 90 s:\n${output}`)), 90_000);
  });
  try {
    await Promise.race([ready, late]);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return { process: child, server, output: () => output };
}

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await ended;
  clearTimeout(timer);
}
