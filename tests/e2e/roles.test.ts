import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import { api, openHome, signIn, signInAdmin, trackRequests, uid, waitForPath } from './engineHelpers';
import { report, sweep, type Finding } from './axe';
import { layoutProblems, PHONE } from './layout';

// Issue 35, users and privileges: an admin makes a role in the grid (by keyboard), gives it to a colleague, who then
// reaches only what it grants; the roles' screens are axe clean and fit a 390 px phone.
const e2e = useBrowser({ mailServer: true });

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

/** Until the screen of `path` is on the page (a move renders in a transition, the previous screen up meanwhile). */
const rendered = (page: Page, path: string) =>
  page.waitForFunction((p) => document.documentElement.dataset.renderedPath === p, path);

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

describe('custom roles', () => {
  it(
    'an admin makes a role in the grid by keyboard; a colleague holding it reaches only what it grants',
    { timeout: 240_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      await page.goto('/appsetting/previlegesetting');
      // The users list stays; the roles are beside it.
      await page.getByRole('navigation', { name: 'Users and roles' }).getByRole('link', { name: 'Roles' }).click();
      await waitForPath(page, '/appsetting/previlegesetting/roles');
      await rendered(page, '/appsetting/previlegesetting/roles');
      await page.locator('a[href="/agency_roles/create"], a[href="/appsetting/previlegesetting/roles/create"]').click();
      await waitForPath(page, '/appsetting/previlegesetting/roles/create');
      await rendered(page, '/appsetting/previlegesetting/roles/create');
      const name = `Client desk ${uid()}`;
      const form = page.locator('form');
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      // A preset fills the grid; clearing it empties it; then two boxes ticked with the keyboard (focus, Space).
      await page.getByRole('button', { name: 'Start from: Read-only' }).click();
      expect(await page.getByRole('checkbox', { name: 'Staff: List', exact: true }).isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Clear all' }).click();
      await page.getByText('0 privileges granted').waitFor();
      // A resource's privileges, a guarded field group and a report: the grid's rows alike.
      for (const box of ['Clients: List', 'Clients: Show', 'Shifts: List', 'Reports: Client report']) {
        const checkbox = page.getByRole('checkbox', { name: box, exact: true });
        await checkbox.focus();
        await page.keyboard.press('Space');
        expect(await checkbox.isChecked(), box).toBe(true);
      }
      await page.getByText('4 privileges granted').waitFor();
      // The margins are a field group of their own; the consultant-like preset ticks it, as the consultant reads them.
      const margins = page.getByRole('checkbox', { name: 'Guarded fields: Charge rates, margins and on-costs' });
      expect(await margins.isChecked()).toBe(false);
      await margins.focus();
      await page.keyboard.press('Space');
      await page.getByText('5 privileges granted').waitFor();
      // Limited to one business unit, chosen by keyboard in the multi-select (type, arrow down, Enter).
      const hospitals = (await api(page, 'GET', '/api/business_units?q=Hospitals')).body.data[0].id as number;
      await form.getByRole('combobox', { name: 'Business units (all when empty)' }).focus();
      await page.keyboard.type('Hosp');
      // The list narrows as the server answers the typed text (both units are offered until it does).
      await expect.poll(() => page.getByRole('option').allInnerTexts()).toEqual(['Hospitals']);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await form.getByRole('button', { name: 'Hospitals' }).waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, /^\/appsetting\/previlegesetting\/roles\/\d+\/show$/);
      const roleId = Number(/roles\/(\d+)\/show/.exec(page.url())![1]);
      await page.getByText('List, Show').waitFor();
      expect((await api(page, 'GET', `/api/agency_roles/${roleId}`)).body.data.privileges.sort()).toEqual([
        'clients.list',
        'clients.show',
        'fields.margins',
        'reports.client_activity',
        'shifts.list',
      ]);
      expect((await api(page, 'GET', `/api/agency_roles/${roleId}`)).body.data.business_unit_ids).toEqual([hospitals]);
      const allClients = (await api(page, 'GET', '/api/clients?per_page=1')).body.total_count as number;

      // A colleague invited with it (the form asks which role only for Custom role).
      const email = `desk.${uid()}@roles.example`;
      const invited = await api(page, 'POST', '/api/users', {
        name: `Dana Desk ${uid()}`,
        email,
        role: 'custom',
        agency_role_id: roleId,
      });
      expect(invited.status).toBe(201);
      await setPassword(page, await linkSentTo(email), 'desk-password-12');
      await signIn(page, 'Agency', email, 'desk-password-12');
      await waitForPath(page, '/home');
      expect((await api(page, 'GET', '/api/admin_login')).body.user).toMatchObject({ role: 'custom' });

      // The clients they may list, without the Create they were not given; the staff list they may not read.
      await page.goto('/client/client-list');
      await rendered(page, '/client/client-list');
      await page.locator('table tbody tr').first().waitFor();
      expect(await page.getByRole('link', { name: 'Create' }).count()).toBe(0);
      // Only the hospitals' unit's clients (the demo names them Hospital or Trust), fewer than the agency's.
      const theirs = (await api(page, 'GET', '/api/clients?per_page=100')).body;
      expect(theirs.data.length).toBeGreaterThan(0);
      expect(theirs.total_count).toBeLessThan(allClients);
      for (const c of theirs.data as { name: string }[]) expect(c.name).toMatch(/Hospital|Trust/);
      expect((await api(page, 'GET', '/api/candidates')).status).toBe(403);
      expect((await api(page, 'GET', '/api/agency_roles')).status).toBe(403);
      await page.goto('/staff/staff-list');
      await expect.poll(() => page.locator('table tbody tr').count(), { timeout: 5_000 }).toBe(0);

      // The reports: the one granted is offered and answers, with its margin; the staff report (not granted, though
      // its rows are the shifts they list) is neither offered nor answered.
      await page.goto('/report');
      await rendered(page, '/report');
      const cards = page.getByRole('list', { name: 'Reports' });
      await cards.getByRole('link', { name: /Client Report/ }).waitFor();
      expect(await cards.getByRole('link', { name: /Staff Report/ }).count()).toBe(0);
      expect((await api(page, 'GET', '/api/reports/staff_activity')).status).toBe(403);
      const answer = await api(page, 'GET', '/api/reports/client_activity');
      expect(answer.status).toBe(200);
      expect(answer.body.measures.map((m: { id: string }) => m.id)).toContain('margin');
    },
  );

  it('the roles screens are axe clean and fit a 390 px phone', { timeout: 240_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const role = await api(page, 'POST', '/api/agency_roles', {
      name: `Payroll clerk ${uid()}`,
      privileges: ['pay_runs.list', 'pay_runs.show', 'candidates.list'],
    });
    expect(role.status).toBe(201);
    const id = role.body.data.id as number;
    const lists = ['/appsetting/previlegesetting/roles'];
    const routes = [
      ...lists,
      '/appsetting/previlegesetting/roles/create',
      `/appsetting/previlegesetting/roles/${id}/show`,
      `/appsetting/previlegesetting/roles/${id}`,
    ];
    const findings: Finding[] = [];
    const tooWide = await sweep(page, routes, findings, inflight, lists);
    expect(report(findings), 'serious or critical axe violations').toBe('');
    expect(tooWide).toEqual([]);
    await page.setViewportSize(PHONE);
    for (const route of routes) {
      await page.goto(new URL(route, page.url()).toString());
      await page.locator('#main-content').waitFor();
      await page
        .getByText(/Payroll clerk|Roles|Privileges/)
        .first()
        .waitFor();
      expect(await layoutProblems(page, route, PHONE.width)).toEqual([]);
    }
  });
});
