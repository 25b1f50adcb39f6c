import { launchBrowser, snapshotBuild, startServer } from '../tests/e2e/product';
const build = snapshotBuild();
const server = await startServer({ build });
const browser = await launchBrowser();
try {
  for (let run = 0; run < 2; run++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
  await page.locator('#login-email').fill('admin@demo.test');
  await page.locator('#login-password').fill('demo-admin');
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  await page.locator('#login-password').press('Enter');
  await page.waitForURL('**/home');
  await page.waitForTimeout(1500);
  const { profile } = await cdp.send('Profiler.stop');
  if (run === 0) continue;
  // self time per function
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const self = new Map<string, number>();
  const dt = profile.timeDeltas; let i = 0;
  for (const s of profile.samples) { const n: any = byId.get(s); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i++] ?? 0) / 1000); }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [k, v] of top) console.log(v.toFixed(1), k);
  // by url
  const byUrl = new Map<string, number>(); i = 0;
  for (const s of profile.samples) { const n: any = byId.get(s); const k = n.callFrame.url.split('/').pop() || n.callFrame.functionName; byUrl.set(k, (byUrl.get(k) ?? 0) + (dt[i++] ?? 0) / 1000); }
  console.log([...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${k}: ${v.toFixed(0)}`).join('\n'));
  }
} finally { await browser.close(); await server.stop(); build.dispose(); }
