import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { pdfTextOf } from '../pdfText';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, seriousViolations, signInAdmin, trackRequests, settleScreen, waitForPath } from './engineHelpers';
import { DESKTOP, layoutProblems, PHONE } from './layout';

// Declared reports on their screens (issue 34): the Client Report's period, grouping and sort live in the address
// and survive a reload; the table and its totals row are the API's figures; the chart has a table view and a
// description; the XLSX download opens with the same totals; axe and a 390 px phone over the screens.
const e2e = useBrowser();

const violations = async (page: Parameters<typeof seriousViolations>[0]) =>
  (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 200)}`);

/** The staff report's columns about each staff member (docs/decisions.md "the staff report's compliance, AWR…"). */
const STAFF_DETAILS = [
  'Compliance at period end',
  'AWR weeks (of 12)',
  'AWR at',
  'AWR equal treatment from',
  'Average weekly hours (17 weeks)',
  'Opted out of 48 hours',
];

describe('declared reports', () => {
  it('the Client Report: filters in the address survive a reload, the chart has its table view, the XLSX opens', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await page.goto('/report');
    await page.getByRole('link', { name: /^Client Report/ }).click();
    await waitForPath(page, '/report/ClientReport');
    const main = page.locator('#main-content');
    await main.getByRole('heading', { name: 'Client Report', level: 1 }).waitFor();
    const table = main.getByRole('table', { name: 'Client Report' });
    await table.waitFor();

    // Last 12 weeks, grouped by site: chosen on the screen, kept in the address.
    await main.getByLabel('Period').click();
    await page.getByRole('option', { name: 'Last 12 weeks' }).click();
    await main.getByLabel('Group by').click();
    await page.getByRole('option', { name: 'Site', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('group')).toBe('site');
    expect(new URL(page.url()).searchParams.get('period')).toBe('last_12_weeks');
    await table.getByRole('columnheader', { name: 'Site' }).waitFor();
    // Sorted by the fill rate, going up: a click on its header.
    await table.getByRole('button', { name: 'Fill rate' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('fill_rate');
    const address = page.url();

    await page.reload();
    await table.getByRole('columnheader', { name: 'Site' }).waitFor();
    expect(page.url()).toBe(address);
    await expect.poll(() => main.getByLabel('Period').textContent()).toMatch(/Last 12 weeks/);
    const query = new URL(address).search.slice(1);
    const answer = (await api(page, 'GET', `/api/reports/client_activity?${query}`)).body;
    expect(answer.group.map((g: { id: string }) => g.id)).toEqual(['site']);
    // The totals row is the API's totals, as people read them.
    const totals = table.locator('tfoot tr');
    const pounds = `£${(answer.totals.charge / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
    await expect.poll(() => totals.textContent()).toContain(pounds);
    expect(await totals.getByRole('rowheader').textContent()).toBe('Total');
    expect(await table.locator('tbody tr').count()).toBe(Math.min(answer.data.length, 25));
    expect(await table.locator('tbody tr').first().getByRole('rowheader').textContent()).toBe(answer.data[0].site);

    // The chart: a figure described in words, and its table view lists every week.
    const figure = main.getByRole('figure', { name: /Shifts requested and Shifts filled by week beginning/ });
    await figure.waitFor();
    expect(await figure.locator('figcaption').textContent()).toMatch(
      /^Bar chart of Shifts requested and Shifts filled/,
    );
    await figure.getByRole('button', { name: 'Table' }).click();
    const weeks = figure.getByRole('table');
    await weeks.waitFor();
    expect(await weeks.locator('tbody tr').count()).toBe(12);
    expect(await violations(page)).toEqual([]);

    // The XLSX of the same parameters, read back: its Total row is the screen's.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`client-report-${answer.period.from}-to-${answer.period.to}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readFile((await download.path())!)) as any);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Site');
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(1).value).toBe('Total');
    expect(last.getCell(6).value).toBe(answer.totals.charge / 100);

    // Printed: the same parameters as a PDF, its Total row's charge as the screen prints it.
    const [printed] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Print' }).click(),
    ]);
    expect(printed.suggestedFilename()).toBe(`client-report-${answer.period.from}-to-${answer.period.to}.pdf`);
    const text = pdfTextOf(await readFile((await printed.path())!)).replace(/\s+/g, ' ');
    expect(text).toContain(`By site`);
    expect(text).toContain(`Total ${answer.totals.requested} ${answer.totals.filled} `);
    expect(text).toContain(pounds);
    await settleScreen(page, inflight);
  });

  it('the Staff Report and the Client Report on a 390 px phone (a wide table scrolls in its own region, as lists do) and on a laptop, with axe', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await page.setViewportSize(PHONE);
    await signInAdmin(page);
    for (const [route, name] of [
      ['/report/StaffReport', 'Staff Report'],
      ['/report/StaffReport?view=staff_standing', 'Staff Report'],
      ['/report/ClientReport?group=week&period=this_tax_year', 'Client Report'],
    ]) {
      await page.goto(route);
      await page.getByRole('table', { name }).waitFor();
      await settleScreen(page, inflight);
      expect(await layoutProblems(page, route, PHONE.width)).toEqual([]);
      expect(await violations(page)).toEqual([]);
    }
    // On a laptop the widest grouping fits without scrolling sideways.
    await page.setViewportSize(DESKTOP);
    for (const [route, name] of [
      ['/report/StaffReport?group=staff,client', 'Staff Report'],
      ['/report/StaffReport?view=staff_standing', 'Staff Report'],
      ['/report/ClientReport?group=client,site', 'Client Report'],
    ]) {
      await page.goto(route);
      await page.getByRole('table', { name }).locator('tbody tr').first().waitFor();
      await settleScreen(page, inflight);
      expect(await layoutProblems(page, route, DESKTOP.width, true)).toEqual([]);
      // The staff report has pay and margin for the agency.
      if (route === '/report/StaffReport?group=staff,client')
        expect(await page.getByRole('table', { name }).getByRole('columnheader').allTextContents()).toEqual([
          'Staff member',
          'Client',
          'Shifts',
          'Hours',
          'Charge',
          'Pay',
          'Margin',
          'Margin %',
          'Cancellations',
          'Asked by staff',
          'No-shows',
        ]);
    }
  });
  it('the Staff Report shows where each staff member stands: compliance, AWR, the 17-week average and the opt-out', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await page.goto('/report/StaffReport?period=last_month');
    // The second of the staff report's views, by its tab; the period stays in the address.
    await page.getByRole('tab', { name: 'Compliance and working time' }).click();
    await waitForPath(page, '/report/StaffReport');
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('staff_standing');
    await page.goto('/report/StaffReport?view=staff_standing&period=last_month');
    const table = page.getByRole('table', { name: 'Staff Report' });
    await table.locator('tbody tr').first().waitFor();
    const headers = await table.locator('thead th').allTextContents();
    expect(headers).toEqual(['Staff member', 'Shifts', 'Hours', ...STAFF_DETAILS]);
    const answer = (await api(page, 'GET', '/api/reports/staff_standing?period=last_month')).body;
    const first = answer.data[0];
    const cells = await table.locator('tbody tr').first().locator('td, th').allTextContents();
    const detail = (label: string) => cells[headers.indexOf(label)];
    const compliance = { compliant: 'Compliant', expiring: 'Compliant, document due', not_compliant: 'Not compliant' };
    expect(cells[0]).toBe(first.staff);
    expect(detail('Compliance at period end')).toBe(compliance[first.compliance as keyof typeof compliance]);
    expect(detail('AWR weeks (of 12)')).toBe(String(first.awr_weeks));
    expect(detail('AWR at')).toBe(first.awr_at ?? '–');
    expect(detail('Average weekly hours (17 weeks)')).toBe(String(first.average_weekly_hours));
    expect(detail('Opted out of 48 hours')).toBe(first.opted_out_48h === 'yes' ? 'Yes' : 'No');
    // A date as people read it (1 Dec 2026), or a dash when no count runs.
    expect(detail('AWR equal treatment from')).toMatch(
      first.awr_qualifies_on ? /^\d{1,2} [A-Z][a-z]{2} \d{4}$/ : /^–$/,
    );
    // Not totals: the Total row leaves them empty.
    const total = await table.locator('tfoot tr td').allTextContents();
    expect(total.slice(-STAFF_DETAILS.length)).toEqual(STAFF_DETAILS.map(() => ''));
    // Sorted by a standing column, on the server: the header asks for it (most weeks first) and the rows are the
    // API's sorted page, kept in the address.
    await table.getByRole('button', { name: 'AWR weeks (of 12)' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('awr_weeks');
    expect(new URL(page.url()).searchParams.get('order')).toBe('desc');
    const sorted = (
      await api(page, 'GET', '/api/reports/staff_standing?period=last_month&sort=awr_weeks&order=desc&per_page=10')
    ).body;
    const names = () => table.locator('tbody tr th').allTextContents();
    await expect
      .poll(async () => (await names()).slice(0, sorted.data.length))
      .toEqual(sorted.data.map((r: { staff: string }) => r.staff));
    const weeks = (await table.locator('tbody tr').all()).slice(0, sorted.data.length);
    const shown = await Promise.all(
      weeks.map(async (r) => (await r.locator('td, th').allTextContents())[headers.indexOf('AWR weeks (of 12)')]),
    );
    expect(shown).toEqual(sorted.data.map((r: { awr_weeks: number }) => String(r.awr_weeks)));
    expect(await violations(page)).toEqual([]);
    await settleScreen(page, inflight);
  });
});
