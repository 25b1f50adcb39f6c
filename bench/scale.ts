import { loadavg } from 'node:os';
import type { Db } from '../server/db';
import { agencyZone } from '../server/engine/routes';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../core/domain/time/agencyTime';
import { backendCpuBetween, backendCpuMs, median } from './lib';
import { BENCH_EMAIL, pct, seed } from './lists';
import { migrate } from '../server/db/migrate';
import { seedShiftsAtScale } from './shifts';
import { seedWorkflow } from './workflow';

/**
 * The issue 34 scale (its "Performance"): 1,000,000 shifts and 1,000,000 timesheet lines, a year of them, for the
 * dashboard and the reports' benches. BENCH_SCALE_LINES (1000000) sets the timesheet lines, and so the closed
 * shifts: a smaller number for a quicker run (the benches name the scale they measured).
 */
export const SCALE_LINES = Number(process.env.BENCH_SCALE_LINES || 1_000_000);
const STAFF = 10_000;

/**
 * The shift list's bench agency (10,000 staff with their documents, 100,000 shifts around this week:
 * bench/shiftList.ts), then a year of history, all set-based:
 *  - night shifts (20:30 to 07:30 on the agency's clock, so they clash with none of the day shifts already there)
 *    every day of the 365 before today, one a night per staff member at most: 92% closed (booked to a staff
 *    member), 4% left open, 4% cancelled (one in four of those late, with a charge; one in five asked by the
 *    staff member), as many as make `lines` closed shifts in all;
 *  - a weekly timesheet per client and week of the closed shifts, signed (the last two weeks' submitted, awaiting
 *    signature) and one line per closed shift, the newest `lines` of them (one in 500 disputed);
 *  - two business units holding 15 of the 20 clients (the other 5 in none).
 * Answers the agency, its today, and the table sizes.
 */
