import { pathToFileURL } from 'node:url';
import type { Db } from '../server/db';
import { addDaysToDate } from '../core/domain/time/agencyTime';
import { REPORT_DECLARATIONS } from '../core/resources/reports';
import {
  announceRun,
  onEachDatabase,
  runAlone,
  signedInApp,
  type Benchmark,
  type BenchmarkResult,
  type Metric,
} from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD, capturing, explain, type PlanReport } from './lists';
import { SCALE_LINES, seedYear, timed, underLoad } from './scale';

/**
 * The declared reports at the issue's scale (issue 34, "Performance": each report over a year of 1,000,000 shifts
 * and 1,000,000 timesheet lines, p99 ≤ 300 ms; its XLSX of 100,000 rows streams in ≤ 5 s), on PostgreSQL:
 *  - seeds bench/scale.ts's year (over a million shifts, a million timesheet lines) and an invoice per signed
 *    client-week timesheet with a line per timesheet line (about a million invoice lines): paid when issued more than
 *    75 days ago, part paid or sent after, a fifth of the clients VAT-exempt;
 *  - every declared report (REPORT_DECLARATIONS) as its screen first asks it, over the last 365 days (aged debt as of
 *    today, VAT by rate over the year), REQUESTS times one after another: p50, p99, CPU per request and the load;
 *  - XLSX exports of about 100,000 rows, time to the last byte: the shift list (GET /api/shifts/export, the newest
 *    100,000 shifts by a start_at range) and the staff report grouped by staff member and week over as many weeks;
 *  - prints EXPLAIN ANALYZE of each report's statements.
 *
 * `npm run bench -- reports`, or alone: `npx tsx bench/reports.ts [--db pglite|postgres]`.
 * Knobs: BENCH_REPORT_REQUESTS (100), BENCH_SCALE_LINES (1000000), BENCH_EXPORT_ROWS (100000; 0: no exports).
 */
const REQUESTS = Number(process.env.BENCH_REPORT_REQUESTS || 100);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS || 100_000);
const GOALS = { reportP99: 300, xlsx: 5000 };

type Kind = 'pglite' | 'postgres';
const LABEL: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** An invoice per signed weekly timesheet, a line per timesheet line: what an invoice run makes of them. */
async function seedInvoices(raw: Db, merchantId: number, today: string) {
  const [seeded] = await raw.query(`select 1 from invoices where merchant_id = $1 and number like 'INV-B%' limit 1`, [
    merchantId,
  ]);
  if (!seeded)
    await raw.transaction(async (tx) => {
      await tx.query(
        `insert into invoices (merchant_id, number, state, client_id, period_start, period_end, mode, issue_date,
              time_of_supply, due_date, template, run_id)
       select $1, 'INV-B' || t.id, case when t.period_end + 2 < $2::date - 75 then 'paid'
                                        when t.id % 3 = 0 then 'part_paid' else 'sent' end,
              t.client_id, t.period_start, t.period_end, 'Weekly', t.period_end + 2, t.period_end + 2,
              t.period_end + 32, 'template1', null
         from timesheets t where t.merchant_id = $1 and t.status = 'signed' and t.number like 'TS-%'`,
        [merchantId, today],
      );
      await tx.query(
        `insert into invoice_lines (merchant_id, invoice_id, timesheet_line_id, description, work_date, quantity,
              unit_price, net, vat_treatment, vat_reason, vat_rate, vat, total, time_of_supply)
       select $1, i.id, l.id, 'Shift', l.work_date, l.paid_minutes / 60.0, round(l.charge * 60.0 / l.paid_minutes),
              l.charge, x.treatment, case when x.treatment = 'exempt' then 'nursing' end, x.rate,
              l.charge * x.rate / 10000, l.charge + l.charge * x.rate / 10000, l.work_date
         from invoices i
         join timesheets t on t.merchant_id = $1 and t.id = substr(i.number, 6)::int
         join timesheet_lines l on l.merchant_id = $1 and l.timesheet_id = t.id
         cross join lateral (select case when i.client_id % 5 = 0 then 'exempt' else 'standard' end as treatment,
                                    case when i.client_id % 5 = 0 then 0 else 2000 end as rate) x
        where i.merchant_id = $1 and i.number like 'INV-B%'`,
        [merchantId],
      );
      await tx.query(
        `update invoices i set line_count = s.n, net = s.net, vat = s.vat, total = s.total, credited = 0,
              exempt_net = s.exempt, standard_net = s.net - s.exempt,
              paid = case i.state when 'paid' then s.total when 'part_paid' then s.total / 2 else 0 end
         from (select invoice_id, count(*)::int as n, sum(net) as net, sum(vat) as vat, sum(total) as total,
                      coalesce(sum(net) filter (where vat_treatment = 'exempt'), 0) as exempt
                 from invoice_lines where merchant_id = $1 group by invoice_id) s
        where i.id = s.invoice_id`,
        [merchantId],
      );
    });
  for (const t of ['invoices', 'invoice_lines']) await raw.query(`vacuum analyze ${t}`);
  const [n] = await raw.query<{ invoices: number; lines: number }>(
    `select (select count(*)::int from invoices where merchant_id = $1) as invoices,
            (select count(*)::int from invoice_lines where merchant_id = $1) as lines`,
    [merchantId],
  );
  return n;
}

