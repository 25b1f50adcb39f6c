import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer } from '../tests/e2e/product';
import { median, type Benchmark } from './lib';

/**
 * The public job board (issue 35) in headless Chromium at 390×844 on the production build, each run in a fresh
 * context (empty cache, a first visit): from navigation start to the board's first screen (first contentful paint,
 * the jobs' list on the page) and to a job's page with its form, and what the pages weigh: their JavaScript (the
 * target: under 100 KB; the board is written on the server and loads none) and all bytes over the wire.
 */
const RUNS = Number(process.env.BENCH_BROWSER_RUNS || 5);
const BOARD = '/careers/brightway-staffing';

async function oneRun(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    let js = 0;
    let bytes = 0;
    page.on('response', async (r) => {
      const size = (await r.body().catch(() => Buffer.alloc(0))).length;
      bytes += size;
      if (r.request().resourceType() === 'script') js += size;
    });
    await page.goto(`${url}${BOARD}`, { waitUntil: 'load' });
    await page.locator('main li a').first().waitFor();
    const board = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { paint, load: nav.loadEventEnd };
    });
    await page.locator('main li a').first().click();
    await page.locator('form button[type=submit]').waitFor();
    const job = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0);
    await page.waitForLoadState('networkidle');
    return { board, job, js, bytes };
  } finally {
    await context.close();
  }
}

export const careers: Benchmark = {
  name: 'careers',
  description: 'the public job board (390×844, first visit): first screen of the board and of a job page; their JS',
  async run(ctx) {
    // Its start (a new demo database) is not what is measured: on a loaded machine it takes minutes.
    const server = await startServer({ build: ctx.build, timeoutMs: 600_000 });
    const browser = await launchBrowser();
    const load = +loadavg()[0].toFixed(2);
    try {
      await oneRun(browser, server.url); // warm-up
      const runs: Awaited<ReturnType<typeof oneRun>>[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, server.url));
      return {
        metrics: [
          {
            name: `board: navigation → first contentful paint (median of ${RUNS})`,
            value: median(runs.map((r) => r.board.paint)),
            unit: 'ms',
            target: 1000,
          },
          {
            name: `job page with its form: navigation → first contentful paint (median of ${RUNS})`,
            value: median(runs.map((r) => r.job)),
            unit: 'ms',
            target: 1000,
          },
          {
            name: 'JavaScript loaded by the board and a job page',
            value: Math.max(...runs.map((r) => r.js)),
            unit: 'bytes',
            target: 100 * 1024,
          },
          {
            name: 'all bytes of the board and a job page',
            value: Math.max(...runs.map((r) => r.bytes)),
            unit: 'bytes',
          },
        ],
        details: {
          load_average_before: load,
          board_paint_ms: runs.map((r) => Math.round(r.board.paint)),
          job_paint_ms: runs.map((r) => Math.round(r.job)),
        },
      };
    } finally {
      await browser.close();
      await server.stop();
    }
  },
};
