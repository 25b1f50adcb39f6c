import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { controlOf, dateField, signInAdmin, typeDate, waitForPath } from './engineHelpers';

// The generated screens as people use them: errors next to fields, strict dates, the keyboard, unsaved work,
// a readable CSV and a phone's list (issue 7).
const e2e = useBrowser();

describe('generated screens', () => {
  it('the site form shows a missing first line and postcode next to those inputs; the country starts as United Kingdom', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/site/create');
    await expect.poll(() => page.getByLabel('Country').inputValue()).toBe('United Kingdom');
    await page.getByLabel('Name', { exact: false }).first().fill('Nowhere House');
    await page.getByRole('button', { name: 'Save' }).click();
    await controlOf(page, page.getByLabel(/^Address line 1/)).getByText('Required').waitFor();
    await controlOf(page, page.getByLabel(/^Postcode/)).getByText('Required').waitFor();
  });

  it('typed dates out of range (2025-13-99) or impossible (2025-02-31) are refused next to the field', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/staffs/create');
    for (const typed of ['2025-13-99', '2025-02-31']) {
      await typeDate(page, 'Available from', typed);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Escape');
      await controlOf(page, dateField(page, 'Available from')).getByText('Enter a date as yyyy-MM-dd').waitFor();
      expect(await page.locator('input[name="start_date"]').inputValue()).not.toBe('2025-03-09');
      // What cannot be a month or a day is not restarted into one (13 → 03): those parts show empty.
      if (typed === '2025-13-99') expect(await dateField(page, 'Available from').getByRole('spinbutton').allTextContents()).toEqual(['2025', 'MM', 'DD']);
    }
  });

  it('by keyboard alone: Tab to a staff row, Enter opens the tabbed profile', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/staff/staff-list');
    await page.locator('tr.engine-row').first().waitFor();
    let focused = '';
    for (let i = 0; i < 80 && !focused.includes('engine-row'); i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.className ?? '');
    }
    expect(focused).toContain('engine-row');
    await page.keyboard.press('Enter');
    await waitForPath(page, /^\/staffs\/\d+\/overview$/);
  });

  it('leaving a changed form asks first, and staying keeps the change', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/client/create');
    const name = page.getByLabel(/^Name/).first();
    await name.fill('Unsaved Care Ltd');
    // A menu link elsewhere: the sidebar's Dashboard.
    await page.locator('a[href="/home"]').first().click();
    const prompt = await page.waitForEvent('dialog');
    expect(prompt.message()).toMatch(/changes weren.t saved/i);
    await prompt.dismiss();
    await waitForPath(page, '/client/create');
    expect(await name.inputValue()).toBe('Unsaved Care Ltd');
  });

  it('the staff CSV is readable: a dated file name, declared headers, names instead of ids', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/staff/staff-list');
    await page.locator('tr.engine-row').first().waitFor();
    const firstLast = (await page.locator('tr.engine-row').first().locator('td').nth(2).textContent())!.trim();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).first().click()]);
    expect(download.suggestedFilename()).toMatch(/^staff-\d{4}-\d{2}-\d{2}\.csv$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
    const [header, ...rows] = text.trim().split(/\r?\n/);
    expect(header).toContain('First name');
    expect(header).toContain('Job role');
    expect(header).not.toContain('job_role_id');
    expect(text).toContain(firstLast);
    // Job roles are names: no row has a bare number where the job role goes.
    const jobRole = header.split(',').indexOf('Job role');
    expect(rows.some((r) => /[A-Za-z]/.test(r.split(',')[jobRole] ?? ''))).toBe(true);
  });

  it('on a phone (390×844) the staff list is one card a record and the page does not scroll sideways', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAdmin(page);
    await page.goto('/staff/staff-list');
    // react-admin's SimpleList: each card is a button that opens the record (the engine marks the list).
    const card = page.locator('.engine-simple-list li [role="button"]');
    await card.first().waitFor();
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await card.first().click();
    await waitForPath(page, /^\/staffs\/\d+\/overview$/);
  });
});
