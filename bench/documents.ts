import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app';
import { openPglite } from '../server/db';
import { LoginThrottle } from '../server/auth/throttle';
import { renderPdf } from '../server/documents/pdf/render';
import { listReport } from '../server/documents/templates/listReport';
import type { ExportTable } from '../server/exports/rows';
import { exportSlots } from '../server/exports/routes';
import type { FieldDeclaration } from '../core/engine/types';
import { median, type Benchmark, type Metric } from './lib';
import { BENCH_EMAIL, BENCH_PASSWORD, seed } from './lists';

/**
 * Server-side documents (issue 16 item 7):
 *  - a 500-line PDF: the printed list's template (12 columns, the shift list's) over 500 rows, rendered by the one
 *    PDF renderer with its letterhead, repeated table headers and "Page x of y" (goal ≤ 2 s); the first render
 *    (fonts loaded, code cold) and the median of the next five;
 *  - a 100,000-row CSV export streamed by GET /api/candidates/export from the real app on PGlite (in memory, in
 *    this process) to an HTTP client that reads and drops it: rows, time, and the process's peak RSS above what it
 *    held before (and its JS heap's), beside the same for a tenth of the rows. The first full export's RSS includes
 *    PGlite's own memory taking the table in; the second's is the export's. Flat memory is that growth close to
 *    the 10,000-row one (pages of 1,000 rows are all it holds), not ten times it. The XLSX of the same list, too.
 *
 *  - 12 exports of that list started at once (issue 30.8: twelve by one consultant took the process to 1 GB): the
 *    process's peak RSS above the start with the exports free to run all at once (as before the fix), then with
 *    the turns in force (EXPORTS_AT_ONCE stream, the rest wait; the per-user bound lifted so that the twelve all
 *    run), and what one user's twelve are answered (EXPORTS_PER_USER sent, the rest 429).
 *
 * `npm run bench -- documents` (which runs with --expose-gc, so each export starts after a collection: without it the
 * RSS growth is mostly garbage not yet collected). Knob: BENCH_EXPORT_ROWS (100000).
 */
const PDF_ROWS = 500;
const PDF_GOAL_MS = 2000;
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS || 100_000);

const field = (source: string, type: FieldDeclaration['type'], label: string): FieldDeclaration =>
  ({ source, type, label }) as FieldDeclaration;
const SHIFT_COLUMNS = [
  field('client_id', 'reference', 'Client'),
  field('site_id', 'reference', 'Site'),
  field('job_role_id', 'reference', 'Job role'),
  field('start_at', 'datetime', 'Starts'),
  field('end_at', 'datetime', 'Ends'),
  field('status', 'choice', 'Status'),
  field('candidate_id', 'reference', 'Staff member'),
  field('hours', 'number', 'Paid hours'),
  field('charge', 'money', 'Charge'),
  field('pay', 'money', 'Pay'),
  field('margin', 'money', 'Margin'),
  field('cancellation_charge', 'money', 'Late-cancellation charge'),
];

function pdfTable(rows: number): ExportTable {
  async function* pages() {
    const page: (string | number)[][] = [];
    for (let i = 0; i < rows; i++) {
      page.push([
        i + 1,
        'Meadowbank Care Home',
        `Main Building ${i % 7}`,
        'Healthcare Assistant',
        '2026-12-01 08:00',
        '2026-12-01 20:00',
        'Booked',
        `Staff Member ${i}`,
        11.5,
        241.5,
        149.5,
        92,
        '',
      ]);
      if (page.length === 100) yield page.splice(0);
    }
    if (page.length) yield page;
  }
  return { headers: ['ID', ...SHIFT_COLUMNS.map((f) => f.label)], fields: SHIFT_COLUMNS, pages: pages() };
}

async function pdfTimes() {
  const times: number[] = [];
  let bytes = 0;
  let pages = 0;
  for (let i = 0; i < 6; i++) {
    const t = performance.now();
    const pdf = await renderPdf(
      listReport,
      { title: 'Shifts', subtitle: 'Printed 2026-11-27', table: pdfTable(PDF_ROWS), limit: 2000 },
      { name: 'Bench Staffing' },
    );
    times.push(performance.now() - t);
    bytes = pdf.length;
    pages = (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
  }
  return { first: times[0], median: median(times.slice(1)), bytes, pages };
}

/** Starts `n` downloads of `path` at once and reads them all to their ends; the process's peak RSS above the start. */
async function downloadsAtOnce(origin: string, path: string, token: string, n: number) {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t = performance.now();
  const statuses = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<number>((resolve, reject) => {
          get(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
            res.on('data', () => undefined);
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', reject);
          }).on('error', reject);
        }),
    ),
  );
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    ms: performance.now() - t,
    peakMb: (peak - base) / 2 ** 20,
    sent: statuses.filter((s) => s === 200).length,
    refused: statuses.filter((s) => s === 429).length,
  };
}

