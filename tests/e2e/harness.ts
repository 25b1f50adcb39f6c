import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import {
  launchBrowser,
  snapshotBuild,
  startServer,
  TEST_SERVER_ENV,
  type BuildSnapshot,
  type RunningServer,
} from './product';

export * from './product';

/**
 * Browser tests run against the product as a user gets it (see ./product.ts): the production build started
 * once for the whole e2e project on a brand-new embedded database (so it holds the demo) by
 * ./global-setup.ts, which hands its address to the test files through vitest's provide/inject. Each test
 * gets a fresh browser context (empty localStorage) in headless Chromium driven by playwright-core.
 */

export interface E2E {
  /** The product's address, e.g. http://127.0.0.1:40123 */
  readonly baseURL: string;
  /** A fresh page in a fresh context (empty localStorage) for the current test. */
  readonly page: Page;
  readonly context: BrowserContext;
}

export interface BrowserOptions {
  /**
   * A product of the file's own, started from a copy of the demo database, instead of the run's shared one: for tests
   * about what the whole agency sees (the newest notifications, the unread counts), which a file running beside them
   * on the shared product would change.
   */
  ownProduct?: boolean;
}

/**
 * Call once at the top of a browser test file: launches Chromium for the file and gives each test a fresh
 * context and page at the product's address (started by global-setup.ts, or the file's own).
 */
export function useBrowser(options: BrowserOptions = {}): E2E {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let baseURL = inject('e2eBaseURL');
  let own: { server: RunningServer; build: BuildSnapshot } | undefined;
  const errors: string[] = [];
  beforeAll(async () => {
    if (options.ownProduct) {
      const build = snapshotBuild();
      const server = await startServer({ build, template: inject('e2eDataTemplate'), env: TEST_SERVER_ENV });
      own = { server, build };
      baseURL = server.url;
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await own?.server.stop();
    own?.build.dispose();
  });
  beforeEach(async () => {
    context = await browser!.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(30_000);
    page = await context.newPage();
    errors.length = 0;
    page.on('pageerror', (e) => errors.push(String(e)));
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && errors.length)
      console.error(`page errors in "${ctx.task.name}":\n${errors.join('\n')}`);
    await context?.close();
  });
  return {
    get baseURL() {
      return baseURL;
    },
    get page() {
      return page!;
    },
    get context() {
      return context!;
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eBaseURL: string;
    /** A stopped product's data directory (the demo loaded) to start another product from: startServer's template. */
    e2eDataTemplate: string;
  }
}
