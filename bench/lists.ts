import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
// The routes below hide themselves from the API docs with @fastify/swagger's `hide`.
import type {} from '@fastify/swagger';
import { buildApp } from '../server/app';
import { openPglite, openPostgres, type Db } from '../server/db';
import { migrate } from '../server/db/migrate';
import { createAgency, seedDemo } from '../server/seed/index';
import { areas } from '../server/areas/index';
import { registryOf } from '../server/areas/registry';
import { LoginThrottle } from '../server/auth/throttle';
import { agencyZone } from '../server/engine/routes';
import { agencyToday } from '../core/domain/time/agencyTime';
import { DUE_WITHIN_DAYS } from '../core/domain/compliance/documents';
import {
  askWorker,
  ensureSharedExtensions,
  announceRun,
  ROOT,
  runAlone,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';

/**
 * List and search speed on a large agency (issue 3, "Performance").
 *
 * For each database (PGlite in memory, and PostgreSQL in a throwaway schema `bench_<random>` when reachable):
 *  - seeds the demo agencies (seedDemo) and one more agency with CANDIDATES staff, generated in SQL;
 *  - starts the real app (buildApp, listening on 127.0.0.1) and signs in as that agency's admin;
 *  - measures p50/p99 latency of sequential requests: a filtered, sorted list page, a `q` search list page,
 *    and GET /api/search_candidate with varied 3-letter fragments;
 *  - measures throughput (10 connections) of the generic list endpoint beside /bench/bare, a route on the same
 *    app that runs the same page and count SQL with no engine, auth or scoping (merchant hard-coded), and
 *    /bench/bare-page, the page SQL alone (what the engine would cost without its count);
 *  - prints EXPLAIN ANALYZE of the SQL the engine actually ran (captured) and whether an index serves it.
 *
 * The load is generated from a worker thread (its own event loop, so it does not share the server's), over
 * loopback only, bounded in count and in time.
 *
 * `npm run bench -- lists`, or alone: `npx tsx bench/lists.ts [--db pglite|postgres]`.
 * Knobs: BENCH_CANDIDATES (100000), BENCH_LATENCY_REQUESTS (300), BENCH_THROUGHPUT_MS (3000 per round).
 */

const CANDIDATES = Number(process.env.BENCH_CANDIDATES || 100_000);
const LATENCY_REQUESTS = Number(process.env.BENCH_LATENCY_REQUESTS || 300);
const WARMUP = 50;
const CONCURRENCY = 10;
const THROUGHPUT_MS = Number(process.env.BENCH_THROUGHPUT_MS || 3000);
const THROUGHPUT_MAX = 200_000;
const ROUNDS = 3; // engine and bare alternate, ROUNDS times each, to even out drift
const PER_PAGE = 25;
const PAGES = 20; // the list pages people browse: 1..PAGES of the active list (about 60,000 rows, 2,400 pages)
const DEEP_PAGES = [100, 2000] as const; // deep pages, measured apart: OFFSET pagination reads every skipped row
const DEEP_REQUESTS = 100;
const ANCHOR_RPS = { pglite: 2000, postgres: 6700 } as const;
const RATIO_GOAL = 0.75;
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const BENCH_EMAIL = 'bench-admin@bench.test';
export const BENCH_PASSWORD = 'bench-password-1';

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

// ---------------------------------------------------------------------------------------------- seeding

const FIRST = [
  'Olivia',
  'Amelia',
  'Isla',
  'Ava',
  'Mia',
  'Grace',
  'Lily',
  'Sophie',
  'Emily',
  'Chloe',
  'Ella',
  'Freya',
  'Poppy',
  'Evie',
  'Ivy',
  'Florence',
  'Rosie',
  'Willow',
  'Daisy',
  'Phoebe',
  'Sienna',
  'Matilda',
  'Harper',
  'Ruby',
  'Elsie',
  'Jack',
  'Oliver',
  'Harry',
  'George',
  'Noah',
  'Leo',
  'Oscar',
  'Charlie',
  'Thomas',
  'James',
  'Arthur',
  'Henry',
  'Theo',
  'Alfie',
  'Jacob',
  'Freddie',
  'Archie',
  'Joshua',
  'William',
  'Lucas',
  'Edward',
  'Max',
  'Ethan',
  'Isaac',
  'Adam',
  'Priya',
  'Aisha',
  'Fatima',
  'Zainab',
  'Maryam',
  'Anika',
  'Deepa',
  'Sunita',
  'Ravi',
  'Arjun',
  'Mohammed',
  'Yusuf',
  'Omar',
  'Hassan',
  'Kwame',
  'Kofi',
  'Ama',
  'Chidi',
  'Ngozi',
  'Emeka',
  'Tunde',
  'Folake',
  'Blessing',
  'Precious',
  'Maria',
  'Joanna',
  'Agnieszka',
  'Tomasz',
  'Piotr',
  'Katarzyna',
  'Andrei',
  'Ioana',
  'Elena',
  'Mihai',
  'Cristina',
  'Samuel',
  'Daniel',
  'Ruth',
  'Hannah',
  'Rebecca',
  'Sarah',
  'Rachel',
  'David',
  'Michael',
  'Paul',
  'Mark',
  'Susan',
  'Karen',
  'Linda',
  'Margaret',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Hughes',
  'Edwards',
  'Turner',
  'Hill',
  'Moore',
  'Cooper',
  'Ward',
  'Morris',
  'King',
  'Watson',
  'Harrison',
  'Morgan',
  'Baker',
  'Young',
  'Allen',
  'Mitchell',
  'Anderson',
  'Lee',
  'Martin',
  'Bell',
  'Parker',
  'Price',
  'Bennett',
  'Griffiths',
  'Shaw',
  'Lloyd',
  'Fisher',
  'Marshall',
  'Kelly',
  'Murphy',
  'Sullivan',
  'Byrne',
  'Doyle',
  'Gallagher',
  'Campbell',
  'Stewart',
  'MacDonald',
  'Fraser',
  'Reid',
  'Patel',
  'Shah',
  'Khan',
  'Ahmed',
  'Ali',
  'Hussain',
  'Begum',
  'Iqbal',
  'Singh',
  'Kaur',
  'Sharma',
  'Gupta',
  'Chowdhury',
  'Rahman',
  'Okafor',
  'Okonkwo',
  'Adeyemi',
  'Mensah',
  'Boateng',
  'Owusu',
  'Asante',
  'Nwosu',
  'Eze',
  'Adebayo',
  'Nowak',
  'Kowalski',
  'Wisniewski',
  'Wojcik',
  'Kaminski',
  'Lewandowski',
  'Popescu',
  'Ionescu',
  'Constantin',
  'Stan',
  'Dumitru',
  'Silva',
  'Santos',
  'Pereira',
  'Ferreira',
  'Costa',
  'Oliveira',
  'Nguyen',
  'Tran',
  'Chen',
  'Wang',
  'Li',
  'Zhang',
  'Kim',
  'Park',
  'Cohen',
  'Levy',
  'Russo',
  'Romano',
  'Rossi',
  'Bianchi',
  'Novak',
  'Horvat',
  'Kovacs',
  'Nagy',
  'Szabo',
  'Petrov',
  'Ivanova',
  'Jensen',
  'Hansen',
  'Larsen',
  'Olsen',
  'Berg',
  'Fischer',
  'Weber',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Dubois',
  'Moreau',
  'Laurent',
  'Garcia',
  'Martinez',
  'Lopez',
  'Gonzalez',
  'Rodriguez',
  'Hernandez',
  'Fernandez',
  'Ramirez',
  "O'Brien",
  "O'Connor",
  'Ashworth',
  'Blackwood',
  'Fairbairn',
  'Pemberton',
  'Whitfield',
  'Thornton',
  'Holloway',
];
const TOWNS = [
  'Leeds',
  'Manchester',
  'Sheffield',
  'Bradford',
  'York',
  'Harrogate',
  'Wakefield',
  'Huddersfield',
  'Halifax',
  'Doncaster',
];

const sqlArray = (xs: string[]) => `(array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ')}]::text[])`;

/** The demo agencies (a few staff each), then one agency with `n` staff generated in one INSERT ... SELECT. */
export async function seed(db: Db, n: number): Promise<{ merchantId: number; seconds: number }> {
  const t = performance.now();
  await migrate(db);
  await seedDemo(db, registryOf(areas), { candidates: 40 });
  const merchantId = await db.transaction(async (tx) => {
    const { merchantId } = await createAgency(tx, {
      companyName: 'Bench Staffing (100k)',
      adminName: 'Bench Admin',
      email: BENCH_EMAIL,
      password: BENCH_PASSWORD,
    });
    const roles = [
      'Healthcare Assistant',
      'Registered Nurse',
      'Senior Carer',
      'Support Worker',
      'Registered Mental Health Nurse',
      'Domestic Assistant',
      'Kitchen Assistant',
      'Chef',
    ];
    const roleIds = (
      await tx.query<{ id: number }>(
        `insert into job_roles (merchant_id, name, code, default_pay_rate, default_charge_rate)
       select $1, r, upper(left(r, 3)), 1200 + 100 * i, 1700 + 150 * i from unnest($2::text[]) with ordinality as x(r, i) returning id`,
        [merchantId, roles],
      )
    ).map((r) => r.id);
    await tx.query('select setseed(0.20261122)');
    // Status mix as in the demo: about 60% active, 10% inactive, 20% pending, 10% rejected. Registered over
    // the last five years; a few soft-deleted (they must not show).
    await tx.query(
      `insert into candidates (merchant_id, first_name, last_name, email, phone, date_of_birth, address, job_role_id, status, activated, custom_fields, created_at, updated_at, deleted_at)
       select $1, f, l,
              lower(replace(f || '.' || l, '''', '')) || '.' || i || '@bench.example',
              '07' || (700 + floor(random() * 300))::int || ' ' || (100000 + floor(random() * 900000))::int,
              date '1965-01-01' + floor(random() * 14600)::int,
              jsonb_build_object('line1', (1 + floor(random() * 180))::int || ' High Street', 'city', ($3::text[])[1 + floor(random() * ${TOWNS.length})::int], 'country', 'United Kingdom'),
              ($4::int[])[1 + floor(random() * ${roleIds.length})::int],
              case when roll < 0.7 then 'approved' when roll < 0.9 then 'pending' else 'rejected' end,
              roll < 0.6,
              jsonb_build_object('driver', random() < 0.4),
              created, created,
              case when random() < 0.005 then created + interval '30 days' end
         from (select i, ${sqlArray(FIRST)}[1 + floor(random() * ${FIRST.length})::int] as f,
                      ${sqlArray(LAST)}[1 + floor(random() * ${LAST.length})::int] as l,
                      random() as roll,
                      now() - random() * interval '1826 days' as created
                 from generate_series(1, $2::int) as i) as g`,
      [merchantId, n, TOWNS, roleIds],
    );
    return merchantId;
  });
  // What a production database has after autovacuum: statistics and a visibility map.
  await db.query('vacuum analyze candidates');
  return { merchantId, seconds: (performance.now() - t) / 1000 };
}

// -------------------------------------------------------------------------------------- load generation

/** Runs in a worker thread: sequential requests (latency) or CONCURRENCY connections (throughput). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { Pool } = require(workerData.undici);
const pools = new Map();
const pool = (origin) => { if (!pools.has(origin)) pools.set(origin, new Pool(origin, { connections: workerData.concurrency, pipelining: 1 })); return pools.get(origin); };
async function one(origin, path, headers) {
  const t = performance.now();
  const res = await pool(origin).request({ method: 'GET', path, headers });
  const body = await res.body.text();
  return { ms: performance.now() - t, status: res.statusCode, bytes: body.length };
}
parentPort.on('message', async (job) => {
  try {
    const { origin, paths, headers } = job;
    const statuses = {};
    let bytes = 0;
    if (job.mode === 'latency') {
      for (let i = 0; i < job.warmup; i++) await one(origin, paths[i % paths.length], headers);
      const ms = [];
      for (let i = 0; i < job.count; i++) {
        const r = await one(origin, paths[(i + job.warmup) % paths.length], headers);
        ms.push(r.ms); statuses[r.status] = (statuses[r.status] || 0) + 1; bytes += r.bytes;
      }
      parentPort.postMessage({ ms, statuses, bytes });
    } else {
      let next = 0, done = 0;
      const t0 = performance.now();
      const deadline = t0 + job.maxMs;
      const loop = async () => {
        while (next < job.maxCount && performance.now() < deadline) {
          const r = await one(origin, paths[next++ % paths.length], headers);
          done++; statuses[r.status] = (statuses[r.status] || 0) + 1; bytes += r.bytes;
        }
      };
      await Promise.all(Array.from({ length: job.concurrency }, loop));
      const seconds = (performance.now() - t0) / 1000;
      parentPort.postMessage({ done, seconds, rps: done / seconds, statuses, bytes });
    }
  } catch (e) { parentPort.postMessage({ error: String(e && e.stack || e) }); }
});
`;

class LoadGen {
  private worker = new Worker(WORKER, {
    eval: true,
    workerData: { undici: createRequire(import.meta.url).resolve('undici'), concurrency: CONCURRENCY },
  });
  private run<T>(job: Record<string, unknown>): Promise<T> {
    return askWorker<T>(this.worker, job);
  }
  latency(origin: string, paths: string[], headers: Record<string, string>, count: number) {
    return this.run<{ ms: number[]; statuses: Record<string, number>; bytes: number }>({
      mode: 'latency',
      origin,
      paths,
      headers,
      warmup: Math.min(WARMUP, count),
      count,
    });
  }
  throughput(origin: string, paths: string[], headers: Record<string, string>) {
    return this.run<{ done: number; seconds: number; rps: number; statuses: Record<string, number>; bytes: number }>({
      mode: 'throughput',
      origin,
      paths,
      headers,
      concurrency: CONCURRENCY,
      maxMs: THROUGHPUT_MS,
      maxCount: THROUGHPUT_MAX,
    });
  }
  close() {
    return this.worker.terminate();
  }
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const onlyOk = (what: string, statuses: Record<string, number>, ok: (s: number) => boolean = (s) => s === 200) => {
  const bad = Object.entries(statuses).filter(([s]) => !ok(Number(s)));
  if (bad.length) throw new Error(`${what}: unexpected answers ${JSON.stringify(statuses)}`);
};

// ------------------------------------------------------------------------------------------- the bench

// The page and count SQL the engine runs for the active list sorted by last name, written out by hand: the same
// text and parameters (agency, status, activated, then today for the computed compliance column), so the two
// routes differ only by what the engine does around the SQL.
const BARE_COLUMNS =
  '"id", "first_name", "last_name", "email", "phone", "date_of_birth", "address", "job_role_id", "employment_type_id", "staff_status_id", "staff_profile_ids", "ni_number", "start_date", "status", "activated", "notes", "compliance_complete", "compliance_valid_until", "custom_fields", "created_at", "updated_at", "version"';
const BARE_COMPLIANCE = `(case when not compliance_complete then 'not_compliant'
    when compliance_valid_until is null or compliance_valid_until > $4::date + ${DUE_WITHIN_DAYS} then 'compliant'
    when compliance_valid_until >= $4::date then 'expiring' else 'not_compliant' end) as "compliance"`;

function bareRoutes(app: FastifyInstance, merchantId: number) {
  const where = 'merchant_id = $1 and deleted_at is null and "status" = $2 and "activated" = $3';
  const page = (q: Record<string, string>) => Math.max(1, Number(q.page) || 1);
  const pageSql = (p: number) =>
    `select ${BARE_COLUMNS}, ${BARE_COMPLIANCE} from "candidates" where ${where} order by lower("last_name") asc, id asc limit ${PER_PAGE} offset ${(p - 1) * PER_PAGE}`;
  const today = async () => agencyToday(await agencyZone(app.db, merchantId));
  app.get('/bench/bare', { config: { access: 'public' }, schema: { hide: true } }, async (req) => {
    const p = page(req.query as Record<string, string>);
    const data = await app.db.query(pageSql(p), [merchantId, 'approved', true, await today()]);
    const [{ n }] = await app.db.query<{ n: number }>(`select count(*)::int as n from "candidates" where ${where}`, [
      merchantId,
      'approved',
      true,
    ]);
    return { data, total_count: n, total_pages: Math.ceil(n / PER_PAGE), current_page: p, per_page: PER_PAGE };
  });
  app.get('/bench/bare-page', { config: { access: 'public' }, schema: { hide: true } }, async (req) => {
    const p = page(req.query as Record<string, string>);
    const data = await app.db.query(pageSql(p), [merchantId, 'approved', true, await today()]);
    return { data, current_page: p, per_page: PER_PAGE };
  });
}

/** Wraps the database so the bench can see the SQL a request runs (for EXPLAIN and to count queries). */
export function capturing(db: Db) {
  let log: { sql: string; params?: unknown[] }[] | null = null;
  const wrapped: Db = {
    ...db,
    query: (sql, params, options) => (log?.push({ sql, params }), db.query(sql, params, options)),
  };
  return {
    db: wrapped,
    async capture(fn: () => Promise<unknown>) {
      log = [];
      try {
        await fn();
        return log;
      } finally {
        log = null;
      }
    },
  };
}

/** Deterministic 3-letter fragments of the names in the data, a few of them matching nobody. */
function fragments(count: number): string[] {
  let s = 7;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const out: string[] = [];
  const names = [...FIRST, ...LAST].map((x) => x.toLowerCase().replace(/[^a-z]/g, '')).filter((x) => x.length >= 3);
  while (out.length < count) {
    if (out.length % 20 === 19) out.push(['qzx', 'xjv', 'zzq'][out.length % 3]);
    const name = names[Math.floor(rnd() * names.length)];
    const at = Math.floor(rnd() * (name.length - 2));
    out.push(name.slice(at, at + 3));
  }
  return out;
}

export interface PlanReport {
  query: string;
  sql: string;
  uses_index: boolean;
  nodes: string[];
  execution_ms?: number;
  plan: string;
}

export async function explain(db: Db, query: string, sql: string, params: unknown[] | undefined): Promise<PlanReport> {
  const rows = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off) ${sql}`, params);
  const lines = rows.map((r) => r['QUERY PLAN']);
  const plan = lines.join('\n');
  const nodes = [
    ...new Set(
      lines
        .map(
          (l) =>
            /(?:->\s*)?((?:Parallel )?(?:Index Only Scan|Index Scan|Bitmap Index Scan|Bitmap Heap Scan|Seq Scan)(?: Backward)?(?: using| on)? \S+)/.exec(
              l,
            )?.[1],
        )
        .filter(Boolean) as string[],
    ),
  ];
  const execution = /Execution Time: ([\d.]+) ms/.exec(plan);
  return {
    query,
    sql: sql.replace(/\s+/g, ' '),
    uses_index: /Index Scan|Index Only Scan|Bitmap Index Scan/.test(plan) && !/Seq Scan on candidates/.test(plan),
    nodes,
    execution_ms: execution ? Number(execution[1]) : undefined,
    plan,
  };
}

interface DbRun {
  kind: Kind;
  database: string;
  metrics: Metric[];
  details: Record<string, unknown>;
  plans: PlanReport[];
}

async function benchOne(kind: Kind, raw: Db, version: string): Promise<DbRun> {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const { merchantId, seconds: seedSeconds } = await seed(raw, CANDIDATES);
  const [{ total, live, active }] = await raw.query<{ total: number; live: number; active: number }>(
    `select count(*)::int as total, count(*) filter (where deleted_at is null)::int as live,
            count(*) filter (where deleted_at is null and status = 'approved' and activated)::int as active
       from candidates where merchant_id = $1`,
    [merchantId],
  );
  log(
    `seeded ${total} candidates in the bench agency (${live} not deleted, ${active} active) and the demo agencies in ${seedSeconds.toFixed(1)} s`,
  );

  const cap = capturing(raw);
  // The load generator is one session making thousands of requests a minute: far above the per-session limit,
  // which stays in the measured path at a height it never reaches.
  const app = await buildApp({
    db: cap.db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
  });
  bareRoutes(app, merchantId);
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const gen = new LoadGen();
  try {
    const login = await fetch(`${origin}/api/admin_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
    const headers = { authorization: `Bearer ${(await login.json()).token}` };

    // Deterministic, varied pages and fragments.
    let s = 11;
    const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const pages = Array.from({ length: 1000 }, () => 1 + Math.floor(rnd() * PAGES));
    const frags = fragments(400);
    const listPath = (p: number) =>
      `/api/candidates?page=${p}&per_page=${PER_PAGE}&status_value=approved&activated_value=true&sort=last_name&order=asc`;
    const listPaths = pages.map(listPath);
    const deepPaths = pages.map(() =>
      listPath(DEEP_PAGES[0] + Math.floor(rnd() * (DEEP_PAGES[1] - DEEP_PAGES[0] + 1))),
    );
    const barePaths = pages.map((p) => `/bench/bare?page=${p}`);
    const barePagePaths = pages.map((p) => `/bench/bare-page?page=${p}`);
    const qPaths = frags.map((f, i) => `/api/candidates?page=${1 + (i % 3)}&per_page=${PER_PAGE}&q=${f}`);
    const searchPaths = frags.map((f) => `/api/search_candidate?candidate_query=${f}`);

    // The SQL of the first list request (page and count; later requests with the same filter reuse the count,
    // which the engine caches until the next write).
    const onCandidates = (qs: { sql: string; params?: unknown[] }[]) =>
      qs.filter((q) => /from "?candidates"? /.test(q.sql));
    const listSql = onCandidates(
      await cap.capture(() => fetch(`${origin}${listPath(PAGES)}`, { headers }).then((r) => r.text())),
    );
    // The engine and the bare route must answer the same rows, or the comparison means nothing.
    for (const p of [1, 7, PAGES, DEEP_PAGES[1]]) {
      const [a, b] = await Promise.all([
        fetch(`${origin}${listPaths[0].replace(/page=\d+/, `page=${p}`)}`, { headers }).then((r) => r.json()),
        fetch(`${origin}/bench/bare?page=${p}`).then((r) => r.json()),
      ]);
      if (JSON.stringify(a.data) !== JSON.stringify(b.data) || a.total_count !== b.total_count)
        throw new Error(`engine and bare route disagree on page ${p}`);
      if (a.data.length !== PER_PAGE) throw new Error(`page ${p} has ${a.data.length} rows`);
    }

    // The SQL each request runs (captured), for EXPLAIN and to show there is no N+1.
    const deepSql = await cap.capture(() =>
      fetch(`${origin}${listPath(DEEP_PAGES[1])}`, { headers }).then((r) => r.text()),
    );
    const qSql = await cap.capture(() =>
      fetch(`${origin}/api/candidates?page=1&per_page=${PER_PAGE}&q=son`, { headers }).then((r) => r.text()),
    );
    const searchSql = await cap.capture(() =>
      fetch(`${origin}/api/search_candidate?candidate_query=son`, { headers }).then((r) => r.text()),
    );
    const plans = [
      await explain(raw, `list page ${PAGES} (active, sort last_name)`, listSql[0].sql, listSql[0].params),
      await explain(raw, `list page ${DEEP_PAGES[1]} (active, sort last_name)`, deepSql[0].sql, deepSql[0].params),
      await explain(raw, 'list count (active)', listSql[1].sql, listSql[1].params),
      await explain(raw, 'q list page (q=son)', qSql[0].sql, qSql[0].params),
      await explain(raw, 'q list count (q=son)', qSql[1].sql, qSql[1].params),
      await explain(raw, 'search_candidate (son)', searchSql[0].sql, searchSql[0].params),
    ];
    const rareSql = await cap.capture(() =>
      fetch(`${origin}/api/search_candidate?candidate_query=ash`, { headers }).then((r) => r.text()),
    );
    plans.push(await explain(raw, 'search_candidate (ash)', rareSql[0].sql, rareSql[0].params));
    for (const p of plans)
      log(
        `EXPLAIN ${p.query}: ${p.uses_index ? 'index' : 'NO INDEX'} (${p.nodes.join('; ')})${p.execution_ms !== undefined ? `, ${p.execution_ms} ms` : ''}`,
      );

    // Latency, sequential.
    log(`latency: ${WARMUP} warm-up + ${LATENCY_REQUESTS} sequential requests each…`);
    const lat = async (name: string, paths: string[], ok?: (s: number) => boolean, count = LATENCY_REQUESTS) => {
      const r = await gen.latency(origin, paths, headers, count);
      onlyOk(name, r.statuses, ok);
      const warm = Math.min(WARMUP, count);
      const slowest = r.ms
        .map((ms, i) => ({ ms: +ms.toFixed(1), path: paths[(i + warm) % paths.length] }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5);
      const out = {
        p50: pct(r.ms, 50),
        p99: pct(r.ms, 99),
        mean: r.ms.reduce((a, b) => a + b, 0) / r.ms.length,
        statuses: r.statuses,
        slowest,
      };
      log(
        `${name}: p50 ${out.p50.toFixed(2)} ms, p99 ${out.p99.toFixed(2)} ms; slowest: ${slowest
          .slice(0, 3)
          .map((x) => `${x.ms} ms ${x.path.replace(/^.*\?/, '')}`)
          .join(', ')}`,
      );
      return out;
    };
    const latList = await lat(`list page 1-${PAGES} (active, sorted)`, listPaths);
    const latDeep = await lat(
      `list page ${DEEP_PAGES.join('-')} (active, sorted)`,
      deepPaths,
      undefined,
      DEEP_REQUESTS,
    );
    const latQ = await lat('q search list page', qPaths);
    // search_candidate answers 404 when nobody matches (the documented shape).
    const latSearch = await lat('search_candidate', searchPaths, (st) => st === 200 || st === 404);

    // Throughput, CONCURRENCY connections, engine and bare alternating.
    log(`throughput: ${CONCURRENCY} connections, ${ROUNDS} rounds of ${THROUGHPUT_MS / 1000} s per route…`);
    const tp: Record<'engine' | 'bare' | 'barePage', { rps: number[]; done: number }> = {
      engine: { rps: [], done: 0 },
      bare: { rps: [], done: 0 },
      barePage: { rps: [], done: 0 },
    };
    await gen.throughput(origin, listPaths, headers); // warm-up round, not counted
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, paths, h] of [
        ['engine', listPaths, headers],
        ['bare', barePaths, {}],
        ['barePage', barePagePaths, {}],
      ] as const) {
        const r = await gen.throughput(origin, paths, h);
        onlyOk(`throughput ${key}`, r.statuses);
        tp[key].rps.push(r.rps);
        tp[key].done += r.done;
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const engineRps = mean(tp.engine.rps);
    const bareRps = mean(tp.bare.rps);
    const barePageRps = mean(tp.barePage.rps);
    const ratio = engineRps / bareRps;
    log(
      `engine ${engineRps.toFixed(0)} req/s, bare ${bareRps.toFixed(0)} req/s (ratio ${ratio.toFixed(2)}, goal ≥ ${RATIO_GOAL}); bare page only ${barePageRps.toFixed(0)} req/s (engine/that ${(engineRps / barePageRps).toFixed(2)})`,
    );

    const us = (ms: number) => Math.round(ms * 1000);
    const metrics: Metric[] = [
      { name: `${label}: list page 1-${PAGES}, active, sort last_name: p50`, value: us(latList.p50), unit: 'µs' },
      { name: `${label}: list page 1-${PAGES}, active, sort last_name: p99`, value: us(latList.p99), unit: 'µs' },
      { name: `${label}: list page ${DEEP_PAGES.join('-')} (deep): p50`, value: us(latDeep.p50), unit: 'µs' },
      { name: `${label}: list page ${DEEP_PAGES.join('-')} (deep): p99`, value: us(latDeep.p99), unit: 'µs' },
      { name: `${label}: q search list page: p50`, value: us(latQ.p50), unit: 'µs' },
      { name: `${label}: q search list page: p99`, value: us(latQ.p99), unit: 'µs' },
      { name: `${label}: search_candidate: p50`, value: us(latSearch.p50), unit: 'µs' },
      { name: `${label}: search_candidate: p99`, value: us(latSearch.p99), unit: 'µs' },
      {
        name: `${label}: list endpoint throughput (${CONCURRENCY} conns)`,
        value: Math.round(engineRps),
        unit: 'req/s',
        anchor: ANCHOR_RPS[kind],
        anchorNote: `issue 3: about ${ANCHOR_RPS[kind]} req/s for a 25-row page`,
      },
      {
        name: `${label}: bare route, same page + count SQL`,
        value: Math.round(bareRps),
        unit: 'req/s',
        anchor: ANCHOR_RPS[kind],
      },
      {
        name: `${label}: bare route, page SQL only (no count)`,
        value: Math.round(barePageRps),
        unit: 'req/s',
        anchor: ANCHOR_RPS[kind],
      },
      {
        name: `${label}: engine / bare (goal ≥ ${RATIO_GOAL})`,
        value: Math.round(ratio * 100) / 100,
        unit: '×',
        note: ratio >= RATIO_GOAL ? 'met' : 'NOT met',
      },
      {
        name: `${label}: engine / bare page only`,
        value: Math.round((engineRps / barePageRps) * 100) / 100,
        unit: '×',
      },
    ];
    return {
      kind,
      database: version,
      metrics,
      plans,
      details: {
        database: version,
        candidates_in_agency: total,
        active_candidates: active,
        seed_seconds: Math.round(seedSeconds * 10) / 10,
        queries_per_list_request: listSql.length,
        queries_per_search_request: searchSql.length,
        latency_ms: Object.fromEntries(
          Object.entries({ list: latList, list_deep: latDeep, q_list: latQ, search_candidate: latSearch }).map(
            ([k, v]) => [
              k,
              {
                p50: +v.p50.toFixed(3),
                p99: +v.p99.toFixed(3),
                mean: +v.mean.toFixed(3),
                answers: v.statuses,
                slowest: v.slowest,
              },
            ],
          ),
        ),
        throughput: {
          concurrency: CONCURRENCY,
          round_ms: THROUGHPUT_MS,
          rounds: ROUNDS,
          engine_rps: tp.engine.rps.map(Math.round),
          bare_rps: tp.bare.rps.map(Math.round),
          bare_page_rps: tp.barePage.rps.map(Math.round),
          ratio: +ratio.toFixed(3),
          ratio_goal: RATIO_GOAL,
          met: ratio >= RATIO_GOAL,
        },
        explain: plans.map(({ plan, ...p }) => ({ ...p, plan: plan.split('\n') })),
      },
    };
  } finally {
    await gen.close();
    await app.close();
  }
}

