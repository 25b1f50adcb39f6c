import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import {
  api,
  chooseReference,
  controlOf,
  dateField,
  signInAdmin,
  signInClient,
  typeDate,
  typeTime,
  uid,
  waitForPath,
} from './engineHelpers';
import { DESKTOP, PHONE, scrollWidth } from './layout';

// The shift screens of the agency panel: creating a week of shifts from a template with its live quote,
// assigning from the suggested staff, and a refused booking explained in words.

// On a product of its own: it books the demo's staff, and a booking made by a file running beside it on the shared
// product could clash with one made here, or be counted in what this file checks.
const e2e = useBrowser();

/** A date `days` from today, yyyy-MM-dd. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/**
 * A Monday 13 to 23 months ahead (within the two years shifts may be planned), in a week the demo leaves empty: each
 * run its own.
 */
function farMonday() {
  const d = new Date(Date.now() + (400 + Math.floor(Math.random() * 300)) * 86_400_000);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** One open shift made through the API (the bulk route), for a test's own use. */
async function openShift(page: Page, body: Record<string, unknown>) {
  const r = await api(page, 'POST', '/api/shifts/bulk', {
    client_id: 2,
    site_id: 3,
    job_role_id: 1,
    staff_needed: 1,
    ...body,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data[0] as { id: number; start_at: string; end_at: string };
}

describe('shifts', () => {
  it('creates a week of shifts from a template, priced live before saving', { timeout: 90_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const monday = farMonday();
    const note = `e2e week ${uid()}`;
    await page.goto('/shift-list/open');
    await page.getByRole('link', { name: 'Create' }).click();
    await waitForPath(page, '/shifts/create');

    await chooseReference(page, page, 'Client', 'Oakw', 'Oakwood Lodge');
    await chooseReference(page, page, 'Site', 'Main', 'Oakwood Lodge – Main Building');
    await chooseReference(page, page, 'Job role', 'Healthcare', 'Healthcare Assistant');
    await chooseReference(page, page, 'Shift template', 'Ear', 'Early');
    // The template fills the times and the break.
    await expect.poll(() => page.locator('input[name="start_time"]').inputValue()).toBe('07:00');
    expect(await page.locator('input[name="end_time"]').inputValue()).toBe('15:00');
    expect(await page.getByLabel('Unpaid break (minutes)').inputValue()).toBe('30');

    await typeDate(page, 'Date', monday);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add the week from this date' }).click();
    const chips = page.getByTestId('chosen-dates').locator('.MuiChip-root');
    await expect.poll(() => chips.count()).toBe(7);
    await page.getByLabel('Notes').fill(note);

    // The quote: lines per band (a weekday band and the weekend's) and totals with pay, charge and margin.
    const totals = page.getByTestId('quote-totals');
    await expect
      .poll(() => totals.textContent(), { timeout: 15_000 })
      .toMatch(/Hours: 52\.5.*Pay: £[\d,.]+.*Charge: £[\d,.]+.*Margin: £/);
    const bands = await page.getByTestId('quote').locator('tbody tr td:first-child').allTextContents();
    // Weekdays and the weekend are priced in bands of their own (a bank holiday, if the week has one, too).
    expect(bands).toContain('Weekday day');
    expect(bands.some((b) => ['Saturday', 'Sunday', 'Bank holiday'].includes(b))).toBe(true);

    await page.getByRole('button', { name: 'Create shifts' }).click();
    await expect.poll(() => page.getByText('7 shifts created').count()).toBe(1);
    await waitForPath(page, '/shift-list/open');

    const week = await api(
      page,
      'GET',
      `/api/shifts?site_id=3&start_at_gte=${monday}T00:00:00Z&start_at_lte=${inDaysFrom(monday, 8)}T00:00:00Z&per_page=100`,
    );
    const mine = week.body.data.filter((s: any) => s.notes === note);
    expect(mine).toHaveLength(7);
    expect(new Set(mine.map((s: any) => s.start_at.slice(0, 10))).size).toBe(7);
    expect(mine.every((s: any) => s.status === 'open' && s.job_role_id === 1 && s.break_minutes === 30)).toBe(true);
  });

  it('takes times on the product’s 24-hour picker (HH:mm) and says so when a typed date does not exist', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/shifts/create');
    await dateField(page, 'Starts at').waitFor();
    // Never the browser's time input (12-hour "08:00 PM" on an American machine).
    expect(await page.locator('input[type="time"]').count()).toBe(0);
    await typeTime(page, 'Starts at', '20:00');
    await expect
      .poll(() => dateField(page, 'Starts at').getByRole('spinbutton').allTextContents())
      .toEqual(['20', '00']);
    expect(
      await page
        .getByRole('dialog')
        .getByText(/^(AM|PM)$/)
        .count(),
    ).toBe(0);
    await typeTime(page, 'Ends at', '08:00');
    await page.keyboard.press('Escape');
    expect(await page.locator('input[name="start_time"]').inputValue()).toBe('20:00');
    expect(await page.locator('input[name="end_time"]').inputValue()).toBe('08:00');

    // 30 February: said next to the date as soon as the field is left, and it cannot be added.
    await typeDate(page, 'Date', '2026-02-30');
    await page.getByLabel('Notes').click();
    await controlOf(page, dateField(page, 'Date')).getByText('Enter a date as yyyy-MM-dd').waitFor();
    expect(await page.getByRole('button', { name: 'Add date' }).isDisabled()).toBe(true);
  });

  it('says what is wrong next to the fields', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/shifts/create');
    await page.getByRole('button', { name: 'Create shifts' }).click();
    await page.getByText('Choose the client.').waitFor();
    await page.getByText('Add at least one date.').waitFor();
    expect(await page.getByText('Choose the job role.').count()).toBe(1);
  });

  it('assigns from the suggested staff in one click', { timeout: 90_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    // Soon (documents are valid), at an hour of its own, so the suggestions are people free then.
    const shift = await openShift(page, {
      dates: [inDays(20 + Math.floor(Math.random() * 20))],
      start_time: '09:15',
      end_time: '13:15',
      break_minutes: 0,
      notes: `e2e assign ${uid()}`,
    });
    await page.goto(`/shifts/${shift.id}/show`);
    // The page is titled once with the shift's own name: when (the agency's clock) and where.
    const { summary } = (await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data;
    expect(summary).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, 09:15 at .+/);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(`Shift ${summary}`);
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const first = dialog.getByTestId('suggestion').first();
    await first.waitFor();
    const name = (await first.locator('td').first().textContent())!.trim();
    await first.getByRole('button', { name: `Assign ${name}` }).click();
    // A suggestion with warnings asks an admin for the reason first.
    const check = dialog.getByTestId('assign-check');
    if (await check.isVisible().catch(() => false)) {
      await dialog.getByLabel('Reason to book despite the warnings').fill('Agreed with the manager');
      await dialog.getByRole('button', { name: `Override and assign ${name}` }).click();
    }
    await page.getByText(`${name} assigned`).waitFor();
    const after = await api(page, 'GET', `/api/shifts/${shift.id}`);
    expect(after.body.data.status).toBe('assigned');
    expect(after.body.data.candidate_name).toBe(name);
    await expect.poll(() => page.locator('.engine-show-fields').textContent()).toContain(name);
  });

  it("a shift's page has one Delete and shows only what the shift holds, at 390 and 1366 px (issue 30.19)", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const shift = await openShift(page, {
      dates: [inDays(30 + Math.floor(Math.random() * 20))],
      start_time: '10:45',
      end_time: '14:45',
      break_minutes: 0,
    });
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page.goto(`/shifts/${shift.id}/show`);
      const fields = page.locator('.engine-show-fields');
      await fields.getByText('Open', { exact: true }).first().waitFor();
      // The declared delete asks its reason; it is the page's only Delete.
      await expect.poll(() => page.getByRole('button', { name: 'Delete' }).count()).toBe(1);
      // An open shift has no staff member, cancellation or override: none of those labels, no empty value shown.
      const text = (await fields.textContent())!;
      for (const label of ['Cancelled at', 'Cancellation reason', 'Charge changed by'])
        expect(text).not.toContain(label);
      expect(await fields.getByText('—', { exact: true }).count()).toBe(0);
      // Nobody asked for it on their phone: no empty "Staff requests" section.
      expect(await page.getByRole('region', { name: 'Staff requests' }).count()).toBe(0);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(size.width);
    }
  });

  it('explains a refused booking in words and does not offer to assign', { timeout: 90_000 }, async () => {
    const { page } = e2e;
    // A laptop's short screen: the suggestions fill the dialog, and "Someone else" is below them.
    await page.setViewportSize({ width: 1366, height: 600 });
    await signInAdmin(page);
    const last = `Refused${uid()}`;
    const made = await api(page, 'POST', '/api/candidates', {
      first_name: 'Rae',
      last_name: last,
      email: `rae.${last}@e2e.test`.toLowerCase(),
    });
    expect(made.status).toBe(201);
    const shift = await openShift(page, {
      dates: [inDays(30)],
      start_time: '10:00',
      end_time: '16:00',
      break_minutes: 0,
      job_role_id: 5,
    });
    try {
      await page.goto(`/shifts/${shift.id}/show`);
      await page.getByRole('button', { name: 'Assign', exact: true }).click();
      const dialog = page.getByRole('dialog');
      const search = dialog.getByRole('combobox', { name: 'Find a staff member' });
      await search.click();
      await search.pressSequentially(last, { delay: 20 });
      await page.getByRole('option', { name: `Rae ${last}` }).click();
      const refused = dialog.getByTestId('check-error');
      await refused.waitFor();
      // The result is brought into the dialog's view, not left below its fold under the suggestions.
      await expect
        .poll(() => shownInDialog(dialog.getByRole('heading', { name: `Booking checks for Rae ${last}` })))
        .toBe(true);
      // Each failed hard check is named: a new staff member is not approved, and has no job role yet.
      expect(await refused.textContent()).toMatch(/Cannot be booked/);
      expect((await refused.locator('li').count()) >= 1).toBe(true);
      expect(await refused.textContent()).toMatch(/approved|active/i);
      expect(await dialog.getByRole('button', { name: `Assign Rae ${last}` }).isDisabled()).toBe(true);
      // And the server refuses it the same way, with its words.
      const tried = await api(page, 'POST', `/api/shifts/${shift.id}/actions/assign`, {
        candidate_id: made.body.data.id,
      });
      expect(tried.status).toBe(409);
      expect((await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data.status).toBe('open');
    } finally {
      await api(page, 'DELETE', `/api/candidates/${made.body.data.id}`);
    }
  });
});