export async function seedYear(raw: Db, lines = SCALE_LINES) {
  const t0 = performance.now();
  const steps: Record<string, number> = {};
  let last = t0;
  const step = (name: string) => {
    steps[name] = Math.round((performance.now() - last) / 100) / 10;
    last = performance.now();
  };
  // A kept schema already seeded (BENCH_PG_SCHEMA, bench/lib.ts): its agency as it is, migrated to this checkout.
  const [kept] = (await raw.query<{ n: string | null }>(`select to_regclass('timesheet_lines')::text as n`))[0].n
    ? await raw.query<{ merchant_id: number }>(
        `select u.merchant_id from users u where u.email = $1 and exists (select from timesheet_lines l
          where l.merchant_id = u.merchant_id)`,
        [BENCH_EMAIL],
      )
    : [];
  if (kept) {
    await migrate(raw);
    const zone = await agencyZone(raw, kept.merchant_id);
    return {
      merchantId: kept.merchant_id,
      today: agencyToday(zone),
      zone,
      ...(await sizesOf(raw, kept.merchant_id, zone)),
    };
  }
  const { merchantId } = await seed(raw, STAFF);
  const zone = await agencyZone(raw, merchantId);
  const today = agencyToday(zone);
  await seedWorkflow(raw, merchantId, today, addDaysToDate(startOfWeekMonday(today), 7));
  await seedShiftsAtScale(raw, merchantId, today);
  step('100,000 shifts');
  const firstDay = addDaysToDate(today, -365);
  await raw.transaction(async (tx) => {
    await tx.query('select setseed(0.34)');
    await tx.query(
      `create temporary table year_staff on commit drop as
       select row_number() over (order by id) - 1 as n, id, job_role_id from candidates
        where merchant_id = $1 and status = 'approved' and activated and deleted_at is null and job_role_id is not null`,
      [merchantId],
    );
    await tx.query(
      `create temporary table year_sites on commit drop as
       select row_number() over (order by s.id) - 1 as n, s.client_id, s.id as site_id
         from sites s join clients c on c.id = s.client_id where c.merchant_id = $1 and c.name like 'Bench Client %'`,
      [merchantId],
    );
    const [{ closed }] = await tx.query<{ closed: number }>(
      `select count(*)::int as closed from shifts where merchant_id = $1 and status = 'closed'`,
      [merchantId],
    );
    const [{ staff }] = await tx.query<{ staff: number }>('select count(*)::int as staff from year_staff');
    const history = Math.max(0, Math.ceil((lines - closed) / 0.92));
    // Shift i falls on day floor(i × 365 / history); within a day the booked ones go to different staff (i mod
    // staff), so a staff member never has two at once. The role is the staff member's, the site one of the 60.
    await tx.query(
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, break_minutes, status,
              candidate_id, paid_minutes, pay, charge, on_costs, margin, cancellation_charge, cancel_requested_by,
              created_by, created_at)
       select $1, si.client_id, si.site_id, st.job_role_id, t.s, t.s + interval '11 hours', 30, x.status,
              case when x.status <> 'open' then st.id end, 630, 12000, 17500, 1800, 3700,
              case when x.status = 'cancelled' and i % 100 = 96 then 4000 end,
              case when x.status = 'cancelled' then case when i % 5 = 0 then 'worker' else 'client' end end,
              'Bench', t.s - interval '10 days'
         from generate_series(0, $3::int - 1) as i
         join year_staff st on st.n = i % $4::int
         join year_sites si on si.n = (i / 7) % 60
         cross join lateral (select case when i % 100 < 92 then 'closed' when i % 100 < 96 then 'open'
                                         else 'cancelled' end as status) x
         cross join lateral (select ((($2::date + (i::bigint * 365 / $3::int)::int)::timestamp + time '20:30')
                                     at time zone $5) as s) t`,
      [merchantId, firstDay, history, staff, zone],
    );
    step('year of shifts');
    // Weekly timesheets per client, from the closed shifts' weeks (Monday on the agency's clock).
    await tx.query(
      `create temporary table year_lines on commit drop as
       select id as shift_id, client_id, site_id, candidate_id, job_role_id, start_at, end_at, break_minutes,
              paid_minutes, pay, charge, on_costs, margin,
              date_trunc('week', start_at at time zone $3)::date as week
         from shifts where merchant_id = $1 and status = 'closed' and deleted_at is null
        order by start_at desc limit $2`,
      [merchantId, lines, zone],
    );
    await tx.query(
      `insert into timesheets (merchant_id, number, client_id, kind, period_start, period_end, status, submitted_at,
              signed_at)
       select $1, 'TS-' || w.client_id || '-' || to_char(w.week, 'YYYYMMDD'), w.client_id, 'weekly', w.week,
              w.week + 6, case when w.week >= $2::date - 14 then 'submitted' else 'signed' end,
              (w.week + 7)::timestamp, case when w.week < $2::date - 14 then (w.week + 9)::timestamp end
         from (select distinct client_id, week from year_lines) w`,
      [merchantId, today],
    );
    await tx.query(
      `insert into timesheet_lines (merchant_id, timesheet_id, shift_id, candidate_id, site_id, job_role_id, work_date,
              scheduled_start, scheduled_end, scheduled_break, actual_start, actual_end, break_minutes, paid_minutes,
              charge, pay, on_costs, margin, status, dispute_reason, signed_at)
       select $1, ts.id, l.shift_id, l.candidate_id, l.site_id, l.job_role_id, (l.start_at at time zone $2)::date,
              l.start_at, l.end_at, l.break_minutes, l.start_at, l.end_at, l.break_minutes, l.paid_minutes,
              l.charge, l.pay, l.on_costs, l.margin,
              case when ts.status = 'submitted' then 'pending' when l.shift_id % 500 = 7 then 'disputed'
                   else 'signed' end,
              case when ts.status <> 'submitted' and l.shift_id % 500 = 7 then 'Not on site' end,
              ts.signed_at
         from year_lines l
         join timesheets ts on ts.merchant_id = $1 and ts.client_id = l.client_id and ts.period_start = l.week
                           and ts.number like 'TS-%'`,
      [merchantId, zone],
    );
    step('timesheets');
    await tx.query(`insert into business_units (merchant_id, name) values ($1, 'North'), ($1, 'South')`, [merchantId]);
    await tx.query(
      `update clients c set business_unit_id = u.id
         from (select id, row_number() over (order by id) as k from clients
                where merchant_id = $1 and name like 'Bench Client %') n
         join (select id, row_number() over (order by id) as k from business_units where merchant_id = $1) u
           on u.k = 1 + n.k % 2
        where c.id = n.id and n.k <= 15`,
      [merchantId],
    );
  });
  for (const t of ['shifts', 'timesheets', 'timesheet_lines', 'clients']) await raw.query(`vacuum analyze ${t}`);
  step('vacuum');
  return {
    merchantId,
    today,
    zone,
    ...(await sizesOf(raw, merchantId, zone)),
    seconds: (performance.now() - t0) / 1000,
    steps,
  };
}

async function sizesOf(raw: Db, merchantId: number, zone: string) {
  const [sizes] = await raw.query<{ shifts: number; lines: number; year_shifts: number; documents: number }>(
    `select (select count(*)::int from shifts where merchant_id = $1) as shifts,
            (select count(*)::int from shifts where merchant_id = $1 and start_at >= $2::date) as year_shifts,
            (select count(*)::int from timesheet_lines where merchant_id = $1) as lines,
            (select count(*)::int from candidate_documents where merchant_id = $1) as documents`,
    [merchantId, addDaysToDate(agencyToday(zone), -365)],
  );
  return { sizes, seconds: 0, steps: {} as Record<string, number> };
}

/** What a series of requests took: p50 and p99 (ms), CPU per request (ms) and the load average around it. */
export interface Timed {
  requests: number;
  p50: number;
  p99: number;
  /** CPU ms per request of this process (the server, in process) and of PostgreSQL's processes serving its pool. */
  cpu: { server: number; database: number };
  /** The 1-minute load average before and after the requests (2 cores: above 2, other work shared them). */
  load: [number, number];
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Sends `ask` `count` times one after another (as one screen would), after `warmup` unmeasured: its p50, p99, CPU
 * and the load around it.
 */
export async function timed(db: Db, ask: () => Promise<unknown>, count: number, warmup = 5): Promise<Timed> {
  for (let i = 0; i < warmup; i++) await ask();
  const load0 = loadavg()[0];
  const cpu0 = process.cpuUsage();
  const db0 = await backendCpuMs(db);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await ask();
    times.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  const dbMs = backendCpuBetween(db0, await backendCpuMs(db));
  return {
    requests: count,
    p50: r1(median(times)),
    p99: r1(pct(times, 99)),
    cpu: { server: r1((cpu.user + cpu.system) / 1000 / count), database: r1(dbMs / count) },
    load: [r1(load0), r1(loadavg()[0])],
  };
}

/** A metric's note: the CPU and the load it was measured under. */
export const underLoad = (t: Timed, more = '') =>
  `${more}${more ? '; ' : ''}CPU/request: server ${t.cpu.server} ms, PostgreSQL ${t.cpu.database} ms; load ${t.load[0]}→${t.load[1]}`;
