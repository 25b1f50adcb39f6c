import { pathToFileURL } from 'node:url';
import type { Db, Queryable } from '../server/db';
import { claimJob, runStep, workerName } from '../server/jobs/queue';
import {
  announceRun,
  backendCpuBetween,
  backendCpuMs,
  onEachDatabase,
  runAlone,
  signedInApp,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD } from './lists';
import { migrate } from '../server/db/migrate';
import { createAgency } from '../server/seed/index';
import { RUN_STEP_STAFF } from '../server/services/payroll';

/**
 * A weekly pay run (issue 33, "Performance"): STAFF staff members with LINES verified timesheet lines in one week
 * (LINES / STAFF each: three shifts a day, 7 hours each, at one of 100 sites of 50 clients), seeded set-based; the
 * run as the agency's admin starts it (`POST /api/pay_runs/actions/generate`, answered 202 with its job) and a worker
 * runs the job to its end, RUN_STEP_STAFF staff a step: request to the last step's commit. Goal: ≤ 10 s. Every
 * statement of the run is counted per step (the job's own bookkeeping included): a fixed number whatever the lines
 * or staff of the step. The run's payslips and lines are checked against the seeded lines.
 *
 * `npm run bench -- payRuns`, or alone: `npx tsx bench/payRuns.ts [--db pglite|postgres]` (PostgreSQL by default:
 * the goal is on PostgreSQL). Knobs: BENCH_PAY_STAFF (5000), BENCH_PAY_LINES (100000).
 */
