import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../server/app';
import type { Db } from '../server/db';
import { LoginThrottle } from '../server/auth/throttle';
import { agencyZone } from '../server/engine/routes';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../core/domain/time/agencyTime';
import {
  announceRun,
  backendCpuBetween,
  backendCpuMs,
  machine,
  median,
  onEachDatabase,
  runAlone,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD, capturing, explain, pct, seed, type PlanReport } from './lists';
import { seedShiftsAtScale } from './shifts';
import { seedWorkflow } from './workflow';
import { listFieldsOf } from '../core/engine/listFields';
import { shifts as shiftsDecl } from '../core/resources/shifts/resource';
import { candidates as candidatesDecl } from '../core/resources/candidates/resource';

/**
 * The shift list at scale (issue 16, "Performance"): the slowest call of the product, measured under the load the
 * issue names and beside the staff list, with what each request costs in CPU.
 *
 * For each database (PostgreSQL in a throwaway schema by default; `--db pglite` too):
 *  - seeds 10,000 staff with their documents (bench/lists.ts, bench/workflow.ts) and 100,000 shifts
 *    (bench/shifts.ts: 80,000 booked over 20 weeks, 18,000 open, a week of 2,000);
 *  - GET /api/shifts as the list screen asks it (a tab: open, assigned or closed; pages 1-20 of 25, sorted by
 *    start), CONNECTIONS connections for SECONDS, ROUNDS times, alternating with the staff list
 *    (GET /api/candidates, active, by last name, as bench/lists.ts asks it) under the same load: req/s, p50 and
 *    p99 of each round; goal for the shift list ≥ 800 req/s and p99 ≤ 100 ms on PostgreSQL;
 *  - staff PUT and shift assign (every booking check) at WRITE_CONNECTIONS connections: req/s;
 *  - for each, the CPU time per request of the server process (process.cpuUsage: the load comes from a child
 *    process) and of the PostgreSQL server processes serving its pool (/proc, when the server is on this
 *    machine): numbers that hold on a busy machine, where req/s and latencies do not;
 *  - prints EXPLAIN ANALYZE of the list's page and count statements.
 *
 * `BENCH_CPU_PROF=<file>` adds one unmeasured round of the shift list under the V8 profiler, written to <file>
 * (open it in Chrome's DevTools), and prints where its time went.
 *
 * `npm run bench -- shiftList`, or alone: `npx tsx bench/shiftList.ts [--db pglite|postgres]`.
 * Knobs: BENCH_SHIFT_LIST_SECONDS (30), BENCH_SHIFT_LIST_ROUNDS (3), BENCH_SHIFT_LIST_CONNECTIONS (50),
 * BENCH_SHIFT_LIST_WRITES (400 PUTs and as many assigns).
 */

const STAFF = 10_000;
const SECONDS = Number(process.env.BENCH_SHIFT_LIST_SECONDS || 30);
const ROUNDS = Number(process.env.BENCH_SHIFT_LIST_ROUNDS || 3);
const CONNECTIONS = Number(process.env.BENCH_SHIFT_LIST_CONNECTIONS || 50);
const WRITES = Number(process.env.BENCH_SHIFT_LIST_WRITES || 400);
const WRITE_CONNECTIONS = 10;
const WARMUP_SECONDS = 5;
const WRITE_WARMUP = 30;
const PER_PAGE = 25;
const PAGES = 20;
const TABS = ['open', 'assigned', 'closed'] as const;
const GOALS = { rps: 800, p99: 100 };

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

export interface Req {
  method?: 'GET' | 'PUT' | 'POST';
  path: string;
  body?: Record<string, unknown>;
}

/**
 * The load generator, a child process of its own (so the server's process.cpuUsage is the server's alone). It
 * reads a job on stdin, runs an unmeasured warm-up, says "start" on stdout, then sends the requests from
 * `connections` connections: round and round until `seconds` have passed (`cycle`), or each once. Its last line
 * is the result.
 */
