import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import {
  api,
  openHome,
  seriousViolations,
  settleScreen,
  signInAdmin,
  trackRequests,
  waitForPath,
} from './engineHelpers';
import { layoutProblems, PHONE } from './layout';

// The Business Unit Report (issue 34): opened from the reports' page, a unit chosen as its filter is kept in the
// address and survives a reload, the table is the API's answer; the dashboard's How it is going takes the same unit.
const e2e = useBrowser();

const violations = async (page: Parameters<typeof seriousViolations>[0]) =>
  (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 200)}`);

describe('the Business Unit Report', () => {
  it('a unit chosen as the filter stays in the address and survives a reload; the rows are the API’s', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await page.goto('/report');
    await page.getByRole('link', { name: /^Business Unit Report/ }).click();
    await waitForPath(page, '/report/BusinessUnitReport');
    const main = page.locator('#main-content');
    await main.getByRole('heading', { name: 'Business Unit Report', level: 1 }).waitFor();
    const table = main.getByRole('table', { name: 'Business Unit Report' });
    // Every unit, and the clients in none, by default.
    await table.getByRole('rowheader', { name: 'No business unit' }).waitFor();

    // Hospitals only, by client, over the tax year.
    await main.getByLabel('Period').click();
    await page.getByRole('option', { name: 'This tax year' }).click();
    await main.getByRole('combobox', { name: 'Business unit' }).click();
    await page.getByRole('option', { name: 'Hospitals' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('business_unit_id')).toMatch(/^[0-9]+$/);
    await main.getByLabel('Group by').click();
    await page.getByRole('option', { name: 'Client', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('group')).toBe('client');
    await table.getByRole('columnheader', { name: 'Client' }).waitFor();
    const address = page.url();

    await page.reload();
    await table.getByRole('columnheader', { name: 'Client' }).waitFor();
    expect(page.url()).toBe(address);
    await expect.poll(() => main.getByRole('combobox', { name: 'Business unit' }).textContent()).toMatch(/Hospitals/);
    const query = new URL(address).search.slice(1);
    const answer = (await api(page, 'GET', `/api/reports/business_unit_activity?${query}`)).body;
    expect(answer.data.length).toBeGreaterThan(0);
    // Each row a hospital client of the unit, as the API answers, and the totals as people read them.
    await expect.poll(() => table.locator('tbody tr').count()).toBe(Math.min(answer.data.length, 25));
    expect(await table.locator('tbody tr').getByRole('rowheader').allTextContents()).toEqual(
      answer.data.slice(0, 25).map((r: { client: string }) => r.client),
    );
    const pounds = `£${(answer.totals.charge / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
    await expect.poll(() => table.locator('tfoot tr').textContent()).toContain(pounds);
    await settleScreen(page, inflight);
    expect(await violations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await settleScreen(page, inflight);
    expect(await layoutProblems(page, '/report/BusinessUnitReport', PHONE.width)).toEqual([]);
  });

  it('the dashboard’s How it is going takes a unit, kept on reload', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const going = page.getByRole('region', { name: 'How it is going' });
    await going.getByRole('figure', { name: /Charge by week/ }).waitFor();
    await going.getByLabel('Business unit').click();
    await page.getByRole('option', { name: 'Care homes' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('business_unit_id')).toMatch(/^[0-9]+$/);
    const unit = new URL(page.url()).searchParams.get('business_unit_id');
    await page.reload();
    await going.getByRole('figure', { name: /Charge by week/ }).waitFor();
    await expect.poll(() => going.getByLabel('Business unit').textContent()).toMatch(/Care homes/);
    // The link to the report carries the unit.
    expect(await going.getByRole('link', { name: /Open the Client Report/ }).getAttribute('href')).toContain(
      `business_unit_id=${unit}`,
    );
    await settleScreen(page, inflight);
    expect(await violations(page)).toEqual([]);
  });
});
