import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser, startServer } from '../tests/e2e/product';
import type { Benchmark, BenchContext } from './lib';

/**
 * JavaScript (gzip) the browser downloads before the Login page works.
 *  - static: from dist/client/index.html, the entry script(s) and modulepreload links, plus every chunk they
 *    import statically (import ... from / export ... from), transitively; dynamic import() is not followed.
 *  - observed: the JS files Chromium actually requests when opening "/" before its load event (catches a
 *    dynamic import fired at start-up); the files it fetches after it, while idle (the signed-in app the Login
 *    page warms up so that it is cached when the password is typed), are reported apart.
 * Sizes are gzip -9 of each file, as a server with compression would send them.
 */
const ANCHOR = 374 * 1024; // a minimal react-admin app, measured on this machine (issue 2)

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** Static import specifiers of an ES module (minified or not), without dynamic import(). */
export function staticImports(code: string): string[] {
  const out = new Set<string>();
  const patterns = [
    /\bimport\s*(["'])([^"']+)\1/g, // import "./x.js"
    /\bimport\s*[\w$*{][^;"'()]*?\bfrom\s*(["'])([^"']+)\1/g, // import x from "./x.js", import{a}from"./x.js"
    /\bexport\s*(?:\*(?:\s*as\s*[\w$]+)?|\{[^}]*\})\s*from\s*(["'])([^"']+)\1/g, // export * from / export {a} from
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) if (/^(\.{1,2})?\//.test(m[2])) out.add(m[2]);
  return [...out];
}

function staticClosure(CLIENT: string): { files: string[]; entries: string[] } {
  const html = readFileSync(join(CLIENT, 'index.html'), 'utf8');
  const entries = [
    ...[...html.matchAll(/<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["']/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link\b[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["']/g)].map((m) => m[1]),
  ];
  const seen = new Set<string>();
  const queue = entries.map((u) => posix.normalize(u.startsWith('/') ? u : `/${u}`));
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const file = join(CLIENT, url);
    if (!existsSync(file)) throw new Error(`index.html refers to ${url}, which is not in dist/client`);
    for (const spec of staticImports(readFileSync(file, 'utf8')))
      queue.push(spec.startsWith('/') ? posix.normalize(spec) : posix.join(posix.dirname(url), spec));
  }
  return { files: [...seen], entries };
}

/**
 * The JS files Chromium fetches for "/": those started before the page's load event (what the Login page needs
 * to work), and those started after it, while the page is idle (the signed-in app the Login page warms up).
 */
async function observed(ctx: BenchContext): Promise<{ login: string[]; warmUp: string[] }> {
  const server = await startServer({ build: ctx.build });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    // (No named functions inside evaluate: tsx would wrap them in a helper the page does not have.)
    const { loaded, js } = await page.evaluate(() => ({
      loaded: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
      js: performance
        .getEntriesByType('resource')
        .map((r) => ({ path: new URL(r.name).pathname, start: r.startTime }))
        .filter((r) => r.path.endsWith('.js')),
    }));
    const paths = (early: boolean) => [...new Set(js.filter((r) => r.start < loaded === early).map((r) => r.path))];
    return { login: paths(true), warmUp: paths(false) };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export const bundle: Benchmark = {
  name: 'bundle',
  description: 'JavaScript (gzip) downloaded before the Login page works',
  async run(ctx) {
    const CLIENT = ctx.build.staticDir;
    const { files, entries } = staticClosure(CLIENT);
    const sizes = Object.fromEntries(files.map((f) => [f, gz(join(CLIENT, f))]));
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    const seen = await observed(ctx);
    const sizesOf = (files: string[]) =>
      Object.fromEntries(files.map((f) => [f, existsSync(join(CLIENT, f)) ? gz(join(CLIENT, f)) : 0]));
    const observedSizes = sizesOf(seen.login);
    const observedTotal = Object.values(observedSizes).reduce((a, b) => a + b, 0);
    const warmUpSizes = sizesOf(seen.warmUp);
    const warmUpTotal = Object.values(warmUpSizes).reduce((a, b) => a + b, 0);
    const allJs = readAllJs(CLIENT);
    return {
      metrics: [
        {
          name: 'Login JS, gzip (static imports)',
          value: total,
          unit: 'bytes',
          anchor: ANCHOR,
          anchorNote: 'minimal react-admin app, up front',
          target: ANCHOR / 2,
        },
        {
          name: 'Login JS, gzip (observed in Chromium)',
          value: observedTotal,
          unit: 'bytes',
          anchor: ANCHOR,
          target: ANCHOR / 2,
        },
        {
          name: 'signed-in app warmed up while Login is idle, gzip',
          value: warmUpTotal,
          unit: 'bytes',
          note: 'after the load event',
        },
        { name: 'all JS chunks, gzip', value: allJs.total, unit: 'bytes', note: `${allJs.count} chunks` },
      ],
      details: { entries, static_chunks: sizes, observed_chunks: observedSizes, warm_up_chunks: warmUpSizes },
    };
  },
};

function readAllJs(CLIENT: string) {
  const dir = join(CLIENT, 'assets');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.js')) : [];
  return { count: files.length, total: files.reduce((a, f) => a + gz(join(dir, f)), 0) };
}
