import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin, uid, waitForPath } from './engineHelpers';

// Staff compliance screens: the availability week grid, worked by keyboard, and the document report.

const e2e = useBrowser();

describe('availability week grid', () => {
  it('keeps its week and search in the address (a reload keeps them); "Copy this week" stays on one line', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Weektest${uid()}`;
    const made = await api(page, 'POST', '/api/candidates', { first_name: 'Lee', last_name: last, email: `lee.${last}@e2e.test`.toLowerCase() });
    expect(made.status).toBe(201);
    try {
      await page.goto('/staff/availability');
      await page.getByRole('searchbox', { name: 'Search staff' }).fill(last);
      await page.waitForURL((u) => u.searchParams.get('q') === last);
      const heading = page.getByRole('heading', { name: /^Week of / });
      const thisWeek = (await heading.textContent())!;
      await page.getByRole('button', { name: 'Next week', exact: true }).click();
      await expect.poll(() => heading.textContent()).not.toBe(thisWeek);
      const nextWeek = (await heading.textContent())!;
      await page.waitForURL((u) => /^\d{4}-\d\d-\d\d$/.test(u.searchParams.get('week') ?? ''));

      await page.reload();
      await expect.poll(() => page.getByRole('searchbox', { name: 'Search staff' }).inputValue()).toBe(last);
      await expect.poll(() => heading.textContent()).toBe(nextWeek);
      const grid = page.getByRole('grid');
      await grid.getByRole('row').filter({ hasText: last }).waitFor();
      expect(await grid.getByRole('row').count()).toBe(2); // the header and Lee: the search is applied

      // The button is one line of text at every width, its row wrapping instead (five lines of one word before).
      const copy = page.getByRole('button', { name: 'Copy this week to next week' });
      for (const width of [1366, 1100, 960, 700]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(async () => (await copy.boundingBox())!.height, { message: `at ${width} px` }).toBeLessThan(45);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `at ${width} px`).toBeLessThanOrEqual(0);
      }
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
      await api(page, 'DELETE', `/api/candidates/${made.body.data.id}`);
    }
  });

  it('sets a week of availability by keyboard, saved at once and kept after a reload', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Gridtest${uid()}`;
    const made = await api(page, 'POST', '/api/candidates', { first_name: 'Kay', last_name: last, email: `kay.${last}@e2e.test`.toLowerCase() });
    expect(made.status).toBe(201);
    const staffId = made.body.data.id;
    try {
      await page.goto('/staff/availability');
      await page.getByRole('searchbox', { name: 'Search staff' }).fill(last);
      const grid = page.getByRole('grid');
      const row = grid.getByRole('row').filter({ hasText: last });
      await expect.poll(() => grid.getByRole('row').count()).toBe(2); // the header and Kay
      await row.getByRole('link', { name: `Kay ${last}` }).waitFor();

      // Monday: Enter once → Available. Then, moving right by arrow key, each day one press further on.
      const monday = row.getByRole('gridcell').first();
      await monday.focus();
      const presses = [1, 2, 3, 4, 5, 1, 0]; // available, day, night, long day, unavailable, available, not set
      for (const [i, n] of presses.entries()) {
        for (let k = 0; k < n; k++) await page.keyboard.press(k % 2 ? 'Space' : 'Enter');
        if (i < 6) await page.keyboard.press('ArrowRight');
      }
      // Sunday: set, then cleared with Delete.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Delete');

      const expected = ['Available', 'Day', 'Night', 'Long day', 'Unavailable', 'Available', 'Not set'];
      const cells = row.getByRole('gridcell');
      for (const [i, text] of expected.entries()) await expect.poll(() => cells.nth(i).getAttribute('aria-label')).toMatch(new RegExp(`: ${text}$`));
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: 15_000 }).toBe('Saved');
      // The focus stayed in the grid, on Sunday (one tab stop: roving tabindex).
      expect(await cells.nth(6).getAttribute('tabindex')).toBe('0');
      expect(await cells.nth(0).getAttribute('tabindex')).toBe('-1');

      await page.reload();
      await page.getByRole('searchbox', { name: 'Search staff' }).fill(last);
      const again = page.getByRole('grid').getByRole('row').filter({ hasText: last }).getByRole('gridcell');
      for (const [i, text] of expected.entries()) await expect.poll(() => again.nth(i).getAttribute('aria-label')).toMatch(new RegExp(`: ${text}$`));

      const week = await api(page, 'GET', `/api/staff_availability?q=${last}`);
      const statuses = week.body.dates.map((d: string) => week.body.data[0].days[d]?.status ?? null);
      expect(statuses).toEqual(['available', 'day', 'night', 'long_day', 'unavailable', 'available', null]);
    } finally {
      const week = await api(page, 'GET', `/api/staff_availability?q=${last}`);
      for (const d of Object.values(week.body.data?.[0]?.days ?? {}) as ({ id: number } | null)[]) if (d) await api(page, 'DELETE', `/api/availability/${d.id}`);
      await api(page, 'DELETE', `/api/candidates/${staffId}`);
    }
  });
});

describe('document report', () => {
  it('opens on All, and its Due tab lists a demo document due in 10 days', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/report/DocumentReport');
    await waitForPath(page, '/report/DocumentReport/AllDoc');

    const due = await api(page, 'GET', '/api/candidate_documents?tab=DueDoc&per_page=100');
    const tenDays = due.body.data.find((d: any) => d.days_left === 10);
    expect(tenDays).toBeTruthy();

    await page.goto('/report/DocumentReport/DueDoc');
    const main = page.locator('#main-content');
    const row = main.locator('table tbody tr', { hasText: tenDays.number });
    await row.waitFor();
    await row.getByText('10', { exact: true }).waitFor();
    await row.getByText('Due', { exact: true }).waitFor();
  });
});
