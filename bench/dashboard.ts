import { pathToFileURL } from 'node:url';
import type { Db } from '../server/db';
import { agencyZone } from '../server/engine/routes';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../core/domain/time/agencyTime';
import {
  announceRun,
  median,
  onEachDatabase,
  runAlone,
  signedInApp,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD, capturing, explain, pct, seed } from './lists';
import { seedShiftsAtScale } from './shifts';
import { seedWorkflow } from './workflow';

/**
 * The agency dashboard's "Needs doing" figures (issue 34): GET /api/dashboard/needs_doing, every item of the queue
 * counted in one statement, on the shift list's bench agency (bench/shiftList.ts: 10,000 staff with their documents
 * and a week of timesheets, 100,000 shifts). REQUESTS requests one after another after WARMUP: p50 and p99; goal
 * p99 ≤ 100 ms on PostgreSQL (the goal is at 1,000,000 shifts and timesheet lines, which this seed does not
 * reach: the numbers say the scale measured). Prints the plan of the statement (EXPLAIN ANALYZE), item by item.
 *
 * `npm run bench -- dashboard`, or alone: `npx tsx bench/dashboard.ts [--db pglite|postgres]`.
 */
const STAFF = 10_000;
const WARMUP = 20;
const REQUESTS = Number(process.env.BENCH_DASHBOARD_REQUESTS || 200);
const GOAL_P99_MS = 100;

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

async function benchOne(kind: Kind, raw: Db, version: string) {
  const log = (s: string) => console.log(`  [${LABEL[kind]}] ${s}`);
  const t0 = performance.now();
  const { merchantId } = await seed(raw, STAFF);
  const today = agencyToday(await agencyZone(raw, merchantId));
  await seedWorkflow(raw, merchantId, today, addDaysToDate(startOfWeekMonday(today), 7));
  await seedShiftsAtScale(raw, merchantId, today);
  const [sizes] = await raw.query<{ shifts: number; lines: number; documents: number }>(
    `select (select count(*)::int from shifts where merchant_id = $1) as shifts,
            (select count(*)::int from timesheet_lines where merchant_id = $1) as lines,
            (select count(*)::int from candidate_documents where merchant_id = $1) as documents`,
    [merchantId],
  );
  log(`seeded ${JSON.stringify(sizes)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const cap = capturing(raw);
  const { app, headers } = await signedInApp(cap.db, BENCH_EMAIL, BENCH_PASSWORD);
  try {
    let figures: unknown;
    const ask = async () => {
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url: '/api/dashboard/needs_doing', headers });
      const ms = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`needs_doing answered ${res.statusCode}: ${res.body}`);
      figures = res.json().data;
      return ms;
    };
    for (let i = 0; i < WARMUP; i++) await ask();
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) times.push(await ask());
    const p50 = median(times);
    const p99 = pct(times, 99);
    log(`${REQUESTS} requests: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    const metrics: Metric[] = [
      { name: `needs_doing p50 (${LABEL[kind]})`, value: Math.round(p50 * 10) / 10, unit: 'ms' },
      {
        name: `needs_doing p99 (${LABEL[kind]})`,
        value: Math.round(p99 * 10) / 10,
        unit: 'ms',
        ...(kind === 'postgres' ? { target: GOAL_P99_MS } : {}),
        note: `${sizes.shifts} shifts, ${sizes.lines} timesheet lines, ${sizes.documents} documents`,
      },
    ];
    // The one statement's plan, with each item's time (EXPLAIN ANALYZE): which count costs what, and its index.
    const statements = await cap.capture(ask);
    const counted = statements.find((q) => q.sql.includes('cross join'))!;
    const plan = await explain(raw, 'needs_doing', counted.sql, counted.params);
    return { metrics, details: { version, sizes, requests: REQUESTS, p50, p99, figures }, plans: [plan] };
  } finally {
    await app.close();
  }
}

export async function runDashboard(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  announceRun(`${STAFF} staff, 100,000 shifts: the dashboard's figures`);
  const details: Record<string, unknown> = {};
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const dashboard: Benchmark = {
  name: 'dashboard',
  description: `the dashboard's Needs doing figures (one request), p50 and p99 over ${REQUESTS} requests; 100,000 shifts (PostgreSQL)`,
  run: () => runDashboard(),
};

// Alone: npx tsx bench/dashboard.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('dashboard', runDashboard, LABEL);
