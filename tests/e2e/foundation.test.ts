import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';

const e2e = useBrowser();

const storage = (page: Page) =>
  page.evaluate(() => ({
    token: localStorage.getItem('token'),
    tokenExpiration: localStorage.getItem('tokenExpiration'),
    loginType: localStorage.getItem('loginType'),
    merchant_id: localStorage.getItem('merchant_id'),
  }));

const path = (page: Page) => new URL(page.url()).pathname;

/** Waits until the address bar shows `expected` (a path or a pattern). */
async function waitForPath(page: Page, expected: string | RegExp, timeout = 15_000) {
  await page.waitForURL((u) => (typeof expected === 'string' ? u.pathname === expected : expected.test(u.pathname)), {
    timeout,
  });
}

async function signIn(page: Page, panel: 'Agency' | 'Client', email: string, password: string) {
  await page.goto('/');
  await page.getByRole('radio', { name: panel }).check();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const signInAdmin = async (page: Page) => {
  await signIn(page, 'Agency', 'admin@demo.test', 'demo-admin');
  await waitForPath(page, '/home');
};

/** Calls the API from the page with the token it holds (or `token`). */
const apiStatus = (page: Page, url: string, token?: string | null) =>
  page.evaluate(async ([u, t]) => (await fetch(u!, { headers: t ? { authorization: `Bearer ${t}` } : {} })).status, [
    url,
    token ?? null,
  ] as const);

describe('agency admin', () => {
  it('signs in and lands on /home with the session stored under the spec keys', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const s = await storage(page);
    expect(s.token).toEqual(expect.any(String));
    expect(Date.parse(s.tokenExpiration!)).toBeGreaterThan(Date.now());
    expect(s.loginType).toBe('admin');
    expect(Number(s.merchant_id)).toBeGreaterThan(0);
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  });

  it('a wrong password shows the error in words and stays on Login', async () => {
    const { page } = e2e;
    await signIn(page, 'Agency', 'admin@demo.test', 'wrong-password');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The e-mail address or password is incorrect.');
    expect(path(page)).toBe('/');
    expect((await storage(page)).token).toBeNull();
  });

  it('moves around with the sidebar: Staff → Staff List, Timesheet → Weekly', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Staff List' }).click();
    await waitForPath(page, /^\/(staff\/staff-list|staffs\/allStaffs)$/);
    await nav.getByRole('link', { name: 'Weekly' }).click();
    await waitForPath(page, '/timesheet/weekly');
    // The entry of the open screen is marked as the current page.
    await nav.locator('a[aria-current="page"]', { hasText: 'Weekly' }).waitFor();
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await waitForPath(page, '/home');
  });

  it('searches staff from the top bar and opens the result at /staffs/{id}', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const token = (await storage(page)).token;
    // A surname the demo agency's staff really have, from the API itself.
    const found = await page.evaluate(
      async (t) =>
        (
          await fetch('/api/search_candidate?candidate_query=smith', { headers: { authorization: `Bearer ${t}` } })
        ).json(),
      token,
    );
    expect(found.candidate.length).toBeGreaterThan(0);
    const ids = found.candidate.map((c: { id: number }) => c.id);

    const queries: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/search_candidate') queries.push(u.searchParams.get('candidate_query') ?? '');
    });
    const box = page.getByRole('combobox', { name: 'Search staff' });
    // Typed at once: keys pressed 40 ms apart arrived over 300 ms apart at load 11 and asked for "S" first. The keys'
    // debounce is proven on the test's own clock (tests/unit/layout/staffSearchDebounce.test.ts).
    await box.fill('  Smith ');
    const first = page.getByRole('listbox').getByRole('option').first();
    await first.waitFor();
    await first.click();
    // The staff profile, /staffs/{id}, which opens on its first tab (/staffs/{id}/overview).
    await waitForPath(page, /^\/staffs\/\d+(\/overview)?$/);
    expect(ids).toContain(Number(path(page).split('/')[2]));
    // Trimmed, and asked once: one request, for "Smith".
    expect(queries).toEqual(['Smith']);
  });

  it('says "Not Staff found for the specified criteria" when nothing matches', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.getByRole('combobox', { name: 'Search staff' }).fill('zzqxj-nobody');
    await page.getByText('Not Staff found for the specified criteria').waitFor();
  });

  it('signs out with the confirmation: Cancel keeps the session, "Yes, sign me out!" ends it on "/"', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const token = (await storage(page)).token;

    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure want to sign out?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(path(page)).toBe('/home');
    expect((await storage(page)).token).toBe(token);

    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, sign me out!' }).click();
    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const s = await storage(page);
    expect(s.token).toBeNull();
    expect(s.tokenExpiration).toBeNull();
    // The server revoked the token too.
    expect(await apiStatus(page, '/api/admin_login', token)).toBe(401);
  });

  it('a signed-in user opening "/" is sent to /home', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/');
    await waitForPath(page, '/home');
  });
});

describe('client user', () => {
  it('signs in to the client dashboard and is refused an admin route', async () => {
    const { page } = e2e;
    await signIn(page, 'Client', 'client@demo.test', 'demo-client');
    await waitForPath(page, '/client/clientDashboard');
    expect((await storage(page)).loginType).toBe('client');
    await page.getByRole('navigation', { name: 'Client navigation' }).waitFor();

    await page.goto('/home');
    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await storage(page)).token).toBeNull();
  });
});

describe('session guard', () => {
  it('an expired token sends the user to Login and clears token, tokenExpiration and loginType', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.evaluate(() => localStorage.setItem('tokenExpiration', new Date(Date.now() - 60_000).toISOString()));
    await page.goto('/home');
    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const s = await storage(page);
    expect(s.token).toBeNull();
    expect(s.tokenExpiration).toBeNull();
    expect(s.loginType).toBeNull();
  });

  it('without a token, an admin route shows Login', async () => {
    const { page } = e2e;
    await page.goto('/timesheet/weekly');
    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
