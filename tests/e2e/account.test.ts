import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { api, signIn, uid, waitForPath } from './engineHelpers';

// Personal Settings (issue 7, item 11): the agency's name and logo shown by the shell at once, and a password
// change. Every test puts the shared demo database back as it found it.
const e2e = useBrowser();

// The smallest valid PNG (1×1, transparent): the store decides the type by these bytes.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const DEMO_LOGO = '/demo/agency-logo.svg';

/** Opens the top bar's profile menu (named "Profile", or after the signed-in user). */
const openProfileMenu = (page: Page) =>
  page
    .locator('header')
    .getByRole('button', { name: /profile|morgan|okoro/i })
    .last()
    .click();

describe('Personal Settings', () => {
  it('an admin uploads a new logo and renames the agency; the top bar shows both at once, without a reload', async () => {
    const { page } = e2e;
    await signIn(page, 'Agency', 'admin@demo.test', 'demo-admin');
    await waitForPath(page, '/home');
    const brandName = page.locator('header [data-testid="agency-name"]');
    // The agency's name arrives with its own request, after the top bar is drawn.
    await expect.poll(async () => ((await brandName.textContent()) ?? '').trim()).not.toBe('');
    const oldName = (await brandName.textContent())!.trim();
    expect(oldName).toBeTruthy();
    const before = await api(
      page,
      'GET',
      `/api/merchants/${await page.evaluate(() => localStorage.getItem('merchant_id'))}`,
    );
    expect(before.status).toBe(200);
    const newName = `Brightway E2E ${uid()}`;

    try {
      await openProfileMenu(page);
      await page.getByRole('menuitem', { name: 'Personal Settings' }).click();
      await waitForPath(page, /^\/admin\/\d+$/);
      await page.getByRole('heading', { name: 'Personal Settings', level: 1 }).waitFor();
      // A page that reloads loses this mark.
      await page.evaluate(() => ((window as any).__sameDocument = true));

      await page
        .getByTestId('agency-logo-input')
        .setInputFiles({ name: 'new-logo.png', mimeType: 'image/png', buffer: PNG });
      await page.getByRole('img', { name: 'New agency logo' }).waitFor();
      const nameField = page.getByRole('textbox', { name: 'Agency name' });
      await nameField.fill(' ');
      await page.getByRole('button', { name: 'Save agency details' }).click();
      // Refused next to the field, nothing saved.
      await page.getByText("Enter the agency's name (at least 2 characters).").waitFor();
      await expect(brandName.textContent()).resolves.toBe(oldName);

      await nameField.fill(newName);
      await page.getByRole('button', { name: 'Save agency details' }).click();
      await page.getByRole('status').filter({ hasText: 'Agency details saved' }).waitFor();

      // The shell shows the new name and the uploaded logo (from the browser's own copy: a blob: URL).
      await expect.poll(() => brandName.textContent()).toBe(newName);
      const logo = page.locator('header a img').first();
      await expect.poll(async () => (await logo.getAttribute('src')) ?? '').toMatch(/^blob:/);
      expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);
      // And the API keeps it: the logo is the uploaded file.
      const after = await api(page, 'GET', '/api/agency_logo_list');
      expect(after.body.data.find((l: any) => l.logo_type === 'agency_logo').logo_url).toMatch(/^[0-9a-f-]{36}$/);

      // Put the name back through the screen.
      await nameField.fill(oldName);
      await page.getByRole('button', { name: 'Save agency details' }).click();
      await expect.poll(() => brandName.textContent()).toBe(oldName);
    } finally {
      // The demo's name and logo, whatever happened above.
      const restore = await api(page, 'PUT', `/api/merchants/${before.body.data.id}`, {
        company_name: oldName,
        profile_photo: before.body.data.profile_photo ?? DEMO_LOGO,
      });
      expect(restore.status).toBe(200);
    }
  });

  it('a client user changes their password from My account, signs in with the new one, then changes it back', async () => {
    const { page } = e2e;
    const email = 'client2@demo.test';
    const oldPassword = 'demo-client';
    const newPassword = `e2e-${uid()}-secret`;
    await signIn(page, 'Client', email, oldPassword);
    await waitForPath(page, '/client/clientDashboard');
    await openProfileMenu(page);
    await page.getByRole('menuitem', { name: 'My account' }).click();
    await waitForPath(page, '/client/account');
    await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
    // No agency details for a client user.
    await expect(page.getByRole('button', { name: 'Save agency details' }).count()).resolves.toBe(0);

    let changed = false;
    try {
      const current = page.getByLabel('Current password', { exact: false });
      await current.fill('not-my-password');
      await page.getByLabel('New password', { exact: false }).first().fill(newPassword);
      await page.getByLabel('Confirm new password', { exact: false }).fill(`${newPassword}x`);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('The passwords do not match.').waitFor();

      await page.getByLabel('Confirm new password', { exact: false }).fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      // The server refuses the wrong current password, next to its field.
      await page.getByText('The current password is incorrect.').waitFor();

      await current.fill(oldPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Password changed; you are signed out everywhere else' })
        .waitFor();
      changed = true;

      await openProfileMenu(page);
      await page.getByRole('menuitem', { name: 'Sign Out' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes, sign me out!' }).click();
      await waitForPath(page, '/');
      await signIn(page, 'Client', email, oldPassword);
      await expect(page.getByRole('alert').textContent()).resolves.toBe('The e-mail address or password is incorrect.');
      await signIn(page, 'Client', email, newPassword);
      await waitForPath(page, '/client/clientDashboard');
    } finally {
      if (changed) {
        // Signed in with the new password (or still with the session that changed it): change it back.
        const back = await api(page, 'POST', '/api/me/password', {
          current_password: newPassword,
          new_password: oldPassword,
        });
        expect(back.status, JSON.stringify(back.body)).toBe(200);
      }
    }
  });
});
