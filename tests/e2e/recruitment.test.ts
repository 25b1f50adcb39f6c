import { describe, expect, it } from 'vitest';
import { api, openHome, signInAdmin, trackRequests } from './engineHelpers';
import { report, sweep, type Finding } from './axe';
import { layoutProblems, PHONE } from './layout';
import { useBrowser } from './harness';

// Recruitment's screens (issue 35): every route of the vacancies and the applications, with the demo's records,
// has no serious or critical axe violation, and the lists fit a 390 px phone. (The agency panel's sweep covers them
// too, dealt among its shards; this file checks them alone, quickly.)
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
    const lists = ['/recruitment/jobs', '/recruitment/staffs'];
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
});