/** Reads a download to its end, counting lines, while sampling this process's RSS; answers the peak above `base`. */
function download(
  origin: string,
  path: string,
  token: string,
): Promise<{ ms: number; bytes: number; lines: number; peakMb: number; heapPeakMb: number }> {
  return new Promise((resolve, reject) => {
    const base = process.memoryUsage().rss;
    const heapBase = process.memoryUsage().heapUsed;
    let peak = base;
    let heapPeak = heapBase;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      heapPeak = Math.max(heapPeak, m.heapUsed);
    }, 10);
    const t = performance.now();
    let bytes = 0;
    let lines = 0;
    get(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines += 1;
      });
      res.on('end', () => {
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        resolve({
          ms: performance.now() - t,
          bytes,
          lines,
          peakMb: (peak - base) / 2 ** 20,
          heapPeakMb: (heapPeak - heapBase) / 2 ** 20,
        });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

export const documents: Benchmark = {
  name: 'documents',
  description: `a ${PDF_ROWS}-line PDF, and a ${EXPORT_ROWS.toLocaleString('en-GB')}-row CSV (and XLSX) export streamed from the API`,
  async run() {
    const pdf = await pdfTimes();
    const db = await openPglite();
    try {
      const seeded = await seed(db, EXPORT_ROWS);
      const app = await buildApp({
        db,
        config: { tokenLifetimeSeconds: 3600, staticDir: undefined, rateLimitPerMinute: 1_000_000 },
        throttle: new LoginThrottle(),
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
        const token = (
          await app.inject({
            method: 'POST',
            url: '/api/admin_login',
            payload: { email: BENCH_EMAIL, password: BENCH_PASSWORD },
          })
        ).json().token;
        // Warm: code loaded, plans cached, the engine's caches filled.
        await download(origin, '/api/candidates/export?status=rejected&q=smith', token);
        global.gc?.();
        const tenth = await download(origin, '/api/candidates/export?status=rejected', token);
        global.gc?.();
        const first = await download(origin, '/api/candidates/export', token);
        global.gc?.();
        // Again: the embedded database's own memory (its buffers hold the table once read) is in the RSS of the
        // first full export; what a second one adds is the export's.
        const csv = await download(origin, '/api/candidates/export', token);
        global.gc?.();
        const xlsx = await download(origin, '/api/candidates/export?format=xlsx', token);
        // Twelve at once: with the turns first, then as before the fix (no turns, no per-user bound). In that order:
        // memory the process has taken stays in its RSS, so the larger run last does not hide the smaller one.
        const limits = { perUser: exportSlots.perUser, atOnce: exportSlots.atOnce };
        global.gc?.();
        const oneUser = await downloadsAtOnce(origin, '/api/candidates/export', token, 12);
        global.gc?.();
        Object.assign(exportSlots, { perUser: Infinity, atOnce: limits.atOnce });
        const inTurns = await downloadsAtOnce(origin, '/api/candidates/export', token, 12);
        global.gc?.();
        Object.assign(exportSlots, { perUser: Infinity, atOnce: Infinity });
        const freeForAll = await downloadsAtOnce(origin, '/api/candidates/export', token, 12);
        Object.assign(exportSlots, limits);
        const rows = csv.lines - 1;
        const metrics: Metric[] = [
          {
            name: `${PDF_ROWS}-line PDF (${pdf.pages} pages), first render`,
            value: Math.round(pdf.first),
            unit: 'ms',
            target: PDF_GOAL_MS,
          },
          {
            name: `${PDF_ROWS}-line PDF, median of the next 5`,
            value: Math.round(pdf.median),
            unit: 'ms',
            target: PDF_GOAL_MS,
          },
          {
            name: `CSV export, ${rows.toLocaleString('en-GB')} rows streamed`,
            value: Math.round(csv.ms),
            unit: 'ms',
            note: `${Math.round(rows / (csv.ms / 1000)).toLocaleString('en-GB')} rows/s, ${(csv.bytes / 2 ** 20).toFixed(1)} MB`,
          },
          {
            name: `CSV export, ${rows.toLocaleString('en-GB')} rows, first: peak RSS above the start`,
            value: Math.round(first.peakMb),
            unit: 'MB',
            note: 'PGlite (in this process) reading the table in',
          },
          {
            name: `CSV export, ${rows.toLocaleString('en-GB')} rows, again: peak RSS above the start`,
            value: Math.round(csv.peakMb),
            unit: 'MB',
            note: `JS heap peak +${Math.round(csv.heapPeakMb)} MB`,
          },
          {
            name: `CSV export, ${(tenth.lines - 1).toLocaleString('en-GB')} rows: peak RSS above the start`,
            value: Math.round(tenth.peakMb),
            unit: 'MB',
            note: `JS heap peak +${Math.round(tenth.heapPeakMb)} MB`,
          },
          {
            name: `XLSX export, ${rows.toLocaleString('en-GB')} rows streamed`,
            value: Math.round(xlsx.ms),
            unit: 'ms',
            note: `peak RSS +${Math.round(xlsx.peakMb)} MB, ${(xlsx.bytes / 2 ** 20).toFixed(1)} MB`,
          },
          {
            name: `12 CSV exports at once, all running (before issue 30.8): peak RSS above the start`,
            value: Math.round(freeForAll.peakMb),
            unit: 'MB',
            note: `${Math.round(freeForAll.ms / 1000)} s for the twelve`,
          },
          {
            name: `12 CSV exports at once, ${limits.atOnce} streaming at a time: peak RSS above the start`,
            value: Math.round(inTurns.peakMb),
            unit: 'MB',
            note: `${Math.round(inTurns.ms / 1000)} s for the twelve, all sent: ${inTurns.sent === 12}`,
          },
          {
            name: `12 CSV exports at once by one user: sent / refused (429)`,
            value: oneUser.sent,
            unit: 'sent',
            note: `${oneUser.refused} refused; peak RSS +${Math.round(oneUser.peakMb)} MB`,
          },
        ];
        return { metrics, details: { pdf, first, csv, tenth, xlsx, freeForAll, inTurns, oneUser, seeded } };
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
    }
  },
};
