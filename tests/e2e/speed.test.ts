import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { signInAdmin, trackRequests, waitForPath } from './engineHelpers';

// The speed a user feels, as behaviour (the timings are bench/browser.ts): the Login page fetches the signed-in
// app while idle, and a list page renders its references' labels from its own answer, in one round trip.

const e2e = useBrowser();

describe('speed the user feels', () => {
  it('the Login page fetches the signed-in app while idle, after it works, so sign-in fetches no code', async () => {
    const { page } = e2e;
    const scripts: { path: string; at: number }[] = [];
    const opened = Date.now();
    const inflight = trackRequests(page);
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith('.js')) scripts.push({ path, at: Date.now() - opened });
    });
    // The app's own chunk (App-*.js) comes while the page sits idle (an idle callback, at most 3 s after the page
    // works: on a busy machine that can be after the network has been quiet for a while).
    const appChunk = page.waitForRequest((r) => /\/assets\/App-[\w-]+\.js$/.test(new URL(r.url()).pathname));
    await page.goto('/', { waitUntil: 'load' });
    await page.getByLabel('Password').waitFor();
    await appChunk;
    // Then its libraries: no request in flight for half a second (Playwright's networkidle counts from the page's
    // load, which may have come before the idle callback).
    let quietSince = 0;
    await expect
      .poll(() => {
        if (inflight() > 0) quietSince = 0;
        else quietSince ||= Date.now();
        return quietSince > 0 && Date.now() - quietSince >= 500;
      })
      .toBe(true);
    expect(scripts.some((s) => /\/assets\/App-[\w-]+\.js$/.test(s.path))).toBe(true);
    const before = scripts.length;
    await page.getByLabel('Email').fill('admin@demo.test');
    await page.getByLabel('Password').fill('demo-admin');
    // Watch for the loading message the signed-in route shows while App's code is missing.
    await page.evaluate(() => {
      const w = window as unknown as { sawLoading: boolean };
      w.sawLoading = false;
      new MutationObserver(() => {
        if (document.querySelector('.app-loading')) w.sawLoading = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/home');
    await page.locator('header').first().waitFor();
    expect(scripts.slice(before)).toEqual([]);
    // The app was already here: rendered at once, not through React.lazy (whose fallback React holds ≥ 300 ms).
    expect(await page.evaluate(() => (window as unknown as { sawLoading: boolean }).sawLoading)).toBe(false);
  });

  it('the staff list shows job roles from its own answer, without asking for them again', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const api: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) api.push(u.pathname);
    });
    await page.goto('/staff/staff-list');
    const rows = page.locator('main table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(25);
    // Every row's job role cell shows a label (or the empty mark), none still loading. (Staff status is in the
    // column chooser, so it is neither shown nor fetched.)
    await expect
      .poll(
        async () =>
          rows.evaluateAll((trs) =>
            trs.every((tr) => (tr.querySelector('td.column-job_role_id')?.textContent ?? '').trim() !== ''),
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    const labels = await rows.locator('td.column-job_role_id').allTextContents();
    expect(labels.some((l) => /[A-Za-z]/.test(l))).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(api).toContain('/api/candidates');
    expect(api).not.toContain('/api/job_roles');
    expect(api).not.toContain('/api/staff_statuses');
  });
});