const LOADGEN = `
const { Pool } = require(process.argv[1]);
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', async () => {
  const job = JSON.parse(input);
  const pool = new Pool(job.origin, { connections: job.connections, pipelining: 1 });
  const one = async (r) => {
    const t = performance.now();
    const res = await pool.request({ method: r.method || 'GET', path: r.path, body: r.body ? JSON.stringify(r.body) : undefined,
      headers: r.body ? { ...job.headers, 'content-type': 'application/json' } : job.headers });
    await res.body.text();
    return { ms: performance.now() - t, status: res.statusCode };
  };
  const run = async (requests, cycle, seconds) => {
    const ms = [], statuses = {};
    let next = 0;
    const t0 = performance.now(), deadline = t0 + seconds * 1000;
    const loop = async () => {
      while (cycle ? performance.now() < deadline : next < requests.length) {
        const r = await one(requests[next++ % requests.length]);
        ms.push(r.ms);
        statuses[r.status] = (statuses[r.status] || 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: job.connections }, loop));
    return { ms, statuses, seconds: (performance.now() - t0) / 1000 };
  };
  if (job.warmup.length) await run(job.warmup, job.cycle, job.warmupSeconds);
  process.stdout.write('start\\n');
  const cpu = process.cpuUsage();
  const r = await run(job.requests, job.cycle, job.seconds);
  const used = process.cpuUsage(cpu);
  await pool.close();
  process.stdout.write(JSON.stringify({ ...r, cpuMs: (used.user + used.system) / 1000 }) + '\\n');
});
`;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  seconds: number;
  statuses: Record<string, number>;
  /**
   * CPU ms per request: the server process (with PGlite, the database too), PostgreSQL's processes, and the load
   * generator's.
   */
  cpu: { server: number; database?: number; client: number };
}

/** Runs one load from a child process; CPU is read when the measured part starts and when it ends. */
export async function load(
  raw: Db,
  job: {
    origin: string;
    headers: Record<string, string>;
    connections: number;
    requests: Req[];
    warmup: Req[];
    cycle: boolean;
    seconds?: number;
  },
): Promise<Load> {
  const child = spawn(process.execPath, ['-e', LOADGEN, createRequire(import.meta.url).resolve('undici')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let startSeen: () => void;
  const started = new Promise<void>((ok) => (startSeen = ok));
  child.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('start\n')) startSeen();
  });
  const exited = new Promise<number | null>((ok) => child.on('exit', ok));
  child.stdin.end(JSON.stringify({ ...job, seconds: job.seconds ?? 0, warmupSeconds: WARMUP_SECONDS }));
  await Promise.race([started, exited]);
  const began = { cpu: process.cpuUsage(), db: await backendCpuMs(raw) };
  const code = await exited;
  const cpu = process.cpuUsage(began.cpu);
  const db = await backendCpuMs(raw);
  const last = out.trim().split('\n').pop()!;
  if (code !== 0 || last === 'start') throw new Error(`the load generator ended with ${code}`);
  const r = JSON.parse(last) as { ms: number[]; statuses: Record<string, number>; seconds: number; cpuMs: number };
  const bad = Object.keys(r.statuses).filter((s) => s !== '200');
  if (bad.length) throw new Error(`unexpected answers ${JSON.stringify(r.statuses)}`);
  const n = r.ms.length;
  return {
    rps: n / r.seconds,
    p50: pct(r.ms, 50),
    p99: pct(r.ms, 99),
    requests: n,
    seconds: r.seconds,
    statuses: r.statuses,
    cpu: {
      server: (cpu.user + cpu.system) / 1000 / n,
      ...(raw.kind === 'postgres' && db.size ? { database: backendCpuBetween(began.db, db) / n } : {}),
      client: r.cpuMs / n,
    },
  };
}

/** V8's profile of one unmeasured round: where the server's own time went, by function and by package. */
async function profileRound(raw: Db, file: string, job: Parameters<typeof load>[1], log: (s: string) => void) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  await load(raw, job);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
  const total = profile.samples?.length ?? 0;
  const self = new Map<number, number>();
  for (const id of profile.samples ?? []) self.set(id, (self.get(id) ?? 0) + 1);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const node of profile.nodes) {
    const n = self.get(node.id) ?? 0;
    if (!n) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const place =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (/\/work\/[^/]+\/[^/]+\/(\w+)\//.exec(url)?.[1] ||
        (url.startsWith('node:') ? 'node:' : url ? url.replace(/^.*\//, '') : `(${functionName || 'native'})`));
    byPlace.set(place, (byPlace.get(place) ?? 0) + n);
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules\/|server\/|core\/)/, '$1')}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, n]) => `${((100 * n) / total).toFixed(1).padStart(5)} %  ${name}`);
  log(
    `CPU profile (${total} samples) written to ${file}; self time by place:\n      ${top(byPlace, 15).join('\n      ')}`,
  );
  log(`self time by function:\n      ${top(byFunction, 30).join('\n      ')}`);
}

