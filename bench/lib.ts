import { execSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, platform, release, totalmem, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import pg from 'pg';
import { openPglite, openPostgres, type Db } from '../server/db';
import { buildApp } from '../server/app';
import { LoginThrottle } from '../server/auth/throttle';
import type { ResourceBehaviour } from '../server/engine/context';
import { ROOT, type BuildSnapshot } from '../tests/e2e/product';

export { ROOT };

export interface BenchContext {
  /** A private copy of the production build (dist/), built and copied on first access. */
  build: BuildSnapshot;
}

/** One number a benchmark reports. `anchor` is the reference it is compared with (same unit). */
export interface Metric {
  name: string;
  value: number;
  unit: string;
  anchor?: number;
  /** What the anchor is, e.g. "a minimal react-admin app". */
  anchorNote?: string;
  /** A goal, e.g. half the anchor. */
  target?: number;
  note?: string;
}

export interface BenchmarkResult {
  metrics: Metric[];
  /** Raw samples and details, kept in the JSON file. */
  details?: Record<string, unknown>;
}

/**
 * A benchmark: bench/run.ts runs each one (or the ones named on the command line) and records its metrics in
 * bench/results/latest.json under its name. To add one: write bench/<name>.ts exporting a Benchmark and list
 * it in bench/run.ts.
 */
export interface Benchmark {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchmarkResult>;
}

export function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model?.trim() ?? 'unknown',
    cores: cpu.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    free_memory_gb: Math.round((freemem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

/**
 * Says what a benchmark is about to measure on which machine, with a warning when other work shares it (its numbers
 * are then high and noisy), and gives the load average before the run for its details.
 */
export function announceRun(what: string): number {
  const m = machine();
  const load = loadavg()[0];
  console.log(`\n  Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB memory; ${what}`);
  if (load > m.cores / 2)
    console.log(
      `  WARNING: load average ${load.toFixed(1)} on ${m.cores} cores before the run: other work shares this machine, numbers will be high and noisy`,
    );
  return load;
}

export function gitCommit(): string | undefined {
  try {
    return execSync('git rev-parse --short HEAD', {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

export function build() {
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const RESULTS = join(ROOT, 'bench/results/latest.json');

/** Merges this run's results into latest.json: a benchmark not run this time keeps its previous entry. */
export function saveResults(run: {
  machine: ReturnType<typeof machine>;
  commit?: string;
  results: Record<string, BenchmarkResult & { measured_at: string }>;
}) {
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const previous = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  const out = {
    updated_at: new Date().toISOString(),
    machine: run.machine,
    commit: run.commit,
    benchmarks: { ...(previous.benchmarks ?? {}), ...run.results },
  };
  writeFileSync(RESULTS, JSON.stringify(out, null, 2) + '\n');
  return RESULTS;
}

function fmt(v: number, unit: string) {
  if (unit === 'bytes') return `${(v / 1024).toFixed(1)} KB`;
  if (unit === 'ms') return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`;
  if (unit === 'MB') return `${v.toFixed(1)} MB`;
  return `${Math.round(v * 100) / 100} ${unit}`;
}

export function table(results: Record<string, BenchmarkResult>) {
  const rows: string[][] = [['benchmark', 'metric', 'value', 'anchor', 'vs anchor', 'target']];
  for (const [bench, r] of Object.entries(results)) {
    for (const m of r.metrics) {
      rows.push([
        bench,
        m.name,
        fmt(m.value, m.unit),
        m.anchor !== undefined ? fmt(m.anchor, m.unit) : '',
        m.anchor ? `${((m.value / m.anchor) * 100).toFixed(0)} %` : '',
        m.target !== undefined ? `${fmt(m.target, m.unit)} ${m.value <= m.target ? 'met' : 'NOT met'}` : '',
      ]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/**
 * Runs one database benchmark on its own (`npx tsx bench/<name>.ts [--db pglite|postgres]`): one database alone
 * keeps the other database's numbers from the previous run, then prints and saves the results.
 */
export async function runAlone(
  name: string,
  run: (kinds?: ('pglite' | 'postgres')[]) => Promise<BenchmarkResult>,
  labels: Record<'pglite' | 'postgres', string>,
) {
  const i = process.argv.indexOf('--db');
  const only = i > 0 ? process.argv[i + 1] : undefined;
  if (only && only !== 'pglite' && only !== 'postgres') {
    console.error('--db must be pglite or postgres');
    process.exit(2);
  }
  const m = machine();
  const t = performance.now();
  const result = await run(only ? [only as 'pglite' | 'postgres'] : undefined);
  if (only && existsSync(RESULTS)) {
    const previous = JSON.parse(readFileSync(RESULTS, 'utf8')).benchmarks?.[name] as BenchmarkResult | undefined;
    const other = only === 'pglite' ? 'postgres' : 'pglite';
    if (previous) {
      result.metrics = [...result.metrics, ...previous.metrics.filter((x) => x.name.startsWith(`${labels[other]}:`))];
      if (previous.details?.[other] && result.details) result.details[other] = previous.details[other];
    }
  }
  const results = { [name]: { ...result, measured_at: new Date().toISOString() } };
  console.log(`\n${table(results)}\n`);
  const dbs = ['pglite', 'postgres']
    .map((k) => (result.details?.[k] as { database?: string } | undefined)?.database)
    .filter(Boolean);
  console.log(`Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB memory, ${m.os}, Node ${m.node}`);
  if (dbs.length) console.log(`Databases: ${dbs.join('; ')}`);
  console.log(
    `Took ${((performance.now() - t) / 1000).toFixed(0)} s. Results written to ${saveResults({ machine: m, commit: gitCommit(), results })}`,
  );
  process.exit(0);
}

/** Posts a job to a load-generating worker thread and answers its one reply (a reply with `error` rejects). */
export function askWorker<T>(worker: Worker, job: Record<string, unknown>): Promise<T> {
  return new Promise((ok, fail) => {
    const onError = (e: Error) => {
      worker.off('message', onMessage);
      fail(e);
    };
    const onMessage = (m: any) => {
      worker.off('error', onError);
      if (m.error) fail(new Error(m.error));
      else ok(m);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.postMessage(job);
  });
}

// pg_trgm is database-wide: it lives in `public` once, shared by every schema of the database through the search
// path (each benchmark runs in a schema of its own; created inside one, dropping that schema would drop it from
// under the others).
export async function ensureSharedExtensions(admin: pg.Client) {
  await admin.query('select pg_advisory_lock(742001)');
  try {
    const [ext] = (
      await admin.query(
        `select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
      )
    ).rows;
    if (!ext) await admin.query('create extension if not exists pg_trgm schema public');
    else if (ext.nspname !== 'public') await admin.query('alter extension pg_trgm set schema public');
    // btree_gist likewise (the shifts' exclusion constraint against double booking).
    await admin.query('create extension if not exists btree_gist schema public');
  } finally {
    await admin.query('select pg_advisory_unlock(742001)');
  }
}

/** The PostgreSQL server the database benchmarks run on (the tests' server by default). */
export const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A throwaway schema on the PostgreSQL server, dropped by `drop()`. BENCH_KEEP_SCHEMA=1 keeps it (its name is
 * printed), and BENCH_PG_SCHEMA=<name> runs in a kept one instead of a new one (and keeps it): a bench whose seed
 * takes minutes (bench/scale.ts) seeds once and is measured again after a change.
 */
export async function pgSchema() {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await admin.connect();
  const reused = process.env.BENCH_PG_SCHEMA;
  const schema = reused || `bench_${randomBytes(4).toString('hex')}`;
  await ensureSharedExtensions(admin);
  if (!reused) await admin.query(`create schema "${schema}"`);
  const [{ server_version }] = (await admin.query('show server_version')).rows;
  return {
    schema,
    version: `PostgreSQL ${server_version} at ${new URL(PG_URL).host} (schema ${schema}, pool of 10)`,
    async drop() {
      if (reused || process.env.BENCH_KEEP_SCHEMA) console.log(`  [PostgreSQL] schema ${schema} kept`);
      else await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
      await admin.end();
    },
  };
}

type DbRun = { metrics: Metric[]; details: Record<string, unknown>; plans: { query: string; plan: string }[] };

/**
 * Runs one benchmark on each database asked for, a fresh one each (PGlite in memory, a throwaway schema on
 * PostgreSQL), and gathers its metrics; an unreachable PostgreSQL is reported in `details` and skipped.
 */
export async function onEachDatabase(
  kinds: ('pglite' | 'postgres')[],
  labels: Record<'pglite' | 'postgres', string>,
  details: Record<string, unknown>,
  bench: (kind: 'pglite' | 'postgres', db: Db, version: string) => Promise<DbRun>,
): Promise<Metric[]> {
  const metrics: Metric[] = [];
  for (const kind of kinds) {
    let r: DbRun;
    if (kind === 'pglite') {
      const db = await openPglite();
      try {
        const [{ version }] = await db.query<{ version: string }>('select version()');
        const pkg = JSON.parse(
          readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
        ).version;
        r = await bench(kind, db, `PGlite ${pkg} in memory (${version.split(',')[0]})`);
      } finally {
        await db.close();
      }
    } else {
      let s;
      try {
        s = await pgSchema();
      } catch (e) {
        const why = `PostgreSQL at ${PG_URL} is unreachable (${(e as Error).message}); skipped`;
        console.log(`  [PostgreSQL] ${why}`);
        details.postgres = { skipped: why };
        continue;
      }
      // Named after the schema, so backendCpuMs finds this pool's server processes.
      const url = new URL(PG_URL);
      url.searchParams.set('application_name', s.schema);
      const db = await openPostgres(url.toString(), { searchPath: `${s.schema},public`, max: 10 });
      try {
        r = await bench(kind, db, s.version);
      } finally {
        await db.close().catch(() => undefined);
        await s.drop();
      }
    }
    metrics.push(...r.metrics);
    details[kind] = r.details;
    for (const p of r.plans) console.log(`  [${labels[kind]}] plan of ${p.query}:\n${p.plan.replace(/^/gm, '      ')}`);
  }
  return metrics;
}

let clockTicks: number | undefined;
/** CPU time (user + system, ms) of one process, from /proc: Linux only, and only for processes of this machine. */
function processCpuMs(pid: number): number | undefined {
  try {
    clockTicks ??= Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
    // The fields after the command name (which may hold spaces) start at the state, field 3; utime and stime are
    // fields 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (ms) used so far by each PostgreSQL server process serving this pool (those with its application_name,
 * which onEachDatabase sets), when the server runs on this machine; empty otherwise. The difference of two readings
 * is the database's share of the work between them, however busy the machine is.
 */
export async function backendCpuMs(db: Db): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (db.kind !== 'postgres') return out;
  const rows = await db.query<{ pid: number }>(
    `select pid from pg_stat_activity where application_name = current_setting('application_name') and application_name <> ''`,
  );
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    if (ms !== undefined) out.set(pid, ms);
  }
  return out;
}

/** The CPU ms between two backendCpuMs readings (a server process opened in between counts from zero). */
export const backendCpuBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/**
 * The product's app over `db` as the benches drive it in process (no static files, no rate limit in the way) and the
 * request headers of `email` signed in to the agency panel. The caller closes the app.
 */
export async function signedInApp(
  db: Db,
  email: string,
  password: string,
  options: { behaviours?: Record<string, ResourceBehaviour> } = {},
) {
  const app = await buildApp({
    db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
    behaviours: options.behaviours,
  });
  const login = await app.inject({ method: 'POST', url: '/api/admin_login', payload: { email, password } });
  if (login.statusCode !== 200) {
    await app.close();
    throw new Error(`sign-in answered ${login.statusCode}: ${login.body}`);
  }
  return { app, headers: { authorization: `Bearer ${login.json().token as string}` } };
}
