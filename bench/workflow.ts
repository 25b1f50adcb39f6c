import { execSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../server/app';
import type { Db } from '../server/db';
import { LoginThrottle } from '../server/auth/throttle';
import { agencyZone } from '../server/engine/routes';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../core/domain/time/agencyTime';
import { complianceOf } from '../server/services/compliance';
import {
  askWorker,
  announceRun,
  onEachDatabase,
  pgSchema,
  PG_URL,
  runAlone,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { capturing, explain, pct, seed, type PlanReport } from './lists';

/**
 * The workflow engine's costs on a large agency (issue 6, "Performance").
 *
 * On PostgreSQL (a throwaway schema `bench_<random>` at 127.0.0.1) and, with `--db pglite`, on PGlite in memory:
 *  - seeds the staff of bench/lists.ts (100,000 in one agency), 10 document categories (6 mandatory, 4 tied to
 *    job roles), one document per staff member and category (1,000,000) with a realistic mix of checks and
 *    expiry dates, the compliance each staff member holds computed in SQL from those documents by the rules of
 *    core/domain/compliance (and checked against them on a sample), and a week of availability for every
 *    staff member;
 *  - 1. the active staff list filtered by compliance (compliant, not compliant) beside the plain active list:
 *       p50/p99, goal p99 ≤ 2× the plain list's;
 *  - 2. the document report DueDoc60Days (sorted by expiry): p50/p99, goal p99 ≤ 50 ms; and its count;
 *  - 3. the availability week grid API, 100 staff a page, pages 1-5 (500 staff × 7 days): p99, goal ≤ 50 ms;
 *  - 4. a staff PUT (notes changed, the record's version sent), sequential and with 10 connections: req/s.
 *       Each request edits a different staff member whose version is read just before, so no request waits
 *       on another's row lock or answers 409. With BENCH_BASELINE=<a checkout of the product before issue 6,
 *       its node_modules installed> the same load runs against that product (its own seed, its PUT without
 *       audit or version), alternating with this one; goal ≥ 80% of its throughput;
 *  - prints EXPLAIN ANALYZE of the SQL the measured requests run (captured).
 *
 * `npm run bench -- workflow`, or alone: `npx tsx bench/workflow.ts [--db pglite|postgres]`.
 * Knobs: BENCH_CANDIDATES (100000), BENCH_LATENCY_REQUESTS (300), BENCH_THROUGHPUT_MS (3000 per round),
 * BENCH_BASELINE (path of the old product's checkout).
 */

const CANDIDATES = Number(process.env.BENCH_CANDIDATES || 100_000);
const LATENCY_REQUESTS = Number(process.env.BENCH_LATENCY_REQUESTS || 300);
const WARMUP = 30;
const CONCURRENCY = 10;
const THROUGHPUT_MS = Number(process.env.BENCH_THROUGHPUT_MS || 3000);
const ROUNDS = 3;
const PAGES = 20; // staff list pages sampled, as in bench/lists.ts
const PUT_IDS_PER_ROUND = 8000; // more than a round can use: every PUT edits a staff member nobody else edits
const BASELINE = process.env.BENCH_BASELINE;
const BENCH_EMAIL = 'bench-admin@bench.test';
const BENCH_PASSWORD = 'bench-password-1';
const GOALS = { complianceVsPlain: 2, dueDocP99: 50, availabilityP99: 50, putShare: 0.8 };

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

// ---------------------------------------------------------------------------------------------- seeding

/** Mandatory for everyone, or tied to job roles (by the role names of bench/lists.ts's seed). */
const CATEGORIES: { name: string; months: number | null; mandatory: boolean; roles: string[] }[] = [
  { name: 'DBS check', months: 36, mandatory: true, roles: [] },
  { name: 'Right to work', months: null, mandatory: true, roles: [] },
  { name: 'Proof of identity', months: 120, mandatory: true, roles: [] },
  { name: 'Proof of address', months: 12, mandatory: true, roles: [] },
  { name: 'Manual handling training', months: 12, mandatory: true, roles: [] },
  { name: 'Safeguarding training', months: 36, mandatory: true, roles: [] },
  {
    name: 'NMC registration',
    months: 12,
    mandatory: false,
    roles: ['Registered Nurse', 'Registered Mental Health Nurse'],
  },
  {
    name: 'Medication training',
    months: 12,
    mandatory: false,
    roles: ['Senior Carer', 'Healthcare Assistant', 'Support Worker'],
  },
  { name: 'Food hygiene certificate', months: 36, mandatory: false, roles: ['Kitchen Assistant', 'Chef'] },
  {
    name: 'Infection control training',
    months: 12,
    mandatory: false,
    roles: [
      'Healthcare Assistant',
      'Registered Nurse',
      'Senior Carer',
      'Support Worker',
      'Registered Mental Health Nurse',
    ],
  },
];

/**
 * Documents, compliance and availability for the bench agency, all in SQL. The mix per document: 93% verified,
 * 4% awaiting check, 3% rejected; 2% replaced by a newer upload (not current, so the category is missing);
 * expiry: 10% none, 5% expired (up to a year ago), 3% due within 30 days, 5% in 31-60 days, the rest 61 days
 * to 3 years ahead. A soft-deleted staff member's documents are hidden with them.
 */
export async function seedWorkflow(db: Db, merchantId: number, today: string, weekStart: string) {
  const t = performance.now();
  const steps: Record<string, number> = {};
  let last = t;
  const step = (name: string) => {
    steps[name] = Math.round((performance.now() - last) / 100) / 10;
    last = performance.now();
  };
  await db.transaction(async (tx) => {
    await tx.query('select setseed(0.6)');
    for (const c of CATEGORIES) {
      await tx.query(
        `insert into document_categories (merchant_id, name, mandatory, validity_months, job_role_ids)
         values ($1, $2, $3, $4, coalesce((select array_agg(id order by id) from job_roles where merchant_id = $1 and name = any($5::text[])), '{}'))`,
        [merchantId, c.name, c.mandatory, c.months, c.roles],
      );
    }
    await tx.query(
      `insert into candidate_documents (merchant_id, candidate_id, document_category_id, number, issue_date, expiry_date, file, status, rejection_reason, current, created_at, updated_at, deleted_at)
       select $1, cid, cat, upper(substr(md5(cid || '-' || cat), 1, 10)),
              coalesce(expiry, $2::date) - 365,
              expiry, 'bench-file',
              case when r1 < 0.93 then 'verified' when r1 < 0.97 then 'awaiting' else 'rejected' end,
              case when r1 >= 0.97 then 'The scan is unreadable' end,
              r4 >= 0.02, created, created, gone
         from (select k.id as cid, dc.id as cat, k.deleted_at as gone, k.created_at as created, random() as r1, random() as r4,
                      case when r2 < 0.10 then null
                           when r2 < 0.15 then $2::date - (1 + floor(r3 * 365))::int
                           when r2 < 0.18 then $2::date + floor(r3 * 31)::int
                           when r2 < 0.23 then $2::date + 31 + floor(r3 * 30)::int
                           else $2::date + 61 + floor(r3 * 1035)::int end as expiry
                 from candidates k cross join document_categories dc
                 cross join lateral (select random() + k.id * 0 as r2, random() + dc.id * 0 as r3) as r
                where k.merchant_id = $1 and dc.merchant_id = $1) as g`,
      [merchantId, today],
    );
    step('documents');
    // Planned on real statistics (an empty table's estimate makes the join below a nested loop over seq scans).
    await tx.query('analyze candidate_documents');
    await tx.query('analyze document_categories');
    // What refreshCompliance stores, computed in one statement: every required category (mandatory, or tied
    // to the staff member's job role) has a current verified document; valid until the earliest expiry of those.
    await tx.query(
      `update candidates c set compliance_complete = x.complete, compliance_valid_until = x.valid_until
         from (select k.id, bool_and(d.id is not null) as complete, min(d.expiry_date) as valid_until
                 from candidates k
                 join document_categories dc on dc.merchant_id = k.merchant_id and (dc.mandatory or k.job_role_id = any(dc.job_role_ids))
                 left join candidate_documents d on d.merchant_id = k.merchant_id and d.candidate_id = k.id and d.document_category_id = dc.id
                      and d.current and d.deleted_at is null and d.status = 'verified'
                where k.merchant_id = $1 and k.deleted_at is null
                group by k.id) as x
        where c.merchant_id = $1 and c.id = x.id`,
      [merchantId],
    );
    step('compliance');
    // A week of availability for every staff member: 85% of days set, in a mix of states.
    await tx.query(
      `insert into availability (merchant_id, candidate_id, date, status)
       select $1, k.id, $2::date + d, (array['available', 'day', 'night', 'long_day', 'unavailable'])[1 + floor(random() * 5)::int]
         from candidates k cross join generate_series(0, 6) as d
        where k.merchant_id = $1 and k.deleted_at is null and random() < 0.85`,
      [merchantId, weekStart],
    );
    step('availability');
  });
  for (const tbl of ['candidates', 'candidate_documents', 'availability', 'document_categories'])
    await db.query(`vacuum analyze ${tbl}`);
  step('vacuum');
  return { seconds: (performance.now() - t) / 1000, steps };
}

/** The SQL compliance must equal what the domain rules say; checked on a sample of staff. */
async function checkCompliance(db: Db, merchantId: number, today: string) {
  const sample = await db.query<{
    id: number;
    job_role_id: number | null;
    compliance_complete: boolean;
    valid_until: string | null;
  }>(
    `select id, job_role_id, compliance_complete, to_char(compliance_valid_until, 'YYYY-MM-DD') as valid_until
       from candidates where merchant_id = $1 and deleted_at is null order by id limit 300`,
    [merchantId],
  );
  for (const k of sample) {
    const r = await complianceOf(db, merchantId, k, today);
    if (r.complete !== k.compliance_complete || (r.validUntil ?? null) !== k.valid_until)
      throw new Error(
        `seeded compliance of staff ${k.id} (${k.compliance_complete}, ${k.valid_until}) differs from the rules (${r.complete}, ${r.validUntil})`,
      );
  }
  return sample.length;
}

// -------------------------------------------------------------------------------------- load generation

/** Runs in a worker thread (its own event loop): sequential requests (latency) or CONCURRENCY connections. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { Pool } = require(workerData.undici);
const pools = new Map();
const pool = (origin) => { if (!pools.has(origin)) pools.set(origin, new Pool(origin, { connections: workerData.concurrency, pipelining: 1 })); return pools.get(origin); };
async function one(origin, r, headers) {
  const t = performance.now();
  const res = await pool(origin).request({ method: r.method || 'GET', path: r.path, headers: r.body ? { ...headers, 'content-type': 'application/json' } : headers, body: r.body ? JSON.stringify(r.body) : undefined });
  await res.body.text();
  return { ms: performance.now() - t, status: res.statusCode };
}
parentPort.on('message', async (job) => {
  try {
    const { origin, requests, headers } = job;
    const statuses = {};
    const ms = [];
    if (job.mode === 'latency') {
      for (let i = 0; i < job.warmup; i++) await one(origin, requests[i % requests.length], headers);
      for (let i = 0; i < job.count; i++) {
        const r = await one(origin, requests[(i + job.warmup) % requests.length], headers);
        ms.push(r.ms); statuses[r.status] = (statuses[r.status] || 0) + 1;
      }
      parentPort.postMessage({ ms, statuses });
    } else {
      // Each request is sent once at most (a PUT edits a record nobody else edits); bounded in time.
      let next = 0, done = 0;
      const t0 = performance.now();
      const deadline = t0 + job.maxMs;
      const loop = async () => {
        while (next < requests.length && performance.now() < deadline) {
          const r = await one(origin, requests[next++], headers);
          done++; ms.push(r.ms); statuses[r.status] = (statuses[r.status] || 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: job.concurrency }, loop));
      const seconds = (performance.now() - t0) / 1000;
      if (next >= requests.length && !job.warmup) throw new Error('the round ran out of requests before its time: give it more');
      parentPort.postMessage({ done, seconds, rps: done / seconds, statuses, ms });
    }
  } catch (e) { parentPort.postMessage({ error: String(e && e.stack || e) }); }
});
`;

interface Req {
  method?: 'GET' | 'PUT';
  path: string;
  body?: Record<string, unknown>;
}

class LoadGen {
  private worker = new Worker(WORKER, {
    eval: true,
    workerData: { undici: createRequire(import.meta.url).resolve('undici'), concurrency: CONCURRENCY },
  });
  private run<T>(job: Record<string, unknown>): Promise<T> {
    return askWorker<T>(this.worker, job);
  }
  latency(origin: string, requests: Req[], headers: Record<string, string>, count = LATENCY_REQUESTS) {
    return this.run<{ ms: number[]; statuses: Record<string, number> }>({
      mode: 'latency',
      origin,
      requests,
      headers,
      warmup: Math.min(WARMUP, count),
      count,
    });
  }
  /** A warm-up round may run out of requests before its time; a measured one must not. */
  throughput(origin: string, requests: Req[], headers: Record<string, string>, concurrency: number, warmup = false) {
    return this.run<{ done: number; seconds: number; rps: number; statuses: Record<string, number>; ms: number[] }>({
      mode: 'throughput',
      origin,
      requests,
      headers,
      concurrency,
      maxMs: THROUGHPUT_MS,
      warmup,
    });
  }
  close() {
    return this.worker.terminate();
  }
}

const onlyOk = (what: string, statuses: Record<string, number>) => {
  if (Object.keys(statuses).some((s) => s !== '200'))
    throw new Error(`${what}: unexpected answers ${JSON.stringify(statuses)}`);
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// ------------------------------------------------------------------------------------------- products

/** A running product (this one, or the baseline checkout): its origin, a signed-in admin, its database. */
interface Product {
  name: string;
  origin: string;
  headers: Record<string, string>;
  raw: Db;
  merchantId: number;
  close(): Promise<void>;
}

async function signIn(origin: string) {
  const login = await fetch(`${origin}/api/admin_login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`sign-in at ${origin} answered ${login.status}: ${await login.text()}`);
  return { authorization: `Bearer ${(await login.json()).token}` };
}

/**
 * The product before issue 6, from its own checkout (its node_modules installed): its seed (bench/lists.ts
 * there), migrations and app, in a schema of its own. Only its PUT is measured.
 */
async function baselineProduct(dir: string): Promise<Product & { seedSeconds: number; commit: string }> {
  const mod = (p: string) => import(pathToFileURL(join(dir, p)).href);
  const [
    { buildApp: oldBuildApp },
    { openPostgres: oldOpenPostgres },
    { seed: oldSeed },
    { LoginThrottle: OldThrottle },
  ] = await Promise.all([
    mod('server/app.ts'),
    mod('server/db/index.ts'),
    mod('bench/lists.ts'),
    mod('server/auth/throttle.ts'),
  ]);
  const s = await pgSchema();
  const raw: Db = await oldOpenPostgres(PG_URL, { searchPath: `${s.schema},public`, max: 10 });
  const { merchantId, seconds } = await oldSeed(raw, CANDIDATES);
  const app = await oldBuildApp({
    db: raw,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined },
    throttle: new OldThrottle(),
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const commit = (() => {
    try {
      return execSync('git rev-parse --short HEAD', {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return dir;
    }
  })();
  return {
    name: 'before issue 6',
    origin,
    headers: await signIn(origin),
    raw,
    merchantId,
    seedSeconds: seconds,
    commit,
    async close() {
      await app.close();
      await raw.close().catch(() => undefined);
      await s.drop();
    },
  };
}

// ------------------------------------------------------------------------------------------- the bench

interface Latency {
  p50: number;
  p99: number;
  mean: number;
  statuses: Record<string, number>;
}

/**
 * PUT load: each request changes the notes of a different active staff member, sending the version read from
 * the database just before the round (the current product checks it; the baseline ignores it).
 */
async function putRequests(p: Product, offset: number, count: number, withVersion: boolean): Promise<Req[]> {
  const rows = await p.raw.query<{ id: number; version?: number }>(
    `select id${withVersion ? ', version' : ''} from candidates where merchant_id = $1 and deleted_at is null and status = 'approved' and activated order by id offset $2 limit $3`,
    [p.merchantId, offset, count],
  );
  if (rows.length < count) throw new Error(`only ${rows.length} active staff for ${count} PUTs`);
  return rows.map((r, i) => ({
    method: 'PUT' as const,
    path: `/api/candidates/${r.id}`,
    body: { notes: `Bench edit ${offset + i}: prefers early shifts.`, ...(withVersion ? { version: r.version } : {}) },
  }));
}

async function benchOne(
  kind: Kind,
  raw: Db,
  version: string,
): Promise<{ metrics: Metric[]; details: Record<string, unknown>; plans: PlanReport[] }> {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const { merchantId, seconds: staffSeconds } = await seed(raw, CANDIDATES);
  const today = agencyToday(await agencyZone(raw, merchantId));
  const weekStart = addDaysToDate(startOfWeekMonday(today), 7);
  const { seconds: workflowSeconds, steps: seedSteps } = await seedWorkflow(raw, merchantId, today, weekStart);
  const checked = await checkCompliance(raw, merchantId, today);
  const [counts] = await raw.query<Record<string, number>>(
    `select (select count(*)::int from candidate_documents where merchant_id = $1) as documents,
            (select count(*)::int from candidate_documents where merchant_id = $1 and deleted_at is null and current and expiry_date between $2::date and $2::date + 60) as due_60,
            (select count(*)::int from availability where merchant_id = $1) as availability,
            (select count(*)::int from candidates where merchant_id = $1 and deleted_at is null and status = 'approved' and activated) as active,
            (select count(*)::int
              from candidates
              where merchant_id = $1 and deleted_at is null and status = 'approved' and activated
                and compliance_complete and (compliance_valid_until is null or compliance_valid_until > $2::date + 30))
              as active_compliant`,
    [merchantId, today],
  );
  log(
    `seeded ${CANDIDATES} staff in ${staffSeconds.toFixed(1)} s, then ${counts.documents} documents, compliance and ${counts.availability} availability days in ${workflowSeconds.toFixed(1)} s (${JSON.stringify(seedSteps)}); compliance of ${checked} staff checked against the rules`,
  );
  log(
    `${counts.active} active staff, ${counts.active_compliant} of them compliant (${((100 * counts.active_compliant) / counts.active).toFixed(0)}%); ${counts.due_60} current documents due within 60 days`,
  );

  const cap = capturing(raw);
  // One session making thousands of requests a minute: the per-session limit stays in the path, never reached.
  const app = await buildApp({
    db: cap.db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const product: Product = {
    name: 'now',
    origin,
    headers: await signIn(origin),
    raw,
    merchantId,
    close: () => app.close(),
  };
  const headers = product.headers;
  const baseline = kind === 'postgres' && BASELINE ? await baselineProduct(BASELINE) : undefined;
  if (baseline)
    log(
      `baseline (${baseline.commit}) seeded in ${baseline.seedSeconds.toFixed(1)} s, listening at ${baseline.origin}`,
    );
  const gen = new LoadGen();
  try {
    let s = 11;
    const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const pages = Array.from({ length: 1000 }, () => 1 + Math.floor(rnd() * PAGES));
    const staffPath = (p: number, compliance?: string) =>
      `/api/candidates?tab=activeStaff${compliance ? `&compliance=${compliance}` : ''}&sort=last_name&page=${p}&per_page=25`;
    const plain = pages.map((p) => ({ path: staffPath(p) }));
    const compliant = pages.map((p) => ({ path: staffPath(p, 'compliant') }));
    const notCompliant = pages.map((p) => ({ path: staffPath(p, 'not_compliant') }));
    const duePath = '/api/candidate_documents?tab=DueDoc60Days';
    const due = [{ path: duePath }];
    const weekPaths = [1, 2, 3, 4, 5].map((p) => ({
      path: `/api/staff_availability?week_start=${weekStart}&per_page=100&page=${p}`,
    }));

    // Sanity: the answers are what the bench means to measure.
    const body = async (path: string) => {
      const r = await fetch(`${origin}${path}`, { headers });
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
      return r.json();
    };
    const c1 = await body(staffPath(1, 'compliant'));
    if (c1.total_count !== counts.active_compliant || c1.data.some((r: any) => r.compliance !== 'compliant'))
      throw new Error('the compliant filter answers other staff than the seed holds');
    const d1 = await body(duePath);
    if (d1.total_count !== counts.due_60 || d1.data.length !== 25)
      throw new Error(`DueDoc60Days answers ${d1.total_count} documents, the seed holds ${counts.due_60}`);
    const w1 = await body(weekPaths[0].path);
    if (w1.data.length !== 100 || Object.keys(w1.data[0].days).length !== 7)
      throw new Error('the week grid does not answer 100 staff × 7 days');

    // The SQL each request runs (captured), for EXPLAIN.
    const sqlOf = async (path: string, match: RegExp) =>
      (await cap.capture(() => fetch(`${origin}${path}`, { headers }).then((r) => r.text()))).filter((q) =>
        match.test(q.sql),
      );
    const onStaff = /from "candidates" /;
    const plainSql = await sqlOf(staffPath(PAGES), onStaff);
    const compliantSql = await sqlOf(staffPath(PAGES, 'compliant'), onStaff);
    const notCompliantSql = await sqlOf(staffPath(PAGES, 'not_compliant'), onStaff);
    const dueSql = await sqlOf(`${duePath}&page=2`, /from "candidate_documents" /);
    const weekSql = await sqlOf(weekPaths[4].path.replace('page=5', 'page=6'), /from "candidates" |from availability/);
    // The count a page request runs when its total is not cached (the first request after a write), built from
    // the page's WHERE and its parameters.
    const countOf = (q: { sql: string; params?: unknown[] }) => {
      // The page's rows are chosen in an inner select (server/engine/query.ts): its WHERE is the count's.
      const m = /\(select \* from ("\w+") where (.*?) order by /s.exec(q.sql);
      if (!m) throw new Error(`cannot find the WHERE of ${q.sql}`);
      const used = Math.max(0, ...(m[2].match(/\$\d+/g) ?? []).map((x) => Number(x.slice(1))));
      return { sql: `select count(*)::int as n from ${m[1]} where ${m[2]}`, params: (q.params ?? []).slice(0, used) };
    };
    const dueCount = countOf(dueSql[0]);
    const compliantCount = countOf(compliantSql[0]);
    const plans: PlanReport[] = [
      await explain(raw, `staff list page ${PAGES} (active, sort last_name)`, plainSql[0].sql, plainSql[0].params),
      await explain(raw, `staff list page ${PAGES} (active, compliant)`, compliantSql[0].sql, compliantSql[0].params),
      await explain(raw, 'staff list count (active, compliant)', compliantCount.sql, compliantCount.params),
      await explain(
        raw,
        `staff list page ${PAGES} (active, not compliant)`,
        notCompliantSql[0].sql,
        notCompliantSql[0].params,
      ),
      await explain(raw, 'DueDoc60Days page 2', dueSql[0].sql, dueSql[0].params),
      await explain(raw, 'DueDoc60Days count', dueCount.sql, dueCount.params),
      await explain(raw, 'week grid: staff page 6', weekSql[0].sql, weekSql[0].params),
      await explain(
        raw,
        'week grid: their availability',
        weekSql[weekSql.length - 1].sql,
        weekSql[weekSql.length - 1].params,
      ),
    ];
    for (const p of plans)
      log(
        `EXPLAIN ${p.query}: ${/Seq Scan/.test(p.plan) ? 'SEQ SCAN' : 'index'} (${p.nodes.join('; ')})${p.execution_ms !== undefined ? `, ${p.execution_ms} ms` : ''}`,
      );

    // The report's count as the first request after a write runs it (the engine caches it until then).
    const countMs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      await raw.query(dueCount.sql, dueCount.params);
      countMs.push(performance.now() - t);
    }
    const dueCountLat = { p50: pct(countMs, 50), p99: pct(countMs, 99) };
    log(
      `DueDoc60Days count SQL alone (30 runs): p50 ${dueCountLat.p50.toFixed(2)} ms, max ${dueCountLat.p99.toFixed(2)} ms`,
    );

    // Latency, sequential. The plain list and the compliance lists alternate in two halves to even out drift.
    log(`latency: ${WARMUP} warm-up + ${LATENCY_REQUESTS} sequential requests each…`);
    const lat = async (name: string, requests: Req[], count = LATENCY_REQUESTS): Promise<Latency> => {
      const r = await gen.latency(origin, requests, headers, count);
      onlyOk(name, r.statuses);
      const out = { p50: pct(r.ms, 50), p99: pct(r.ms, 99), mean: mean(r.ms), statuses: r.statuses };
      log(`${name}: p50 ${out.p50.toFixed(2)} ms, p99 ${out.p99.toFixed(2)} ms`);
      return out;
    };
    const merge = (a: Latency[], all: number[][]) => ({
      p50: pct(all.flat(), 50),
      p99: pct(all.flat(), 99),
      mean: mean(all.flat()),
      statuses: a[0].statuses,
    });
    const halves: Record<'plain' | 'compliant' | 'notCompliant', number[][]> = {
      plain: [],
      compliant: [],
      notCompliant: [],
    };
    const parts: Record<string, Latency[]> = { plain: [], compliant: [], notCompliant: [] };
    for (let h = 0; h < 2; h++) {
      for (const [key, reqs] of [
        ['plain', plain],
        ['compliant', compliant],
        ['notCompliant', notCompliant],
      ] as const) {
        const r = await gen.latency(origin, reqs.slice(h * 500), headers, LATENCY_REQUESTS / 2);
        onlyOk(key, r.statuses);
        halves[key].push(r.ms);
        parts[key].push({ p50: pct(r.ms, 50), p99: pct(r.ms, 99), mean: mean(r.ms), statuses: r.statuses });
      }
    }
    const latPlain = merge(parts.plain, halves.plain);
    const latCompliant = merge(parts.compliant, halves.compliant);
    const latNotCompliant = merge(parts.notCompliant, halves.notCompliant);
    for (const [n, l] of [
      ['staff list (active)', latPlain],
      ['staff list (active, compliant)', latCompliant],
      ['staff list (active, not compliant)', latNotCompliant],
    ] as const)
      log(`${n}: p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms`);
    const latDue = await lat('DueDoc60Days page 1', due);
    const latWeek = await lat('week grid, 100 staff × 7 days, pages 1-5', weekPaths);

    // PUT throughput: sequential and CONCURRENCY connections, this product and the baseline alternating.
    log(
      `PUT: ${ROUNDS} rounds of ${THROUGHPUT_MS / 1000} s, sequential and ${CONCURRENCY} connections${baseline ? ', alternating with the baseline' : ''}…`,
    );
    const targets = [
      { p: product, versioned: true },
      ...(baseline ? [{ p: baseline as Product, versioned: false }] : []),
    ];
    const putRps: Record<string, number[]> = {};
    const putMs: Record<string, number[]> = {};
    let offset = 0;
    // A warm-up round, not counted.
    for (const t of targets)
      await gen.throughput(
        t.p.origin,
        await putRequests(t.p, offset, 600, t.versioned),
        t.p.headers,
        CONCURRENCY,
        true,
      );
    offset += 600;
    for (let r = 0; r < ROUNDS; r++) {
      for (const conns of [1, CONCURRENCY]) {
        for (const t of targets) {
          const reqs = await putRequests(
            t.p,
            offset,
            conns === 1 ? PUT_IDS_PER_ROUND / 2 : PUT_IDS_PER_ROUND,
            t.versioned,
          );
          const res = await gen.throughput(t.p.origin, reqs, t.p.headers, conns);
          onlyOk(`PUT ${t.p.name}, ${conns} connection(s)`, res.statuses);
          const key = `${t.p.name}:${conns}`;
          (putRps[key] ??= []).push(res.rps);
          (putMs[key] ??= []).push(...res.ms);
        }
        offset += conns === 1 ? PUT_IDS_PER_ROUND / 2 : PUT_IDS_PER_ROUND;
      }
    }
    // The audit trail holds one entry per PUT of this product.
    const [{ n: audited }] = await raw.query<{ n: number }>(
      `select count(*)::int as n from audit_log where merchant_id = $1 and resource = 'candidates' and event = 'update'`,
      [merchantId],
    );
    const putNow = { seq: mean(putRps['now:1']), conc: mean(putRps[`now:${CONCURRENCY}`]) };
    const putOld = baseline
      ? { seq: mean(putRps['before issue 6:1']), conc: mean(putRps[`before issue 6:${CONCURRENCY}`]) }
      : undefined;
    log(
      `PUT now: ${putNow.seq.toFixed(0)} req/s sequential (p50 ${pct(putMs['now:1'], 50).toFixed(2)} ms), ${putNow.conc.toFixed(0)} req/s with ${CONCURRENCY} connections; ${audited} audit entries written`,
    );
    if (putOld)
      log(
        `PUT before issue 6: ${putOld.seq.toFixed(0)} req/s sequential (p50 ${pct(putMs['before issue 6:1'], 50).toFixed(2)} ms), ${putOld.conc.toFixed(0)} req/s with ${CONCURRENCY} connections; now/before: ${(putNow.seq / putOld.seq).toFixed(2)} sequential, ${(putNow.conc / putOld.conc).toFixed(2)} with ${CONCURRENCY}`,
      );

    const ms = (x: number) => round(x, 2);
    const ratioC = latCompliant.p99 / latPlain.p99;
    const ratioN = latNotCompliant.p99 / latPlain.p99;
    const metrics: Metric[] = [
      { name: `${label}: staff list, active: p50`, value: ms(latPlain.p50), unit: 'ms' },
      { name: `${label}: staff list, active: p99`, value: ms(latPlain.p99), unit: 'ms' },
      { name: `${label}: staff list, active, compliant: p50`, value: ms(latCompliant.p50), unit: 'ms' },
      {
        name: `${label}: staff list, active, compliant: p99`,
        value: ms(latCompliant.p99),
        unit: 'ms',
        anchor: ms(latPlain.p99),
        anchorNote: 'the plain active list p99',
        target: ms(GOALS.complianceVsPlain * latPlain.p99),
      },
      { name: `${label}: staff list, active, not compliant: p50`, value: ms(latNotCompliant.p50), unit: 'ms' },
      {
        name: `${label}: staff list, active, not compliant: p99`,
        value: ms(latNotCompliant.p99),
        unit: 'ms',
        anchor: ms(latPlain.p99),
        anchorNote: 'the plain active list p99',
        target: ms(GOALS.complianceVsPlain * latPlain.p99),
      },
      { name: `${label}: DueDoc60Days page 1: p50`, value: ms(latDue.p50), unit: 'ms' },
      { name: `${label}: DueDoc60Days page 1: p99`, value: ms(latDue.p99), unit: 'ms', target: GOALS.dueDocP99 },
      { name: `${label}: DueDoc60Days count SQL (uncached): p50`, value: ms(dueCountLat.p50), unit: 'ms' },
      { name: `${label}: week grid 100 staff × 7 days: p50`, value: ms(latWeek.p50), unit: 'ms' },
      {
        name: `${label}: week grid 100 staff × 7 days: p99`,
        value: ms(latWeek.p99),
        unit: 'ms',
        target: GOALS.availabilityP99,
      },
      {
        name: `${label}: staff PUT, sequential`,
        value: Math.round(putNow.seq),
        unit: 'req/s',
        ...(putOld ? { anchor: Math.round(putOld.seq), anchorNote: 'the product before issue 6' } : {}),
      },
      {
        name: `${label}: staff PUT, ${CONCURRENCY} connections`,
        value: Math.round(putNow.conc),
        unit: 'req/s',
        ...(putOld ? { anchor: Math.round(putOld.conc), anchorNote: 'the product before issue 6' } : {}),
      },
    ];
    if (putOld) {
      for (const [n, v] of [
        ['sequential', putNow.seq / putOld.seq],
        [`${CONCURRENCY} connections`, putNow.conc / putOld.conc],
      ] as const)
        metrics.push({
          name: `${label}: staff PUT now / before issue 6, ${n} (goal ≥ ${GOALS.putShare})`,
          value: round(v),
          unit: '×',
          note: v >= GOALS.putShare ? 'met' : 'NOT met',
        });
    }
    const latDetails = (l: Latency) => ({
      p50: +l.p50.toFixed(3),
      p99: +l.p99.toFixed(3),
      mean: +l.mean.toFixed(3),
      answers: l.statuses,
    });
    return {
      metrics,
      plans,
      details: {
        database: version,
        staff: CANDIDATES,
        seeded: counts,
        seed_seconds: {
          staff: round(staffSeconds, 1),
          documents_compliance_availability: round(workflowSeconds, 1),
          steps: seedSteps,
        },
        compliance_checked_against_rules: checked,
        latency_ms: {
          staff_active: latDetails(latPlain),
          staff_compliant: latDetails(latCompliant),
          staff_not_compliant: latDetails(latNotCompliant),
          due_doc_60_days: latDetails(latDue),
          week_grid: latDetails(latWeek),
        },
        due_doc_count_sql_ms: { p50: round(dueCountLat.p50, 3), max: round(dueCountLat.p99, 3) },
        compliance_p99_vs_plain: {
          compliant: round(ratioC),
          not_compliant: round(ratioN),
          goal: GOALS.complianceVsPlain,
        },
        put: {
          fair_load:
            'each PUT edits a different active staff member with the version read just before its round: no row-lock waits, no 409',
          rounds: ROUNDS,
          round_ms: THROUGHPUT_MS,
          rps: Object.fromEntries(Object.entries(putRps).map(([k, v]) => [k, v.map(Math.round)])),
          p50_ms: Object.fromEntries(Object.entries(putMs).map(([k, v]) => [k, round(pct(v, 50), 3)])),
          p99_ms: Object.fromEntries(Object.entries(putMs).map(([k, v]) => [k, round(pct(v, 99), 3)])),
          audit_entries: audited,
          baseline: baseline ? { checkout: BASELINE, head: baseline.commit } : 'not run (set BENCH_BASELINE)',
        },
        explain: plans.map(({ plan, ...p }) => ({ ...p, plan: plan.split('\n') })),
      },
    };
  } finally {
    await gen.close();
    await app.close();
    await baseline?.close();
  }
}

export async function runWorkflow(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`${CANDIDATES} staff, ${CANDIDATES * CATEGORIES.length} documents`);
  const details: Record<string, unknown> = { load_average_before: round(load) };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const workflow: Benchmark = {
  name: 'workflow',
  description: `compliance filter, document report, availability grid and staff PUT throughput, ${CANDIDATES} staff with 10 documents each (PostgreSQL)`,
  run: () => runWorkflow(),
};

// Alone: npx tsx bench/workflow.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('workflow', runWorkflow, LABEL);
