import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, chooseReference, signInClient, typeDate, typeTime, uid, waitForPath } from './engineHelpers';

// The client panel: a client user requests a shift at their own site, sees it among their open shifts without
// any pay, and cancels it, told the late-cancellation charge before confirming.

// On a product of its own: it books the demo's staff, and a booking made by a file running beside it on the shared
// product could clash with one made here, or be counted in what this file checks.
const e2e = useBrowser();

/** The agency's (London's) date and wall-clock times of a half-hour shift starting about three hours from now. */
function londonSoon() {
  const at = (ms: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/London',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(ms))
        .map((p) => [p.type, p.value]),
    );
    return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
  };
  const startMs = Math.ceil((Date.now() + 3 * 3_600_000) / 900_000) * 900_000;
  const s = at(startMs);
  return { date: s.date, start: s.time, end: at(startMs + 30 * 60_000).time };
}

describe('client shifts', () => {
  it(
    'requests a shift, then cancels it, told first that an unfilled shift is free to cancel',
    { timeout: 90_000 },
    async () => {
      const { page } = e2e;
      await signInClient(page);
      const note = `e2e request ${uid()}`;
      // Starting in about three hours: cancelling it now is late (the demo's rule: within 24 hours charges 4 hours).
      const { date, start, end } = londonSoon();
      await page.goto('/client/shift/open-shift');
      // The list's screen drawn before its link is clicked: at load 10 the click fell while the page was still
      // settling its own address after sign-in, and Playwright waited out its 15 s on that navigation.
      await page.waitForFunction(() => document.documentElement.dataset.renderedPath === location.pathname);
      await page.getByRole('link', { name: 'Request a shift' }).click();
      await waitForPath(page, '/client/shift/request');
      expect(await page.getByRole('combobox', { name: 'Client', exact: true }).count()).toBe(0);
      await chooseReference(page, page, 'Site', 'Main', 'Meadowbank Care Home – Main Building');
      // The agency's job roles and shift templates (no rates), a template filling in its times.
      await chooseReference(page, page, 'Job role', 'Healthcare', 'Healthcare Assistant');
      await chooseReference(page, page, 'Shift template', 'Lat', 'Late');
      await expect.poll(() => page.locator('input[name="start_time"]').inputValue()).toBe('14:00');
      expect(await page.locator('input[name="end_time"]').inputValue()).toBe('22:00');
      expect(await page.getByLabel('Unpaid break (minutes)').inputValue()).toBe('30');
      expect(await page.locator('main').textContent()).not.toMatch(/Pay rate|Charge rate|Margin/);
      // Times of its own: soon, so that cancelling it below is late.
      await typeTime(page, 'Starts at', start);
      await typeTime(page, 'Ends at', end);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('input[name="end_time"]').inputValue()).toBe(end);
      await page.getByLabel('Unpaid break (minutes)').fill('0');
      await typeDate(page, 'Date', date);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Add date' }).click();
      await page.getByLabel('Notes').fill(note);
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.getByText('1 shift created').waitFor();
      await waitForPath(page, '/client/shift/open-shift');

      // Their list: no pay or margin column anywhere.
      await page.locator('table thead th').first().waitFor();
      const headers = await page.locator('table thead th').allTextContents();
      expect(headers.join('|')).toMatch(/Charge/);
      expect(headers.join('|')).not.toMatch(/Pay|Margin/);

      const mine = (
        await api(
          page,
          'GET',
          `/api/shifts?state=open&start_at_gte=${new Date(Date.now() - 86_400_000).toISOString()}&per_page=100`,
        )
      ).body.data.find((s: any) => s.notes === note);
      expect(mine).toBeTruthy();
      expect(mine.pay).toBeUndefined();
      // The open shifts from this one on, soonest first: this request is on the first page.
      const filter = encodeURIComponent(JSON.stringify({ start_at_gte: mine.start_at }));
      await page.goto(`/client/shift/open-shift?filter=${filter}&sort=start_at&order=ASC&page=1&perPage=25`);
      const cancel = page
        .locator('table tbody tr', { hasText: 'Meadowbank Care Home – Main Building' })
        .filter({ hasText: `, ${start}` })
        .filter({ hasText: `, ${end}` });
      await cancel.first().waitFor();
      await cancel.first().getByRole('button', { name: 'Cancel shift' }).click();
      const dialog = page.getByRole('dialog');
      const charge = dialog.getByTestId('cancellation-charge');
      // Late, but nobody is booked on it yet: the client's late-cancellation rule charges only a booked shift.
      await expect.poll(() => charge.textContent()).toBe('Cancelling now is free of charge.');
      await dialog.getByRole('button', { name: 'Cancel the shift' }).click();
      await dialog.getByText('Say why the shift is cancelled.').waitFor();
      await dialog.getByLabel('Reason').fill('Resident moved');
      await dialog.getByRole('button', { name: 'Cancel the shift' }).click();
      await page.getByText('Shift cancelled').waitFor();

      const after = (await api(page, 'GET', `/api/shifts/${mine.id}`)).body.data;
      expect(after.status).toBe('cancelled');
      expect(after.pay).toBeUndefined();
      expect(after.cancellation_charge ?? 0).toBe(0);
    },
  );

  it('shows their schedule read-only, with the staff member and job role', { timeout: 60_000 }, async () => {
    const { page } = e2e;
    await signInClient(page);
    // One of their booked shifts in the coming weeks (the demo books some at every client).
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const booked = (await api(page, 'GET', `/api/schedule?from=${day(0)}&to=${day(60)}&status=assigned`)).body.data[0];
    expect(booked?.candidate_name).toBeTruthy();
    expect(booked.pay).toBeUndefined();
    await page.goto(`/client/schedule?date=${booked.start_at.slice(0, 10)}`);
    const event = page.locator(`.fc-event[data-shift-id="${booked.id}"]`);
    await event.waitFor();
    expect(await event.getAttribute('aria-label')).toMatch(/Assigned: /);
    expect(await event.textContent()).toContain(booked.candidate_name);
    expect(await event.textContent()).toContain(booked.job_role_name);
    // Read-only: nothing can be dragged.
    expect(await page.locator('.fc-event-draggable').count()).toBe(0);
    // Opened, it offers Cancel but no Assign, and no pay. Clicked at its top corner, as a user clicks what shows of it:
    // a shift that starts later the same day (the request the test above makes, three hours from now) is drawn over
    // the rest of it.
    await event.click({ position: { x: 4, y: 4 } });
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel shift' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Assign' }).count()).toBe(0);
    expect(await dialog.textContent()).not.toMatch(/Pay|Margin/);
  });

  it('on a phone (390 px) their schedule opens one day at a time, never a 7-column week (issue 30.7)', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await signInClient(page);
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const booked = (await api(page, 'GET', `/api/schedule?from=${day(0)}&to=${day(60)}&status=assigned`)).body.data[0];
    // Even an address that asks for the week (a link shared from a laptop) opens the day there.
    for (const address of [
      `/client/schedule?date=${booked.start_at.slice(0, 10)}`,
      `/client/schedule?date=${booked.start_at.slice(0, 10)}&range=timeGridWeek`,
    ]) {
      await page.goto(address);
      await page.locator('[data-testid="schedule-calendar"][data-ready="true"]').waitFor();
      expect(await page.locator('.fc-timeGridDay-view').count(), address).toBe(1);
      expect(await page.locator('.fc-col-header-cell').count(), address).toBe(1);
      // No week or month to switch to on a phone.
      expect(await page.getByRole('button', { name: 'Week' }).count(), address).toBe(0);
      const event = page.locator(`.fc-event[data-shift-id="${booked.id}"]`);
      expect(await event.textContent()).toContain(booked.candidate_name);
      // The shift is drawn across the day's width, not in a seventh of it.
      expect((await event.boundingBox())!.width, address).toBeGreaterThan(200);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        `${address}: wider than the screen`,
      ).toBeLessThanOrEqual(0);
    }
  });

  it(
    "a phone's request form refuses a past date as it is typed and prices the request, charge only (issue 14.8)",
    { timeout: 90_000 },
    async () => {
      const { page } = e2e;
      await page.setViewportSize({ width: 390, height: 844 });
      await signInClient(page);
      await page.goto('/client/shift/request');
      const quote = page.locator('section[aria-labelledby="shift-quote-title"]');
      await expect
        .poll(() => quote.textContent())
        .toContain('Choose the site, job role, times and at least one date to see the price.');
      await chooseReference(page, page, 'Site', 'Main', 'Meadowbank Care Home – Main Building');
      await chooseReference(page, page, 'Job role', 'Healthcare', 'Healthcare Assistant');
      // On a phone the open picker covers the form: Escape closes it (only it) before the next field.
      await typeTime(page, 'Starts at', '08:00');
      await page.keyboard.press('Escape');
      await typeTime(page, 'Ends at', '20:00');
      await page.keyboard.press('Escape');
      const past = 'Choose today or a later date: a request is for shifts ahead.';
      // A past date, typed: said next to the field while the user is still in it, and it cannot be added.
      await typeDate(page, 'Date', new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10));
      const dateControl = page.locator('.MuiFormControl-root', {
        has: page.getByRole('group', { name: 'Date', exact: true }),
      });
      await dateControl.getByText(past).waitFor();
      expect(
        await page
          .getByRole('group', { name: 'Date', exact: true })
          .evaluate((g) => g.contains(document.activeElement)),
      ).toBe(true);
      expect(await page.getByRole('button', { name: 'Add date' }).isDisabled()).toBe(true);
      expect(await page.getByTestId('chosen-dates').textContent()).toContain('No dates chosen yet.');
      // A date ahead clears it; added, the request is priced: the charge, never pay or margin.
      await typeDate(page, 'Date', new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10));
      await dateControl.getByText(past).waitFor({ state: 'detached' });
      await page.getByLabel('Notes').click();
      await page.getByRole('button', { name: 'Add date' }).click();
      const totals = page.getByTestId('quote-totals');
      await expect.poll(() => totals.textContent(), { timeout: 15_000 }).toMatch(/^Hours: 12Charge: £[\d,]+\.\d\d$/);
      const headers = await page.getByTestId('quote').locator('thead th').allTextContents();
      expect(headers).toEqual(['Band', 'Hours', 'Charge rate', 'Charge']);
      expect(await quote.textContent()).not.toMatch(/Pay|Margin|On-costs/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    },
  );
});
