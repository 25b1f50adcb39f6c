import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { api, selectChoice, signIn, signInAdmin, signInClient, uid, waitForPath } from './engineHelpers';

// Issue 14: inviting agency and client users (items 3), settings read-only for consultants (item 20), and the
// staff member's Activate / Deactivate dialogs (item 21), as a coordinator meets them.

const e2e = useBrowser({ mailServer: true });

// An invitation's link exists only in the e-mail as it is handed to the mail server (the agency's mailbox shows it
// hidden, as for staff invitations), so this file's product sends its mail to a mail server of the file's own, which
// keeps what it receives, as the invitee's mailbox would.

/** The invitation link in the newest e-mail sent to `email`, as the invitee receives it (a path of the product). */
async function linkSentTo(email: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const text = e2e.sentMail.filter((m) => m.to.includes(email)).at(-1)?.text ?? '';
        const found = /https?:\/\/\S+\/invite\/[\w-]+/.exec(text)?.[0];
        link = found ? new URL(found).pathname : '';
        return link;
      },
      { timeout: 30_000, interval: 500 },
    )
    .toMatch(/^\/invite\/[\w-]{40,}$/);
  return link;
}

/** Follows an invitation link in a fresh page and sets the password; answers on the Login page. */
async function setPassword(page: Page, link: string, password: string) {
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set my password' }).click();
  await waitForPath(page, '/');
  await page.getByText('Your password is set.').waitFor();
}

/**
 * A client user's first sign-in: the invitation e-mailed to `email` followed, the password chosen, then signed in on
 * the Login page it leads to, which has the client panel chosen.
 */
async function signInAsInvitedClientUser(page: Page, email: string, password: string) {
  await setPassword(page, await linkSentTo(email), password);
  expect(await page.getByRole('radio', { name: 'Client' }).isChecked()).toBe(true);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await waitForPath(page, '/client/clientDashboard');
}

