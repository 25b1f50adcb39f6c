import { startServer, launchBrowser } from './product';
const server = await startServer();
const browser = await launchBrowser();
try {
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await page.goto('/staff-app/login');
  await page.getByLabel('Email').fill('staff@demo.test');
  await page.getByLabel('Password').fill('demo-staff');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/staff-app/chat');
  for (const p of ['shifts', 'open-shifts', 'timesheets', 'documents']) {
    await page.goto(`/staff-app/${p}`);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/tsui-shots/staff-${p}.png` });
  }
  const admin = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
  const a = await admin.newPage();
  await a.goto('/');
  await a.getByLabel('Email').fill('admin@demo.test');
  await a.getByLabel('Password').fill('demo-admin');
  await a.getByRole('button', { name: 'Sign in' }).click();
  await a.waitForURL((u) => u.pathname === '/home');
  for (const p of ['/timesheet/weekly', '/timesheet/custom', '/timesheet/signed']) {
    await a.goto(p);
    await a.waitForTimeout(3000);
    await a.screenshot({ path: `/tmp/tsui-shots/agency${p.replaceAll('/', '-')}.png` });
  }
  const ts = await a.evaluate(async () => {
    const h = { authorization: `Bearer ${localStorage.getItem('token')}`, 'content-type': 'application/json' };
    const d = new Date(Date.now() - 7 * 86400000);
    const monday = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86400000).toISOString().slice(0, 10);
    const g = await (await fetch('/api/timesheets/actions/generate', { method: 'POST', headers: h, body: JSON.stringify({ week_start: monday }) })).json();
    const list = await (await fetch('/api/timesheets?per_page=50', { headers: h })).json();
    const mb = list.data.find((t: any) => t.client_id === 1) ?? list.data[0];
    await fetch(`/api/timesheets/${mb.id}/actions/submit`, { method: 'POST', headers: h, body: '{}' });
    return mb.id;
  });
  await a.goto('/timesheet/weekly?week=' + new Date(Date.now() - 7 * 86400000).toISOString().slice(0, 10));
  await a.waitForTimeout(3000);
  await a.screenshot({ path: `/tmp/tsui-shots/agency-weekly-generated.png` });
  if (ts) {
    await a.goto(`/timesheets/${ts}/show`);
    await a.waitForTimeout(3000);
    await a.screenshot({ path: `/tmp/tsui-shots/agency-show.png`, fullPage: true });
  }
  const client = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
  const c = await client.newPage();
  await c.goto('/');
  await c.getByRole('radio', { name: 'Client' }).check();
  await c.getByLabel('Email').fill('client@demo.test');
  await c.getByLabel('Password').fill('demo-client');
  await c.getByRole('button', { name: 'Sign in' }).click();
  await c.waitForURL((u) => u.pathname.startsWith('/client'));
  await c.goto('/client/signedTimesheet');
  await c.waitForTimeout(3000);
  await c.screenshot({ path: `/tmp/tsui-shots/client-list.png`, fullPage: true });
  await c.setViewportSize({ width: 390, height: 844 });
  await c.goto(`/client/signedTimesheet?id=${ts}`);
  await c.waitForTimeout(3000);
  await c.screenshot({ path: `/tmp/tsui-shots/client-review-phone.png`, fullPage: true });
  console.log('timesheet', ts);
} finally {
  await browser.close();
  await server.stop();
}
