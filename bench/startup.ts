import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../tests/e2e/product';
import { median, type Benchmark } from './lib';

/**
 * Cold start and memory of the production server (`node dist/server/index.mjs`) on an existing embedded
 * database: the database is created and filled with the demo by a first start (not measured); then RUNS
 * starts, each timed from spawn to the first 200 from GET /api/health, and its resident memory (VmRSS) read
 * after IDLE_MS at rest.
 */
const RUNS = Number(process.env.BENCH_STARTUP_RUNS || 5);
const IDLE_MS = 2000;
const ANCHOR_MS = 900; // bare Fastify + PGlite on this machine (issue 2)

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb / 1024;
}

export const startup: Benchmark = {
  name: 'startup',
  description: 'cold start to first answered request, and resident memory at rest (embedded database)',
  async run(ctx) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
    try {
      const first = await startServer({ dataDir, build: ctx.build });
      const firstMs = first.readyMs;
      await first.stop();
      const times: number[] = [];
      const rss: number[] = [];
      const selfReported: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = await startServer({ dataDir, timeoutMs: 60_000, build: ctx.build });
        times.push(s.readyMs);
        // The server's own "ready in N ms" counts from after its imports: the rest is loading code.
        const own = Number(/ready in (\d+) ms/.exec(s.output())?.[1]);
        if (Number.isFinite(own)) selfReported.push(own);
        await new Promise((r) => setTimeout(r, IDLE_MS));
        rss.push(rssMb(s.process.pid!));
        await s.stop();
      }
      return {
        metrics: [
          {
            name: `cold start, existing database (median of ${RUNS})`,
            value: median(times),
            unit: 'ms',
            anchor: ANCHOR_MS,
            anchorNote: 'bare Fastify + PGlite',
          },
          { name: `resident memory at rest (median of ${RUNS})`, value: median(rss), unit: 'MB' },
          ...(selfReported.length
            ? [{ name: 'of which after imports (server-reported, median)', value: median(selfReported), unit: 'ms' }]
            : []),
          { name: 'first start: create, migrate, load demo', value: firstMs, unit: 'ms' },
        ],
        details: {
          load_average_before: +loadavg()[0].toFixed(2),
          runs_ms: times.map(Math.round),
          server_reported_ms: selfReported,
          rss_mb: rss.map((x) => Math.round(x * 10) / 10),
          idle_ms: IDLE_MS,
        },
      };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
