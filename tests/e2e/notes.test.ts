import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { api, signInAdmin, uid, waitForPath } from './engineHelpers';

// The diary: a note in today's list and in the profile menu's count, and its reminder arriving among the
// notifications (sent by the product's background worker, which looks for due reminders every 15 s).

const e2e = useBrowser();

const openProfileMenu = (page: Page) =>
  page
    .locator('header')
    .getByRole('button', { name: /profile|morgan/i })
    .last()
    .click();

describe('diary notes', () => {
  it("a note is in today's list and counted in the profile menu, and its reminder becomes a notification", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const title = `Ring the home ${uid()}`;
    const before = (await api(page, 'GET', '/api/get_note_count')).body.count as number;
    // The note is in a minute; its reminder is due in a few seconds.
    const made = await api(page, 'POST', '/api/diary_notes', {
      title,
      note_at: new Date(Date.now() + 60_000).toISOString(),
      remind_at: new Date(Date.now() + 3_000).toISOString(),
    });
    expect(made.status).toBe(201);
    try {
      await page.goto('/dairy_notes');
      await waitForPath(page, '/dairy_notes/today');
      await expect.poll(() => page.locator('table tbody tr', { hasText: title }).count()).toBe(1);
      // Mine: still there (the admin wrote it).
      await page.getByRole('button', { name: 'Mine' }).click();
      await expect.poll(() => page.locator('table tbody tr', { hasText: title }).count()).toBe(1);
      // The record is under the spec's spelling too, and the other spelling leads there.
      const id = made.body.data.id;
      await page.locator('table tbody tr', { hasText: title }).click();
      await waitForPath(page, `/dairy_notes/${id}/show`);
      await page.getByText(title).first().waitFor();
      for (const [from, to] of [
        [`/diary_notes/${id}/show`, `/dairy_notes/${id}/show`],
        [`/diary_notes/${id}`, `/dairy_notes/${id}`],
        ['/diary_notes', '/dairy_notes/today'],
      ]) {
        await page.goto(from);
        await waitForPath(page, to);
      }

      await openProfileMenu(page);
      const item = page.getByRole('menuitem', { name: /Diary Notes/ });
      await expect
        .poll(async () => (await item.textContent())?.replace('Diary Notes', '').trim())
        .toBe(String(before + 1));
      await item.click();
      await waitForPath(page, '/dairy_notes/today');

      // The worker sends it within its interval; the notifications page shows it to its writer.
      const titles = async () =>
        ((await api(page, 'GET', '/api/agency_notifications?page=1&per_page=10')).body.notifications ?? []).map(
          (x: { title: string }) => x.title,
        );
      await expect.poll(titles, { timeout: 45_000, interval: 2_000 }).toContain(`Reminder: ${title}`);
      await page.goto('/notification');
      await expect
        .poll(
          async () => {
            const shown = await page.getByText(`Reminder: ${title}`).count();
            if (shown === 0) await page.reload();
            return shown;
          },
          { timeout: 45_000, interval: 3_000 },
        )
        .toBeGreaterThan(0);
      expect((await api(page, 'GET', `/api/diary_notes/${made.body.data.id}`)).body.data.reminded_at).not.toBeNull();
    } finally {
      await api(page, 'DELETE', `/api/diary_notes/${made.body.data.id}`);
    }
  }, 90_000);
});
