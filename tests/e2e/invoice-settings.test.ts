import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import {
  api,
  consultantReadsSettings,
  controlOf,
  navigateInApp,
  openHome,
  seriousViolations,
  settleScreen,
  signInAdmin,
  trackRequests,
} from './engineHelpers';

// Issue 32, the invoice settings (/appsetting/invoicesetting): a next number moved back is refused next to its field
// and nothing is saved; the footer saved and read back; a consultant reads them without a way to change them. The test
// puts the shared demo database back as it found it.
const e2e = useBrowser();
const ROUTE = '/appsetting/invoicesetting';

describe('invoice settings', () => {
  it('an admin is told next to the field that a next number only moves forward, then saves the footer', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const before = (await api(page, 'GET', '/api/invoice_settings')).body.data;
    try {
      await navigateInApp(page, ROUTE);
      await page.getByRole('heading', { name: 'Invoice Settings', level: 1 }).waitFor();
      await settleScreen(page, inflight);
      const next = page.getByRole('spinbutton', { name: 'Next invoice number' });
      await expect.poll(() => next.inputValue()).toBe(String(before.invoice_next_number));
      await next.fill('1');
      await page.getByRole('button', { name: 'Save' }).click();
      await controlOf(page, next)
        .getByText(/^The next number can only move forward/)
        .waitFor();
      await expect(next.getAttribute('aria-invalid')).resolves.toBe('true');
      expect((await api(page, 'GET', '/api/invoice_settings')).body.data.invoice_next_number).toBe(
        before.invoice_next_number,
      );

      await next.fill(String(before.invoice_next_number));
      const footer = `Thank you for your business (${Date.now()}).`;
      await page.getByRole('textbox', { name: 'Invoice footer' }).fill(footer);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Invoice settings saved').waitFor();
      const saved = (await api(page, 'GET', '/api/invoice_settings')).body.data;
      expect(saved).toMatchObject({ footer, invoice_next_number: before.invoice_next_number });
      expect(saved.version).toBeGreaterThan(before.version);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      const now = (await api(page, 'GET', '/api/invoice_settings')).body.data;
      const back = await api(page, 'PUT', '/api/invoice_settings', { footer: before.footer, version: now.version });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
    }
  }, 120_000);

  it('a consultant reads them, told so, without a way to change them', async () => {
    const { page } = e2e;
    await consultantReadsSettings(
      page,
      ROUTE,
      'Invoice Settings',
      page.getByRole('spinbutton', { name: 'Next invoice number' }),
    );
  }, 120_000);
});
