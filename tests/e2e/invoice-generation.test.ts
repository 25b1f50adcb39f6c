import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, chooseRunWeek, rowsWith, signInAdmin, waitForPath } from './engineHelpers';
import { meadowbank, nextWeek, workedShift } from './timesheetHelpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

// Issue 32: weekly invoices generated from the screen: the period chosen with the date picker (snapped to its
// Monday), previewed with their lines and totals, generated as a run whose job shows its progress, then the run's
// page with the draft it made. axe over the new screens, on a phone's width too.
const e2e = useBrowser({ demo: 'current weeks' });

async function serious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = (await page.evaluate(() =>
    (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    }),
  )) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('generating weekly invoices', () => {
  it('previews, generates with a progress bar and shows the run and its draft', { timeout: 240_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    // A verified line of Meadowbank on the Wednesday of a week of its own.
    const week = nextWeek();
    await workedShift(page, addDaysToDate(week, 2), 'Invoice run e2e');
    const generated = await api(page, 'POST', '/api/timesheets/actions/generate', { week_start: week });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const verified = await api(page, 'POST', `/api/timesheets/${generated.body.data.timesheets[0]}/actions/verify`, {
      reason: 'Invoice run e2e',
      all_lines: 1,
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const { client } = await meadowbank(page);
    const name = (await api(page, 'GET', `/api/clients/${client}`)).body.data.name as string;

    await page.goto('/invoice/Generate-invoice');
    await waitForPath(page, '/invoice/Generate-invoice/Weekly');
    await expect.poll(() => page.getByRole('tab', { name: 'Weekly', selected: true }).count()).toBe(1);
    const clients = page.getByRole('combobox', { name: 'Clients' });
    await clients.click();
    await clients.fill(name.slice(0, 10));
    await page.getByRole('option', { name }).click();
    await page.keyboard.press('Escape');
    // The Wednesday is typed; a week's run starts on its Monday (said under the field) and ends on its Sunday.
    const sunday = await chooseRunWeek(page, week);

    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText(/^One invoice would be drafted \(lines: 1, total £/).waitFor();
    const preview = page.getByRole('table', { name: 'Preview' });
    await preview.getByText(`${week} – ${sunday}`).waitFor();
    await preview.getByText(/^Net £[\d,.]+ · VAT £[\d,.]+ · Total £[\d,.]+$/).waitFor();
    expect(await serious(page)).toEqual([]);

    await page.getByRole('button', { name: 'Generate drafts' }).click();
    await page.getByRole('progressbar', { name: 'Clients billed' }).first().waitFor();
    await page.getByText('The invoices are drafted').waitFor({ timeout: 60_000 });
    await page.getByText('1 of 1').waitFor();
    await page.getByRole('link', { name: /^Open run \d+$/ }).click();
    await waitForPath(page, /^\/invoice\/GenerateView\/generateView\/\d+$/);
    const runId = Number(page.url().split('/').pop());
    await page.getByText('One invoice made').waitFor();
    const run = (await api(page, 'GET', `/api/invoice_runs/${runId}`)).body.data;
    expect(run).toMatchObject({ mode: 'Weekly', state: 'done', clients_done: 1, invoice_count: 1, line_count: 1 });
    expect(await serious(page)).toEqual([]);

    const draft = page.getByRole('link', { name: /^Draft \d+$/ });
    const invoiceId = Number((await draft.textContent())!.replace('Draft ', ''));
    const invoice = (await api(page, 'GET', `/api/invoices/${invoiceId}`)).body.data;
    expect(invoice).toMatchObject({ state: 'draft', run_id: runId, client_id: client, period_start: week });

    // The runs' list shows it; the same screens at a phone's width pass axe too.
    await page.goto('/invoice/GenerateView');
    await rowsWith(page, 'Per client per week').first().waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await serious(page)).toEqual([]);
    await page.goto('/invoice/Generate-invoice/monthly');
    await page.getByText('One invoice per client per calendar month.').waitFor();
    expect(await page.getByRole('tab', { name: 'Monthly', selected: true }).count()).toBe(1);
    expect(await serious(page)).toEqual([]);
    await page.goto(`/invoice/GenerateView/generateView/${runId}`);
    await page.getByText('One invoice made').waitFor();
    expect(await serious(page)).toEqual([]);
    await draft.click();
    await waitForPath(page, `/invoice/client-invoice/client-InvoiceView/${invoiceId}`);
  });
});
