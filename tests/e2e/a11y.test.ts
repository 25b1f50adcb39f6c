import axe from 'axe-core';
const axeSource = axe.source;
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminResources, adminRoutes, clientRoutes } from '../../src/resources';
import {
  adminComingSoon,
  adminShellPaths,
  anyPanelPaths,
  clientComingSoon,
  clientShellPaths,
  routePatterns,
} from '../../src/routes';
import { api, navigateInApp, settleScreen, signInAdmin, signInClient, trackRequests, openHome } from './engineHelpers';
import { PROFILE_TABS } from '../../src/resources/candidates/CandidateProfile';
import { useBrowser } from './harness';
import { agencyPanelRoutes, clientPanelRoutes, DESKTOP, isList, layoutProblems } from './layout';

/**
 * axe-core (WCAG 2.0/2.1 A and AA) over every route of both panels: the shell's own screens and "coming soon"
 * screens (src/routes.tsx), every route the resource engine declares (src/resources), react-admin's own
 * addresses of each resource, and the Login and not-found pages. Any serious or critical violation fails,
 * listed with its rule, its elements and the page. Each panel uses one page and moves between screens the way
 * the app does (client-side navigation), so the whole sweep stays short.
 */
const e2e = useBrowser();

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Finding {
  route: string;
  rule: string;
  impact: string;
  targets: string[];
  /** axe's explanation for the first element (e.g. the colours of a contrast failure). */
  why: string;
}

/** The API resource behind each engine settings route, for a real id in /appsetting/<x>/:id. */
const SETTINGS_RESOURCES: Record<string, string> = {
  addjobdetail: 'job_roles',
  'staff-status': 'staff_statuses',
  employmenttypedetail: 'employment_types',
  'staff-profiles': 'staff_profiles',
  documentcategories: 'document_categories',
  'staff-detail-field': 'staff_detail_fields',
  'staff-deduction': 'staff_deductions',
};

async function audit(page: Page, route: string, findings: Finding[]) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = (await page.evaluate(
    (tags) =>
      (window as any).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    TAGS,
  )) as {
    violations: { id: string; impact: string; nodes: { target: string[]; html: string; failureSummary?: string }[] }[];
  };
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    const first = v.nodes[0];
    const why = first
      ? `${first.html.slice(0, 160)} ${(first.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`
      : '';
    findings.push({ route, rule: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')), why });
  }
}

/**
 * Audits each route once it has settled, adding its findings to `findings`. The `lists` (visited too when the routes
 * leave them out) are also measured at this width, the laptop's and the browser tests' own: each fits without a table
 * scrolling sideways (tests/e2e/layout.ts). The layout sweep rides on this one because both open every screen at this
 * width. Answers what does not fit.
 */
async function sweep(page: Page, routes: string[], findings: Finding[], inflight: () => number, lists: string[]) {
  const tooWide: string[] = [];
  const measured = new Set(lists);
  const seen = new Set<string>();
  // Axe judges the colours a user reads, after a transition ends: on a busy machine a menu item's fade from
  // "selected" could still be running when it looks.
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  for (const route of new Set([...routes, ...lists])) {
    await navigateInApp(page, route);
    await page
      .locator('#main-content')
      .waitFor()
      .catch(async (e) => {
        await page.screenshot({ path: '/tmp/a11y-fail.png' });
        throw new Error(`${route}: ${await page.locator('body').innerText()}\n${e}`);
      });
    await settleScreen(page, inflight);
    if (measured.has(route)) tooWide.push(...(await layoutProblems(page, route, DESKTOP.width, true)));
    // react-admin's own addresses redirect to the spec's screens (settled by now): each screen is audited once.
    const landed = new URL(page.url()).pathname;
    if (landed !== route && seen.has(landed)) continue;
    seen.add(landed);
    await audit(page, route, findings);
  }
  return tooWide;
}

function report(findings: Finding[]) {
  const byRule = new Map<string, number>();
  for (const f of findings) byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + f.targets.length);
  const summary = [...byRule].map(([rule, n]) => `${rule}: ${n}`).join(', ');
  const detail = findings
    .map((f) => {
      const more = f.targets.length > 2 ? ` (+${f.targets.length - 2} more)` : '';
      return `${f.route} — ${f.rule} (${f.impact}): ${f.targets.slice(0, 2).join(' | ')}${more}\n    ${f.why}`;
    })
    .join('\n');
  return findings.length ? `${summary}\n${detail}` : '';
}

const withId = (pattern: string, ids: Record<string, string | number>, fallback: string | number) =>
  pattern.replace(/:id\b/g, String(ids[pattern] ?? fallback)).replace(/:templateType\b/, 'template1');

