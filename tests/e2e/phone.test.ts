// @run-first: every route of both panels at 390 px, a long file (tests/sequencer.ts)
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  navigateInApp,
  settleScreen,
  signInAdmin,
  signInClient,
  trackRequests,
  waitForPath,
  openHome,
} from './engineHelpers';
import { useBrowser } from './harness';
import { agencyPanelRoutes, clientPanelRoutes, layoutProblems, PHONE, scrollWidth } from './layout';

/**
 * The agency panel on a phone (390×844): every tool of the top bar is reachable, the user can sign out, and the
 * page is never wider than the screen. Also the tab title and the quiet "no match" of the staff search.
 */
const e2e = useBrowser();

/** How far the page is wider than the viewport (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Whether the element lies entirely inside the viewport. */
async function onScreen(selector: ReturnType<Page['locator']>) {
  const box = await selector.boundingBox();
  return (
    !!box &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= PHONE.width &&
    box.y + box.height <= PHONE.height &&
    box.width > 0
  );
}

describe('phone layout (390×844)', () => {
  it('the top bar keeps the menu, search, notifications and the profile menu; Sign out can be pressed', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInAdmin(page);
    await openHome(page);
    const bar = page.locator('header');

    // The logo keeps its size (it loads after the bar appears).
    const logo = bar.getByRole('link').first();
    await expect.poll(async () => (await logo.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(32);

    // The menu button opens the sidebar, and an entry navigates.
    await bar
      .getByRole('button', { name: /open menu|menu/i })
      .first()
      .click();
    await page.getByRole('link', { name: 'Staff List' }).click();
    await waitForPath(page, '/staff/staff-list');

    // Search: an icon that opens the field.
    const searchButton = bar.getByRole('button', { name: 'Search staff' });
    expect(await onScreen(searchButton)).toBe(true);
    await searchButton.click();
    const field = page.getByRole('combobox', { name: 'Search staff' });
    await expect(field.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    expect(await onScreen(field)).toBe(true);
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(field.count()).resolves.toBe(0);

    // Notifications open.
    const bell = bar.getByRole('button', { name: /^Notifications/ });
    expect(await onScreen(bell)).toBe(true);
    await bell.click();
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
    await page.keyboard.press('Escape');

    // The profile menu is on screen, opens, and "Sign Out" asks for confirmation (cancelled here).
    const profile = bar.getByRole('button', { name: /Profile$/ });
    expect(await onScreen(profile)).toBe(true);
    await profile.click();
    const signOut = page.getByRole('menuitem', { name: 'Sign Out' });
    expect(await onScreen(signOut)).toBe(true);
    await signOut.click();
    const dialog = page.getByRole('dialog', { name: 'Sign out' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitForPath(page, '/staff/staff-list');
  });

  it('the dashboard, the staff list and the client list are never wider than the screen', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInAdmin(page);
    await openHome(page);
    await page.locator('#main-content h1').waitFor();
    expect(await overflow(page), '/home').toBeLessThanOrEqual(0);
    await page.goto('/staff/staff-list');
    await page.locator('#main-content .RaList-content').first().waitFor();
    expect(await overflow(page), '/staff/staff-list').toBeLessThanOrEqual(0);
    await page.goto('/client/client-list');
    await page.locator('#main-content').getByText('Airedale Private Hospital').first().waitFor();
    expect(await overflow(page), '/client/client-list').toBeLessThanOrEqual(0);
  });

  it('the staff profile, the client profile and a site fit the screen; the profile keeps every action on it', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInAdmin(page);
    await openHome(page);
    const main = page.locator('#main-content');

    // An approved, active staff member: the header holds every action (some disabled) with Edit and Delete.
    await page.goto('/staffs/1/overview');
    await main.getByRole('heading', { level: 1 }).waitFor();
    await main.getByText('Home address').waitFor();
    expect(await overflow(page), 'overview').toBeLessThanOrEqual(0);
    const actions = main.getByTestId('profile-actions').locator('button, a');
    await expect.poll(() => actions.count()).toBeGreaterThanOrEqual(6);
    for (const action of await actions.all()) {
      const box = await action.boundingBox();
      expect(
        box && box.x >= 0 && box.x + box.width <= PHONE.width,
        (await action.getAttribute('aria-label')) ?? (await action.textContent()) ?? '',
      ).toBe(true);
    }
    // The tabs scroll within the card: the selected one is on screen.
    const tabs = main.getByRole('tablist', { name: 'Staff profile sections' });
    expect(await onScreen(tabs.getByRole('tab', { selected: true }))).toBe(true);

    // The documents are one card each on a phone, their buttons on screen.
    await page.goto('/staffs/1/document');
    await main
      .locator('li')
      .filter({ has: page.getByRole('button', { name: 'Edit' }) })
      .first()
      .waitFor();
    expect(await main.locator('table').count()).toBe(0);
    // Within the screen's width (cards further down are below the fold, reached by scrolling down).
    for (const button of await main.getByRole('button', { name: 'Edit' }).all()) {
      const box = await button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    }
    expect(await overflow(page), 'documents').toBeLessThanOrEqual(0);

    await page.goto('/staffs/1/candidate-history');
    await main.getByRole('heading', { name: 'History' }).waitFor();
    expect(await overflow(page), 'history').toBeLessThanOrEqual(0);

    await page.goto('/client/client/1');
    await main.getByRole('heading', { level: 1, name: 'Meadowbank Care Home' }).waitFor();
    await main.locator('table tbody tr').first().waitFor();
    expect(await overflow(page), 'client profile').toBeLessThanOrEqual(0);

    await page.goto('/site/site-profile/1');
    await main.getByText('Meadowbank Care Home – Main Building').first().waitFor();
    expect(await overflow(page), 'site').toBeLessThanOrEqual(0);
  });
});

describe('tablet layout (768×1024)', () => {
  it('the top bar shows every tool and the dashboard fits the screen', async () => {
    const { page } = e2e;
    const TABLET = { width: 768, height: 1024 };
    await page.setViewportSize(TABLET);
    await signInAdmin(page);
    await openHome(page);
    const bar = page.locator('header');
    for (const name of ['Search staff', /^Notifications/, /Profile$/]) {
      const button = bar.getByRole('button', { name });
      // The profile button is named once the signed-in user has loaded.
      await button.waitFor();
      const box = await button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= TABLET.width, String(name)).toBe(true);
    }
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });
});

describe('shell details', () => {
  it('the tab title names the screen and the record, with the agency', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await openHome(page);
    const name = page.getByTestId('agency-name');
    await expect.poll(async () => (await name.textContent())?.trim()).not.toBe('');
    const agency = (await name.textContent())!.trim();
    await page.waitForFunction((a) => document.title === `Dashboard · ${a}`, agency);
    await page.goto('/client/view/1');
    await page.locator('#main-content').getByText('Meadowbank Care Home').first().waitFor();
    await page.waitForFunction(
      (a) => document.title.includes('Meadowbank Care Home') && document.title.endsWith(` · ${a}`),
      agency,
    );
  });

  it('a staff search without a match says so, and the page throws and logs nothing', async () => {
    const { page } = e2e;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // Chromium itself reports every 4xx answer ("Failed to load resource"); the app must add nothing of its own.
    page.on(
      'console',
      (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()),
    );
    await signInAdmin(page);
    await openHome(page);
    const answers: number[] = [];
    page.on('response', (r) => r.url().includes('/api/search_candidate') && answers.push(r.status()));
    await page.getByRole('combobox', { name: 'Search staff' }).fill('zzqx-nobody');
    await page.getByText('Not Staff found for the specified criteria').waitFor();
    expect(answers).toContain(404);
    expect(errors).toEqual([]);
  });
});

