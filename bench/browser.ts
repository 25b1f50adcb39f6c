import { loadavg } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, snapshotBuild, startServer } from '../tests/e2e/product';
import { median, type Benchmark, type BenchContext } from './lib';

/**
 * The speed a user feels, in headless Chromium on the production build (median of RUNS, each in a fresh browser
 * context: empty HTTP cache and localStorage, as on a first visit):
 *  - sign-in: the Login page is opened and left idle (the user reads it and types; the page may fetch what it
 *    likes meanwhile), then the admin's e-mail and password are typed and Enter pressed. Timed in the page from
 *    the Enter keydown to the dashboard showing its figures (numbers, no placeholders).
 *  - staff list: from the dashboard, a click on the staff list link, timed in the page to 25 rows whose job role
 *    and staff status cells show their labels.
 * Both clocks are the page's own (performance.now), so the driver's round trips are not counted.
 */
const RUNS = Number(process.env.BENCH_BROWSER_RUNS || 5);
// A minimal react-admin app on this machine (issue 7): about 780 ms to the 100th row of a simple list.
const ANCHOR_MS = 780;
const STAFF_LIST = '/staff/staff-list';

declare global {
  interface Window {
    __benchT0?: number;
  }
}

/** Waits, checking on every frame, until `done` holds in the page; answers the ms since window.__benchT0. */
async function timeUntil(page: Page, done: () => number | false, timeout = 30_000): Promise<number> {
  const handle = await page.waitForFunction(done, undefined, { polling: 'raf', timeout });
  return (await handle.jsonValue()) as number;
}

/** The dashboard's figures are numbers: at least one, and no card still waiting (MUI skeleton). */
function dashboardShown(): number | false {
  if (location.pathname !== '/home' || window.__benchT0 === undefined) return false;
  const cards = [...document.querySelectorAll('main .MuiCard-root')];
  if (cards.some((c) => c.querySelector('.MuiSkeleton-root'))) return false;
  return (
    cards.some((c) => /^\d+$/.test(c.querySelector('p')?.textContent?.trim() ?? '')) &&
    performance.now() - window.__benchT0
  );
}

/**
 * 25 rows of staff, each with its job role's label (or the empty mark) rendered. (Staff status is in the column
 * chooser, not shown until chosen.)
 */
function staffListShown(): number | false {
  if (location.pathname !== '/staff/staff-list' || window.__benchT0 === undefined) return false;
  const rows = [...document.querySelectorAll('main table tbody tr')];
  if (rows.length < 25) return false;
  const labelled = rows.every((r) => (r.querySelector('td.column-job_role_id')?.textContent ?? '').trim() !== '');
  return labelled && performance.now() - window.__benchT0;
}

/** The requests (API calls and code) started since window.__benchT0: "path start→end ms". */
function requestsSince(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const t0 = window.__benchT0!;
    return performance
      .getEntriesByType('resource')
      .filter((r) => r.startTime >= t0 && /^\/(api|assets)\//.test(new URL(r.name).pathname))
      .map(
        (r) =>
          `${new URL(r.name).pathname} ${Math.round(r.startTime - t0)}→${Math.round((r as PerformanceResourceTiming).responseEnd - t0)} ms`,
      );
  });
}

async function oneRun(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/`, { waitUntil: 'load' });
    await page.locator('#login-password').waitFor({ state: 'visible' });
    // The user reads the page and types: whatever the page fetches while idle is done by then.
    await page.waitForLoadState('networkidle');
    await page.locator('#login-email').fill('admin@demo.test');
    await page.locator('#login-password').fill('demo-admin');
    await page.evaluate(() => {
      window.__benchT0 = undefined;
      document.addEventListener('keydown', (e) => e.key === 'Enter' && (window.__benchT0 ??= performance.now()), {
        capture: true,
      });
    });
    await page.locator('#login-password').press('Enter');
    const signIn = await timeUntil(page, dashboardShown);
    // The sign-in request alone, as the page saw it (the password hash on the server is most of it) and what followed.
    const signInRequest = await page.evaluate(() => {
      const e = performance
        .getEntriesByType('resource')
        .find(
          (r) =>
            (r as PerformanceResourceTiming).initiatorType === 'fetch' &&
            /\/api\/admin_login$/.test(new URL(r.name).pathname),
        ) as PerformanceResourceTiming | undefined;
      return e ? e.responseEnd - e.startTime : null;
    });
    const afterEnter = await requestsSince(page);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      window.__benchT0 = undefined;
      document.addEventListener('click', () => (window.__benchT0 ??= performance.now()), { capture: true, once: true });
    });
    await page.locator(`main a[href="${STAFF_LIST}"]`).first().click();
    const staffList = await timeUntil(page, staffListShown);
    // Round trips the list made after its click: the list itself and any reference look-ups.
    const apiAfterClick = await requestsSince(page);
    return { signIn, signInRequest, staffList, afterEnter, apiAfterClick };
  } finally {
    await context.close();
  }
}

export async function measureBrowser(ctx: Pick<BenchContext, 'build'>) {
  const server = await startServer({ build: ctx.build });
  const browser = await launchBrowser();
  const load = +loadavg()[0].toFixed(2);
  try {
    await oneRun(browser, server.url); // warm-up: the server's first queries and Chromium's start are not timed
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, server.url));
    return { runs, load };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export const browser: Benchmark = {
  name: 'browser',
  description:
    'speed the user feels in Chromium: Enter on Login → dashboard figures; staff list click → 25 rows with labels',
  async run(ctx) {
    const { runs, load } = await measureBrowser(ctx);
    const signInRequests = runs.map((r) => r.signInRequest).filter((x): x is number => x !== null);
    return {
      metrics: [
        {
          name: `Enter on Login → dashboard figures (median of ${RUNS})`,
          value: median(runs.map((r) => r.signIn)),
          unit: 'ms',
          target: 1000,
        },
        ...(signInRequests.length
          ? [
              {
                name: 'of which the sign-in request (the password hash, median)',
                value: median(signInRequests),
                unit: 'ms',
              },
            ]
          : []),
        {
          name: `staff list click → 25 rows with labels (median of ${RUNS})`,
          value: median(runs.map((r) => r.staffList)),
          unit: 'ms',
          anchor: ANCHOR_MS,
          anchorNote: 'minimal react-admin app, 100th row of a simple list',
          target: 600,
        },
      ],
      details: {
        load_average_before: load,
        sign_in_ms: runs.map((r) => Math.round(r.signIn)),
        sign_in_request_ms: signInRequests.map(Math.round),
        staff_list_ms: runs.map((r) => Math.round(r.staffList)),
        sign_in_requests: runs[runs.length - 1]?.afterEnter,
        staff_list_requests: runs[runs.length - 1]?.apiAfterClick,
      },
    };
  },
};

// `npx tsx bench/browser.ts`: this benchmark alone, on a copy of the current dist/ (printed, not saved;
// `npm run bench browser` builds and saves).
if (process.argv[1]?.endsWith('bench/browser.ts')) {
  const build = snapshotBuild();
  try {
    const r = await browser.run({ build });
    console.log(JSON.stringify(r, null, 2));
  } finally {
    build.dispose();
  }
}
