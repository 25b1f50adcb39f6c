import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { api, signInAdmin, uid, waitForPath } from './engineHelpers';

// Chat between the agency (/chat) and a staff member on their own page (/staff-app), live in two browsers;
// the rules of what is sent, and the send error dialog's words (spec section 8).

const e2e = useBrowser();

/** Signs the demo staff member in on their own page; answers their staff record's id. */
async function signInStaff(page: Page): Promise<number> {
  await page.goto('/staff-app/login');
  await page.getByLabel('Email').fill('staff@demo.test');
  await page.getByLabel('Password').fill('demo-staff');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await waitForPath(page, '/staff-app/shifts');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Messages' }).click();
  await waitForPath(page, '/staff-app/chat');
  return (await api(page, 'GET', '/api/staff_login')).body.candidate_id;
}

const messagesOf = (page: Page) => page.getByRole('log', { name: 'Chat' });
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/** Opens the agency's conversation with a staff member from their profile's Message button. */
async function openFromProfile(page: Page, staffId: number) {
  await page.goto(`/staffs/${staffId}/overview`);
  const fetched = page.waitForResponse((r) => r.url().includes('/api/chats/fetch_messages'));
  await page.getByTestId('profile-actions').getByRole('link', { name: 'Message' }).click();
  await waitForPath(page, '/chat');
  await fetched;
  await expect.poll(() => new URL(page.url()).searchParams.get('channel') ?? '').toMatch(/^CH/);
  await expect.poll(() => messageBox(page).isEnabled()).toBe(true);
}

describe('chat', () => {
  it('the agency and a staff member exchange messages live, in two browser contexts', async () => {
    const agency = e2e.page;
    const staffContext = await e2e.context
      .browser()!
      .newContext({ baseURL: e2e.baseURL, viewport: { width: 390, height: 844 } });
    try {
      const staff = await staffContext.newPage();
      const staffId = await signInStaff(staff);
      await signInAdmin(agency);
      await openFromProfile(agency, staffId);

      const hello = `Can you cover tonight? ${uid()}`;
      await messageBox(agency).fill(hello);
      await agency.keyboard.press('Enter');
      await messagesOf(agency).getByText(hello).waitFor();
      // The staff member's page shows it without reloading.
      await messagesOf(staff).getByText(hello).waitFor();

      const reply = `Yes, I can do it. ${uid()}`;
      await messageBox(staff).fill(reply);
      await staff.getByRole('button', { name: 'Send' }).click();
      await messagesOf(staff).getByText(reply).waitFor();
      await messagesOf(agency).getByText(reply).waitFor();
      await expect.poll(() => messageBox(staff).inputValue()).toBe('');

      // The conversation is at the top of the agency's list, with the reply as its last message.
      const list = agency.getByRole('navigation', { name: 'Conversations' });
      await expect.poll(() => list.getByRole('button').first().textContent()).toContain(reply);
    } finally {
      await staffContext.close();
    }
  });

  it("the staff page's tabs name the staff member's agency once it is known", async () => {
    const { page } = e2e;
    const titled = (title: string) => page.waitForFunction((t) => document.title === t, title);
    await page.goto('/staff-app/login');
    await titled('Staff sign in · Staffing back office');
    await signInStaff(page);
    await titled('Messages · Brightway Staffing');
    await page.getByRole('button', { name: 'Notifications' }).click();
    await waitForPath(page, '/staff-app/notifications');
    await titled('Notifications · Brightway Staffing');
  });

  it('a message that is only whitespace is not sent', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const staffId = (await api(page, 'GET', '/api/candidates?per_page=1&sort=id&order=asc')).body.data[0].id;
    await openFromProfile(page, staffId);
    const sends: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/chats/send_message_to_channel')) sends.push(r.url());
    });
    await messageBox(page).fill('   \n  ');
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await messageBox(page).press('Enter');
    await messageBox(page).press('Enter');
    // A real message afterwards is sent, and it is the only one.
    const real = `After whitespace ${uid()}`;
    await messageBox(page).fill(real);
    await messageBox(page).press('Enter');
    await messagesOf(page).getByText(real).waitFor();
    expect(sends.length).toBe(1);
    expect(await messagesOf(page).getByTestId('chat-message').last().textContent()).toContain(real);
  });

  it("the send error dialog says the server's message, the generic text, or the network text", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const staffId = (await api(page, 'GET', '/api/candidates?per_page=1&sort=id&order=asc')).body.data[0].id;
    await openFromProfile(page, staffId);
    const dialog = page.getByRole('dialog', { name: 'Error!' });
    const trySend = async () => {
      await messageBox(page).fill(`Refused ${uid()}`);
      await page.getByRole('button', { name: 'Send' }).click();
      await dialog.waitFor();
    };
    const close = async () => {
      await dialog.getByRole('button', { name: 'OK' }).click();
      await dialog.waitFor({ state: 'hidden' });
    };

    // The server refuses with its own words.
    await page.route('**/api/chats/send_message_to_channel', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'This conversation is closed.' }),
      }),
    );
    await trySend();
    expect(await dialog.textContent()).toContain('This conversation is closed.');
    await close();

    // The server refuses without a message.
    await page.unroute('**/api/chats/send_message_to_channel');
    await page.route('**/api/chats/send_message_to_channel', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await trySend();
    expect(await dialog.textContent()).toContain('Failed to send the message. Please try again.');
    await close();

    // The server cannot be reached.
    await page.unroute('**/api/chats/send_message_to_channel');
    await page.route('**/api/chats/send_message_to_channel', (route) => route.abort('failed'));
    await trySend();
    expect(await dialog.textContent()).toContain(
      'An unexpected error occurred while sending the message. Please try again.',
    );
    await close();
    // Nothing was added; the text stays for another try.
    expect(await messageBox(page).inputValue()).toMatch(/^Refused /);
  });
});