/**
 * Every route of the agency panel, the client panel and the staff page at a phone's width: never wider than the
 * screen (tests/e2e/layout.ts). The routes whose page is wider than `max`, hides a control past its right edge or
 * (`tables`) has a table that scrolls sideways inside its box, with what was measured.
 */
async function tooWide(page: Page, routes: string[], max: number, tables = false) {
  const wide: string[] = [];
  const inflight = trackRequests(page);
  for (const route of routes) {
    // As a link moves (no reload): a sweep of a hundred screens stays short.
    await navigateInApp(page, route);
    await settleScreen(page, inflight);
    wide.push(...(await layoutProblems(page, route, max, tables)));
  }
  return wide;
}

describe('every route fits a phone (390 px)', () => {
  it('the agency panel', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInAdmin(page);
    await openHome(page);
    const routes = agencyPanelRoutes();
    expect(routes.length).toBeGreaterThan(100);
    expect(await tooWide(page, routes, PHONE.width)).toEqual([]);
  }, 900_000);

  it('the client panel', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInClient(page);
    await openHome(page);
    expect(await tooWide(page, clientPanelRoutes(), PHONE.width)).toEqual([]);
  }, 180_000);

  it('the staff page', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await page.goto('/staff-app/login');
    await page.getByLabel('Email').waitFor();
    const wide: string[] = [];
    if ((await scrollWidth(page)) > PHONE.width) wide.push(`/staff-app/login: ${await scrollWidth(page)} px`);
    await page.getByLabel('Email').fill('staff@demo.test');
    await page.getByLabel('Password').fill('demo-staff');
    await page.getByRole('button', { name: /sign in/i }).click();
    // Shifts first (issue 29.17); the conversation is a tab away.
    await page.waitForURL((u) => u.pathname === '/staff-app/shifts');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Messages' }).click();
    await page.waitForURL((u) => u.pathname === '/staff-app/chat');
    await page.getByRole('textbox').first().waitFor();
    if ((await scrollWidth(page)) > PHONE.width) wide.push(`/staff-app/chat: ${await scrollWidth(page)} px`);
    // My shifts: the demo staff member's shifts (or the words saying there are none), within the phone's width.
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'Shifts' }).click();
    await page.waitForURL((u) => u.pathname === '/staff-app/shifts');
    await page.getByRole('heading', { name: 'My shifts' }).waitFor();
    await page
      .getByText(/^(Upcoming|You have no shifts yet\.)/)
      .first()
      .waitFor();
    if ((await scrollWidth(page)) > PHONE.width) wide.push(`/staff-app/shifts: ${await scrollWidth(page)} px`);
    // Issue 17's sections, each once its content (or the words saying there is none) is shown.
    for (const [tab, route, shown] of [
      ['Open', '/staff-app/open-shifts', /^(Request|Withdraw request|No open shifts suit you)/],
      ['Hours', '/staff-app/timesheets', /^Shifts to sign$/i],
      ['Documents', '/staff-app/documents', /^My documents$/i],
      ['Payslips', '/staff-app/payslips', /^(Paid on|You have no payslips yet\.)/],
    ] as const) {
      await sections.getByRole('link', { name: tab }).click();
      await page.waitForURL((u) => u.pathname === route);
      await page.getByText(shown).first().waitFor();
      if ((await scrollWidth(page)) > PHONE.width) wide.push(`${route}: ${await scrollWidth(page)} px`);
    }
    expect(wide).toEqual([]);
  });
});

// Every list at a laptop's width (1366 px) is measured by the accessibility sweeps (tests/e2e/axe.ts), which open each
// screen of both panels at that width anyway.
