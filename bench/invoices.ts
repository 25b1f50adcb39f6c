import { pathToFileURL } from 'node:url';
import { buildApp } from '../server/app';
import type { Db, Queryable } from '../server/db';
import { LoginThrottle } from '../server/auth/throttle';
import { hashPassword } from '../server/auth/passwords';
import { runNextJob, workerName } from '../server/jobs/queue';
import { loadavg } from 'node:os';
import {
  announceRun,
  backendCpuBetween,
  backendCpuMs,
  median,
  onEachDatabase,
  runAlone,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD, pct } from './lists';
import { migrate } from '../server/db/migrate';
import { createAgency } from '../server/seed/index';
import { sideBySide, sideBySideReport } from './sideBySide';

/**
 * Client invoices (issue 32, "Performance"), on PGlite and PostgreSQL (a throwaway schema at 127.0.0.1):
 *  - seeds an agency with 1,000 staff, 50 clients with 2 sites each, and LINES worked and
 *    verified timesheet lines (every staff member every day for LINES / 1,000 days from Monday 5 January 2026, on
 *    weekly timesheets per site), all set-based;
 *  - an invoice run over all of them as the agency's admin starts it (`POST /api/invoices/actions/generate`, Weekly:
 *    one invoice per client per week; a run answered with a job is run by a worker to its end), beside a bare SQL
 *    aggregate of the same lines by the same grouping with the same sums (count, net, VAT, total per client per
 *    week). They alternate ROUNDS times (the run's invoices are deleted between rounds, untimed); medians and the
 *    median ratio. Goal: ≤ 3×. The run's invoices are checked against the aggregate, group by group;
 *  - issuing a 500-line draft (made by a run for one client's week): its number, dates and its kept PDFs (both
 *    templates, the agency's and the client's copies), one request. The first issue of the process loads the PDF
 *    library and the font and is reported apart; then ISSUES more, median. Goal: ≤ 2 s;
 *  - 100,000 invoices (INVOICES, set-based: 50 clients, a tenth drafts) and the client user's invoice list as their
 *    panel asks it (`GET /api/invoices`, the default page and sort), alone and CONCURRENCY at once. Goal: p99 ≤ 50 ms.
 *
 * `npm run bench -- invoices`, or alone: `npx tsx bench/invoices.ts [--db pglite|postgres]`.
 * Knobs: BENCH_INVOICE_LINES (100000, a multiple of 1,000), BENCH_INVOICES (100000), BENCH_INVOICE_ROUNDS (1),
 * BENCH_INVOICE_PARTS (run,issue,list).
 */
const LINES = Number(process.env.BENCH_INVOICE_LINES || 100_000);
const INVOICES = Number(process.env.BENCH_INVOICES || 100_000);
const ROUNDS = Number(process.env.BENCH_INVOICE_ROUNDS || 1);
/** Which parts to run (run, issue, list): `run` alone to profile the run without the minutes the others take. */
const PARTS = new Set((process.env.BENCH_INVOICE_PARTS || 'run,issue,list').split(','));
const STAFF = 1000;
const DAYS = LINES / STAFF;
const CLIENTS = 50;
const BIG = 500;
const ISSUES = 3;
const LOADS = 300;
const CONCURRENCY = 10;
const RUN_GOAL = 3;
const ISSUE_GOAL_MS = 2000;
const LIST_GOAL_P99 = 50;
const FROM = '2026-01-05';
const TZ = 'Europe/London';
const CLIENT_EMAIL = 'client-user@bench.test';
const CLIENT_PASSWORD = 'bench-client-1';

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const TO = addDays(FROM, DAYS - 1);
/** The week after the period: each big client's 500 lines (100 staff of their own, Monday to Friday). */
const BIG_WEEK = addDays(FROM, Math.ceil(DAYS / 7) * 7);