describe("a cancelled shift's charge (issue 14.2)", () => {
  it(
    'the agency changes it from the cancelled list, by keyboard, and both panels list it as changed; a client is not offered it',
    { timeout: 120_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      const adminToken = (await page.evaluate(() => localStorage.getItem('token')))!;
      // A shift of the demo client's own (Meadowbank, whose user signs in below), cancelled free of charge.
      const meadowbank = (await api(page, 'GET', '/api/clients?q=Meadowbank')).body.data[0];
      const site = (await api(page, 'GET', `/api/sites?client_id=${meadowbank.id}`)).body.data[0];
      const shift = await openShift(page, {
        client_id: meadowbank.id,
        site_id: site.id,
        dates: [inDays(60 + Math.floor(Math.random() * 200))],
        start_time: '06:05',
        end_time: '10:05',
        break_minutes: 0,
        notes: `e2e charge ${uid()}`,
      });
      try {
        const cancelled = await api(page, 'POST', `/api/shifts/${shift.id}/actions/cancel`, {
          reason: 'e2e: home closed that day',
          requested_by: 'client',
        });
        expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
        const from = encodeURIComponent(JSON.stringify({ start_at_gte: shift.start_at }));

        // The agency's cancelled list: the row (one Tab stop, Enter opens it) leads to the shift's page.
        await page.goto(`/shift-list/deleted?filter=${from}&sort=start_at&order=ASC&page=1&perPage=25`);
        const row = page.locator('table tbody tr').first();
        await expect.poll(() => row.textContent()).toContain('06:05');
        await row.focus();
        await page.keyboard.press('Enter');
        await waitForPath(page, `/shifts/${shift.id}/show`);
        const change = page.getByRole('button', { name: 'Change cancellation charge' });
        await change.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Change cancellation charge' });
        // Pounds in, a reason, and the dialog's own button, all by keyboard.
        await dialog.getByLabel('Charge (0 waives it)').focus();
        await page.keyboard.type('25');
        await page.keyboard.press('Tab');
        await page.keyboard.type('Agreed with the manager: the agency kept the worker on');
        await dialog.getByRole('button', { name: 'Change cancellation charge' }).focus();
        await page.keyboard.press('Enter');
        await page.getByText('Cancellation charge changed').waitFor();
        const stored = (await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data;
        expect(stored).toMatchObject({
          status: 'cancelled',
          cancellation_charge: 2500,
          cancellation_charge_reason: 'Agreed with the manager: the agency kept the worker on',
        });

        await page.goto(`/shift-list/deleted?filter=${from}&sort=start_at&order=ASC&page=1&perPage=25`);
        await expect.poll(() => page.locator('table tbody tr').first().textContent()).toContain('£25.00 (changed)');

        // The client's cancelled list says the same; nothing there changes a charge.
        await page.evaluate(() => localStorage.clear());
        await signInClient(page);
        await page.goto(`/client/shift/deleted-shift?filter=${from}&sort=start_at&order=ASC&page=1&perPage=25`);
        const theirs = page.locator('table tbody tr').first();
        await expect.poll(() => theirs.textContent()).toContain('06:05');
        expect(await theirs.textContent()).toContain('£25.00 (changed)');
        expect(await page.locator('table thead th').allTextContents()).toContain('Cancellation charge');
        expect(await page.getByRole('button', { name: 'Change cancellation charge' }).count()).toBe(0);
      } finally {
        await page.evaluate(
          async ([token, id]) =>
            fetch(`/api/shifts/${id}/actions/remove`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ reason: 'e2e clean-up' }),
            }),
          [adminToken, shift.id] as const,
        );
      }
    },
  );
});
/** Whether an element inside a dialog is within the part of the dialog's scrolling content that is on screen. */
function shownInDialog(target: Locator) {
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const view = el.closest('.MuiDialogContent-root')!.getBoundingClientRect();
    return box.top >= view.top && box.bottom <= view.bottom && box.bottom <= window.innerHeight;
  });
}

function inDaysFrom(date: string, days: number) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
