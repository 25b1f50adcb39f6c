import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, seriousViolations, signInAdmin, trackRequests, settleScreen, waitForPath } from './engineHelpers';
import { DESKTOP, layoutProblems, PHONE } from './layout';
import { formatDisplayDate } from '../../core/domain/time/agencyTime';

// The Invoice Report (issue 34): the aged debt as of today, what was invoiced in a period and the VAT by rate, three
// declared reports on the one report screen, chosen by tabs kept in the address. The totals row is the API's; the
// period changes by the screen's own choice and survives a reload; axe, a 390 px phone and a 1366 px laptop over
// every view.
const e2e = useBrowser();

const violations = async (page: Parameters<typeof seriousViolations>[0]) =>
  (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 200)}`);

const pounds = (pence: number) =>
  `${pence < 0 ? '-' : ''}£${(Math.abs(pence) / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;

describe('the Invoice Report', () => {
  it('aged debt, invoiced, then VAT by rate: tabs in the address, the period changed and kept on reload, totals = API, axe', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await page.goto('/report');
    await page.getByRole('link', { name: /^Invoice Report/ }).click();
    await waitForPath(page, '/report/InvoiceReport');
    const main = page.locator('#main-content');
    await main.getByRole('heading', { name: 'Invoice Report', level: 1 }).waitFor();
    const tabs = main.getByRole('tablist', { name: 'Invoice report views' });
    expect(await tabs.getByRole('tab', { selected: true }).textContent()).toBe('Aged debt');
    const table = main.getByRole('table', { name: 'Invoice Report' });
    await table.locator('tbody tr').first().waitFor();

    // Aged debt: as of the agency's today, no period to choose; every bucket's total is the API's.
    const aged = (await api(page, 'GET', '/api/reports/aged_debt')).body;
    expect(aged.totals.outstanding).toBeGreaterThan(0);
    await expect
      .poll(() => main.getByTestId('report-period').textContent())
      .toBe(`As of ${formatDisplayDate(aged.as_of)}`);
    expect(await main.getByLabel('Period').count()).toBe(0);
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Client',
      'Invoices',
      'Current',
      '1–30 days',
      '31–60 days',
      '61–90 days',
      'Over 90 days',
      'Overdue',
      'Outstanding',
    ]);
    const totals = table.locator('tfoot tr');
    const cells = async () => (await totals.locator('td').allTextContents()).slice(-8);
    await expect
      .poll(cells)
      .toEqual([
        String(aged.totals.invoices),
        ...['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90', 'overdue', 'outstanding'].map((m) =>
          pounds(aged.totals[m]),
        ),
      ]);
    expect(await table.locator('tbody tr').count()).toBe(aged.data.length);
    await settleScreen(page, inflight);
    expect(await violations(page)).toEqual([]);

    // Invoiced: its own tab, then this tax year instead of this month.
    await tabs.getByRole('tab', { name: 'Invoiced' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('invoiced');
    await main.getByLabel('Period').click();
    await page.getByRole('option', { name: 'This tax year' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('period')).toBe('this_tax_year');
    const address = page.url();
    await page.reload();
    await table.locator('tbody tr').first().waitFor();
    expect(page.url()).toBe(address);
    expect(await tabs.getByRole('tab', { selected: true }).textContent()).toBe('Invoiced');
    await expect.poll(() => main.getByLabel('Period').textContent()).toMatch(/This tax year/);
    const invoiced = (await api(page, 'GET', '/api/reports/invoiced?period=this_tax_year')).body;
    expect(invoiced.totals.total).toBeGreaterThan(0);
    await expect.poll(() => main.getByTestId('report-period').textContent()).toMatch(/^Invoices issued from /);
    await expect
      .poll(async () => (await totals.locator('td').allTextContents()).slice(-7))
      .toEqual([
        String(invoiced.totals.invoices),
        ...['net', 'vat', 'total', 'credited', 'paid', 'outstanding'].map((m) => pounds(invoiced.totals[m])),
      ]);
    await settleScreen(page, inflight);
    expect(await violations(page)).toEqual([]);

    // VAT by rate: its own tab, this quarter by the tax point; a row per rate and treatment, the totals the API's
    // (the return's box 6 and box 1).
    await tabs.getByRole('tab', { name: 'VAT by rate' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('vat');
    const vat = (await api(page, 'GET', '/api/reports/vat')).body;
    expect(vat.period.preset).toBe('this_quarter');
    await expect.poll(() => main.getByLabel('Period').textContent()).toMatch(/This quarter/);
    await expect
      .poll(() => table.getByRole('columnheader').allTextContents())
      .toEqual(['VAT rate', 'VAT treatment', 'Net sales', 'Output VAT']);
    await expect
      .poll(async () => (await totals.locator('td').allTextContents()).slice(-2))
      .toEqual([pounds(vat.totals.net), pounds(vat.totals.vat)]);
    // On a quarter's first day the demo's invoices (the latest issued yesterday) are last quarter's: one empty row.
    expect(await table.locator('tbody tr').count()).toBe(Math.max(1, vat.data.length));
    if (vat.data.length) {
      expect(await table.locator('tbody tr').first().locator('th, td').first().textContent()).toBe(vat.data[0].rate);
    }
    await settleScreen(page, inflight);
    expect(await violations(page)).toEqual([]);
  });

  it('every view on a 390 px phone and a 1366 px laptop, with axe', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      for (const route of [
        '/report/InvoiceReport',
        '/report/InvoiceReport?view=invoiced&period=this_tax_year&group=client,site',
        '/report/InvoiceReport?view=vat&period=this_tax_year',
      ]) {
        await page.goto(route);
        await page.getByRole('table', { name: 'Invoice Report' }).locator('tbody tr').first().waitFor();
        await settleScreen(page, inflight);
        expect(await layoutProblems(page, route, size.width, size === DESKTOP)).toEqual([]);
        expect(await violations(page)).toEqual([]);
      }
    }
  });
});