async function benchOne(
  kind: Kind,
  raw: Db,
  version: string,
): Promise<{ metrics: Metric[]; details: Record<string, unknown>; plans: PlanReport[] }> {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const t0 = performance.now();
  const { merchantId } = await seed(raw, STAFF);
  const today = agencyToday(await agencyZone(raw, merchantId));
  await seedWorkflow(raw, merchantId, today, addDaysToDate(startOfWeekMonday(today), 7));
  await seedShiftsAtScale(raw, merchantId, today, WRITES + WRITE_WARMUP + 20);
  const counts = Object.fromEntries(
    (
      await raw.query<{ state: string; n: number }>(
        `select coalesce(case when deleted_at is not null then 'deleted' else status end, 'all') as state, count(*)::int as n
           from shifts where merchant_id = $1 group by rollup (case when deleted_at is not null then 'deleted' else status end)`,
        [merchantId],
      )
    ).map((r) => [r.state, r.n]),
  );
  log(
    `seeded ${STAFF} staff and ${counts.all} shifts (${JSON.stringify(counts)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const cap = capturing(raw);
  const app = await buildApp({
    db: cap.db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const login = await fetch(`${origin}/api/admin_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
    const headers = { authorization: `Bearer ${(await login.json()).token}` };
    const get = async (path: string) => {
      const r = await fetch(`${origin}${path}`, { headers });
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
      return r.json();
    };

    // The lists as their screens ask them: the tab's filter, the declaration's default sort, and the fields the
    // screen shows (listFieldsOf; the shift list shows the booked staff member's name, not the reference:
    // src/resources/shifts/index.tsx). A build without ?fields= (before issue 16) answers 400 to it: its screens
    // asked for whole records, and so does the bench then.
    const shiftFields = listFieldsOf(shiftsDecl).filter((f) => f !== 'candidate_id');
    const staffFields = listFieldsOf(candidatesDecl);
    const probe = await fetch(`${origin}/api/shifts?per_page=1&fields=${shiftFields.join(',')}`, { headers });
    const fieldsServed = probe.status === 200;
    await probe.text();
    if (!fieldsServed) log('this build answers ?fields= with 400: the screens asked for whole records');
    const only = (fields: string[], whole = false) => (fieldsServed && !whole ? `&fields=${fields.join(',')}` : '');
    const shiftPath = (tab: string, p: number, whole = false) =>
      `/api/shifts?page=${p}&per_page=${PER_PAGE}&sort=start_at&order=asc&state=${tab}${only(shiftFields, whole)}`;
    const staffPath = (p: number) =>
      `/api/candidates?page=${p}&per_page=${PER_PAGE}&status_value=approved&activated_value=true&sort=last_name&order=asc${only(staffFields)}`;
    let s = 5;
    const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const pages = Array.from({ length: 1000 }, (_, i) => ({
      tab: TABS[i % TABS.length],
      page: 1 + Math.floor(rnd() * PAGES),
    }));
    const shiftReqs: Req[] = pages.map((x) => ({ path: shiftPath(x.tab, x.page) }));
    const wholeReqs: Req[] = pages.map((x) => ({ path: shiftPath(x.tab, x.page, true) }));
    const staffReqs: Req[] = pages.map((x) => ({ path: staffPath(x.page) }));

    // The statements of a first request (page and count) and of a later one (its count cached), for EXPLAIN.
    const onShifts = (qs: { sql: string; params?: unknown[] }[]) => qs.filter((q) => /from "shifts" /.test(q.sql));
    const first = await cap.capture(() => get(shiftPath('open', PAGES)));
    const later = await cap.capture(() => get(shiftPath('open', PAGES - 1)));
    log(
      `a first list request ran ${first.length} statements (${first.map((q) => q.sql.slice(0, 40).replace(/\s+/g, ' ')).join(' | ')}); a later one ${later.length}`,
    );
    const [pageSql, countSql] = onShifts(first);
    const plans: PlanReport[] = [await explain(raw, `shift list, open, page ${PAGES}`, pageSql.sql, pageSql.params)];
    if (countSql) plans.push(await explain(raw, 'shift list count, open', countSql.sql, countSql.params));
    for (const p of plans)
      log(`EXPLAIN ${p.query}: ${p.nodes.join('; ')}${p.execution_ms !== undefined ? `, ${p.execution_ms} ms` : ''}`);

    // Sanity: every tab answers whole pages and the totals the seed holds.
    for (const tab of TABS) {
      const body = await get(shiftPath(tab, 1));
      if (body.total_count !== counts[tab] || body.data.length !== PER_PAGE)
        throw new Error(
          `the ${tab} tab answers ${body.total_count} shifts (${body.data.length} on page 1), the seed holds ${counts[tab]}`,
        );
    }
    const bytesOf = async (path: string) => (await (await fetch(`${origin}${path}`, { headers })).text()).length;
    const bytes = {
      screen: await bytesOf(shiftPath('assigned', 1)),
      whole: await bytesOf(shiftPath('assigned', 1, true)),
    };
    log(
      `the Assigned tab's first page is ${bytes.screen} bytes as the screen asks it, ${bytes.whole} with whole records`,
    );

    const listJob = (requests: Req[]) => ({
      origin,
      headers,
      connections: CONNECTIONS,
      requests,
      warmup: requests,
      cycle: true,
      seconds: SECONDS,
    });
    log(
      `lists: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, shift list and staff list alternating…`,
    );
    const say = (l: Load) =>
      `${l.rps.toFixed(0)} req/s, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, CPU ${l.cpu.server.toFixed(2)} ms/req server${l.cpu.database !== undefined ? ` + ${l.cpu.database.toFixed(2)} ms/req database` : ''} + ${l.cpu.client.toFixed(2)} ms/req load`;
    const rounds: { shifts: Load; staff: Load }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const shifts = await load(raw, listJob(shiftReqs));
      const staff = await load(raw, listJob(staffReqs));
      rounds.push({ shifts, staff });
      log(
        `round ${r + 1}: shift list ${say(shifts)}; staff list ${say(staff)}; load average ${loadavg()[0].toFixed(1)}`,
      );
    }
    // The API's default, whole records (what another program reading the list gets), once.
    const whole = fieldsServed ? await load(raw, listJob(wholeReqs)) : rounds[0].shifts;
    if (fieldsServed) log(`shift list with whole records: ${say(whole)}`);

    // Writes: each PUT edits a different active staff member with the version just read (no 409, no lock waits);
    // each assign books a different compliant staff member on their own open shift (every check passes).
    const staffRows = await raw.query<{ id: number; version: number }>(
      `select id, version from candidates where merchant_id = $1 and deleted_at is null and status = 'approved' and activated order by id limit $2`,
      [merchantId, WRITES + WRITE_WARMUP],
    );
    const puts: Req[] = staffRows.map((r, i) => ({
      method: 'PUT',
      path: `/api/candidates/${r.id}`,
      body: { notes: `Bench edit ${i}: prefers early shifts.`, version: r.version },
    }));
    const targets = await raw.query<{ id: number; candidate_id: number }>(
      `select id, substr(notes, 15)::int as candidate_id from shifts where merchant_id = $1 and notes like 'assign-target:%' order by id limit $2`,
      [merchantId, WRITES + WRITE_WARMUP],
    );
    const assigns: Req[] = targets.map((t) => ({
      method: 'POST',
      path: `/api/shifts/${t.id}/actions/assign`,
      body: { candidate_id: t.candidate_id },
    }));
    if (puts.length < WRITES + WRITE_WARMUP || assigns.length < WRITES + WRITE_WARMUP)
      throw new Error(`only ${puts.length} staff to edit and ${assigns.length} shifts to assign`);
    const writeJob = (requests: Req[]) => ({
      origin,
      headers,
      connections: WRITE_CONNECTIONS,
      requests: requests.slice(WRITE_WARMUP),
      warmup: requests.slice(0, WRITE_WARMUP),
      cycle: false,
    });
    const put = await load(raw, writeJob(puts));
    const assign = await load(raw, writeJob(assigns));
    for (const [name, l] of [
      ['staff PUT', put],
      ['shift assign', assign],
    ] as const)
      log(
        `${name}: ${l.rps.toFixed(0)} req/s at ${WRITE_CONNECTIONS} connections (${l.requests} requests), p50 ${l.p50.toFixed(1)} ms, CPU ${l.cpu.server.toFixed(2)} ms/req server${l.cpu.database !== undefined ? ` + ${l.cpu.database.toFixed(2)} ms/req database` : ''}`,
      );

    if (process.env.BENCH_CPU_PROF)
      await profileRound(raw, process.env.BENCH_CPU_PROF, { ...listJob(shiftReqs), seconds: 10 }, log);

    const of = (k: 'shifts' | 'staff', f: (l: Load) => number) => rounds.map((r) => f(r[k]));
    const best = (xs: number[], high = true) => (high ? Math.max(...xs) : Math.min(...xs));
    const sRps = of('shifts', (l) => l.rps);
    const sP99 = of('shifts', (l) => l.p99);
    // CPU per request, in ms: the server's, then PostgreSQL's (median of the rounds for the lists).
    const cores = machine().cores;
    const cpu = (name: string, loads: Load[]): Metric[] => [
      {
        name: `${label}: ${name}: server CPU per request`,
        value: round(median(loads.map((l) => l.cpu.server)), 3),
        unit: 'ms/req',
      },
      ...(loads.every((l) => l.cpu.database !== undefined)
        ? [
            {
              name: `${label}: ${name}: database CPU per request`,
              value: round(median(loads.map((l) => l.cpu.database!)), 3),
              unit: 'ms/req',
            },
          ]
        : []),
      ...(loads.every((l) => l.cpu.database !== undefined)
        ? [
            {
              // What the machine's cores could serve doing nothing else: a bound that holds however busy it is now.
              name: `${label}: ${name}: req/s the ${cores} cores could serve (CPU of server, database and load)`,
              value: Math.round(
                median(loads.map((l) => (cores * 1000) / (l.cpu.server + l.cpu.database! + l.cpu.client))),
              ),
              unit: 'req/s',
            },
          ]
        : []),
    ];
    const metrics: Metric[] = [
      {
        name: `${label}: shift list, ${CONNECTIONS} conns: req/s, best of ${ROUNDS}`,
        value: Math.round(best(sRps)),
        unit: 'req/s',
        note: best(sRps) >= GOALS.rps ? `goal ≥ ${GOALS.rps} met` : `goal ≥ ${GOALS.rps} NOT met`,
      },
      {
        name: `${label}: shift list, ${CONNECTIONS} conns: req/s, median`,
        value: Math.round(median(sRps)),
        unit: 'req/s',
      },
      { name: `${label}: shift list: p50, median round`, value: round(median(of('shifts', (l) => l.p50))), unit: 'ms' },
      { name: `${label}: shift list: p99, best round`, value: round(best(sP99, false)), unit: 'ms', target: GOALS.p99 },
      { name: `${label}: shift list: p99, median round`, value: round(median(sP99)), unit: 'ms', target: GOALS.p99 },
      ...cpu(
        'shift list',
        rounds.map((r) => r.shifts),
      ),
      {
        name: `${label}: shift list, whole records (no ?fields=), ${CONNECTIONS} conns: req/s`,
        value: Math.round(whole.rps),
        unit: 'req/s',
      },
      ...cpu('shift list, whole records', [whole]),
      {
        name: `${label}: staff list, ${CONNECTIONS} conns: req/s, median`,
        value: Math.round(median(of('staff', (l) => l.rps))),
        unit: 'req/s',
      },
      { name: `${label}: staff list: p99, median round`, value: round(median(of('staff', (l) => l.p99))), unit: 'ms' },
      ...cpu(
        'staff list',
        rounds.map((r) => r.staff),
      ),
      { name: `${label}: staff PUT, ${WRITE_CONNECTIONS} conns`, value: Math.round(put.rps), unit: 'req/s' },
      ...cpu('staff PUT', [put]),
      { name: `${label}: shift assign, ${WRITE_CONNECTIONS} conns`, value: Math.round(assign.rps), unit: 'req/s' },
      ...cpu('shift assign', [assign]),
    ];
    const brief = (l: Load) => ({
      rps: Math.round(l.rps),
      p50_ms: round(l.p50),
      p99_ms: round(l.p99),
      requests: l.requests,
      cpu_ms_per_request: {
        server: round(l.cpu.server, 3),
        database: l.cpu.database && round(l.cpu.database, 3),
        load_generator: round(l.cpu.client, 3),
      },
    });
    return {
      metrics,
      plans,
      details: {
        database: version,
        shifts: counts,
        list_answer_bytes: bytes,
        fields_served: fieldsServed,
        shift_list_fields: fieldsServed ? shiftFields : 'whole records',
        shift_list_whole_records: brief(whole),
        statements: { first_request: first.length, later_request: later.length },
        rounds: rounds.map((r) => ({ shift_list: brief(r.shifts), staff_list: brief(r.staff) })),
        staff_put: brief(put),
        shift_assign: brief(assign),
        explain: plans.map(({ plan, ...p }) => ({ ...p, plan: plan.split('\n') })),
      },
    };
  } finally {
    await app.close();
  }
}

export async function runShiftList(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`${STAFF} staff, 100,000 shifts`);
  const details: Record<string, unknown> = {
    load_average_before: round(load),
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    write_connections: WRITE_CONNECTIONS,
  };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const shiftList: Benchmark = {
  name: 'shiftList',
  description: `shift list at ${CONNECTIONS} connections beside the staff list, staff PUT and shift assign, with CPU per request; 100,000 shifts (PostgreSQL)`,
  run: () => runShiftList(),
};

// Alone: npx tsx bench/shiftList.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('shiftList', runShiftList, LABEL);