async function benchOne(kind: Kind, raw: Db, version: string) {
  const log = (s: string) => console.log(`  [${LABEL[kind]}] ${s}`);
  const { merchantId, today, sizes, seconds, steps } = await seedYear(raw);
  const t0 = performance.now();
  const invoices = await seedInvoices(raw, merchantId, today);
  log(
    `seeded ${JSON.stringify({ ...sizes, invoices })} in ${(seconds + (performance.now() - t0) / 1000).toFixed(1)} s (${JSON.stringify(steps)})`,
  );
  const scale = `${sizes.year_shifts.toLocaleString('en-GB')} shifts in the year, ${sizes.lines.toLocaleString('en-GB')} timesheet lines, ${invoices.lines.toLocaleString('en-GB')} invoice lines`;
  const from = addDaysToDate(today, -364);
  const year = `period=custom&from=${from}&to=${today}`;

  const cap = capturing(raw);
  const { app, headers } = await signedInApp(cap.db, BENCH_EMAIL, BENCH_PASSWORD);
  try {
    const metrics: Metric[] = [];
    const results: Record<string, unknown> = {};
    const plans: PlanReport[] = [];
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      return res;
    };
    for (const report of REPORT_DECLARATIONS) {
      const url = `/api/reports/${report.name}${report.period ? `?${year}` : ''}`;
      const ask = () => get(url);
      const t = await timed(raw, ask, REQUESTS);
      const groups = (await ask()).json().total_count as number;
      results[report.name] = { url, groups, ...t };
      log(`${report.name} (${groups} groups): p50 ${t.p50} ms, p99 ${t.p99} ms; ${underLoad(t)}`);
      metrics.push({
        name: `${report.name} over a year p99 (${LABEL[kind]})`,
        value: t.p99,
        unit: 'ms',
        ...(kind === 'postgres' ? { target: GOALS.reportP99 } : {}),
        note: underLoad(t, `p50 ${t.p50} ms, ${groups} groups; ${scale}`),
      });
      for (const [i, q] of (await cap.capture(ask)).entries())
        if (/^\s*(select|with)/i.test(q.sql) && !/"users"|sessions/.test(q.sql))
          plans.push(await explain(raw, `${report.name} #${i + 1}`, q.sql, q.params));
    }

    // The newest EXPORT_ROWS shifts: from the start of the oldest of them to the end of today.
    const [{ since }] = await raw.query<{ since: string }>(
      `select to_json(start_at) #>> '{}' as since from shifts where merchant_id = $1 and deleted_at is null and start_at < $2::date
        order by start_at desc offset $3 - 1 limit 1`,
      [merchantId, today, Math.max(1, EXPORT_ROWS)],
    );
    const weeks = Math.max(1, Math.round(EXPORT_ROWS / 6000));
    const exports = {
      'shift list': `/api/shifts/export?format=xlsx&start_at_gte=${encodeURIComponent(since)}&start_at_lte=${today}`,
      'staff report by staff and week': `/api/reports/staff_activity/export?format=xlsx&group=staff,week&period=custom&from=${addDaysToDate(today, -7 * weeks + 1)}&to=${today}`,
    };
    for (const [name, url] of EXPORT_ROWS > 0 ? Object.entries(exports) : []) {
      let bytes = 0;
      const t = await timed(
        raw,
        async () => {
          bytes = (await get(url)).rawPayload.length;
        },
        3,
        1,
      );
      // The rows in the file: the list's or report's own count of the same query.
      const rows = (await get(url.replace('/export?format=xlsx&', '?per_page=1&'))).json().total_count as number;
      results[`xlsx ${name}`] = { url, rows, bytes, ...t };
      log(
        `XLSX of the ${name}, ${rows} rows, ${(bytes / 2 ** 20).toFixed(1)} MB: p50 ${t.p50} ms, worst ${t.p99} ms; ${underLoad(t)}`,
      );
      metrics.push({
        name: `XLSX of the ${name}, ${rows.toLocaleString('en-GB')} rows, to the last byte (${LABEL[kind]})`,
        value: t.p99,
        unit: 'ms',
        ...(kind === 'postgres' ? { target: GOALS.xlsx } : {}),
        note: underLoad(t, `worst of 3; ${(bytes / 2 ** 20).toFixed(1)} MB`),
      });
    }
    return { metrics, details: { version, sizes: { ...sizes, invoices }, requests: REQUESTS, results }, plans };
  } finally {
    await app.close();
  }
}

export async function runReports(kinds: Kind[] = ['postgres']): Promise<BenchmarkResult> {
  announceRun(`a year of ${SCALE_LINES.toLocaleString('en-GB')} timesheet lines: every declared report, XLSX exports`);
  const details: Record<string, unknown> = {};
  const metrics = await onEachDatabase(kinds, LABEL, details, benchOne);
  return { metrics, details };
}

export const reports: Benchmark = {
  name: 'reports',
  description: `every declared report over a year (p99 of ${REQUESTS}) and XLSX exports of ${EXPORT_ROWS.toLocaleString('en-GB')} rows, at ${SCALE_LINES.toLocaleString('en-GB')} timesheet lines (PostgreSQL)`,
  run: () => runReports(),
};

// Alone: npx tsx bench/reports.ts [--db pglite|postgres]
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runAlone('reports', runReports, LABEL);
