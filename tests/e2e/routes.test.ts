import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './harness';
import {
  api,
  appIsOpen,
  dateField,
  navigateInApp,
  settleScreen,
  signInAdmin,
  trackRequests,
  typeDate,
} from './engineHelpers';
import { DESKTOP, PHONE, scrollWidth } from './layout';

// Every spec route of the engine's entities opens its screen (never the not-found or coming-soon page), and
// react-admin's own addresses lead to the same screens. Expected texts come from the demo data.
const e2e = useBrowser();

/**
 * Opens `route` and waits for `text` in its content, never the not-found or coming-soon page. The first screen of a
 * test is a page load (an address typed or pasted); the next ones move inside the app as a link does, each judged
 * once it has settled, so a test of a dozen routes does not boot the app a dozen times.
 */
async function expectScreen(page: Page, route: string, text: string) {
  if (await appIsOpen(page)) {
    await navigateInApp(page, route);
    await settleScreen(page, inflight.get(page)!);
  } else {
    inflight.set(page, trackRequests(page));
    await page.goto(route);
  }
  const main = page.locator('#main-content');
  await main
    .getByText(text, { exact: true })
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(async (e) => {
      throw new Error(`${route}: "${text}" not shown (at ${new URL(page.url()).pathname})\n${e}`);
    });
  expect(await page.getByTestId('not-found').count(), route).toBe(0);
  expect(await page.getByTestId('coming-soon').count(), route).toBe(0);
}

/** Each page's requests in flight (trackRequests), from its first screen on. */
const inflight = new WeakMap<Page, () => number>();

describe('engine routes', () => {
  it('clients and sites: lists, tabs, record, edit and profile', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    for (const [route, text] of [
      ['/client/client-list', 'Airedale Private Hospital'],
      ['/client/client-list/allClient', 'Airedale Private Hospital'],
      ['/client/client-list/activeClient', 'Airedale Private Hospital'],
      ['/client/client-list/Inactive-Client', 'Ashgrove Nursing Home'],
      ['/client/view/1', 'Meadowbank Care Home'],
      ['/client/edit/1', 'Client code'],
      ['/client/client/1', 'Contacts'],
      ['/client/create', 'Client code'],
      ['/site/siteLists', 'Site name'],
      ['/site/allSite', 'Site name'],
      ['/site/activeSite', 'Site name'],
      ['/site/Inactive-Site', 'Site name'],
      ['/site/site-profile/1', 'Meadowbank Care Home – Main Building'],
    ])
      await expectScreen(page, route, text);
  });

  it('staff: lists, tabs, record and every profile tab', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    for (const route of [
      '/staff/staff-list',
      '/staffs/allStaffs',
      '/staffs/activeStaff',
      '/staffs/InactiveStaff',
      '/staffs/pendingStaff',
      '/staffs/rejectStaff',
    ]) {
      await expectScreen(page, route, 'First name');
    }
    await expectScreen(page, '/staffs/profileview/1', 'Date of birth');
    await page.goto('/staffs/1');
    await page.waitForURL('**/staffs/1/overview');
    for (const [tab, label] of [
      ['overview', 'Overview'],
      ['document', 'Documents'],
      ['profiles', 'Profiles'],
      ['restricted', 'Restricted'],
      ['rate-card', 'Rate card'],
      ['notes', 'Notes'],
      ['staff-id', 'Staff ID'],
      ['candidate-history', 'History'],
      ['candidate-preference', 'Preferences'],
      ['holiday', 'Holiday'],
    ]) {
      await navigateInApp(page, `/staffs/1/${tab}`);
      await expect
        .poll(() => page.getByRole('tab', { name: label, exact: true }).getAttribute('aria-selected'))
        .toBe('true');
    }
  });

  it('staff settings under /appsetting', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    for (const [route, text] of [
      ['/appsetting', 'Healthcare Assistant'],
      ['/appsetting/addjobdetail', 'Healthcare Assistant'],
      ['/appsetting/staff-status', 'On leave'],
      ['/appsetting/employmenttypedetail', 'Umbrella company'],
      ['/appsetting/staff-profiles', 'Care staff'],
      ['/appsetting/documentcategories', 'DBS certificate'],
      ['/appsetting/staff-detail-field', 'Uniform size'],
    ])
      await expectScreen(page, route, text);
  });

  it("a staff member's History tab lists their history, and says so in words when none matches (issue 30.19)", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const staff = (await api(page, 'GET', '/api/candidates?q=Adeyemi&per_page=1')).body.data[0];
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page.goto(`/staffs/${staff.id}/candidate-history`);
      const history = page.getByRole('list', { name: 'History' });
      await history.locator('li').first().waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(size.width);
    }
    // A day after which nothing happened: the empty history says so.
    await typeDate(page, dateField(page, 'From'), '2099-01-01');
    await page.getByText('No history yet.').waitFor();
  });

  it('/login, the address people type for signing in, leads to the sign-in page (issue 30.19)', async () => {
    const { page } = e2e;
    await page.goto('/login');
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByTestId('not-found').count()).toBe(0);
  });

  it("react-admin's own addresses lead to the spec's screens", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    for (const [from, to] of [
      ['/clients', '/client/client-list'],
      ['/clients/1/show', '/client/view/1'],
      ['/clients/1', '/client/edit/1'],
      ['/candidates/create', '/staffs/create'],
      ['/sites/2/show', '/site/site-profile/2'],
      ['/job_roles', '/appsetting/addjobdetail'],
    ]) {
      await page.goto(from);
      await page.waitForURL((u) => u.pathname === to);
    }
  });
});
