import { describe, expect, it } from 'vitest';
import { api, controlOf, navigateInApp, openHome, signInAdmin, trackRequests } from './engineHelpers';
import { report, sweep, type Finding } from './axe';
import { layoutProblems, PHONE } from './layout';
import { useBrowser } from './harness';

// Recruitment's screens (issue 35): the overview, the settings and every route of the vacancies and the
// applications, with the demo's records, have no serious or critical axe violation, and fit a 390 px phone; the
// settings are saved from their form and read back after a reload; the overview's counts open their lists. (The
// agency panel's sweep covers them too, dealt among its shards; this file checks them alone, quickly.)
describe('recruitment screens', () => {
  const e2e = useBrowser();
  it('jobs and applications: axe clean, lists within a phone', { timeout: 240_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const first = async (resource: string) =>
      (await api(page, 'GET', `/api/${resource}?page=1&per_page=1`)).body.data[0].id as number;
    const [vacancy, application] = [await first('vacancies'), await first('job_applications')];
    const lists = ['/recruitment', '/recruitment/settings', '/recruitment/jobs', '/recruitment/staffs'];
    const routes = [
      ...lists,
      '/recruitment/jobs/open',
      '/recruitment/jobs/create',
      `/recruitment/jobs/${vacancy}/show`,
      `/recruitment/jobs/${vacancy}`,
      '/recruitment/staffs/offer',
      '/recruitment/staffs/create',
      `/recruitment/staffs/${application}/show`,
      `/recruitment/staffs/${application}`,
    ];
    const findings: Finding[] = [];
    const tooWide = await sweep(page, routes, findings, inflight, lists);
    expect(report(findings), 'serious or critical axe violations').toBe('');
    expect(tooWide).toEqual([]);
    await page.setViewportSize(PHONE);
    for (const route of lists) {
      await page.goto(new URL(route, page.url()).toString());
      await page.locator('#main-content').waitFor();
      expect(await layoutProblems(page, route, PHONE.width)).toEqual([]);
    }
  });

  it('the retention is saved from the settings form and shown after a reload', { timeout: 120_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await openHome(page);
    const before = (await api(page, 'GET', '/api/recruitment_settings')).body.data.retention_months as number;
    const wanted = before === 18 ? 24 : 18;
    try {
      await navigateInApp(page, '/recruitment/settings');
      await page.getByRole('heading', { name: 'Recruitment: Settings', level: 1 }).waitFor();
      const months = page.getByRole('spinbutton', { name: /Keep applications that were not hired for/ });
      await expect.poll(() => months.inputValue()).toBe(String(before));
      // Out of range: the product's own words next to the field, not the browser's bubble blocking the save.
      await months.fill('85');
      await page.getByRole('button', { name: 'Save' }).click();
      await controlOf(page, months).getByText('Must be 84 or less').waitFor();
      await months.fill(String(wanted));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Recruitment settings saved').waitFor();
      await page.reload();
      const again = page.getByRole('spinbutton', { name: /Keep applications that were not hired for/ });
      await expect.poll(() => again.inputValue()).toBe(String(wanted));
    } finally {
      const now = (await api(page, 'GET', '/api/recruitment_settings')).body.data;
      await api(page, 'PUT', '/api/recruitment_settings', { retention_months: before, version: now.version });
    }
  });

  it('the overview counts the applicants at a stage and opens that stage’s list', { timeout: 120_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await openHome(page);
    const offers = (await api(page, 'GET', '/api/job_applications?stage=offer&per_page=1')).body.total_count as number;
    await navigateInApp(page, '/recruitment');
    const card = page.getByRole('link', { name: new RegExp(`^${offers}\\s*Offer$`) });
    await card.waitFor();
    await card.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/recruitment/staffs/offer');
  });
});