const STAFF = Number(process.env.BENCH_PAY_STAFF || 5000);
const LINES = Number(process.env.BENCH_PAY_LINES || 100_000);
const PER_STAFF = LINES / STAFF;
const SITES = 100;
const GOAL_MS = 10_000;
const FROM = '2026-11-02';
const TO = '2026-11-08';
const TZ = 'Europe/London';

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function seed(db: Db) {
  await migrate(db);
  const merchantId = await db.transaction(async (tx) => {
    const { merchantId } = await createAgency(tx, {
      companyName: 'Bench Payroll',
      adminName: 'Bench Admin',
      email: BENCH_EMAIL,
      password: BENCH_PASSWORD,
    });
    await tx.query(
      `insert into job_roles (merchant_id, name, code, default_pay_rate, default_charge_rate)
       select $1, r, upper(left(r, 3)), 1200 + 100 * i, 1700 + 150 * i
         from unnest(array['Healthcare Assistant', 'Registered Nurse', 'Senior Carer', 'Support Worker']) with ordinality as x(r, i)`,
      [merchantId],
    );
    // Tax codes and NI letters varied as an agency's are (a fifth without a code: 0T week 1).
    await tx.query(
      `insert into candidates (merchant_id, first_name, last_name, email, status, activated, tax_code, ni_category)
       select $1, 'Staff', 'Member ' || i, 'staff' || i || '@bench.example', 'approved', true,
              (array['1257L', '1257L', 'S1257L', 'BR', null])[1 + i % 5], (array['A', 'A', 'A', 'H', 'M'])[1 + i % 5]
         from generate_series(1, $2::int) as i`,
      [merchantId, STAFF],
    );
    await tx.query(
      `insert into clients (merchant_id, name, status) select $1, 'Bench Client ' || i, 'active' from generate_series(1, $2::int) as i`,
      [merchantId, SITES / 2],
    );
    await tx.query(
      `insert into sites (merchant_id, client_id, name, status)
        select c.merchant_id, c.id, c.name || ' site ' || s, 'active' from clients c cross join generate_series(1, 2) as s
        where c.merchant_id = $1`,
      [merchantId],
    );
    // Shift k of a staff member: day k / 3 of the week, at 00:00, 08:00 or 16:00, 7 hours: none overlaps.
    await tx.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, candidate_id, start_at, end_at, break_minutes,
                           status, paid_minutes, pay, charge, on_costs, margin, created_by)
       select $1, s.client_id, s.id, r.ids[1 + st.n % array_length(r.ids, 1)], st.id, t.s, t.s + interval '7 hours', 0,
              'closed', 420, 8400 + 100 * (st.n % 9), 12000, 900, 2700, 'Bench'
         from generate_series(0, ${PER_STAFF - 1}) as k
         cross join (select row_number() over (order by id) - 1 as n, id from candidates where merchant_id = $1) st
         join (select row_number() over (order by id) - 1 as n, id, client_id from sites where merchant_id = $1) s
           on s.n = st.n % ${SITES}
         cross join (select array_agg(id order by id) as ids from job_roles where merchant_id = $1) r
         cross join lateral (select ((($2::date + k / 3)::timestamp + (k % 3) * interval '8 hours') at time zone '${TZ}') as s) t`,
      [merchantId, FROM],
    );
    await tx.query(
      `insert into timesheets (merchant_id, client_id, site_id, kind, period_start, period_end, status, signed_at)
       select distinct $1::int, client_id, site_id, 'weekly', $2::date, $2::date + 6, 'signed', $2::date + 7
         from shifts where merchant_id = $1`,
      [merchantId, FROM],
    );
    await tx.query(
      `insert into timesheet_lines (merchant_id, timesheet_id, shift_id, candidate_id, site_id, job_role_id, work_date,
                                    scheduled_start, scheduled_end, scheduled_break, break_minutes, paid_minutes,
                                    charge, pay, on_costs, margin, status, verified_by, verified_at, verified_reason)
       select $1, t.id, s.id, s.candidate_id, s.site_id, s.job_role_id, (s.start_at at time zone '${TZ}')::date,
              s.start_at, s.end_at, 0, 0, 420, s.charge, s.pay, s.on_costs, s.margin, 'verified', 'Bench Admin',
              now(), 'Checked against the site register'
         from shifts s join timesheets t on t.merchant_id = s.merchant_id and t.site_id = s.site_id
        where s.merchant_id = $1`,
      [merchantId],
    );
    return merchantId;
  });
  for (const table of ['candidates', 'shifts', 'timesheets', 'timesheet_lines'])
    await db.query(`vacuum analyze ${table}`);
  return merchantId;
}

async function benchOne(kind: Kind, db0: Db, version: string) {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const t0 = performance.now();
  const merchantId = await seed(db0);
  const [{ n: seeded }] = await db0.query<{ n: number }>(
    `select count(*)::int as n from timesheet_lines where merchant_id = $1 and status = 'verified'
        and work_date between $2::date and $3::date`,
    [merchantId, FROM, TO],
  );
  if (seeded !== LINES) throw new Error(`seeded ${seeded} lines, not ${LINES}`);
  log(`seeded ${STAFF} staff and ${LINES} verified lines in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Every statement while the run is measured is counted, by the job's step it belongs to, and timed by its kind
  // (its first words): where the run's time goes.
  let counting = false;
  let statements = 0;
  const spent = new Map<string, { n: number; ms: number }>();
  const counted = (q: Queryable): Queryable => ({
    // As the product's connection answers many rows (PGlite: as one JSON text), or the run would be slower than it is.
    manyRowsAsJson: q.manyRowsAsJson,
    query: async (sql, params) => {
      if (!counting) return q.query(sql, params);
      statements++;
      const t = performance.now();
      try {
        return await q.query(sql, params);
      } finally {
        const kind = sql.replace(/\s+/g, ' ').trim().slice(0, 60);
        const seen = spent.get(kind) ?? { n: 0, ms: 0 };
        seen.n++;
        seen.ms += performance.now() - t;
        spent.set(kind, seen);
      }
    },
  });
  const db: Db = {
    ...db0,
    query: (sql, params) => counted(db0).query(sql, params),
    transaction: (fn) => db0.transaction((tx) => fn(counted(tx))),
  };
  const { app, headers } = await signedInApp(db, BENCH_EMAIL, BENCH_PASSWORD);
  try {
    const worker = workerName();
    const perStep: number[] = [];
    // CPU time of the run, the process's and the database's: what it costs on a machine nobody else shares.
    const began = { cpu: process.cpuUsage(), db: await backendCpuMs(db0) };
    counting = true;
    const t = performance.now();
    const started = await app.inject({
      method: 'POST',
      url: '/api/pay_runs/actions/generate',
      payload: { frequency: 'weekly', from: FROM, to: TO },
      headers,
    });
    if (started.statusCode !== 202) throw new Error(`generate answered ${started.statusCode}: ${started.body}`);
    const request = statements;
    const requestMs = performance.now() - t;
    const { job_id: queued } = started.json().data as { job_id: number };
    const claimed = await claimJob(db, worker);
    if (claimed?.id !== queued) throw new Error(`the worker claimed job ${claimed?.id}, not the run's ${queued}`);
    for (;;) {
      statements = 0;
      const outcome = await runStep(app.jobs, db, worker, queued);
      perStep.push(statements);
      if (outcome !== 'continued') break;
    }
    const ms = performance.now() - t;
    counting = false;
    const used = process.cpuUsage(began.cpu);
    const cpu = {
      node: (used.user + used.system) / 1000,
      database: backendCpuBetween(began.db, await backendCpuMs(db0)),
    };
    const { run_id: runId, job_id: jobId } = started.json().data as { run_id: number; job_id: number };
    const [job] = await db0.query<{ status: string; error: string | null }>(
      'select status, error from jobs where id = $1',
      [jobId],
    );
    if (job.status !== 'done') throw new Error(`the run's job is ${job.status}: ${job.error}`);
    const [made] = await db0.query<{ payslips: number; paid: number; distinct_paid: number; gross: string }>(
      `select (select count(*)::int from payslips where pay_run_id = $1) as payslips,
              (select count(*)::int from payslip_lines l join payslips p on p.id = l.payslip_id
                where p.pay_run_id = $1 and l.timesheet_line_id is not null) as paid,
              (select count(distinct l.timesheet_line_id)::int from payslip_lines l join payslips p on p.id = l.payslip_id
                where p.pay_run_id = $1) as distinct_paid,
              (select gross from pay_runs where id = $1) as gross`,
      [runId],
    );
    if (made.payslips !== STAFF || made.paid !== LINES || made.distinct_paid !== LINES)
      throw new Error(`the run made ${JSON.stringify(made)}`);
    const steps = perStep.length;
    log(
      `CPU time of the run: Node ${(cpu.node / 1000).toFixed(1)} s, PostgreSQL ${(cpu.database / 1000).toFixed(1)} s (on an idle machine the run takes about their sum, less what overlaps)`,
    );
    const top = [...spent].sort((x, y) => y[1].ms - x[1].ms).slice(0, 6);
    for (const [kind, { n, ms: took }] of top) log(`  ${(took / 1000).toFixed(1)} s in ${n}× ${kind}`);
    log(
      `weekly pay run, ${STAFF} staff, ${LINES} lines: ${(ms / 1000).toFixed(1)} s request to last commit (request ${requestMs.toFixed(0)} ms, ${request} statements; ${steps} steps of ${RUN_STEP_STAFF} staff: ${Math.min(...perStep)}–${Math.max(...perStep)} statements a step)`,
    );
    const metrics: Metric[] = [
      {
        name: `${label}: weekly pay run, ${STAFF} staff, ${LINES} lines, request to last commit`,
        value: round(ms / 1000, 2),
        unit: 's',
        target: GOAL_MS / 1000,
      },
      {
        name: `${label}: statements per step of ${RUN_STEP_STAFF} staff (most)`,
        value: Math.max(...perStep),
        unit: '',
      },
    ];
    return {
      metrics,
      plans: [],
      details: {
        database: version,
        staff: STAFF,
        lines: LINES,
        ms: round(ms),
        request_ms: round(requestMs),
        request_statements: request,
        steps,
        statements_per_step: perStep,
        gross: Number(made.gross),
        cpu_ms: { node: round(cpu.node), database: round(cpu.database) },
      },
    };
  } finally {
    await app.close();
  }
}

export async function runPayRuns(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`a weekly pay run of ${STAFF} staff over ${LINES} lines`);
  const details: Record<string, unknown> = { load_average_before: +load.toFixed(2) };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const payRuns: Benchmark = {
  name: 'payRuns',
  description: `a weekly pay run of ${STAFF} staff over ${LINES} timesheet lines, as a job (PostgreSQL)`,
  run: () => runPayRuns(),
};

// Alone: npx tsx bench/payRuns.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('payRuns', runPayRuns, LABEL);