async function onPglite(): Promise<DbRun> {
  const db = await openPglite(); // in memory
  try {
    const [{ version }] = await db.query<{ version: string }>('select version()');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
    return await benchOne('pglite', db, `PGlite ${pkg} in memory (${version.split(',')[0]})`);
  } finally {
    await db.close();
  }
}

async function onPostgres(): Promise<DbRun | { kind: 'postgres'; unreachable: string }> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (e) {
    return {
      kind: 'postgres',
      unreachable: `PostgreSQL at ${PG_URL} is unreachable (${(e as Error).message}); skipped`,
    };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  let db: Db | undefined;
  try {
    await ensureSharedExtensions(admin);
    await admin.query(`create schema "${schema}"`);
    const [{ server_version }] = (await admin.query('show server_version')).rows;
    db = await openPostgres(PG_URL, { searchPath: `${schema},public`, max: 10 });
    return await benchOne(
      'postgres',
      db,
      `PostgreSQL ${server_version} at ${new URL(PG_URL).host} (schema ${schema}, pool of 10)`,
    );
  } finally {
    await db?.close().catch(() => undefined);
    await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await admin.end();
  }
}

export async function runLists(kinds: Kind[] = ['pglite', 'postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`${CANDIDATES} candidates in one agency`);
  const metrics: Metric[] = [];
  const details: Record<string, unknown> = {
    candidates: CANDIDATES,
    per_page: PER_PAGE,
    pages_sampled: `1..${PAGES}`,
    deep_pages_sampled: `${DEEP_PAGES[0]}..${DEEP_PAGES[1]}`,
    deep_requests: DEEP_REQUESTS,
    latency_requests: LATENCY_REQUESTS,
    warmup: WARMUP,
    load: 'undici Pool from a worker thread over loopback',
    load_average_before: +load.toFixed(2),
  };
  const notes: string[] = [];
  for (const kind of kinds) {
    const r = kind === 'pglite' ? await onPglite() : await onPostgres();
    if ('unreachable' in r) {
      console.log(`  [PostgreSQL] ${r.unreachable}`);
      notes.push(r.unreachable);
      details.postgres = { skipped: r.unreachable };
      continue;
    }
    metrics.push(...r.metrics);
    details[kind] = r.details;
    console.log(`  [${LABEL[r.kind]}] database: ${r.database}`);
    for (const p of r.plans)
      if (!p.uses_index)
        console.log(`  [${LABEL[r.kind]}] plan without an index for ${p.query}:\n${p.plan.replace(/^/gm, '      ')}`);
  }
  if (notes.length) details.notes = notes;
  return { metrics, details };
}

export const lists: Benchmark = {
  name: 'lists',
  description: `list, q search and search_candidate latency, and list throughput beside a bare route, ${CANDIDATES} staff (PGlite and PostgreSQL)`,
  run: () => runLists(),
};

// Alone: npx tsx bench/lists.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('lists', runLists, LABEL);
