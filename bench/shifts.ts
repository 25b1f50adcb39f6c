import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../server/app';
import type { Db, Queryable } from '../server/db';
import { LoginThrottle } from '../server/auth/throttle';
import { agencyZone } from '../server/engine/routes';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../core/domain/time/agencyTime';
import { BANDS } from '../core/domain/pricing/types';
import { seedRateSettings } from '../server/seed/rates';
import {
  askWorker,
  announceRun,
  onEachDatabase,
  runAlone,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { explain, pct, seed, type PlanReport } from './lists';
import { seedWorkflow } from './workflow';

/**
 * Booking at scale (issue 8, "Performance"), on PostgreSQL (a throwaway schema at 127.0.0.1; `--db pglite` too):
 *  - seeds the 10,000 staff of bench/lists.ts with their documents, compliance and availability (bench/workflow.ts),
 *    20 clients with 3 sites each and a rate card per client and job role, and 100,000 shifts in set-based inserts:
 *    every active staff member booked once a week for 20 weeks (80,000 assigned and closed shifts: the 17-week
 *    history the checks read), 18,000 open shifts over the same weeks, and one week ahead holding exactly 2,000;
 *  - 1. assign with every booking check (POST /api/shifts/:id/actions/assign): each request books a different
 *       staff member on a different open shift, all passing, so every answer is a 200 that ran the checks,
 *       stored the booking, re-priced and audited it: p50/p99, goal p99 ≤ 25 ms;
 *  - 2. the schedule's week (GET /api/schedule, 2,000 shifts with every name): p50/p99, goal p99 ≤ 100 ms;
 *  - prints EXPLAIN ANALYZE of the booking facts statement and the schedule's.
 *
 * `npm run bench -- shifts`, or alone: `npx tsx bench/shifts.ts [--db pglite|postgres]`.
 * Knobs: BENCH_SHIFT_STAFF (10000), BENCH_SHIFT_REQUESTS (300).
 */

const STAFF = Number(process.env.BENCH_SHIFT_STAFF || 10_000);
const REQUESTS = Number(process.env.BENCH_SHIFT_REQUESTS || 300);
const WARMUP = 30;
const CLIENTS = 20;
const HISTORY_WEEKS = 20; // weeks -16 … +3 around this week
const OPEN_SHIFTS = 18_000;
const WEEK_SHIFTS = 2_000;
const BENCH_EMAIL = 'bench-admin@bench.test';
const BENCH_PASSWORD = 'bench-password-1';
const GOALS = { assignP99: 25, scheduleP99: 100 };

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** Wraps the database so the bench sees the SQL a request runs, inside its transactions too (for EXPLAIN). */
function capturing(db: Db) {
  let log: { sql: string; params?: unknown[] }[] | null = null;
  const wrap = (q: Queryable): Queryable => ({
    // As the product's connection answers many rows (PGlite: as one JSON text).
    manyRowsAsJson: q.manyRowsAsJson,
    query: (sql, params) => (log?.push({ sql, params }), q.query(sql, params)),
  });
  const wrapped: Db = { ...db, ...wrap(db), transaction: (fn) => db.transaction((tx) => fn(wrap(tx))) };
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

/**
 * Clients, sites, rate cards and 100,000 shifts, all set-based, with `targets` open shifts to assign (one per staff
 * member compliant for the coming two months, noted 'assign-target:<staff id>'). Answers the Monday of the
 * measured schedule week and the week of the assign targets (both free of bookings).
 */
export async function seedShiftsAtScale(db: Db, merchantId: number, today: string, targets = REQUESTS + WARMUP + 50) {
  const monday = startOfWeekMonday(today);
  const firstWeek = addDaysToDate(monday, -16 * 7);
  const targetWeek = addDaysToDate(monday, 4 * 7);
  const scheduleWeek = addDaysToDate(monday, 5 * 7);
  await seedRateSettings(db, merchantId);
  await db.transaction(async (tx) => {
    await tx.query('select setseed(0.808)');
    await tx.query(
      `insert into clients (merchant_id, name, status) select $1, 'Bench Client ' || i, 'active' from generate_series(1, $2::int) as i`,
      [merchantId, CLIENTS],
    );
    await tx.query(
      `insert into sites (merchant_id, client_id, name, status)
        select c.merchant_id, c.id, c.name || ' site ' || s, 'active'
        from clients c cross join generate_series(1, 3) as s
        where c.merchant_id = $1`,
      [merchantId],
    );
    const cols = BANDS.flatMap((b) => [`pay_${b}`, `charge_${b}`]);
    await tx.query(
      `insert into rate_cards (merchant_id, client_id, site_id, job_role_id, effective_from, ${cols.join(', ')})
       select $1, c.id, null, r.id, $2::date - 400, ${BANDS.map((_, i) => `r.default_pay_rate + ${i * 100}, r.default_charge_rate + ${i * 150}`).join(', ')}
         from clients c cross join job_roles r where c.merchant_id = $1 and r.merchant_id = $1`,
      [merchantId, today],
    );
    // Active staff, numbered: staff n works at client n % CLIENTS, on weekday n % 5, once a week. The assign
    // targets are for staff compliant for the coming two months (cn numbers them).
    await tx.query(
      `create temporary table bench_staff on commit drop as
       select row_number() over (order by id) - 1 as n, id, job_role_id,
              case when compliance_complete and (compliance_valid_until is null or compliance_valid_until > $2::date + 60)
                   then row_number() over (partition by compliance_complete and (compliance_valid_until is null or compliance_valid_until > $2::date + 60) order by id) - 1 end as cn
         from candidates
        where merchant_id = $1 and status = 'approved' and activated and deleted_at is null and job_role_id is not null`,
      [merchantId, today],
    );
    await tx.query(
      `create temporary table bench_sites on commit drop as
       select row_number() over (order by c.id) - 1 as cn, c.id as client_id, (array_agg(s.id order by s.id))::int[] as site_ids
         from clients c join sites s on s.client_id = c.id where c.merchant_id = $1 group by c.id`,
      [merchantId],
    );
    const [{ n: active }] = await tx.query<{ n: number }>('select count(*)::int as n from bench_staff');
    const booked = Math.min(active, 4000);
    // 80,000 booked shifts: closed before this week, assigned from it. 12-hour days, one a week: no clash, no short
    // rest.
    await tx.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, break_minutes, status, candidate_id, paid_minutes, pay, charge, on_costs, margin, created_by)
       select $1, bs.client_id, bs.site_ids[1 + st.n % 3], st.job_role_id, t.s, t.s + interval '12 hours', 30,
              case when t.s < $3::date then 'closed' else 'assigned' end, st.id, 690, 10000, 15000, 1500, 3500, 'Bench'
         from bench_staff st
         join bench_sites bs on bs.cn = st.n % ${CLIENTS}
         cross join generate_series(0, ${HISTORY_WEEKS - 1}) as w
         cross join lateral (select ((($2::date + w * 7 + (st.n % 5)::int)::timestamp + time '08:00') at time zone 'Europe/London') as s) t
        where st.n < $4`,
      [merchantId, firstWeek, monday, booked],
    );
    // 18,000 open shifts over the same weeks.
    await tx.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, break_minutes, status, paid_minutes, pay, charge, on_costs, margin, created_by)
       select $1, bs.client_id, bs.site_ids[1 + i % 3], r.ids[1 + i % array_length(r.ids, 1)], t.s, t.s + interval '8 hours', 30, 'open', 450, 6000, 9000, 900, 2100, 'Bench'
         from generate_series(0, $3::int - 1) as i
         join bench_sites bs on bs.cn = i % ${CLIENTS}
         cross join (select array_agg(id order by id) as ids from job_roles where merchant_id = $1) r
         cross join lateral (select ((($2::date + (i % ${HISTORY_WEEKS * 7}))::timestamp + (array[time '07:00', time '14:00', time '20:00'])[1 + i % 3]) at time zone 'Europe/London') as s) t`,
      [merchantId, firstWeek, OPEN_SHIFTS],
    );
    // The assign targets: one open shift per staff member (the next ones after the booked), in the target week, in
    // their role.
    await tx.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, break_minutes, status, paid_minutes, pay, charge, on_costs, margin, notes, created_by)
       select $1, bs.client_id, bs.site_ids[1], st.job_role_id, t.s, t.s + interval '8 hours', 30, 'open', 450, 6000, 9000, 900, 2100, 'assign-target:' || st.id, 'Bench'
         from bench_staff st join bench_sites bs on bs.cn = st.n % ${CLIENTS}
         cross join lateral (select ((($2::date + (st.cn % 5)::int)::timestamp + time '08:00') at time zone 'Europe/London') as s) t
        where st.cn < $3`,
      [merchantId, targetWeek, targets],
    );
    // The schedule week: 2,000 shifts, three in four booked (to staff free that week), with a few targets counted out.
    await tx.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, break_minutes, status, candidate_id, paid_minutes, pay, charge, on_costs, margin, created_by)
       select $1, bs.client_id, bs.site_ids[1 + st.n % 3], st.job_role_id, t.s, t.s + interval '12 hours', 30,
              case when st.n % 4 = 3 then 'open' else 'assigned' end, case when st.n % 4 = 3 then null else st.id end, 690, 10000, 15000, 1500, 3500, 'Bench'
         from bench_staff st join bench_sites bs on bs.cn = st.n % ${CLIENTS}
         cross join lateral (select ((($2::date + (st.n % 7)::int)::timestamp + (array[time '08:00', time '20:00'])[1 + st.n % 2]) at time zone 'Europe/London') as s) t
        where st.n < $3`,
      [merchantId, scheduleWeek, WEEK_SHIFTS],
    );
    // Each shift's price as the pricing stores it (two bands, the hours split between them), as real shifts have.
    await tx.query(
      `update shifts set price_lines = jsonb_build_array(
         jsonb_build_object('start', start_at, 'end', start_at + (end_at - start_at) / 2, 'band', 'weekday_day',
           'minutes', paid_minutes / 2, 'hours', paid_minutes / 120.0, 'pay_rate', 1300, 'charge_rate', 1850,
           'pay', pay / 2, 'charge', charge / 2),
         jsonb_build_object('start', start_at + (end_at - start_at) / 2, 'end', end_at, 'band', 'weekday_night',
           'minutes', paid_minutes - paid_minutes / 2, 'hours', (paid_minutes - paid_minutes / 2) / 60.0,
           'pay_rate', 1400, 'charge_rate', 2000, 'pay', pay - pay / 2, 'charge', charge - charge / 2))
        where merchant_id = $1`,
      [merchantId],
    );
  });
  await db.query('vacuum analyze shifts');
  await db.query('vacuum analyze rate_cards');
  return { scheduleWeek, targetWeek };
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { Pool } = require(workerData.undici);
const pools = new Map();
const pool = (origin) => { if (!pools.has(origin)) pools.set(origin, new Pool(origin, { connections: 1, pipelining: 1 })); return pools.get(origin); };
async function one(origin, r, headers) {
  const t = performance.now();
  const res = await pool(origin).request({ method: r.method || 'GET', path: r.path, headers: r.body ? { ...headers, 'content-type': 'application/json' } : headers, body: r.body ? JSON.stringify(r.body) : undefined });
  await res.body.text();
  return { ms: performance.now() - t, status: res.statusCode };
}
parentPort.on('message', async (job) => {
  try {
    const statuses = {};
    const ms = [];
    for (let i = 0; i < job.requests.length; i++) {
      const r = await one(job.origin, job.requests[i], job.headers);
      if (i >= job.warmup) { ms.push(r.ms); statuses[r.status] = (statuses[r.status] || 0) + 1; }
    }
    parentPort.postMessage({ ms, statuses });
  } catch (e) { parentPort.postMessage({ error: String(e && e.stack || e) }); }
});
`;

interface Req {
  method?: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
}

async function benchOne(
  kind: Kind,
  raw: Db,
  version: string,
): Promise<{ metrics: Metric[]; details: Record<string, unknown>; plans: PlanReport[] }> {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const { merchantId, seconds: staffSeconds } = await seed(raw, STAFF);
  const today = agencyToday(await agencyZone(raw, merchantId));
  const t0 = performance.now();
  await seedWorkflow(raw, merchantId, today, addDaysToDate(startOfWeekMonday(today), 7));
  const { scheduleWeek } = await seedShiftsAtScale(raw, merchantId, today);
  const [counts] = await raw.query<Record<string, number>>(
    `select count(*)::int as shifts, count(*) filter (where candidate_id is not null)::int as booked,
            (select count(*)::int from candidates where merchant_id = $1 and deleted_at is null) as staff,
            count(*) filter (where start_at >= $2::date and start_at < $2::date + 7)::int as week
       from shifts where merchant_id = $1`,
    [merchantId, scheduleWeek],
  );
  log(
    `seeded ${counts.staff} staff in ${staffSeconds.toFixed(1)} s, then documents and ${counts.shifts} shifts (${counts.booked} booked, ${counts.week} in the schedule week) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const cap = capturing(raw);
  const app = await buildApp({
    db: cap.db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { undici: createRequire(import.meta.url).resolve('undici') },
  });
  try {
    const login = await fetch(`${origin}/api/admin_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
    const headers = { authorization: `Bearer ${(await login.json()).token}` };
    const targets = await raw.query<{ id: number; candidate_id: number }>(
      `select id, substr(notes, 15)::int as candidate_id from shifts where merchant_id = $1 and notes like 'assign-target:%' order by id`,
      [merchantId],
    );
    // Sanity: the first target passes every check, so the bench measures the whole booking.
    const [first, ...rest] = targets;
    const check = await (
      await fetch(`${origin}/api/shifts/${first.id}/check?candidate_id=${first.candidate_id}`, { headers })
    ).json();
    if (!check.data?.passes || check.data.soft.length)
      throw new Error(`the bench's bookings should pass every check: ${JSON.stringify(check).slice(0, 400)}`);
    const captured = await cap.capture(() =>
      fetch(`${origin}/api/shifts/${first.id}/actions/assign`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ candidate_id: first.candidate_id }),
      }).then((r) => r.text()),
    );
    const factsSql = captured.find((q) => /as awr_weeks/.test(q.sql))!;
    if (!factsSql) throw new Error('the booking facts statement was not seen');
    log(
      `one assign ran ${captured.length} statements: ${captured.map((q) => q.sql.trim().split(/\s+/).slice(0, 2).join(' ')).join(' | ')}`,
    );

    const run = async (name: string, requests: Req[]) => {
      const r = await askWorker<{ ms: number[]; statuses: Record<string, number> }>(worker, {
        origin,
        headers,
        requests,
        warmup: WARMUP,
      });
      if (Object.keys(r.statuses).some((s) => s !== '200'))
        throw new Error(`${name}: unexpected answers ${JSON.stringify(r.statuses)}`);
      const out = { p50: pct(r.ms, 50), p99: pct(r.ms, 99), n: r.ms.length };
      log(
        `${name}: p50 ${out.p50.toFixed(2)} ms, p99 ${out.p99.toFixed(2)} ms (${out.n} requests after ${WARMUP} warm-up)`,
      );
      return out;
    };
    const assigns = rest.slice(0, REQUESTS + WARMUP).map((s) => ({
      method: 'POST' as const,
      path: `/api/shifts/${s.id}/actions/assign`,
      body: { candidate_id: s.candidate_id },
    }));
    const assign = await run('assign with every booking check', assigns);
    const weekPath = `/api/schedule?from=${scheduleWeek}&to=${addDaysToDate(scheduleWeek, 7)}`;
    const body = await (await fetch(`${origin}${weekPath}`, { headers })).json();
    if (body.data?.length !== counts.week)
      throw new Error(`the schedule week answers ${body.data?.length} shifts, the seed holds ${counts.week}`);
    const scheduleSql = (
      await cap.capture(() => fetch(`${origin}${weekPath}`, { headers }).then((r) => r.text()))
    ).find((q) => /with s as materialized/.test(q.sql))!;
    const schedule = await run(
      `schedule week (${WEEK_SHIFTS} shifts)`,
      Array.from({ length: Math.min(REQUESTS, 200) + WARMUP }, () => ({ path: weekPath })),
    );
    const plans = [
      await explain(raw, 'booking facts (one staff member)', factsSql.sql, factsSql.params),
      await explain(raw, 'schedule week', scheduleSql.sql, scheduleSql.params),
    ];
    for (const p of plans)
      log(`EXPLAIN ${p.query}: ${p.nodes.join('; ')}${p.execution_ms !== undefined ? `, ${p.execution_ms} ms` : ''}`);
    const metrics: Metric[] = [
      { name: `${label}: assign with booking checks: p50`, value: round(assign.p50), unit: 'ms' },
      {
        name: `${label}: assign with booking checks: p99`,
        value: round(assign.p99),
        unit: 'ms',
        target: GOALS.assignP99,
        note: assign.p99 <= GOALS.assignP99 ? 'met' : 'NOT met',
      },
      { name: `${label}: schedule week (${WEEK_SHIFTS} shifts): p50`, value: round(schedule.p50), unit: 'ms' },
      {
        name: `${label}: schedule week (${WEEK_SHIFTS} shifts): p99`,
        value: round(schedule.p99),
        unit: 'ms',
        target: GOALS.scheduleP99,
        note: schedule.p99 <= GOALS.scheduleP99 ? 'met' : 'NOT met',
      },
    ];
    return {
      metrics,
      plans,
      details: {
        database: version,
        seeded: counts,
        statements_per_assign: captured.length,
        latency_ms: { assign, schedule },
        explain: plans.map(({ plan, ...p }) => ({ ...p, plan: plan.split('\n') })),
      },
    };
  } finally {
    await worker.terminate();
    await app.close();
  }
}

export async function runShifts(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`${STAFF} staff, 100,000 shifts`);
  const details: Record<string, unknown> = { load_average_before: round(load) };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const shifts: Benchmark = {
  name: 'shifts',
  description: `assign with every booking check and the schedule week, ${STAFF} staff and 100,000 shifts (PostgreSQL)`,
  run: () => runShifts(),
};

// Alone: npx tsx bench/shifts.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('shifts', runShifts, LABEL);
