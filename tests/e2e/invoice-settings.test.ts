import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin } from './engineHelpers';

// /appsetting/invoicesetting (issue 32): the agency's invoice settings on a phone, each refusal next to its field, a
// save kept. On a product of its own: it moves the invoice series.
const e2e = useBrowser();

describe('invoice settings (/appsetting/invoicesetting)', () => {
  it('refuses a lowered next number and a bad sort code next to the fields, then saves, at 390 px, axe-clean', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/appsetting/invoicesetting');
    await page.getByRole('heading', { name: 'Invoice Settings', level: 1 }).waitFor();
    const next = page.getByLabel('Next invoice number');
    await next.waitFor();
    const before = (await api(page, 'GET', '/api/invoice_settings')).body.data;

    await page.evaluate(axe.source);
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`);
    });
    expect(violations).toEqual([]);

    // The demo has issued invoices: 1 is behind the series.
    await next.fill('1');
    await page.getByLabel('Sort code').fill('12-34-5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^The next number can only move forward/).waitFor();
    await page.getByText('Enter a sort code such as 12-34-56').waitFor();
    expect((await api(page, 'GET', '/api/invoice_settings')).body.data.invoice_next_number).toBe(
      before.invoice_next_number,
    );

    await next.fill(String(before.invoice_next_number + 100));
    await page.getByLabel('Bank account name').fill('Demo Agency Ltd');
    await page.getByLabel('Sort code').fill('12-34-56');
    await page.getByLabel('Account number').fill('12345678');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Invoice settings saved').waitFor();
    const saved = (await api(page, 'GET', '/api/invoice_settings')).body.data;
    expect(saved).toMatchObject({
      invoice_next_number: before.invoice_next_number + 100,
      bank_sort_code: '12-34-56',
      bank_account_number: '12345678',
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