/** The agency, its roles and STAFF staff members (the demo agency is left out: nothing here reads it). */
async function seedAgency(db: Db) {
  await migrate(db);
  return db.transaction(async (tx) => {
    const { merchantId } = await createAgency(tx, {
      companyName: 'Bench Invoicing',
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
    await tx.query(
      `insert into candidates (merchant_id, first_name, last_name, email, status, activated)
       select $1, 'Staff', 'Member ' || i, 'staff' || i || '@bench.example', 'approved', true
         from generate_series(1, $2::int) as i`,
      [merchantId, STAFF],
    );
    return merchantId;
  });
}

/**
 * The work: shifts, weekly timesheets per site (signed) and their lines (verified), set-based. Staff member i works
 * every day of the period at site i % 100 of the 50 clients; big client k's week is worked by staff k*100…k*100+99.
 */
async function seedWork(db: Db, merchantId: number) {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into clients (merchant_id, name, status) select $1, 'Bench Client ' || i, 'active' from generate_series(1, $2::int) as i`,
      [merchantId, CLIENTS],
    );
    await tx.query(
      `insert into clients (merchant_id, name, status) select $1, 'Bench Big Client ' || i, 'active' from generate_series(1, $2::int) as i`,
      [merchantId, ISSUES + 1],
    );
    await tx.query(
      `insert into sites (merchant_id, client_id, name, status)
        select c.merchant_id, c.id, c.name || ' site ' || s, 'active' from clients c cross join generate_series(1, 2) as s
        where c.merchant_id = $1`,
      [merchantId],
    );
    const shifts = (days: number, from: string, staffWhere: string, siteWhere: string, siteOf: string) =>
      tx.query(
        `insert into shifts (merchant_id, client_id, site_id, job_role_id, candidate_id, start_at, end_at, break_minutes,
                             status, paid_minutes, pay, charge, on_costs, margin, created_by)
         select $1, s.client_id, s.id, r.ids[1 + st.n % array_length(r.ids, 1)], st.id, t.s, t.s + interval '8 hours', 30,
                'closed', 450, 6000, 9000 + 150 * (st.n % 7), 900, 2100 + 150 * (st.n % 7), 'Bench'
           from generate_series(0, ${days - 1}) as d
           join (select row_number() over (order by id) - 1 as n, id from candidates
                  where merchant_id = $1 and deleted_at is null order by id limit ${STAFF}) st on ${staffWhere}
           join (select row_number() over (order by id) - 1 as n, id, client_id from sites
                  where merchant_id = $1 and ${siteWhere}) s
             on s.n = ${siteOf}
           cross join (select array_agg(id order by id) as ids from job_roles where merchant_id = $1) r
           cross join lateral (select ((($2::date + d)::timestamp + time '08:00') at time zone '${TZ}') as s) t`,
        [merchantId, from],
      );
    const clientIn = (big: boolean) =>
      `client_id in (select id from clients where merchant_id = $1 and name ${big ? '' : 'not '}like 'Bench Big Client %')`;
    await shifts(DAYS, FROM, 'true', clientIn(false), `st.n % ${2 * CLIENTS}`);
    // Staff 0…99 at the first big client's two sites, 100…199 at the second's, and so on.
    await shifts(5, BIG_WEEK, `st.n < ${(ISSUES + 1) * 100}`, clientIn(true), 'st.n / 100 * 2 + st.n % 2');
    await tx.query(
      `insert into timesheets (merchant_id, client_id, site_id, kind, period_start, period_end, status, signed_at)
       select $1, s.client_id, s.site_id, 'weekly', w.monday, w.monday + 6, 'signed', w.monday + 7
         from (select distinct client_id, site_id, date_trunc('week', (start_at at time zone '${TZ}'))::date as monday
                 from shifts where merchant_id = $1) s
         cross join lateral (select s.monday) as w(monday)`,
      [merchantId],
    );
    await tx.query(
      `insert into timesheet_lines (merchant_id, timesheet_id, shift_id, candidate_id, site_id, job_role_id, work_date,
                                    scheduled_start, scheduled_end, scheduled_break, break_minutes, paid_minutes,
                                    charge, pay, on_costs, margin, status, verified_by, verified_at, verified_reason)
       select $1, t.id, s.id, s.candidate_id, s.site_id, s.job_role_id, (s.start_at at time zone '${TZ}')::date,
              s.start_at, s.end_at, 30, 30, 450, s.charge, s.pay, s.on_costs, s.margin, 'verified', 'Bench Admin',
              now(), 'Checked against the site register'
         from shifts s
         join timesheets t on t.merchant_id = s.merchant_id and t.site_id = s.site_id
                          and t.period_start = date_trunc('week', (s.start_at at time zone '${TZ}'))::date
        where s.merchant_id = $1`,
      [merchantId],
    );
  });
  for (const table of ['shifts', 'timesheets', 'timesheet_lines']) await db.query(`vacuum analyze ${table}`);
}

interface Group {
  client_id: number;
  week: string;
  lines: number;
  net: string;
  vat: string;
  total: string;
}
const groupKey = (g: Group) =>
  `${g.client_id} ${g.week} ${g.lines} ${Number(g.net)} ${Number(g.vat)} ${Number(g.total)}`;

/** The invoiceable lines of the period: signed or verified, not on an unreleased invoice line. */
const INVOICEABLE = `
       from timesheet_lines l
       join timesheets t on t.merchant_id = l.merchant_id and t.id = l.timesheet_id
      where l.merchant_id = $1 and l.status in ('signed', 'verified') and l.work_date between $2::date and $3::date
        and not exists (select 1 from invoice_lines il where il.merchant_id = l.merchant_id
                          and il.timesheet_line_id = l.id and il.released_at is null)`;

/**
 * The bare aggregate: the same invoiceable lines (signed or verified, of the period, not on an unreleased invoice
 * line) grouped as the Weekly run groups them (per client per week from Monday) with the same sums: lines, net,
 * VAT at 20% per line rounded half up, total.
 */
const bareAggregate = (db: Queryable, merchantId: number) =>
  db.query<Group>(
    `select t.client_id, date_trunc('week', l.work_date)::date::text as week, count(*)::int as lines,
            sum(coalesce(l.charge, 0)) as net, sum(round(coalesce(l.charge, 0) * 0.2)) as vat,
            sum(coalesce(l.charge, 0) + round(coalesce(l.charge, 0) * 0.2)) as total
       ${INVOICEABLE}
      group by 1, 2 order by 1, 2`,
    [merchantId, FROM, TO],
  );

/**
 * The same drafts written bare: the invoices from the aggregate, then every line with its description, hours, price
 * and VAT, in one statement, without the run's checks, hooks, rollups or audit.
 */
async function bareDrafts(db: Queryable, merchantId: number) {
  // One statement: the lines join the invoices just inserted (a CTE), not the table, whose statistics still say the
  // empty table of the last analyze (the planner then looped over every line once per invoice).
  await db.query(
    `with lines as (select l.*, t.client_id, date_trunc('week', l.work_date)::date as week ${INVOICEABLE}),
     drafts as (
       insert into invoices (merchant_id, state, client_id, period_start, period_end, mode, template, line_count,
                             exempt_net, standard_net, net, vat, total, paid, credited)
       select $1, 'draft', client_id, week, week + 6, 'Weekly', 'template1', count(*), 0, sum(coalesce(charge, 0)),
              sum(coalesce(charge, 0)), sum(round(coalesce(charge, 0) * 0.2)),
              sum(coalesce(charge, 0) + round(coalesce(charge, 0) * 0.2)), 0, 0
         from lines group by client_id, week
       returning id, client_id, period_start)
     insert into invoice_lines (merchant_id, invoice_id, timesheet_line_id, description, work_date, quantity,
                                unit_price, net, vat_treatment, vat_reason, vat_rate, vat, total, time_of_supply)
     select $1, d.id, l.id, c.first_name || ' ' || c.last_name || ', ' || r.name || ', ' || l.work_date, l.work_date,
            l.paid_minutes / 60.0, round(l.charge / (l.paid_minutes / 60.0)), l.charge, 'standard', 'Standard-rated',
            20, round(l.charge * 0.2), l.charge + round(l.charge * 0.2), l.work_date
       from lines l
       join drafts d on d.client_id = l.client_id and d.period_start = l.week
       join candidates c on c.merchant_id = l.merchant_id and c.id = l.candidate_id
       join job_roles r on r.merchant_id = l.merchant_id and r.id = l.job_role_id`,
    [merchantId, FROM, TO],
  );
}

/**
 * The drafts a run made: gone, so the next round bills the same lines (untimed). Their audit entries stay (the trail
 * is append-only); a round's entries add to a table whose size the next insert hardly notices.
 */
async function deleteRuns(db: Db) {
  // Truncated: a delete of 100,000 lines ran a foreign-key check per row for each table that may point at a line
  // (minutes at load 20). The bench's database holds no other invoices, credit notes or payments.
  await db.query('truncate invoice_lines, invoices, invoice_runs cascade');
  for (const table of ['invoice_lines', 'invoices']) await db.query(`vacuum analyze ${table}`);
}

/** INVOICES invoices, set-based: 50 clients in turn, a tenth drafts, the rest issued, sent or paid and numbered. */
async function seedInvoices(db: Db, merchantId: number) {
  await db.query(
    `insert into invoices (merchant_id, number, state, client_id, period_start, period_end, mode, issue_date,
                           time_of_supply, due_date, template, line_count, exempt_net, standard_net, net, vat, total,
                           paid, credited, issued_by)
     select $1, case when i / ${CLIENTS} % 10 = 0 then null else 'B-' || lpad(i::text, 6, '0') end,
            (array['draft', 'issued', 'sent', 'paid', 'sent', 'paid', 'issued', 'paid', 'sent', 'paid'])[1 + i / ${CLIENTS} % 10],
            c.ids[1 + i % ${CLIENTS}], d.day, d.day + 6, 'Weekly',
            case when i / ${CLIENTS} % 10 = 0 then null else d.day + 8 end, case when i / ${CLIENTS} % 10 = 0 then null else d.day + 6 end,
            case when i / ${CLIENTS} % 10 = 0 then null else d.day + 38 end, 'template1', 7, 0, 63000 + i % 1000,
            63000 + i % 1000, 12600, 75600 + i % 1000, case when i / ${CLIENTS} % 10 in (3, 5, 7, 9) then 75600 + i % 1000 else 0 end,
            0, case when i / ${CLIENTS} % 10 = 0 then null else 'Bench Admin' end
       from generate_series(1, $2::int) as i
       cross join (select array_agg(id order by id) as ids from clients
                    where merchant_id = $1 and name not like 'Bench Big Client %') c
       cross join lateral (select date '2020-01-06' + 7 * (i / ${CLIENTS}) as day) d`,
    [merchantId, INVOICES],
  );
  await db.query('vacuum analyze invoices');
}

async function benchOne(kind: Kind, db0: Db, version: string) {
  const label = LABEL[kind];
  const log = (s: string) => console.log(`  [${label}] ${s}`);
  const t0 = performance.now();
  const merchantId = await seedAgency(db0);
  await seedWork(db0, merchantId);
  const [firstClient] = await db0.query<{ id: number }>(
    `select id from clients where merchant_id = $1 and name = 'Bench Client 1'`,
    [merchantId],
  );
  await db0.query(
    `insert into users (merchant_id, client_id, kind, name, email, password_hash, role)
     values ($1, $2, 'client', 'Bench Client User', $3, $4, 'manager')`,
    [merchantId, firstClient.id, CLIENT_EMAIL, await hashPassword(CLIENT_PASSWORD)],
  );
  const [{ n: seeded }] = await db0.query<{ n: number }>(
    'select count(*)::int as n from timesheet_lines where merchant_id = $1 and work_date between $2::date and $3::date',
    [merchantId, FROM, TO],
  );
  if (seeded !== LINES) throw new Error(`seeded ${seeded} lines, not ${LINES}`);
  log(`seeded ${LINES} verified timesheet lines in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // The app's database hands each statement to `wrap` while a run is measured, so its statements are kept.
  let wrap: ((q: Queryable) => Queryable) | null = null;
  const db: Db = {
    ...db0,
    query: (sql, params) => (wrap ? wrap(db0) : db0).query(sql, params),
    transaction: (fn) => db0.transaction((tx) => fn(wrap ? wrap(tx) : tx)),
  };
  const app = await buildApp({
    db,
    config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 100_000_000 },
    throttle: new LoginThrottle(),
  });
  try {
    const signIn = async (kind: 'admin' | 'client', email: string, password: string) => {
      const res = await app.inject({ method: 'POST', url: `/api/${kind}_login`, payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`${kind} sign-in answered ${res.statusCode}: ${res.body}`);
      return { authorization: `Bearer ${res.json().token as string}` };
    };
    const admin = await signIn('admin', BENCH_EMAIL, BENCH_PASSWORD);
    const post = (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, payload: payload as object, headers: admin });
    const worker = workerName();
    /** A run as the admin starts it; a run answered with a job (202) is run by a worker to its end. */
    const generate = async (body: Record<string, unknown>) => {
      const res = await post('/api/invoices/actions/generate', body);
      if (res.statusCode === 202) {
        while ((await runNextJob(app.jobs, db, worker)) !== null);
        const [job] = await db0.query<{ status: string; error: string | null }>(
          'select status, error from jobs where id = $1',
          [res.json().data.job_id],
        );
        if (job.status !== 'done') throw new Error(`the run's job is ${job.status}: ${job.error}`);
      } else if (res.statusCode !== 200) throw new Error(`generate answered ${res.statusCode}: ${res.body}`);
    };

    // a. The run beside the bare aggregate (and the bare writes of the same drafts). What the run must make, read
    // once untimed (and warming the aggregate): each round's run is checked against it, group by group.
    const expected = (await bareAggregate(db0, merchantId)).map(groupKey);
    const runCpu: { node: number; database: number }[] = [];
    const runAll = async (capture: (tx: Queryable) => Queryable) => {
      // CPU time of the run, Node's and the database's (what it costs however busy the shared machine is), and the
      // machine's load average as it began and ended.
      const began = { cpu: process.cpuUsage(), db: await backendCpuMs(db0), load: loadavg()[0] };
      const t = performance.now();
      wrap = capture;
      try {
        await generate({ mode: 'Weekly', from: FROM, to: TO });
      } finally {
        wrap = null;
      }
      const ms = performance.now() - t;
      const used = process.cpuUsage(began.cpu);
      const cpu = {
        node: (used.user + used.system) / 1000,
        database: backendCpuBetween(began.db, await backendCpuMs(db0)),
      };
      runCpu.push(cpu);
      log(
        `run: ${(ms / 1000).toFixed(1)} s; CPU time Node ${(cpu.node / 1000).toFixed(1)} s, ${kind === 'postgres' ? `PostgreSQL ${(cpu.database / 1000).toFixed(1)} s` : 'PGlite in the same process'}; load average ${began.load.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
      );
      const made = (
        await db0.query<Group>(
          `select client_id, period_start::text as week, line_count as lines, net, vat, total from invoices
            where merchant_id = $1 order by client_id, period_start`,
          [merchantId],
        )
      ).map(groupKey);
      if (made.join('\n') !== expected.join('\n'))
        throw new Error(`the run's ${made.length} invoices are not the aggregate's ${expected.length} groups`);
      // Gone before the aggregate reads (its not-exists would find every line billed) and before the next run.
      await deleteRuns(db0);
      return ms;
    };
    const timedOf = (fn: () => Promise<unknown>) => async () => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };
    const r = await sideBySide({
      subject: runAll,
      bare: timedOf(() => bareAggregate(db0, merchantId)),
      others: {
        writes: async () => {
          const ms = await timedOf(() => db0.transaction((tx) => bareDrafts(tx, merchantId)))();
          await deleteRuns(db0);
          return ms;
        },
      },
      rounds: ROUNDS,
      warmUp: false,
    });
    const run = sideBySideReport(r, {
      label,
      subject: `invoice run over ${LINES} timesheet lines (${expected.length} weekly invoices)`,
      bare: 'a bare SQL aggregate of the same lines, same grouping and sums',
      ratioName: 'invoice run ÷ bare aggregate',
      goal: RUN_GOAL,
      rest: 'JavaScript (grouping, totals, validation, the arrays), the HTTP request, begin and commit',
      log,
    });
    const writes = median(r.other.writes);
    const writesRatio = median(r.times.subject.map((x, i) => x / r.other.writes[i]));
    log(
      `bare INSERT … SELECT of the same drafts and lines (no checks, no audit): median ${writes.toFixed(0)} ms (${r.other.writes.map((x) => x.toFixed(0)).join(', ')}); the run is ${writesRatio.toFixed(2)}× that`,
    );
    run.metrics.push(
      {
        name: `${label}: bare INSERT … SELECT of the same drafts and lines (no checks, no audit)`,
        value: round(writes),
        unit: 'ms',
      },
      {
        name: `${label}: invoice run ÷ those bare writes (median of the rounds)`,
        value: round(writesRatio, 2),
        unit: '×',
      },
    );

    const runDetails = {
      ...run.details,
      bare_writes_ms: r.other.writes.map((x) => round(x)),
      cpu_ms: runCpu.map((c) => ({ node: round(c.node), database: round(c.database) })),
    };
    if (!PARTS.has('issue') && !PARTS.has('list'))
      return { metrics: run.metrics, plans: [], details: { database: version, lines: LINES, run: runDetails } };

    // b. Issuing 500-line drafts, one request each.
    await generate({ mode: 'Weekly', from: BIG_WEEK, to: addDays(BIG_WEEK, 6) });
    const big = await db0.query<{ id: number; line_count: number }>(
      `select i.id, i.line_count from invoices i join clients c on c.id = i.client_id
        where i.merchant_id = $1 and c.name like 'Bench Big Client %' order by i.id`,
      [merchantId],
    );
    if (big.length !== ISSUES + 1 || big.some((b) => b.line_count !== BIG))
      throw new Error(`the big drafts are ${JSON.stringify(big)}`);
    const issueOne = async (id: number) => {
      const t = performance.now();
      const res = await post(`/api/invoices/${id}/actions/issue`, {});
      const ms = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`issue answered ${res.statusCode}: ${res.body}`);
      return ms;
    };
    const firstIssue = await issueOne(big[0].id);
    const issues: number[] = [];
    for (const b of big.slice(1)) issues.push(await issueOne(b.id));
    const [kept] = await db0.query<{ copies: number; bytes: number }>(
      `select count(*)::int as copies, sum(f.size)::int as bytes from (select distinct file_id from issued_documents
        where resource = 'invoices' and record_id = $1) d join files f on f.id = d.file_id`,
      [big[1].id],
    );
    log(
      `issue a ${BIG}-line invoice (number, dates, ${kept.copies} PDFs rendered and kept, ${Math.round(kept.bytes / 1024)} KB): first in the process ${firstIssue.toFixed(0)} ms; then median ${median(issues).toFixed(0)} ms (${issues.map((x) => x.toFixed(0)).join(', ')})`,
    );

    // c. The client user's invoice list at INVOICES invoices.
    await seedInvoices(db0, merchantId);
    const client = await signIn('client', CLIENT_EMAIL, CLIENT_PASSWORD);
    const list = async () => {
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url: '/api/invoices', headers: client });
      const ms = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`the client's list answered ${res.statusCode}: ${res.body}`);
      return { ms, body: res.json() as { data: { client_id: number }[]; total?: number } };
    };
    const first = await list();
    if (!first.body.data.length || first.body.data.some((i) => i.client_id !== firstClient.id))
      throw new Error(`the client's list answered ${JSON.stringify(first.body).slice(0, 300)}`);
    for (let i = 0; i < 20; i++) await list();
    const alone: number[] = [];
    for (let i = 0; i < LOADS; i++) alone.push((await list()).ms);
    const busy: number[] = [];
    for (let i = 0; i < LOADS / CONCURRENCY; i++)
      busy.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, list))).map((x) => x.ms));
    const [{ n: theirs }] = await db0.query<{ n: number }>(
      `select count(*)::int as n from invoices where merchant_id = $1 and client_id = $2 and state <> 'draft'`,
      [merchantId, firstClient.id],
    );
    log(
      `the client user's invoice list (${theirs} of ${INVOICES} invoices theirs): alone p50 ${pct(alone, 50).toFixed(1)} ms, p99 ${pct(alone, 99).toFixed(1)} ms; ${CONCURRENCY} at once p50 ${pct(busy, 50).toFixed(1)} ms, p99 ${pct(busy, 99).toFixed(1)} ms`,
    );

    const metrics: Metric[] = [
      ...run.metrics,
      {
        name: `${label}: issue a ${BIG}-line invoice, its ${kept.copies} PDFs rendered and kept (median of ${ISSUES})`,
        value: round(median(issues)),
        unit: 'ms',
        target: ISSUE_GOAL_MS,
      },
      {
        name: `${label}: the same, the first PDF of the process (library and font loaded)`,
        value: round(firstIssue),
        unit: 'ms',
        target: ISSUE_GOAL_MS,
      },
      {
        name: `${label}: a client user's invoice list at ${INVOICES} invoices, alone: p99`,
        value: round(pct(alone, 99)),
        unit: 'ms',
        target: LIST_GOAL_P99,
      },
      {
        name: `${label}: the same, ${CONCURRENCY} at once: p99`,
        value: round(pct(busy, 99)),
        unit: 'ms',
        target: LIST_GOAL_P99,
      },
    ];
    return {
      metrics,
      plans: [],
      details: {
        database: version,
        lines: LINES,
        invoices_of_the_run: expected.length,
        run: runDetails,
        issue: { first_ms: round(firstIssue), ms: issues.map((x) => round(x)), ...kept },
        client_list: {
          invoices: INVOICES,
          theirs,
          alone: { p50: round(pct(alone, 50)), p99: round(pct(alone, 99)) },
          busy: { concurrency: CONCURRENCY, p50: round(pct(busy, 50)), p99: round(pct(busy, 99)) },
        },
      },
    };
  } finally {
    await app.close();
  }
}

export async function runInvoices(kinds: Kind[] = ['pglite', 'postgres']): Promise<BenchmarkResult> {
  const load = announceRun(`invoices over ${LINES} lines`);
  const details: Record<string, unknown> = { load_average_before: +load.toFixed(2) };
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const invoices: Benchmark = {
  name: 'invoices',
  description: `an invoice run over ${LINES} timesheet lines beside a bare aggregate, issuing a ${BIG}-line invoice, a client's list at ${INVOICES} invoices (PGlite, PostgreSQL)`,
  run: () => runInvoices(),
};

// Alone: npx tsx bench/invoices.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('invoices', runInvoices, LABEL);
