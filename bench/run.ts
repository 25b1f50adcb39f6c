/**
 * `npm run bench [-- name ...] [--no-build]`: builds the product when a benchmark needs it, runs the benchmarks (all,
 * or those named), prints a table naming the machine, and merges the results into bench/results/latest.json.
 *
 * Benchmarks live one per file (bench/bundle.ts, bench/startup.ts, ...), each exporting a `Benchmark`
 * (bench/lib.ts); add a new one to the list below.
 */
import { loadavg } from 'node:os';
import { browser } from './browser';
import { bundle } from './bundle';
import { chat } from './chat';
import { dashboard } from './dashboard';
import { reports } from './reports';
import {
  build,
  gitCommit,
  machine,
  saveResults,
  table,
  type BenchContext,
  type Benchmark,
  type BenchmarkResult,
} from './lib';
import { lists } from './lists';
import { scheduleBrowser } from './scheduleBrowser';
import { notifications } from './notifications';
import { payroll } from './payroll';
import { payslipPdf } from './payslipPdf';
import { pricing } from './pricing';
import { startup } from './startup';
import { workflow } from './workflow';
import { shifts } from './shifts';
import { shiftList } from './shiftList';
import { signinFlood } from './signinFlood';
import { documents } from './documents';
import { uploads } from './uploads';
import { timesheets } from './timesheets';
import { createMany } from './createMany';
import { invoices } from './invoices';
import { payRuns } from './payRuns';
import { setBased } from './setBased';
import { auditReads } from './auditReads';
import { staffPage } from './staffPage';
import { careers } from './careers';
import { privileges } from './privileges';
import { snapshotBuild, type BuildSnapshot } from '../tests/e2e/product';

const all: Benchmark[] = [
  bundle,
  browser,
  startup,
  lists,
  workflow,
  pricing,
  payroll,
  payslipPdf,
  notifications,
  shifts,
  shiftList,
  chat,
  scheduleBrowser,
  signinFlood,
  documents,
  uploads,
  createMany,
  setBased,
  auditReads,
  staffPage,
  careers,
  timesheets,
  invoices,
  payRuns,
  dashboard,
  reports,
  privileges,
];

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const skipBuild = process.argv.includes('--no-build');
const unknown = args.filter((a) => !all.some((b) => b.name === a));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${all.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
const selected = args.length ? all.filter((b) => args.includes(b.name)) : all;

const m = machine();
console.log(`Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB memory, ${m.os}, Node ${m.node}`);
const load = loadavg()[0];
if (load > m.cores / 2)
  console.log(
    `WARNING: load average ${load.toFixed(1)} on ${m.cores} cores: other work shares this machine; timings will be high and noisy`,
  );
// Benchmarks that need the production build read `ctx.build`: built (unless --no-build) on first use and
// copied, so another build in the same tree cannot change the files mid-run.
let snapshot: BuildSnapshot | undefined;
const ctx: BenchContext = {
  get build() {
    if (!snapshot) {
      if (!skipBuild) {
        console.log('\n  building (npm run build)…');
        build();
      }
      snapshot = snapshotBuild();
    }
    return snapshot;
  },
};
process.on('exit', () => snapshot?.dispose());

const results: Record<string, BenchmarkResult & { measured_at: string }> = {};
let failed = false;
for (const b of selected) {
  process.stdout.write(`Running ${b.name}: ${b.description}… `);
  const t = performance.now();
  try {
    results[b.name] = { ...(await b.run(ctx)), measured_at: new Date().toISOString() };
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
  } catch (e) {
    failed = true;
    console.log('FAILED');
    console.error(e);
  }
}

console.log(`\n${table(results)}\n`);
console.log(`Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB`);
console.log(`Results written to ${saveResults({ machine: m, commit: gitCommit(), results })}`);
process.exit(failed ? 1 : 0);
