import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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

// Issue 35, agency settings (/appsetting/agencysetting): edited and saved by keyboard, a refusal next to its field,
// the favicon of the browser tab following the agency's, axe clean, within a phone's 390 px; the job board moved to a
// new address (a taken one refused next to the field). The test puts the shared demo database back as it found it.
const e2e = useBrowser();

// A valid 1×1 PNG: the store decides the type by these bytes.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const ROUTE = '/appsetting/agencysetting';
const iconHref = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute('href') ?? '');
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('agency settings', () => {
  it('an admin edits and saves by keyboard, is told of a bad company number next to it, and the tab shows the new favicon', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const before = (await api(page, 'GET', '/api/agency_settings')).body.data;
    expect(before.legal_name).toBe('Brightway Staffing Ltd');
    try {
      // The demo agency's own favicon is the tab's once signed in.
      await expect.poll(() => iconHref(page)).toBe('/demo/agency-favicon.svg');
      await navigateInApp(page, ROUTE);
      await page.getByRole('heading', { name: 'Agency Settings', level: 1 }).waitFor();
      await settleScreen(page, inflight);
      expect(await seriousViolations(page)).toEqual([]);

      const legal = page.getByRole('textbox', { name: 'Legal name' });
      const number = page.getByRole('textbox', { name: 'Company number' });
      await expect.poll(() => legal.inputValue()).toBe('Brightway Staffing Ltd');
      // By keyboard: into the field, a new value, Enter submits the form.
      await number.focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('1234');
      await page.keyboard.press('Enter');
      const refusal = 'Enter the 8-character company number from Companies House, such as 01234567 or SC123456.';
      // Next to the field it belongs to, and nothing saved.
      await controlOf(page, number).getByText(refusal).waitFor();
      await expect(number.getAttribute('aria-invalid')).resolves.toBe('true');
      expect((await api(page, 'GET', '/api/agency_settings')).body.data.company_number).toBe('09876543');

      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('SC123456');
      await legal.focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Brightway Staffing (Scotland) Ltd');
      // A favicon from the file store (a file picker is the browser's own: the test hands it the file).
      await page.getByLabel('Favicon', { exact: true }).setInputFiles({
        name: 'favicon.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await legal.focus();
      await page.keyboard.press('Enter');
      await page.getByText('Agency settings saved').waitFor();
      const saved = (await api(page, 'GET', '/api/agency_settings')).body.data;
      expect(saved).toMatchObject({ legal_name: 'Brightway Staffing (Scotland) Ltd', company_number: 'SC123456' });
      expect(saved.favicon).toMatch(/^[0-9a-f-]{36}$/);
      // The tab's icon is the uploaded one (read with the session's token, so a blob: URL), without a reload.
      await expect.poll(() => iconHref(page)).toMatch(/^blob:/);
      expect(await seriousViolations(page)).toEqual([]);

      // On a phone the whole screen stays within its width.
      await page.setViewportSize({ width: 390, height: 844 });
      await settleScreen(page, inflight);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      const now = (await api(page, 'GET', '/api/agency_settings')).body.data;
      const back = await api(page, 'PUT', '/api/agency_settings', {
        legal_name: before.legal_name,
        company_number: before.company_number,
        favicon: before.favicon,
        version: now.version,
      });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
    }
  }, 180_000);

  it('an admin moves the job board to a new address: a taken one is refused next to the field, the new one opens', async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    await openHome(page);
    const before = (await api(page, 'GET', '/api/agency_settings')).body.data;
    expect(before.slug).toBe('brightway-staffing');
    try {
      await navigateInApp(page, ROUTE);
      await page.getByRole('heading', { name: 'Agency Settings', level: 1 }).waitFor();
      await settleScreen(page, inflight);
      const slug = page.getByRole('textbox', { name: 'Job board address' });
      await expect.poll(() => slug.inputValue()).toBe('brightway-staffing');
      // The board's full address, as applicants would type it.
      const origin = new URL(page.url()).origin;
      await page.getByRole('link', { name: `${origin}/careers/brightway-staffing` }).waitFor();

      await slug.focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('northern-care-recruitment');
      await page.keyboard.press('Enter');
      await controlOf(page, slug).getByText('Another agency uses this address already: choose another.').waitFor();
      await expect(slug.getAttribute('aria-invalid')).resolves.toBe('true');

      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('brightway-care-jobs');
      await page.getByText(`once saved, at ${origin}/careers/brightway-care-jobs instead`).waitFor();
      await page.keyboard.press('Enter');
      await page.getByText('Agency settings saved').waitFor();
      await page.getByRole('link', { name: `${origin}/careers/brightway-care-jobs` }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // The board is at its new address; the old one answers nothing.
      const moved = await page.goto('/careers/brightway-care-jobs');
      expect(moved?.status()).toBe(200);
      await page.getByRole('heading', { name: 'Jobs at Brightway Staffing', level: 1 }).waitFor();
      expect((await page.goto('/careers/brightway-staffing'))?.status()).toBe(404);
    } finally {
      const now = (await api(page, 'GET', '/api/agency_settings')).body.data;
      const back = await api(page, 'PUT', '/api/agency_settings', { slug: before.slug, version: now.version });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
    }
  }, 180_000);

  it('lists the business units, and a consultant reads the settings without a way to change them', async () => {
    const { page } = e2e;
    await consultantReadsSettings(page, ROUTE, 'Agency Settings', page.getByRole('textbox', { name: 'Legal name' }));
    const units = page.getByRole('region', { name: 'Business units' });
    await units.getByText('Care homes').waitFor();
    await units.getByText('Hospitals').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