describe('inviting people', () => {
  it('an admin invites a colleague; the e-mail carries a link that sets a password; the colleague signs in', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const name = `Casey Colleague ${uid()}`;
    const email = `casey.${uid()}@colleague.example`;
    await page.goto('/appsetting/previlegesetting');
    await page.getByRole('link', { name: 'Create' }).click();
    await waitForPath(page, '/appsetting/previlegesetting/create');
    const form = page.locator('form');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await form.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await selectChoice(page, 'Role', 'Consultant');
    // An agency role needs no client: the form does not ask for one.
    expect(await form.getByRole('combobox', { name: 'Client', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, /^\/appsetting\/previlegesetting\/\d+\/show$/);
    await page.getByText('Invited', { exact: true }).first().waitFor();

    const link = await linkSentTo(email);

    await setPassword(page, link, 'colleague-password-1');
    // The Login page has the agency panel and the address filled in.
    expect(await page.getByRole('radio', { name: 'Agency' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByLabel('Password').fill('colleague-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/home');
    expect((await api(page, 'GET', '/api/admin_login')).body.user).toMatchObject({ email, role: 'consultant' });

    // The link worked once.
    await page.goto(link);
    await page.getByText('This invitation link is not valid any more').waitFor();
  });

  it("a client user invited from the client's profile signs into the client panel", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const client = (
      await api(page, 'POST', '/api/clients', {
        name: `Invite Client ${uid()}`,
        billing_email: 'accounts@invite.example',
      })
    ).body.data;
    const name = `Morgan Manager ${uid()}`;
    const email = `morgan.${uid()}@client.example`;
    await page.goto(`/client/client/${client.id}`);
    await page.getByRole('heading', { name: 'Client panel users' }).waitFor();
    await page.getByText('Nobody signs in to this client').waitFor();
    await page.getByRole('button', { name: 'Invite a user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await dialog.getByRole('button', { name: 'Invite a user' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator('table tbody tr', { hasText: email });
    await row.getByText('Invited', { exact: true }).waitFor();
    await row.getByText('Client manager').waitFor();

    await signInAsInvitedClientUser(page, email, 'manager-password-1');
    expect((await api(page, 'GET', '/api/client_login')).body).toMatchObject({
      client_id: client.id,
      user: { email, role: 'manager' },
    });
  });

  it('a client manager invites a viewer on "My account" and makes them a phone approver; the viewer cannot cancel a shift (issue 35)', async () => {
    const { page } = e2e;
    await signInClient(page);
    await page.goto('/client/account');
    const colleagues = page.getByRole('region', { name: 'Colleagues' });
    // The demo's colleague, who does not sign on staff phones yet.
    await colleagues.locator('table tbody tr', { hasText: 'Tom Reid' }).getByText('Client viewer').waitFor();
    const name = `Vic Viewer ${uid()}`;
    const email = `vic.${uid()}@meadowbank.example`;
    await colleagues.getByRole('button', { name: 'Invite a user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await selectChoice(page, 'Role', 'Client viewer');
    await dialog.getByRole('button', { name: 'Invite a user' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = colleagues.locator('table tbody tr', { hasText: email });
    await row.getByText('Invited', { exact: true }).waitFor();
    await row.getByText('Client viewer').waitFor();

    // Named a phone approver, with the PIN they will sign with on a staff member's phone.
    await row.getByRole('button', { name: `Make phone approver: ${name}` }).click();
    const approver = page.getByRole('dialog', { name: `Make ${name} a phone approver` });
    await approver.getByLabel('Job title').fill('Night nurse');
    await approver.getByLabel('PIN (6 to 8 digits)').fill('86420');
    await approver.getByRole('button', { name: 'Save' }).click();
    await approver.getByText('Type a PIN of 6 to 8 digits.').waitFor();
    await approver.getByLabel('PIN (6 to 8 digits)').fill('864200');
    await approver.getByRole('button', { name: 'Save' }).click();
    await approver.waitFor({ state: 'hidden' });
    await row.getByText('Yes', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /phone approver/ }).count()).toBe(0);

    await signInAsInvitedClientUser(page, email, 'viewer-password-1');
    // Their open shifts are listed, none with a Cancel button; the API refuses them too.
    await page.goto('/client/shift/open-shift');
    await page.locator('table tbody tr').first().waitFor();
    expect(await page.getByRole('button', { name: 'Cancel shift' }).count()).toBe(0);
    const open = (await api(page, 'GET', '/api/shifts?state=open&per_page=1')).body.data[0];
    expect(
      (await api(page, 'POST', `/api/shifts/${open.id}/actions/cancel`, { reason: 'Not mine to cancel' })).status,
    ).toBe(403);
    // Nor do they invite anyone: My account shows no colleagues.
    await page.goto('/client/account');
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    await page.getByRole('region', { name: 'Notifications I receive' }).waitFor();
    expect(await page.getByRole('region', { name: 'Colleagues' }).count()).toBe(0);
  });

  it('a client\u2019s e-mail tried on the agency panel gets the "Client?" hint, which switches the panel', async () => {
    const { page } = e2e;
    await signIn(page, 'Agency', 'client@demo.test', 'demo-client');
    const alert = page.getByRole('alert');
    await alert.getByText(/^Client\? /).waitFor();
    await alert.getByRole('button', { name: 'Sign in as Client' }).click();
    expect(await page.getByRole('radio', { name: 'Client' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/client/clientDashboard');
  });
});

describe('what a role cannot change', () => {
  it('a consultant sees the notification settings read-only, told why', async () => {
    const { page } = e2e;
    await signIn(page, 'Agency', 'consultant@demo.test', 'demo-admin');
    await waitForPath(page, '/home');
    await page.goto('/appsetting/notificationsetting');
    await page.getByText('Only an admin can change these settings').waitFor();
    // Every switch and tick box is shown, none can be changed.
    const controls = page.locator('#main-content input[type=checkbox]');
    await controls.first().waitFor({ state: 'attached' });
    expect(await controls.count()).toBeGreaterThan(5);
    for (const c of await controls.all()) expect(await c.isDisabled()).toBe(true);
    await page
      .getByRole('button', { name: /^View template/ })
      .first()
      .click();
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Save' }).count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.goto('/appsetting/notificationsetting/ActivatePayment');
    await page.getByText('Only an admin can change these settings').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
  });
});

describe('activating and deactivating a staff member', () => {
  it('Deactivate asks first; Activate asks for no reason when the staff member is compliant', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const active = (await api(page, 'GET', '/api/candidates?tab=activeStaff&per_page=50')).body.data as {
      id: number;
    }[];
    let id = 0;
    for (const c of active) {
      if ((await api(page, 'GET', `/api/candidates/${c.id}/compliance`)).body.data.compliant) {
        id = c.id;
        break;
      }
    }
    expect(id).toBeGreaterThan(0);
    await page.goto(`/staffs/${id}/overview`);
    const main = page.locator('#main-content');
    await main.getByRole('button', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(/^Deactivate .+\? They cannot be booked/).waitFor();
    // Cancelled: nothing changes.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await api(page, 'GET', `/api/candidates/${id}`)).body.data.activated).toBe(true);
    await main.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(async () => (await api(page, 'GET', `/api/candidates/${id}`)).body.data.activated).toBe(false);

    // Compliant: Activate activates at once, asking nothing.
    const activate = main.getByRole('button', { name: 'Activate', exact: true });
    await expect.poll(() => activate.isEnabled()).toBe(true);
    await activate.click();
    await expect.poll(async () => (await api(page, 'GET', `/api/candidates/${id}`)).body.data.activated).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('Activate asks a staff member who is not compliant for a reason, saying why', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const role = (await api(page, 'GET', '/api/job_roles?per_page=1')).body.data[0];
    const made = await api(page, 'POST', '/api/candidates', {
      first_name: 'Nadia',
      last_name: `Noncompliant${uid()}`,
      email: `nadia.${uid()}@staff.example`,
      job_role_id: role.id,
    });
    const id = made.body.data.id;
    await api(page, 'POST', `/api/candidates/${id}/actions/approve`, {});
    await page.goto(`/staffs/${id}/overview`);
    const main = page.locator('#main-content');
    const activate = main.getByRole('button', { name: 'Activate', exact: true });
    await expect.poll(() => activate.isEnabled()).toBe(true);
    await activate.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/is not compliant\. Missing:/).waitFor();
    await dialog.getByLabel(/Reason to activate/).fill('Documents seen on paper; copies promised for Monday');
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await expect.poll(async () => (await api(page, 'GET', `/api/candidates/${id}`)).body.data.activated).toBe(true);
  });
});
