import type { Page } from 'playwright-core';
import { adminComingSoon, adminRedirects, adminShellPaths, clientComingSoon, clientShellPaths } from '../../src/routes';
import { declarations } from '../../core/resources/declarations';
import { pathsOf } from '../../src/engine/react/paths';
import { PROFILE_TABS } from '../../src/resources/candidates/CandidateProfile';

/**
 * What the layout sweeps measure (phone.test.ts at a phone's width, the accessibility sweeps of tests/e2e/axe.ts at a
 * laptop's): every route of the agency panel and the client panel, from the product's own route data (src/routes.tsx
 * and the resource declarations), so a new screen is measured without editing a test; ":id" is the demo's first record.
 */

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };

/** A list screen: no record id, no create or edit form. */
export const isList = (route: string) => !/\/\d+(\/|$)|create|edit/.test(route);

export const fillIds = (pattern: string) =>
  pattern.replace(/:id\b/g, '1').replace(':templateType', 'template1').replace(':topic', 'clients');

/** Screens outside the declarations and src/routes.tsx's lists (the resources' own routes). */
export const ADMIN_SCREENS = [
  '/staff/availability',
  '/rates_and_rules',
  '/schedule',
  '/chat',
  '/notification',
  '/support',
  '/support/help/clients',
  '/appsetting',
  '/report/EmailReport/mailbox',
  '/staffs/profileview/1',
  '/client/client/1',
  '/appsetting/notificationsetting',
  '/appsetting/notificationsetting/sms',
  '/appsetting/notificationsetting/pushnotification',
  '/appsetting/notificationsetting/notificationalert',
  '/appsetting/notificationsetting/ActivatePayment',
  '/appsetting/invoicesetting',
  '/appsetting/SubscriptionSetting',
  '/appsetting/ClientSettings/basicClientSettings',
  '/appsetting/ClientSettings/emailNotification',
  '/invoice/staff-payroll/GenerateStaff',
  '/invoice/staff-payroll/GenerateSingleStaff/1',
  '/recruitment',
  '/recruitment/settings',
  ...PROFILE_TABS.map((t) => `/staffs/1/${t}`),
];

/** Every agency-panel route (redirects are measured where they land). */
export function agencyPanelRoutes(): string[] {
  const out = new Set<string>([
    ...adminShellPaths.map(fillIds),
    ...adminComingSoon.map((r) => fillIds(r.path)),
    ...adminRedirects.map((r) => r.path),
    ...ADMIN_SCREENS,
  ]);
  for (const d of declarations) {
    // A record's children (documents, restrictions…) are shown on their parent's profile, measured there, unless
    // their list is a screen of its own (the payslips' is the payroll report).
    if (d.parent && !d.routes?.list) continue;
    const paths = pathsOf(d);
    const can = d.access.admin ?? [];
    out.add(paths.list);
    // Every tab, its own address or the list's with the tab's id: a tab lists other rows, in other columns.
    for (const t of d.tabs ?? []) out.add(paths.tab(t.id));
    if (can.includes('create')) out.add(paths.create);
    if (can.includes('show')) out.add(paths.show(1));
    if (can.includes('edit')) out.add(paths.edit(1));
  }
  return [...out];
}

export const CLIENT_SCREENS = [
  '/client/shift',
  '/client/shift/open-shift',
  '/client/shift/assign-shift',
  '/client/shift/closed-shift',
  '/client/shift/deleted-shift',
  '/client/shift/request',
  '/client/schedule',
  '/client/ClientNotification',
  '/client/invoice',
  '/client/invoice/1',
];
export const clientPanelRoutes = () => [
  ...clientShellPaths.map(fillIds),
  ...clientComingSoon.map((r) => fillIds(r.path)),
  ...CLIENT_SCREENS,
];

export const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/**
 * The controls of the screen a user cannot see without scrolling sideways inside a box (a wide table's Cancel
 * or Verify): buttons, links and checkboxes whose right edge is past the screen's. Tabs are left out: a tab bar
 * scrolls with its own arrows.
 */
export const hiddenControls = (page: Page, max: number) =>
  page.evaluate((right) => {
    const main = document.querySelector('#main-content') ?? document.querySelector('main');
    if (!main) return [];
    const out: string[] = [];
    for (const el of main.querySelectorAll<HTMLElement>('button, a[href], input[type="checkbox"]')) {
      if (el.closest('[role="tablist"]')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > right + 1)
        out.push((el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40));
    }
    return [...new Set(out)];
  }, max);

/** The widths of the tables that scroll sideways inside their box (columns out of sight). */
export const scrollingTables = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('#main-content table')]
      .map((t) => {
        let box = t.parentElement;
        while (box && box.id !== 'main-content' && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
          box = box.parentElement;
        return box && box.id !== 'main-content' && box.scrollWidth > box.clientWidth + 1 ? t.scrollWidth : 0;
      })
      .filter((w) => w > 0),
  );

/**
 * What makes the screen shown at `route` too wide for `max` px: a page wider than that, a control past its right edge
 * or (`tables`) a table that scrolls sideways inside its box, with what was measured. Empty when it fits.
 */
export async function layoutProblems(page: Page, route: string, max: number, tables = false): Promise<string[]> {
  const problems: string[] = [];
  const w = await scrollWidth(page);
  if (w > max) problems.push(`${route}: ${w} px`);
  const hidden = await hiddenControls(page, max);
  if (hidden.length) problems.push(`${route}: off-screen ${hidden.join(' | ')}`);
  const scrolling = tables ? await scrollingTables(page) : [];
  if (scrolling.length) problems.push(`${route}: table of ${scrolling.join(', ')} px scrolls sideways`);
  return problems;
}
