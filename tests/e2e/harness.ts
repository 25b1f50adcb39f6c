import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { join } from 'node:path';
import {
  freePort,
  headlessShellPath,
  launchBrowser,
  startProductAndBrowser,
  TEST_SERVER_ENV,
  type BuildSnapshot,
  type RunningServer,
} from './product';

export * from './product';

/**
 * Browser tests run against the product as a user gets it (see ./product.ts): each file starts the production build
 * on a copy of a database that loaded the demo (both made once for the run by ./global-setup.ts), so files running
 * side by side never see each other's writes, settings or bookings. Each test gets a fresh browser context (empty
 * localStorage) in headless Chromium driven by playwright-core.
 */

export interface E2E {
  /** The file's product's address, e.g. http://127.0.0.1:40123 */
  readonly baseURL: string;
  /** A fresh page in a fresh context (empty localStorage) for the current test. */
  readonly page: Page;
  readonly context: BrowserContext;
  /** What the product sent to the file's mail server (`useBrowser({ mailServer: true })`), oldest first. */
  readonly sentMail: readonly SentMail[];
}

export interface BrowserOptions {
  /**
   * The product sends its e-mail (SMTP_URL) to a mail server of the file's own, which keeps what it receives in
   * `E2E.sentMail`, as the recipients' mailboxes would: for the links that only the recipient gets (the product's own
   * mailbox hides single-use links from the agency users who read it).
   */
  mailServer?: boolean;
  /**
   * `current weeks`: the demo without its year of history (DEMO_HISTORY=off), for a file that books the demo's staff
   * in past weeks (within a year: a shift's earliest date) and expects them empty. Default: the demo as a newcomer
   * sees it.
   */
  demo?: 'current weeks';
}

/** An e-mail as the file's mail server received it. */
export interface SentMail {
  to: string[];
  subject: string;
  text: string;
}

/** A mail server on a free local port that keeps, in `received`, every message handed to it. */
async function startMailServer(received: SentMail[]): Promise<{ url: string; close(): Promise<void> }> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = session.envelope.rcptTo.map((r) => r.address);
          received.push({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/**
 * The worker's Chromium: launched by its first browser test file and kept for the next ones, since a worker runs its
 * files one after another in one module graph (`isolate: false`, vitest.config.ts). A launch is about 1.2 s of a core
 * (several seconds of wall time on a loaded machine) in each of the stage's fifty-odd files; a file still gets its own
 * product, and each test a fresh context, so nothing a test leaves in the browser (storage, cookies, cache) reaches
 * another. A browser that crashed or was closed is launched again. It ends with the worker (Playwright kills the
 * browsers it launched when their process exits; scripts/test.mjs also ends the stage's process group).
 */
let workerBrowser: { path: string; browser: Promise<Browser> } | undefined;
async function browserOfWorker(path: string): Promise<Browser> {
  const kept = workerBrowser?.path === path ? await workerBrowser.browser.catch(() => undefined) : undefined;
  if (kept?.isConnected()) return kept;
  workerBrowser = { path, browser: launchBrowser(path) };
  return workerBrowser.browser;
}

/**
 * Call once at the top of a browser test file: starts the file's product (beside the worker's Chromium, launched if
 * this is the worker's first file), and gives each test a fresh context and page at the product's address.
 */
export function useBrowser(options: BrowserOptions = {}): E2E {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let server: RunningServer | undefined;
  let mailServer: Awaited<ReturnType<typeof startMailServer>> | undefined;
  const sentMail: SentMail[] = [];
  const errors: string[] = [];
  const writesAndRefusals: string[] = [];
  beforeAll(async () => {
    if (options.mailServer) mailServer = await startMailServer(sentMail);
    const env = { ...TEST_SERVER_ENV, ...(mailServer && { SMTP_URL: mailServer.url }) };
    ({ server, browser } = await startProductAndBrowser(
      {
        build: inject('e2eBuild'),
        template: inject(options.demo === 'current weeks' ? 'e2eDataTemplateCurrentWeeks' : 'e2eDataTemplate'),
        env,
      },
      headlessShellPath,
      browserOfWorker,
    ));
  });
  afterAll(async () => {
    // The product's data goes with it: no clean shutdown to wait for (about a second a file). The browser stays for
    // the worker's next file, without the contexts this file opened (a test that failed may have left one open).
    await Promise.all([
      ...(browser?.isConnected() ? browser.contexts().map((c) => c.close()) : []),
      server?.stop('SIGKILL'),
    ]);
    await mailServer?.close();
  });
  beforeEach(async () => {
    context = await browser!.newContext({ baseURL: server!.url, viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(30_000);
    page = await context.newPage();
    errors.length = 0;
    writesAndRefusals.length = 0;
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (r) => {
      if (r.status() >= 400 || r.request().method() !== 'GET')
        writesAndRefusals.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      if (errors.length) console.error(`page errors in "${ctx.task.name}":\n${errors.join('\n')}`);
      if (writesAndRefusals.length)
        console.error(`writes and refusals in "${ctx.task.name}":\n${writesAndRefusals.join('\n')}`);
      if (process.env.E2E_FAILURE_DIR) {
        const shot = join(process.env.E2E_FAILURE_DIR, `${ctx.task.name.replace(/\W+/g, '-')}-${Date.now()}.png`);
        await page?.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
        console.error(`screenshot: ${shot}`);
      }
    }
    await context?.close();
  });
  return {
    get baseURL() {
      return server!.url;
    },
    get page() {
      return page!;
    },
    get context() {
      return context!;
    },
    sentMail,
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's copy of the production build (global-setup.ts), which every file's product serves. */
    e2eBuild: Pick<BuildSnapshot, 'serverEntry' | 'staticDir'>;
    /** A stopped product's data directory (the demo loaded) to start another product from: startServer's template. */
    e2eDataTemplate: string;
    /** The same without the demo's year of history (DEMO_HISTORY=off): `useBrowser({ demo: 'current weeks' })`. */
    e2eDataTemplateCurrentWeeks: string;
  }
}
