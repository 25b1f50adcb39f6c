import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser, startServer } from '../tests/e2e/product';
import type { Benchmark, BenchContext } from './lib';

/**
 * JavaScript (gzip) the browser downloads before the Login page works.
 *  - static: from dist/client/index.html, the entry script(s) and modulepreload links, plus every chunk they
 *    import statically (import ... from / export ... from), transitively; dynamic import() is not followed.
 *  - observed: the JS files Chromium actually requests when opening "/" until the password field shows and
 *    the network is idle (catches a dynamic import fired at start-up).
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
    for (const spec of staticImports(readFileSync(file, 'utf8'))) queue.push(spec.startsWith('/') ? posix.normalize(spec) : posix.join(posix.dirname(url), spec));
  }
  return { files: [...seen], entries };
}

async function observed(ctx: BenchContext): Promise<string[]> {
  const server = await startServer({ build: ctx.build });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const js = new Set<string>();
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (r.resourceType() === 'script' || u.pathname.endsWith('.js')) js.add(u.pathname);
    });
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    return [...js];
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
    const observedSizes = Object.fromEntries(seen.map((f) => [f, existsSync(join(CLIENT, f)) ? gz(join(CLIENT, f)) : 0]));
    const observedTotal = Object.values(observedSizes).reduce((a, b) => a + b, 0);
    const allJs = readAllJs(CLIENT);
    return {
      metrics: [
        { name: 'Login JS, gzip (static imports)', value: total, unit: 'bytes', anchor: ANCHOR, anchorNote: 'minimal react-admin app, up front', target: ANCHOR / 2 },
        { name: 'Login JS, gzip (observed in Chromium)', value: observedTotal, unit: 'bytes', anchor: ANCHOR, target: ANCHOR / 2 },
        { name: 'all JS chunks, gzip', value: allJs.total, unit: 'bytes', note: `${allJs.count} chunks` },
      ],
      details: { entries, static_chunks: sizes, observed_chunks: observedSizes },
    };
  },
};

function readAllJs(CLIENT: string) {
  const dir = join(CLIENT, 'assets');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.js')) : [];
  return { count: files.length, total: files.reduce((a, f) => a + gz(join(dir, f)), 0) };
}
