import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminResources, adminRoutes } from '../../src/resources';
import { adminComingSoon, adminShellPaths, anyPanelPaths, routePatterns } from '../../src/routes';
import { api, navigateInApp, settleScreen, signInAdmin, trackRequests, openHome } from './engineHelpers';
import { PROFILE_TABS } from '../../src/resources/candidates/CandidateProfile';
import { useBrowser } from './harness';
import { agencyPanelRoutes, DESKTOP, isList, layoutProblems } from './layout';

/**
 * axe-core (WCAG 2.0/2.1 A and AA) for the accessibility sweeps: a11y.test.ts (the client panel, the staff page, the
 * sign-in and signing pages) and the agency panel's every route, in shards (a11y-admin-N.test.ts). Any serious or
 * critical violation fails, listed with its rule, its elements and the page. Each sweep uses one page and moves between
 * screens the way the app does (client-side navigation), so it stays short.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface Finding {
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
  'agencysetting/business-units': 'business_units',
};

export async function audit(page: Page, route: string, findings: Finding[]) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
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
export async function sweep(
  page: Page,
  routes: string[],
  findings: Finding[],
  inflight: () => number,
  lists: string[],
) {
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

export function report(findings: Finding[]) {
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

export const withId = (pattern: string, ids: Record<string, string | number>, fallback: string | number) =>
  pattern.replace(/:id\b/g, String(ids[pattern] ?? fallback)).replace(/:templateType\b/, 'template1');

/** Every agency-panel route the sweep audits, with real ids for the routes with :id (the signed-in admin's). */
async function adminRoutesToAudit(page: Page): Promise<string[]> {
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
  return [
    ...adminShellPaths.map((p) => withId(p, ids, merchant)),
    ...engineRoutes,
    // react-admin's own addresses of each resource (most lead to the spec's screens).
    ...resources.map((name) => `/${name}`),
    ...adminComingSoon.map((r) => withId(r.path, ids, 1)),
    ...anyPanelPaths,
    '/no-such-screen',
  ];
}

/**
 * One shard of the agency panel's sweep (the `shard`th of `of`, 1-based): every route and every list, dealt round in
 * turn, so each shard is a file of its own that runs beside the others (on 2 cores the whole sweep in one file was the
 * browser stage's longest, at 580 s under load, and ran out of its time; at three shards, with the settings and roles'
 * screens, a shard took 300 s at load 14; at four, with the demo's year of history, 42–49 s on a quiet machine and over
 * 300 s beside the API tests on PostgreSQL). A route and the screen it redirects to may fall in different shards: each
 * is then audited once in each. The timeout is a watchdog, not a measure.
 */
export function describeAdminSweep(shard: number, of: number) {
  const e2e = useBrowser();
  describe(`accessibility (axe-core, WCAG 2.1 AA), agency panel ${shard}/${of}`, () => {
    it(
      `every admin route of shard ${shard}/${of} has no serious or critical violation; every admin list fits a laptop`,
      { timeout: 420_000 },
      async () => {
        const { page } = e2e;
        const inflight = trackRequests(page);
        const findings: Finding[] = [];
        await signInAdmin(page);
        await openHome(page);
        const lists = agencyPanelRoutes().filter(isList);
        const all = [...new Set([...(await adminRoutesToAudit(page)), ...lists])];
        expect(all.length).toBeGreaterThan(150);
        const mine = all.filter((_, i) => i % of === shard - 1);
        const tooWide = await sweep(
          page,
          mine,
          findings,
          inflight,
          lists.filter((r) => mine.includes(r)),
        );
        expect(report(findings), 'serious or critical axe violations').toBe('');
        expect(tooWide, 'lists wider than a laptop (1366 px)').toEqual([]);
      },
    );
  });
}
