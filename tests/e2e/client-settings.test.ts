import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, idInPath, navigateInApp, openHome, signInAdmin, trackRequests, uid, waitForPath } from './engineHelpers';
import { report, sweep, type Finding } from './axe';
import { layoutProblems, PHONE } from './layout';

// Issue 35, client settings: an agency default changed by keyboard is what the next client created starts with; the
// e-mails screen lists the demo's client users; both screens are axe clean and fit a 390 px phone.
const BASIC = '/appsetting/ClientSettings/basicClientSettings';
const EMAILS = '/appsetting/ClientSettings/emailNotification';

describe('client settings', () => {
  const e2e = useBrowser();

  it('a default changed by keyboard is taken by the next client created', { timeout: 240_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    await navigateInApp(page, BASIC);
    const po = page.getByLabel('PO number required');
    await po.waitFor();
    expect(await po.isChecked()).toBe(false);
    await po.focus();
    await page.keyboard.press('Space');
    expect(await po.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Client settings saved').waitFor();
    expect((await api(page, 'GET', '/api/client_settings')).body.data.po_required).toBe(true);

    // The create form starts from it; the client saved keeps it.
    await navigateInApp(page, '/client/create');
    const name = `Settings Client ${uid()}`;
    const nameInput = page.getByRole('textbox', { name: 'Name', exact: true });
    await nameInput.waitFor();
    expect(await page.getByLabel('PO number required').isChecked()).toBe(true);
    await nameInput.focus();
    await page.keyboard.type(name);
    await page.getByRole('textbox', { name: 'Billing e-mail' }).focus();
    await page.keyboard.type('accounts@settings-client.test');
    await page.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, /^\/client\/view\/\d+$/);
    const created = (await api(page, 'GET', `/api/clients/${idInPath(page)}`)).body.data;
    expect(created).toMatchObject({ name, po_required: true });

    // The e-mails screen: the demo's client users, David Okoro set not to get overdue reminders.
    await navigateInApp(page, EMAILS);
    const david = page.getByLabel(/^Overdue reminder: David Okoro/);
    await david.waitFor();
    expect(await david.inputValue()).toBe('off');
    expect(await page.getByLabel(/^Invoice issued: Helen Carter/).inputValue()).toBe('default');

    // Axe over both screens, then both at 390 px.
    const findings: Finding[] = [];
    await sweep(page, [BASIC, EMAILS], findings, inflight, []);
    expect(report(findings), 'serious or critical axe violations').toBe('');
    await page.setViewportSize(PHONE);
    for (const route of [BASIC, EMAILS]) {
      await navigateInApp(page, route);
      await page.locator('#main-content').waitFor();
      expect(await layoutProblems(page, route, PHONE.width)).toEqual([]);
    }

    // The demo's default as it was, for the tests after this one.
    const now = (await api(page, 'GET', '/api/client_settings')).body.data;
    expect((await api(page, 'PUT', '/api/client_settings', { po_required: false, version: now.version })).status).toBe(
      200,
    );
  });
});
