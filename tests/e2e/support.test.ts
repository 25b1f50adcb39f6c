import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { api, signIn, signInAdmin, uid, waitForPath } from './engineHelpers';

// Support: the how-tos, and a consultant's request (with a screenshot) answered by an administrator.

const e2e = useBrowser();
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe('support', () => {
  it('lists the how-tos; each opens its steps and leads to its screen', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/support');
    await page.getByRole('link', { name: /Create and assign shifts/ }).click();
    await waitForPath(page, '/support/help/shifts');
    await page.getByRole('heading', { name: 'Create and assign shifts', level: 1 }).waitFor();
    expect(await page.locator('ol li').count()).toBeGreaterThan(1);
    await page.getByRole('link', { name: 'All how-tos' }).click();
    await waitForPath(page, '/support');
  });

  it('a consultant asks for help with a screenshot; an administrator replies; the consultant sees the answer', async () => {
    const { page } = e2e;
    const subject = `Cannot find last week ${uid()}`;
    await signIn(page, 'Agency', 'consultant@demo.test', 'demo-admin');
    await waitForPath(page, '/home');
    await page.goto('/support');
    await page.getByRole('link', { name: 'Ask for help' }).click();
    await waitForPath(page, '/support_requests/create');
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await page
      .getByRole('textbox', { name: 'Description' })
      .fill('The schedule opens on this week and I need last week.');
    await page.locator('input[type="file"]').setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, /^\/support_requests\/\d+\/show$/);
    const id = Number(/\/support_requests\/(\d+)\/show/.exec(new URL(page.url()).pathname)![1]);
    const stored = (await api(page, 'GET', `/api/support_requests/${id}`)).body.data;
    expect(stored).toMatchObject({ subject, status: 'open', requester_name: 'Sam Patel' });
    expect(stored.screenshot).toMatch(/./);

    // The administrator, in a browser of their own, answers from the request's page.
    const admin: Page = await page
      .context()
      .browser()!
      .newContext({ baseURL: new URL(page.url()).origin })
      .then((c) => c.newPage());
    try {
      await signInAdmin(admin);
      await admin.goto(`/support_requests/${id}/show`);
      await admin.getByText(subject).first().waitFor();
      await admin.locator('.engine-show-fields img').first().waitFor();
      await admin.getByRole('button', { name: 'Add reply' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Add reply' });
      await dialog.getByRole('textbox', { name: 'Reply' }).fill('Use the arrows beside the week to go back.');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await admin.getByText('Use the arrows beside the week to go back.').waitFor();
    } finally {
      await admin.context().close();
    }

    await page.reload();
    await page.getByText('Use the arrows beside the week to go back.').waitFor();
    await page.getByText('Answered').first().waitFor();
    // Closing it is the consultant's to do, through the action.
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expect
      .poll(async () => (await api(page, 'GET', `/api/support_requests/${id}`)).body.data.status)
      .toBe('closed');
  }, 90_000);
});
