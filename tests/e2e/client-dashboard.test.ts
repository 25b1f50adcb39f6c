import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, openHome, seriousViolations, signInClient, waitForPath } from './engineHelpers';
import { layoutProblems, PHONE } from './layout';

// Issue 34, the client dashboard on a 390 px phone: the demo client sees something in every panel, signs a timesheet
// from the dashboard in one click after the confirmation of what is signed, and it leaves the list (signed, as the
// API says); the dashboard and one site's dashboard pass axe and fit the phone; a site of another client is not found.
// On a product of its own (each browser file has one): it signs the demo's timesheet awaiting signature.
const e2e = useBrowser();

async function violations(page: Page): Promise<string[]> {
  return (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 160)}`);
}

describe('the client dashboard', () => {
  it('signs a timesheet from the dashboard on a phone; it leaves the list', { timeout: 90_000 }, async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInClient(page);
    await openHome(page);
    const shifts = page.getByRole('region', { name: 'Shifts in the next 7 days' });
    const timesheets = page.getByRole('region', { name: 'Timesheets awaiting your signature' });
    const invoices = page.getByRole('region', { name: 'Invoices due and overdue' });
    const notes = page.getByRole('region', { name: 'Recent notifications' });
    const spend = page.getByRole('region', { name: 'Spend, last 12 weeks' });
    // Something in every panel of the demo client's dashboard.
    await spend.getByRole('table', { name: 'By week' }).waitFor();
    await spend.getByRole('table', { name: 'By site' }).waitFor();
    await shifts.getByRole('list').waitFor();
    await timesheets.getByRole('list').waitFor();
    await invoices.getByRole('list').waitFor();
    await notes.getByRole('list').waitFor();
    expect(await shifts.getByText(/^Booked: /).count()).toBeGreaterThan(0);
    expect(await shifts.getByRole('link', { name: 'Request a shift' }).count()).toBe(1);
    expect(await page.locator('main').textContent()).not.toMatch(/Pay rate|Margin/);
    expect(await layoutProblems(page, '/client/clientDashboard', PHONE.width)).toEqual([]);
    expect(await violations(page)).toEqual([]);

    const waiting = await api<{ data: { id: number; number: string }[]; total_count: number }>(
      page,
      'GET',
      '/api/timesheets?status=submitted&per_page=100',
    );
    expect(waiting.body.total_count).toBeGreaterThan(0);
    const { id, number } = waiting.body.data[0];
    // One click, then the confirmation says what is signed, and as whom; Sign, by keyboard.
    await timesheets.getByRole('button', { name: `Sign timesheet ${number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Sign timesheet ${number}?` });
    await dialog.waitFor();
    await dialog.getByText(/^Signed as Helen Carter/).waitFor();
    expect(await dialog.getByRole('img', { name: 'Your signature: Helen Carter' }).count()).toBe(1);
    expect(await violations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Sign timesheet' }).focus();
    await page.keyboard.press('Enter');
    await timesheets
      .getByRole('status')
      .getByText(`Timesheet ${number} signed by Helen Carter`, { exact: false })
      .waitFor();
    await expect.poll(() => timesheets.getByText(number, { exact: true }).count()).toBe(0);
    const after = await api(page, 'GET', `/api/timesheets/${id}`);
    expect(after.body.data.status).toBe('signed');
    const left = await api(page, 'GET', '/api/timesheets?status=submitted&per_page=100');
    expect(left.body.data.map((t: { id: number }) => t.id)).not.toContain(id);
    if (left.body.total_count === 0) await timesheets.getByText('No timesheets awaiting your signature').waitFor();
  });

  it(
    'one site’s dashboard fits a phone and passes axe; another client’s site is not found',
    { timeout: 60_000 },
    async () => {
      const { page } = e2e;
      await page.setViewportSize(PHONE);
      await signInClient(page);
      await openHome(page);
      const sites = (await api(page, 'GET', '/api/sites?per_page=100&sort=name&order=ASC')).body.data as {
        id: number;
        name: string;
      }[];
      // From the dashboard's own list of sites, by keyboard.
      const nav = page.getByRole('navigation', { name: 'Your sites' });
      const link = nav.getByRole('link', { name: sites[0].name });
      await link.focus();
      await page.keyboard.press('Enter');
      await waitForPath(page, `/client/clientDashboard/${sites[0].id}`);
      await page.getByRole('heading', { level: 1, name: `Dashboard: ${sites[0].name}` }).waitFor();
      await page
        .getByRole('region', { name: 'Shifts in the next 7 days' })
        .getByRole('link', { name: /unfilled shift/ })
        .waitFor();
      await page
        .getByRole('region', { name: 'Invoices due and overdue' })
        .getByRole('link', { name: 'All invoices' })
        .waitFor();
      expect(await layoutProblems(page, `/client/clientDashboard/${sites[0].id}`, PHONE.width)).toEqual([]);
      expect(await violations(page)).toEqual([]);

      // Oakwood Lodge's sites are not this client's: not found, as for a site that does not exist.
      const other = Math.max(...sites.map((s) => s.id)) + 1;
      expect((await api(page, 'GET', `/api/sites/${other}`)).status).toBe(404);
      await page.goto(`/client/clientDashboard/${other}`);
      await page.getByText('This site was not found', { exact: false }).waitFor();
      expect(await page.getByRole('region', { name: 'Shifts in the next 7 days' }).count()).toBe(0);
      expect(await violations(page)).toEqual([]);
    },
  );

  it('a count opens the client’s list of exactly the shifts it counts', { timeout: 60_000 }, async () => {
    const { page } = e2e;
    await signInClient(page);
    await openHome(page);
    const shifts = page.getByRole('region', { name: 'Shifts in the next 7 days' });
    const filled = shifts.getByRole('link', { name: /^\d+ filled shifts?$/ });
    await filled.waitFor();
    const count = Number((await filled.textContent())!.split(' ')[0]);
    expect(count).toBeGreaterThan(0);
    await filled.click();
    await waitForPath(page, '/client/shift/assign-shift');
    const filter = JSON.parse(new URL(page.url()).searchParams.get('filter')!);
    expect(Object.keys(filter).sort()).toEqual(['start_at_gte', 'start_at_lte']);
    // The list shows the rows counted (a page of 25 holds the demo's week).
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(Math.min(count, 25));
  });
});
