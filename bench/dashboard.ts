import { pathToFileURL } from 'node:url';
import type { Db } from '../server/db';
import { HOW_IT_IS_GOING_QUERY } from '../src/pages/HowItIsGoing';
import {
  announceRun,
  onEachDatabase,
  runAlone,
  signedInApp,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD, capturing, explain } from './lists';
import { SCALE_LINES, seedYear, timed, underLoad } from './scale';

/**
 * The agency dashboard's figures at the scale (issue 34, "Performance": 1,000,000 shifts and 1,000,000
 * timesheet lines, p99 ≤ 100 ms on PostgreSQL), on the bench agency of bench/scale.ts (10,000 staff with their
 * documents, a year of shifts and their timesheets). The screen's two requests, each REQUESTS times one after another
 * after a warm-up: Needs doing (GET /api/dashboard/needs_doing, every item in one statement) and How it is going
 * (the Client Report by week over the last 12 weeks, HOW_IT_IS_GOING_QUERY). p50, p99, CPU per request (the server
 * and PostgreSQL) and the load average beside each. Prints the plan of each statement (EXPLAIN ANALYZE).
 *
 * `npm run bench -- dashboard`, or alone: `npx tsx bench/dashboard.ts [--db pglite|postgres]`.
 * Knobs: BENCH_DASHBOARD_REQUESTS (200), BENCH_SCALE_LINES (1000000: a smaller scale for a quicker run).
 */
const REQUESTS = Number(process.env.BENCH_DASHBOARD_REQUESTS || 200);
const GOAL_P99_MS = 100;

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

async function benchOne(kind: Kind, raw: Db, version: string) {
  const log = (s: string) => console.log(`  [${LABEL[kind]}] ${s}`);
  const { sizes, seconds, steps } = await seedYear(raw);
  log(`seeded ${JSON.stringify(sizes)} in ${seconds.toFixed(1)} s (${JSON.stringify(steps)})`);
  const scale = `${sizes.shifts.toLocaleString('en-GB')} shifts, ${sizes.lines.toLocaleString('en-GB')} timesheet lines`;

  const cap = capturing(raw);
  const { app, headers } = await signedInApp(cap.db, BENCH_EMAIL, BENCH_PASSWORD);
  try {
    const figures: Record<string, unknown> = {};
    const asker = (name: string, url: string) => async () => {
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`${name} answered ${res.statusCode}: ${res.body}`);
      figures[name] = res.json().data;
    };
    const screens = {
      needs_doing: asker('needs_doing', '/api/dashboard/needs_doing'),
      how_it_is_going: asker('how_it_is_going', `/api/reports/client_activity?${HOW_IT_IS_GOING_QUERY}`),
    };
    const metrics: Metric[] = [];
    const results: Record<string, unknown> = {};
    const plans = [];
    for (const [name, ask] of Object.entries(screens)) {
      const t = await timed(raw, ask, REQUESTS, 20);
      results[name] = t;
      log(`${name}: ${REQUESTS} requests, p50 ${t.p50} ms, p99 ${t.p99} ms; ${underLoad(t)}`);
      metrics.push(
        { name: `${name} p50 (${LABEL[kind]})`, value: t.p50, unit: 'ms' },
        {
          name: `${name} p99 (${LABEL[kind]})`,
          value: t.p99,
          unit: 'ms',
          ...(kind === 'postgres' ? { target: GOAL_P99_MS } : {}),
          note: underLoad(t, scale),
        },
      );
      // Each statement's plan (EXPLAIN ANALYZE): which count or sum costs what, and its index.
      for (const [i, q] of (await cap.capture(ask)).entries())
        if (/^\s*(select|with)/i.test(q.sql) && !/from "?users"?|sessions/.test(q.sql))
          plans.push(await explain(raw, `${name} #${i + 1}`, q.sql, q.params));
    }
    return { metrics, details: { version, sizes, requests: REQUESTS, results, figures }, plans };
  } finally {
    await app.close();
  }
}

export async function runDashboard(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  announceRun(`a year of shifts, ${SCALE_LINES.toLocaleString('en-GB')} timesheet lines: the dashboard's figures`);
  const details: Record<string, unknown> = {};
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const dashboard: Benchmark = {
  name: 'dashboard',
  description: `the dashboard's Needs doing and How it is going (one request each), p50 and p99 over ${REQUESTS} requests; a year of ${SCALE_LINES.toLocaleString('en-GB')} timesheet lines and over a million shifts (PostgreSQL)`,
  run: () => runDashboard(),
};

// Alone: npx tsx bench/dashboard.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('dashboard', runDashboard, LABEL);
