import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin, signInClient, uid, waitForPath } from './engineHelpers';

// The notifications screens of both panels: 2 shown at first, "Show all", "Load more", "Mark all as read",
// the unread badges, a notification leading to its screen, and the failure message. On a product of its own: the
// newest two notifications and "0 unread" are the whole agency's, which the files running beside it would change.

const e2e = useBrowser();

const listOf = (page: import('playwright-core').Page) =>
  page.getByRole('main').getByRole('list', { name: 'Notifications' });

describe('agency notifications (/notification)', () => {
  it('shows 2, then all 10 of the page, then loads more; marks all read, clearing the badges', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    // Two staff registrations: the newest two notifications, unread.
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      const last = `Notified${uid()}`;
      const made = await api(page, 'POST', '/api/candidates', {
        first_name: 'Nia',
        last_name: last,
        email: `nia.${last}@e2e.test`.toLowerCase(),
      });
      expect(made.status).toBe(201);
      names.unshift(`Nia ${last}`);
    }
    const total = (await api(page, 'GET', '/api/agency_notifications?per_page=1')).body.total_count as number;
    expect(total).toBeGreaterThan(10);

    await page.goto('/notification');
    const list = listOf(page);
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    const items = list.getByRole('listitem');
    await expect.poll(() => items.first().textContent()).toContain(names[0]);
    expect(await items.nth(1).textContent()).toContain(names[1]);
    // The sidebar's Notification item and the top bar's bell carry the unread count.
    await expect.poll(() => page.getByRole('button', { name: /^Notifications, \d+ unread/ }).count()).toBe(1);
    await expect.poll(() => page.locator('#sidebar-unread-count').count()).toBe(1);

    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => items.count()).toBe(10);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => items.count()).toBe(Math.min(20, total));

    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /unread of/ })
          .textContent(),
      )
      .toMatch(/^0 unread of/);
    await expect.poll(() => page.getByRole('button', { name: 'Notifications', exact: true }).count()).toBe(1);
    expect(await page.locator('#sidebar-unread-count').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
  });

  it('a notification leads to its screen', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Linked${uid()}`;
    const made = await api(page, 'POST', '/api/candidates', {
      first_name: 'Lou',
      last_name: last,
      email: `lou.${last}@e2e.test`.toLowerCase(),
    });
    await page.goto('/notification');
    // Other tests' events may arrive meanwhile and push this one below the first two.
    await page.getByRole('button', { name: 'Show all' }).click();
    await listOf(page)
      .getByRole('button', { name: new RegExp(`Lou ${last}`) })
      .click();
    // /staffs/{id} opens the profile's first tab.
    await waitForPath(page, new RegExp(`^/staffs/${made.body.data.id}(/overview)?$`));
  });

  it('says "Failed to load notifications" when the list cannot be loaded', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.route('**/api/agency_notifications*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await page.goto('/notification');
    await page.getByRole('alert').filter({ hasText: 'Failed to load notifications' }).waitFor();
  });
});

describe('client notifications (/client/ClientNotification)', () => {
  it('shows the client’s own notifications, 2 at first then all; the bell counts them; mark all read', async () => {
    const { page } = e2e;
    await signInClient(page);
    const answer = (await api(page, 'GET', '/api/client_notifications?per_page=10')).body;
    expect(answer.total_count).toBeGreaterThan(2);
    await page.goto('/client/ClientNotification');
    const list = listOf(page);
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(Math.min(10, answer.total_count));
    if (answer.unread_count > 0) {
      await expect.poll(() => page.getByRole('button', { name: /^Notifications, \d+ unread/ }).count()).toBe(1);
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Notifications', exact: true }).count()).toBe(1);
    }
    expect((await api(page, 'GET', '/api/client_notifications')).body.unread_count).toBe(0);
  });
});

describe('notification settings (/appsetting/notificationsetting)', () => {
  it('opens on e-mail; a template with an unknown placeholder is refused in words; SMS says it only records', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/appsetting/notificationsetting');
    await page.getByRole('tab', { name: 'E-mail', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Edit template: Shift filled' }).click();
    const dialog = page.getByRole('dialog', { name: 'E-mail template: Shift filled' });
    await dialog.getByLabel('Subject').fill('Booked: %{nobody}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(/Unknown placeholder: %\{nobody\}/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The demo's own pipeline stage has its e-mail, named by the stage and off until switched on.
    const own = page.getByLabel('Send e-mail: Applicant moved to Reference check', { exact: true });
    expect(await own.isChecked()).toBe(false);
    expect(await page.getByText(/Applicant moved to your own stage/).count()).toBe(0);

    await page.getByRole('tab', { name: 'SMS' }).click();
    await waitForPath(page, '/appsetting/notificationsetting/sms');
    await page.getByText('No outside network: SMS and push messages are recorded, not sent.').waitFor();
    const sms = page.getByRole('switch', { name: 'Send SMS: Shift cancelled' });
    const before = await sms.isChecked();
    await sms.click();
    await expect
      .poll(async () =>
        (await api(page, 'GET', '/api/notification_settings')).body.events
          .find((e: any) => e.key === 'shift.cancelled')
          .channels.includes('sms'),
      )
      .toBe(!before);
    await sms.click();
    await expect
      .poll(async () =>
        (await api(page, 'GET', '/api/notification_settings')).body.events
          .find((e: any) => e.key === 'shift.cancelled')
          .channels.includes('sms'),
      )
      .toBe(before);

    await page.goto('/appsetting/notificationsetting/ActivatePayment');
    await page.getByText(/Payment reminders e-mail the client/).waitFor();
  });
});

describe('notifications I receive (issue 30.19)', () => {
  it('an agency user sends an event to their daily digest and back, at 390 and 1366 px', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const merchant = await page.evaluate(() => localStorage.getItem('merchant_id'));
    for (const [size, choice] of [
      [{ width: 390, height: 844 }, 'In a daily digest'],
      [{ width: 1366, height: 900 }, 'At once'],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(`/admin/${merchant}`);
      const section = page.getByRole('region', { name: 'Notifications I receive' });
      const email = section.getByRole('combobox', { name: 'Shift filled E-mail' });
      await email.click();
      await page.getByRole('listbox').getByRole('option', { name: choice, exact: true }).click();
      await section.getByText('Saved: Shift filled.').waitFor();
      const mine = (await api(page, 'GET', '/api/me/notification_preferences')).body.data;
      expect(mine.find((p: { event: string }) => p.event === 'shift.filled').email).toBe(
        choice === 'At once' ? 'now' : 'digest',
      );
      expect(await section.getByRole('switch', { name: 'Shift filled: in the app' }).isChecked()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    }
  });
});
