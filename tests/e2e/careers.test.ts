import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, openHome, rowsWith, searchList, signInAdmin, uid, navigateInApp } from './engineHelpers';
import { audit, report, type Finding } from './axe';
import { PHONE } from './layout';
import { useBrowser } from './harness';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

/**
 * Presses Tab until the focused element is the one `selector` names (with `text` as its text, when given), at most
 * 60 times: the way a keyboard user moves.
 */
async function tabTo(page: Page, selector: string, text?: string) {
  for (let i = 0; i < 60; i++) {
    const there = await page.evaluate(
      ([s, t]) => !!document.activeElement?.matches(s!) && (t === null || document.activeElement?.textContent === t),
      [selector, text ?? null],
    );
    if (there) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} ${text ?? ''}`);
}

/** Whether the page scrolls sideways at its width (a phone's 390 px). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

// The public job board (issue 35) as an applicant uses it: on a 390 px phone, by keyboard, with no JavaScript of the
// product on the page; every page axe clean. Then the agency's admin finds the applicant in the pipeline.
describe('the public job board', () => {
  const e2e = useBrowser();
  it(
    'apply from a phone by keyboard, find the applicant in the pipeline, hire them: a pending staff member',
    { timeout: 180_000 },
    async () => {
      const { page } = e2e;
      const findings: Finding[] = [];
      await page.setViewportSize(PHONE);
      const scripts: string[] = [];
      page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));

      await page.goto('/careers/brightway-staffing');
      await expect(page.title()).resolves.toBe('Jobs at Brightway Staffing');
      expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Jobs at Brightway Staffing']);
      await audit(page, '/careers/brightway-staffing', findings);
      expect(await scrollsSideways(page)).toBe(false);

      // To the job by keyboard.
      await tabTo(page, 'main a', 'Senior care assistant (nights)');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/careers\/brightway-staffing\/jobs\/\d+$/);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Senior care assistant (nights)');
      await audit(page, 'job page', findings);
      expect(await scrollsSideways(page)).toBe(false);

      // The form, by keyboard; sent first without consent: the error is next to the box, in words.
      const last = `Mensah ${uid()}`;
      await tabTo(page, '#first_name');
      await page.keyboard.type('Kofi');
      await page.keyboard.press('Tab');
      await page.keyboard.type(last);
      await page.keyboard.press('Tab');
      await page.keyboard.type(`kofi.${uid()}@applicant.example`);
      await page.keyboard.press('Tab');
      await page.keyboard.type('07700 900456');
      await page.keyboard.press('Tab');
      // The staff detail field the demo agency asks on its form: a list, chosen by typing its answer.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('detail-uniform_size');
      await page.keyboard.type('M');
      expect(await page.locator('#detail-uniform_size').inputValue()).toBe('M');
      await page.keyboard.press('Tab');
      // The radio group: Space chooses the focused answer.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('right_to_work-yes');
      await page.keyboard.press('Space');
      await tabTo(page, 'button[type=submit]');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/apply$/);
      expect(await page.title()).toMatch(/^Error: /);
      await expect(page.locator('#consent-error').innerText()).resolves.toContain(
        'Tick the box to agree to your details being kept and used for your application',
      );
      await audit(page, 'form with an error', findings);
      expect(await scrollsSideways(page)).toBe(false);
      // What was typed or chosen is still there; the CV (chosen with the file chooser) and consent, and send again.
      expect(await page.locator('#last_name').inputValue()).toBe(last);
      expect(await page.locator('#detail-uniform_size').inputValue()).toBe('M');
      await page.locator('#cv').setInputFiles({ name: 'kofi-cv.pdf', mimeType: 'application/pdf', buffer: PDF });
      await tabTo(page, '#consent');
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send application');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/applied$/);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Application sent');
      await audit(page, 'application sent', findings);
      expect(report(findings), 'serious or critical axe violations').toBe('');
      // The board needs no script at all.
      expect(scripts).toEqual([]);

      // The agency's admin finds the applicant in the pipeline, at Applied, with the CV.
      await page.setViewportSize({ width: 1366, height: 900 });
      await signInAdmin(page);
      await openHome(page);
      await navigateInApp(page, '/recruitment/staffs');
      await searchList(page, 'job_applications', last);
      const row = rowsWith(page, last);
      await expect(row.count()).resolves.toBe(1);
      await expect(row.innerText()).resolves.toContain('Applied');
      await row.getByText(last).click();
      await page.waitForURL(/\/recruitment\/staffs\/\d+\/show$/);
      await page.getByText('kofi-cv.pdf').waitFor();
      // With the answer to the agency's own question.
      await page.getByText('Uniform size').waitFor();
      expect(await page.locator('main').innerText()).toMatch(/Uniform size\s+M\b/);

      // Screened, interviewed and offered (the pipeline's own browser tests move by the screens), then hired here: a
      // pending staff member, found in the staff list's Pending tab with the answer carried over.
      const id = Number(/staffs\/(\d+)\/show/.exec(page.url())![1]);
      for (const move of ['screen', 'interview', 'offer'])
        expect(
          (
            await api(page, 'POST', `/api/job_applications/${id}/actions/${move}`, {
              ...(move === 'interview' ? { interview_at: new Date(Date.now() + 86_400_000).toISOString() } : {}),
            })
          ).status,
        ).toBe(200);
      await page.reload();
      await page.getByRole('button', { name: 'Hire' }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^(Hire|Confirm)$/ })
        .click();
      await page.getByText('Hired: a pending staff member was added').waitFor();
      await navigateInApp(page, '/staffs/pendingStaff');
      await searchList(page, 'candidates', last);
      await expect(rowsWith(page, last).count()).resolves.toBe(1);
      const hired = (await api(page, 'GET', `/api/candidates?q=${encodeURIComponent(last)}`)).body.data[0];
      expect(hired).toMatchObject({ first_name: 'Kofi', status: 'pending' });
      expect((await api(page, 'GET', `/api/candidates/${hired.id}`)).body.data.custom_fields).toMatchObject({
        uniform_size: 'M',
      });
    },
  );
});