describe('accessibility (axe-core, WCAG 2.1 AA)', () => {
  it(
    'the Login page and every admin route have no serious or critical violation; every admin list fits a laptop',
    { timeout: 480_000 },
    async () => {
      const { page } = e2e;
      const inflight = trackRequests(page);
      const findings: Finding[] = [];
      await page.goto('/');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await audit(page, '/ (Login)', findings);
      await signInAdmin(page);
      await openHome(page);

      // Real ids for the routes with :id.
      const first = async (resource: string) =>
        ((await api(page, 'GET', `/api/${resource}?page=1&per_page=1`)).body.data?.[0]?.id ?? 1) as number;
      const [client, site, candidate] = [await first('clients'), await first('sites'), await first('candidates')];
      const merchant = await page.evaluate(() => localStorage.getItem('merchant_id') ?? '1');
      const ids: Record<string, string | number> = { '/admin/:id': merchant };
      for (const [segment, resource] of Object.entries(SETTINGS_RESOURCES)) {
        const id = await first(resource);
        ids[`/appsetting/${segment}/:id`] = id;
        ids[`/appsetting/${segment}/:id/show`] = id;
      }
      for (const p of ['/client/view/:id', '/client/edit/:id', '/client/client/:id']) ids[p] = client;
      for (const p of ['/site/site-profile/:id', '/site/edit/:id']) ids[p] = site;
      for (const p of ['/staffs/profileview/:id', '/staffs/edit/:id', '/staffs/:id']) ids[p] = candidate;
      // A payslip with its adjustments (issue 33), and a pay adjustment.
      ids['/invoice/StaffPayrollViewEdit/:id'] = await first('payslips');
      ids['/invoice/staff-payroll/adjustments/:id/show'] = await first('payroll_adjustments');

      const engineRoutes = routePatterns(adminRoutes).flatMap((p) =>
        p === '/staffs/:id/:tab' ? PROFILE_TABS.map((tab) => `/staffs/${candidate}/${tab}`) : [withId(p, ids, 1)],
      );
      const resources = adminResources.map((r) => (r.props as { name: string }).name);
      const routes = [
        ...adminShellPaths.map((p) => withId(p, ids, merchant)),
        ...engineRoutes,
        // react-admin's own addresses of each resource (most lead to the spec's screens).
        ...resources.map((name) => `/${name}`),
        ...adminComingSoon.map((r) => withId(r.path, ids, 1)),
        ...anyPanelPaths,
        '/no-such-screen',
      ];
      const tooWide = await sweep(page, routes, findings, inflight, agencyPanelRoutes().filter(isList));
      expect(report(findings), 'serious or critical axe violations').toBe('');
      expect(tooWide, 'lists wider than a laptop (1366 px)').toEqual([]);
    },
  );

  it(
    'every client route has no serious or critical violation; every client list fits a laptop',
    { timeout: 120_000 },
    async () => {
      const { page } = e2e;
      const inflight = trackRequests(page);
      const findings: Finding[] = [];
      await signInClient(page);
      await openHome(page);
      // The areas' client screens (their shifts, schedule, notifications) too.
      const routes = [
        ...clientShellPaths,
        ...routePatterns(clientRoutes).map((p) => withId(p, {}, 1)),
        ...clientComingSoon.map((r) => withId(r.path, {}, 1)),
        ...anyPanelPaths,
        '/client/no-such-screen',
      ];
      const tooWide = await sweep(page, routes, findings, inflight, clientPanelRoutes().filter(isList));
      expect(report(findings), 'serious or critical axe violations').toBe('');
      expect(tooWide, 'lists wider than a laptop (1366 px)').toEqual([]);
    },
  );

  it(
    'the staff page (sign-in, invitation, chat, shifts, open shifts, hours, documents) has no serious or critical violation at phone size',
    { timeout: 90_000 },
    async () => {
      const { page } = e2e;
      // The page staff open on their phones.
      await page.setViewportSize({ width: 390, height: 844 });
      const findings: Finding[] = [];
      await page.goto('/staff-app/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await audit(page, '/staff-app/login', findings);
      // A sign-in refused: the form with its error.
      // (An unknown account: the demo staff member's own attempts stay untouched.)
      await page.getByLabel('Email').fill('nobody@a11y.example');
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      await audit(page, '/staff-app/login (refused)', findings);

      await page.goto('/staff-app/invite/no-such-invitation');
      await page.getByRole('alert').waitFor();
      await audit(page, '/staff-app/invite/:token (not valid)', findings);

      await page.goto('/staff-app/login');
      await page.getByLabel('Email').fill('staff@demo.test');
      await page.getByLabel('Password').fill('demo-staff');
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Shifts first (issue 29.17), from the sign-in and from the page's own address alike.
      await page.waitForURL((u) => u.pathname === '/staff-app/shifts');
      await page.goto('/staff-app');
      await page.waitForURL((u) => u.pathname === '/staff-app/shifts');
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Messages' }).click();
      await page.waitForURL((u) => u.pathname === '/staff-app/chat');
      // The conversation is open and its messages (the demo's, from both sides) are shown. The live stream stays
      // open, so the page is never quiet: these are what it waits for instead.
      const log = page.getByRole('log', { name: 'Chat' });
      await log.getByTestId('chat-message').first().waitFor();
      await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible' });
      await expect.poll(() => page.getByRole('textbox', { name: 'Message' }).isEnabled()).toBe(true);
      await expect.poll(() => page.locator('[role="progressbar"]:visible').count()).toBe(0);
      await audit(page, '/staff-app/chat', findings);
      // With a message typed (the send button enabled).
      await page.getByRole('textbox', { name: 'Message' }).fill('Typed, not sent');
      await audit(page, '/staff-app/chat (typing)', findings);

      // Issue 17's sections: each reached from the tabs along the bottom, audited once its content is shown.
      const sections: [string, string, string][] = [
        ['Shifts', '/staff-app/shifts', 'My shifts'],
        ['Open', '/staff-app/open-shifts', 'Open shifts'],
        ['Hours', '/staff-app/timesheets', 'My hours'],
        ['Documents', '/staff-app/documents', 'My documents'],
      ];
      for (const [tab, route, title] of sections) {
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: tab }).click();
        await page.waitForURL((u) => u.pathname === route);
        await page.getByRole('heading', { name: title, level: 1 }).waitFor();
        await expect.poll(() => page.locator('[role="progressbar"]:visible').count()).toBe(0);
        await audit(page, route, findings);
      }
      // The upload dialog, judged once it has faded in (as the sweep does, transitions are switched off).
      await page.addStyleTag({
        content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
      });
      await page
        .getByRole('button', { name: /^Upload/ })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
      await audit(page, '/staff-app/documents (upload)', findings);
      expect(report(findings), 'serious or critical axe violations').toBe('');
    },
  );

  it(
    'a list whose first page is slow to come (a busy machine or network) shows no unnamed control meanwhile (issue 30.5)',
    { timeout: 180_000 },
    async () => {
      const { page } = e2e;
      const findings: Finding[] = [];
      // Every checkbox of a list as it enters the page, before any later render could name it: a screen reader may
      // reach it at once. (The stand-in's, out of reach, need none.)
      await page.addInitScript(() => {
        const unnamed: string[] = [];
        (window as unknown as { unnamedOnArrival: string[] }).unnamedOnArrival = unnamed;
        new MutationObserver((changes) => {
          for (const change of changes)
            for (const node of change.addedNodes) {
              if (!(node instanceof Element)) continue;
              for (const box of [node, ...node.querySelectorAll('input[type="checkbox"]')]) {
                if (!box.matches('.RaDataTable-root input[type="checkbox"]')) continue;
                if (box.closest('[aria-hidden="true"], [inert]') || box.getAttribute('aria-label')) continue;
                unnamed.push(`${location.pathname}: ${box.outerHTML.slice(0, 120)}`);
              }
            }
        }).observe(document, { childList: true, subtree: true });
      });
      await signInAdmin(page);
      await openHome(page);
      // Each list's first page is held back until axe has judged the screen shown meanwhile: react-admin draws its
      // stand-in rows (with a checkbox each) once a second has passed without the page, as on a busy machine.
      let held: { resource: string; arrived: () => void; open: Promise<void> } | undefined;
      await page.route(
        (url) => url.pathname.startsWith('/api/') && url.searchParams.get('page') === '1',
        async (route) => {
          const hold = held;
          if (hold && new URL(route.request().url()).pathname === `/api/${hold.resource}`) {
            held = undefined;
            hold.arrived();
            await hold.open;
          }
          await route.continue();
        },
      );
      const lists: [string, string][] = [
        ['/client/client-list', 'clients'],
        ['/staff/staff-list', 'candidates'],
        ['/appsetting/addjobdetail', 'job_roles'],
        ['/report/RateCards', 'rate_cards'],
        ['/shift-list', 'shifts'],
        ['/dairy_notes', 'diary_notes'],
      ];
      for (const [route, resource] of lists) {
        let open = () => undefined as void;
        const opened = new Promise<void>((resolve) => (open = resolve));
        const arrived = new Promise<void>((resolve) => (held = { resource, arrived: resolve, open: opened }));
        await navigateInApp(page, route);
        await arrived;
        // The stand-in table: the list that asked for the page has replaced the last screen, and draws it after a
        // second without its rows.
        await page.locator('#main-content .RaDataTable-root').first().waitFor({ state: 'attached' });
        await audit(page, `${route} (loading)`, findings);
        open();
        await page.locator('#main-content .engine-row').first().waitFor();
      }
      expect(report(findings), 'serious or critical axe violations while a list loads').toBe('');
      expect(await page.evaluate(() => (window as unknown as { unnamedOnArrival: string[] }).unnamedOnArrival)).toEqual(
        [],
      );
    },
  );

  it('the signing link page (issue 17) has no serious or critical violation', { timeout: 60_000 }, async () => {
    const { page } = e2e;
    const findings: Finding[] = [];
    // A link that is not valid: the page says so (a valid one is audited in tests/e2e/timesheets.test.ts's flow).
    await page.goto('/sign-timesheet/not-a-valid-link-token');
    await page.getByRole('alert').waitFor();
    await audit(page, '/sign-timesheet/:token (not valid)', findings);
    await page.setViewportSize({ width: 390, height: 844 });
    await audit(page, '/sign-timesheet/:token (not valid, phone)', findings);
    expect(report(findings), 'serious or critical axe violations').toBe('');
  });
});
