import { loadavg } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from '../tests/e2e/product';
import { median, type Benchmark } from './lib';

/**
 * The staff member's phone page (issue 17) in headless Chromium at 390×844, on the production build, each run in a
 * fresh context (empty cache and localStorage, a first visit): from Enter on its sign-in form to the first screen
 * shown (the conversation with the agency, its messages in), then from a tap on each section's tab to its content
 * (open shifts weighed against the booking checks, the hours and the shifts to sign, the documents). Times are the
 * page's own clock (performance.now).
 */
const RUNS = Number(process.env.BENCH_BROWSER_RUNS || 5);

declare global {
  interface Window {
    __benchT0?: number;
  }
}

const SECTIONS = [
  { tab: 'Open', path: '/staff-app/open-shifts', shown: 'Request|Withdraw request|No open shifts suit you' },
  { tab: 'Hours', path: '/staff-app/timesheets', shown: 'No worked shift awaits your times|Enter times and sign' },
  { tab: 'Documents', path: '/staff-app/documents', shown: 'Upload|You have not uploaded' },
];

/** Until `path` shows text matching `shown` and no spinner: ms since window.__benchT0. */
async function shownAt(page: Page, path: string, shown: string): Promise<number> {
  const handle = await page.waitForFunction(
    ([p, s]) => {
      if (location.pathname !== p || window.__benchT0 === undefined) return false;
      if (document.querySelector('main [role="progressbar"]')) return false;
      return (
        new RegExp(s).test(document.querySelector('main')?.textContent ?? '') && performance.now() - window.__benchT0
      );
    },
    [path, shown] as const,
    { polling: 'raf', timeout: 30_000 },
  );
  return (await handle.jsonValue()) as number;
}

async function oneRun(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/staff-app/login`, { waitUntil: 'load' });
    await page.getByLabel('Password').waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email').fill('staff@demo.test');
    await page.getByLabel('Password').fill('demo-staff');
    await page.evaluate(() => {
      window.__benchT0 = undefined;
      document.addEventListener('keydown', (e) => e.key === 'Enter' && (window.__benchT0 ??= performance.now()), {
        capture: true,
      });
    });
    await page.getByLabel('Password').press('Enter');
    // The first screen: the conversation, with its messages (the demo's) shown.
    const firstScreen = (await (
      await page.waitForFunction(
        () =>
          location.pathname === '/staff-app/chat' &&
          window.__benchT0 !== undefined &&
          document.querySelector('[data-testid="chat-message"]') !== null &&
          performance.now() - window.__benchT0,
        undefined,
        { polling: 'raf', timeout: 30_000 },
      )
    ).jsonValue()) as number;
    const sections: Record<string, number> = {};
    for (const s of SECTIONS) {
      await page.evaluate(() => {
        window.__benchT0 = undefined;
        document.addEventListener('click', () => (window.__benchT0 ??= performance.now()), {
          capture: true,
          once: true,
        });
      });
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: s.tab }).click();
      sections[s.tab] = await shownAt(page, s.path, s.shown);
    }
    return { firstScreen, sections };
  } finally {
    await context.close();
  }
}

export const staffPage: Benchmark = {
  name: 'staff-page',
  description: 'the staff phone page (390×844): Enter on its sign-in → first screen; each section tab → its content',
  async run(ctx) {
    const server = await startServer({ build: ctx.build });
    const browser = await launchBrowser();
    const load = +loadavg()[0].toFixed(2);
    try {
      await oneRun(browser, server.url); // warm-up
      const runs: Awaited<ReturnType<typeof oneRun>>[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, server.url));
      const of = (tab: string) => median(runs.map((r) => r.sections[tab]));
      return {
        metrics: [
          {
            name: `Enter on the staff sign-in → first screen with its messages (median of ${RUNS})`,
            value: median(runs.map((r) => r.firstScreen)),
            unit: 'ms',
            target: 1000,
          },
          ...SECTIONS.map((s) => ({
            name: `tab ${s.tab} → its content (median of ${RUNS})`,
            value: of(s.tab),
            unit: 'ms',
          })),
        ],
        details: {
          load_average_before: load,
          first_screen_ms: runs.map((r) => Math.round(r.firstScreen)),
          sections_ms: runs.map((r) => r.sections),
        },
      };
    } finally {
      await browser.close();
      await server.stop();
    }
  },
};
