import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, chooseReference, controlOf, dateField, signInAdmin, typeDate, uid, waitForPath } from './engineHelpers';

// Rates & rules: a rate card set by hand with its margin worked out live and the wage warning, and the holiday
// calendar's regions.

const e2e = useBrowser();

describe('rate cards', () => {
  it("shows each band's margin as the rates are typed and warns of pay below the National Living Wage", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const name = `Card Client ${uid()}`;
    const role = `Card Role ${uid()}`;
    const client = (await api(page, 'POST', '/api/clients', { name, billing_email: 'accounts@card.example' })).body
      .data;
    const job = (await api(page, 'POST', '/api/job_roles', { name: role })).body.data;
    let cardId: number | undefined;
    try {
      await page.goto('/rates_and_rules/rate-card/create');
      await chooseReference(page, page, 'Client', name.slice(0, 8), name);
      await chooseReference(page, page, 'Job role', role.slice(0, 8), role);
      await typeDate(page, 'In force from', '2026-05-01');
      await page.keyboard.press('Escape');

      const margin = page.getByTestId('margin-weekday_day');
      await expect.poll(() => margin.textContent()).toMatch(/enter pay and charge/);
      await page.getByLabel('Pay: weekday day (per hour)').fill('12.00');
      await page.getByLabel('Charge: weekday day (per hour)').fill('20.00');
      // 20.00 − 12.00 − on-costs (1.45 holiday pay, 2.02 employer NI) = 4.53, 22.7% of the charge.
      await expect.poll(() => margin.textContent()).toContain('Margin £4.53 an hour (22.7%)');
      await expect.poll(() => margin.textContent()).toContain('after £3.47 on-costs');
      const warning = page.getByTestId('wage-warning-weekday_day');
      await expect
        .poll(() => warning.textContent())
        .toContain('Below the National Living Wage of £12.71 an hour from 1 April 2026');

      // A rate at the floor: the warning goes, the margin follows.
      await page.getByLabel('Pay: weekday day (per hour)').fill('12.71');
      await expect.poll(() => warning.count()).toBe(0);
      await expect.poll(() => margin.textContent()).toContain('Margin £3.62 an hour (18.1%)');

      const bands = ['weekday night', 'saturday', 'sunday', 'bank holiday'];
      for (const [i, band] of bands.entries()) {
        await page.getByLabel(`Pay: ${band} (per hour)`).fill(String(13 + i));
        await page.getByLabel(`Charge: ${band} (per hour)`).fill(String(21 + i));
      }
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, /^\/rates_and_rules\/rate-card\/\d+\/show$/);
      cardId = Number(/rate-card\/(\d+)/.exec(new URL(page.url()).pathname)![1]);
      const saved = (await api(page, 'GET', `/api/rate_cards/${cardId}`)).body.data;
      expect(saved).toMatchObject({
        client_id: client.id,
        job_role_id: job.id,
        effective_from: '2026-05-01',
        pay_weekday_day: 1271,
        charge_weekday_day: 2000,
        pay_bank_holiday: 1600,
        margin_weekday_day: 362,
      });

      // The card is listed on Rates & Rules, filtered by its client.
      await page.goto(`/rates_and_rules?filter=${encodeURIComponent(JSON.stringify({ client_id: client.id }))}`);
      await expect.poll(() => page.locator('table tbody tr').filter({ hasText: '£12.71' }).count()).toBe(1);
      // One title with its separator, never the list's run into it ("Rates & RulesRate cards"), and one h1.
      await expect.poll(() => page.title()).toBe('Rates & Rules · Brightway Staffing');
      expect(await page.locator('#react-admin-title').textContent()).toBe('Rates & Rules');
      expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Rates & Rules']);
      await page.getByRole('heading', { name: 'Pricing rules' }).waitFor();
      await page.getByText('Agency default').first().waitFor();
    } finally {
      if (cardId) await api(page, 'DELETE', `/api/rate_cards/${cardId}`);
    }
  });
});

