import { describe, expect, it } from 'vitest';
import { api, signInAdmin, signInClient } from './engineHelpers';
import { useBrowser } from './harness';
import { PHONE } from './layout';
import { drawSignature, submittedTimesheet } from './timesheetHelpers';

/*
 * Issue 29.6, 29.7, 29.11 and 29.15 in the browser: the coordinator verifies one chosen line of a timesheet with its
 * evidence uploaded, then the rest only once their number is confirmed; the client's timesheets on a 390 px phone
 * are cards saying "signed / all", and a partial approval leaves nothing chosen.
 */
const e2e = useBrowser({ demo: 'current weeks' });
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

describe('verification by the agency', () => {
  it(
    'verifies the one line chosen, with its evidence; all of them only once their number is confirmed',
    {
      timeout: 150_000,
    },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      const ts = await submittedTimesheet(page, 3);
      const lines = (await api(page, 'GET', `/api/timesheet_lines?timesheet_id=${ts.id}&per_page=10`)).body.data;
      // A timesheet with unsigned lines of its own besides: the picker must not offer them.
      const other = await submittedTimesheet(page, 1);

      await page.goto(`/timesheets/${ts.id}/show`);
      await page.getByRole('button', { name: 'Verify by the agency' }).click();
      const dialog = page.getByRole('dialog', { name: 'Verify by the agency' });
      const picker = dialog.getByRole('combobox', { name: 'Lines to verify' });
      await picker.click();
      // This timesheet's three unsigned lines, and nothing else.
      const options = page.getByRole('listbox').getByRole('option');
      await expect.poll(() => options.count()).toBe(3);
      expect(await options.allTextContents()).toEqual(lines.map((l: { summary: string }) => l.summary));
      expect(other.id).not.toBe(ts.id);
      // Typing filters them: the second line's day.
      await picker.fill(lines[1].work_date);
      await expect.poll(() => options.count()).toBe(1);
      await options.first().click();
      // Closes the list of choices (Escape would close the dialog too).
      await dialog.getByRole('heading', { name: 'Verify by the agency' }).click();
      await dialog.getByLabel('How the hours were verified').fill('The ward’s signing-in sheet');
      await dialog
        .getByLabel('Evidence')
        .setInputFiles({ name: 'sheet.pdf', mimeType: 'application/pdf', buffer: PDF });
      await dialog.getByRole('button', { name: 'Verify by the agency' }).click();
      await dialog.waitFor({ state: 'detached' });

      const after = (await api(page, 'GET', `/api/timesheet_lines?timesheet_id=${ts.id}&per_page=10`)).body.data;
      expect(after.map((l: { status: string }) => l.status)).toEqual(['pending', 'verified', 'pending']);
      // The evidence went through the file store and is kept with the verification.
      const evidence = (await api(page, 'GET', `/api/timesheets/${ts.id}`)).body.data.verified_evidence;
      expect(evidence).toMatch(/^[0-9a-f-]{36}$/);
      expect((await api(page, 'GET', `/api/files/${evidence}`)).status).toBe(200);

      // Nothing chosen: refused, naming how many it would verify, until that number is typed.
      await page.reload();
      await page.getByRole('button', { name: 'Verify by the agency' }).click();
      await dialog.getByLabel('How the hours were verified').fill('Phoned the ward manager');
      await dialog.getByRole('button', { name: 'Verify by the agency' }).click();
      await dialog.getByText('Choose the lines to verify, or confirm all 2 unsigned lines by typing 2.').waitFor();
      await dialog.getByLabel('Or verify all 2 unsigned lines: type 2 to confirm').fill('2');
      await dialog.getByRole('button', { name: 'Verify by the agency' }).click();
      await dialog.waitFor({ state: 'detached' });
      // Issue 29.11: it says what is true, and Verify is disabled with the reason.
      await page.getByText('Fully verified').first().waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Verify by the agency' }).isDisabled()).toBe(true);
    },
  );
});

describe('the client’s timesheets on a phone', () => {
  it(
    'are cards saying how many lines are signed; a partial approval leaves nothing chosen',
    {
      timeout: 150_000,
    },
    async () => {
      const { page, context, baseURL } = e2e;
      await signInAdmin(page);
      const ts = await submittedTimesheet(page, 5);
      const phoneContext = await context.browser()!.newContext({ baseURL, viewport: PHONE });
      const phone = await phoneContext.newPage();
      await signInClient(phone);
      await phone.goto('/client/signedTimesheet');
      const awaiting = phone.getByRole('list', { name: 'Awaiting your signature' });
      const card = awaiting.getByRole('listitem').filter({ hasText: ts.number });
      await card.getByText(/Lines signed or verified 0 \/ 5/).waitFor();
      // Everything on the screen: no sideways scroll, the button within the phone's width.
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      const open = card.getByRole('button', { name: `Review and sign: timesheet ${ts.number}` });
      const box = (await open.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

      await open.click();
      const choose = phone.getByRole('checkbox', { name: /^Choose the line of/ });
      await choose.nth(0).check();
      await choose.nth(1).check();
      await phone.getByText('2 lines chosen').waitFor();
      await phone.getByLabel('Your full name').fill('Jane Approver');
      await drawSignature(phone);
      await phone.getByRole('button', { name: 'Approve and sign' }).click();
      await phone.getByText('Thank you: the chosen lines are signed.').waitFor();
      // The two are signed; the three left are not chosen on the client's behalf.
      await phone.getByText('0 lines chosen').waitFor();
      await expect.poll(() => choose.count()).toBe(3);
      for (let i = 0; i < 3; i++) expect(await choose.nth(i).isChecked()).toBe(false);

      await phone.getByRole('button', { name: 'Back to the timesheets' }).click();
      await awaiting
        .getByRole('listitem')
        .filter({ hasText: ts.number })
        .getByText(/2 \/ 5/)
        .waitFor();
      await phoneContext.close();
    },
  );
});