describe('a job role’s default pay (issue 30.6)', () => {
  it('warns beside the field, as it is typed, of pay below the National Living Wage and what booking does', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const job = (await api(page, 'POST', '/api/job_roles', { name: `Porter ${uid()}`, default_pay_rate: 1300 })).body
      .data;
    await page.goto(`/appsetting/addjobdetail/${job.id}`);
    const pay = page.getByLabel('Default pay rate (per hour)');
    await pay.fill('11.60');
    const warning = page.getByTestId('wage-warning-default_pay_rate');
    await expect
      .poll(() => warning.textContent())
      .toContain(
        'Below the National Living Wage of £12.71 an hour from 1 April 2026: PAYE staff cannot be booked at it',
      );
    await pay.fill('12.71');
    await expect.poll(() => warning.count()).toBe(0);
  });
});

describe('holiday calendar', () => {
  it("lists 30 November 2026 for Scotland only, and adds and removes a day of the agency's own by keyboard", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/appsetting/holidaycalender');
    await page.getByRole('combobox', { name: 'Year' }).waitFor();
    // Step to 2026 with the year buttons.
    const heading = page.getByRole('heading', { level: 1 });
    for (;;) {
      const text = (await heading.textContent()) ?? '';
      const shown = Number(/(\d{4})/.exec(text)?.[1]);
      if (shown === 2026) break;
      await page.getByRole('button', { name: shown > 2026 ? 'Previous year' : 'Next year' }).click();
      await expect.poll(() => heading.textContent()).not.toBe(text);
    }
    const scotland = page.getByRole('region', { name: 'Scotland' });
    await scotland.getByText('St Andrew').first().waitFor();
    await expect.poll(() => scotland.getByTestId('holiday-scotland-2026-11-30').count()).toBe(1);
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'England & Wales' }).getByTestId('holiday-england_wales-2026-11-30').count(),
      )
      .toBe(0);
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'Northern Ireland' })
          .getByTestId('holiday-northern_ireland-2026-07-13')
          .count(),
      )
      .toBe(1);
    // Boxing Day falls on a Saturday in 2026: its substitute day is listed.
    await expect
      .poll(() =>
        page.getByRole('region', { name: 'England & Wales' }).getByTestId('holiday-england_wales-2026-12-28').count(),
      )
      .toBe(1);

    // Add a day of the agency's own by keyboard (Enter submits), then remove it again by keyboard.
    const day = `2026-02-${String(2 + Math.floor(Math.random() * 26)).padStart(2, '0')}`;
    const name = `Agency day ${uid()}`;
    const nameBox = page.getByRole('textbox', { name: /^Name/ });
    await page.getByRole('combobox', { name: 'Region' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Northern Ireland' }).click();
    // The product's own picker (yyyy-MM-dd), not the browser's date input; a date that does not exist is said so.
    expect(await page.locator('input[type="date"]').count()).toBe(0);
    await typeDate(page, 'Date', '2026-02-30');
    // Clicked first, as a user moves on: the calendar left open gives the focus back to its field when it closes
    // after a focus moved by script or keyboard, and the name would go into the date (docs/decisions.md).
    await nameBox.click();
    await nameBox.fill(name);
    await nameBox.press('Enter');
    await controlOf(page, dateField(page, 'Date')).getByText('Enter a date as yyyy-MM-dd').waitFor();
    await typeDate(page, 'Date', day);
    await page.keyboard.press('Escape');
    // Gone before Enter is pressed in the Name box, as a user sees it go.
    await page.locator('.MuiPickerPopper-root').waitFor({ state: 'hidden' });
    await nameBox.press('Enter');
    const ni = page.getByRole('region', { name: 'Northern Ireland' });
    await ni.getByTestId(`holiday-northern_ireland-${day}`).waitFor();
    await expect
      .poll(() => ni.getByTestId(`holiday-northern_ireland-${day}`).textContent())
      .toContain('Added by the agency');
    const remove = ni.getByRole('button', { name: new RegExp(`^Remove ${name} on`) });
    await remove.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => ni.getByTestId(`holiday-northern_ireland-${day}`).count()).toBe(0);
    const left = await api(page, 'GET', `/api/holiday_overrides?region=northern_ireland&date=${day}`);
    expect(left.body.data).toEqual([]);
  });
});
