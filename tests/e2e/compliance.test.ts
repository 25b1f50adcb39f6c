import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, chooseReference, signInAdmin, typeDate, uid, waitForPath } from './engineHelpers';
import { agencyToday, formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime';

// Staff compliance screens: the availability week grid, worked by keyboard, the document report, and a new
// restriction's offer to unassign the bookings it covers. On a product of its own: that offer lists every booking of
// the staff member at the site, and a file running beside this one books the demo's staff there too.

const e2e = useBrowser();

describe('availability week grid', () => {
  it('keeps its week and search in the address (a reload keeps them); "Copy this week" stays on one line', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Weektest${uid()}`;
    const made = await api(page, 'POST', '/api/candidates', {
      first_name: 'Lee',
      last_name: last,
      email: `lee.${last}@e2e.test`.toLowerCase(),
    });
    expect(made.status).toBe(201);
    try {
      await page.goto('/staff/availability');
      await page.getByRole('searchbox', { name: 'Search staff' }).fill(last);
      await page.waitForURL((u) => u.searchParams.get('q') === last);
      const heading = page.getByRole('heading', { name: /^Week of / });
      const thisWeek = (await heading.textContent())!;
      await page.getByRole('button', { name: 'Next week', exact: true }).click();
      await expect.poll(() => heading.textContent()).not.toBe(thisWeek);
      const nextWeek = (await heading.textContent())!;
      await page.waitForURL((u) => /^\d{4}-\d\d-\d\d$/.test(u.searchParams.get('week') ?? ''));

      await page.reload();
      await expect.poll(() => page.getByRole('searchbox', { name: 'Search staff' }).inputValue()).toBe(last);
      await expect.poll(() => heading.textContent()).toBe(nextWeek);
      const grid = page.getByRole('grid');
      await grid.getByRole('row').filter({ hasText: last }).waitFor();
      expect(await grid.getByRole('row').count()).toBe(2); // the header and Lee: the search is applied

      // The button is one line of text at every width, its row wrapping instead (five lines of one word before).
      const copy = page.getByRole('button', { name: 'Copy this week to next week' });
      for (const width of [1366, 1100, 960, 700]) {
        await page.setViewportSize({ width, height: 900 });
        await expect
          .poll(async () => (await copy.boundingBox())!.height, { message: `at ${width} px` })
          .toBeLessThan(45);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          `at ${width} px`,
        ).toBeLessThanOrEqual(0);
      }
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
      await api(page, 'DELETE', `/api/candidates/${made.body.data.id}`);
    }
  });

  it('sets a week of availability by keyboard, saved at once and kept after a reload', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Gridtest${uid()}`;
    const made = await api(page, 'POST', '/api/candidates', {
      first_name: 'Kay',
      last_name: last,
      email: `kay.${last}@e2e.test`.toLowerCase(),
    });
    expect(made.status).toBe(201);
    const staffId = made.body.data.id;
    try {
      await page.goto('/staff/availability');
      await page.getByRole('searchbox', { name: 'Search staff' }).fill(last);
      const grid = page.getByRole('grid');
      const row = grid.getByRole('row').filter({ hasText: last });
      await expect.poll(() => grid.getByRole('row').count()).toBe(2); // the header and Kay
      await row.getByRole('link', { name: `Kay ${last}` }).waitFor();

      // Monday: Enter once → Available. Then, moving right by arrow key, each day one press further on.
      const monday = row.getByRole('gridcell').first();
      await monday.focus();
      const presses = [1, 2, 3, 4, 5, 1, 0]; // available, day, night, long day, unavailable, available, not set
      for (const [i, n] of presses.entries()) {
        for (let k = 0; k < n; k++) await page.keyboard.press(k % 2 ? 'Space' : 'Enter');
        if (i < 6) await page.keyboard.press('ArrowRight');
      }
      // Sunday: set, then cleared with Delete.
      await page.keyboard.press('Enter');
      await page.keyboard.press('Delete');

      const expected = ['Available', 'Day', 'Night', 'Long day', 'Unavailable', 'Available', 'Not set'];
      const cells = row.getByRole('gridcell');
      for (const [i, text] of expected.entries())
        await expect.poll(() => cells.nth(i).getAttribute('aria-label')).toMatch(new RegExp(`: ${text}$`));
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: 15_000 }).toBe('Saved');
      // The focus stayed in the grid, on Sunday (one tab stop: roving tabindex).
      expect(await cells.nth(6).getAttribute('tabindex')).toBe('0');
      expect(await cells.nth(0).getAttribute('tabindex')).toBe('-1');

      await page.reload();
      await page.getByRole('searchbox', { name: 'Search staff' }).fill(last);
      const again = page.getByRole('grid').getByRole('row').filter({ hasText: last }).getByRole('gridcell');
      for (const [i, text] of expected.entries())
        await expect.poll(() => again.nth(i).getAttribute('aria-label')).toMatch(new RegExp(`: ${text}$`));

      const week = await api(page, 'GET', `/api/staff_availability?q=${last}`);
      const statuses = week.body.dates.map((d: string) => week.body.data[0].days[d]?.status ?? null);
      expect(statuses).toEqual(['available', 'day', 'night', 'long_day', 'unavailable', 'available', null]);
    } finally {
      const week = await api(page, 'GET', `/api/staff_availability?q=${last}`);
      for (const d of Object.values(week.body.data?.[0]?.days ?? {}) as ({ id: number } | null)[])
        if (d) await api(page, 'DELETE', `/api/availability/${d.id}`);
      await api(page, 'DELETE', `/api/candidates/${staffId}`);
    }
  });
});

describe('document report', () => {
  it('opens on All, and its Due tab lists a demo document due in 10 days', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await page.goto('/report/DocumentReport');
    await waitForPath(page, '/report/DocumentReport/AllDoc');

    const due = await api(page, 'GET', '/api/candidate_documents?tab=DueDoc&per_page=100');
    const tenDays = due.body.data.find((d: any) => d.days_left === 10);
    expect(tenDays).toBeTruthy();

    await page.goto('/report/DocumentReport/DueDoc');
    const main = page.locator('#main-content');
    const row = main.locator('table tbody tr', { hasText: tenDays.number });
    await row.waitFor();
    await row.getByText('10', { exact: true }).waitFor();
    await row.getByText('Due', { exact: true }).waitFor();
  });
});

describe('a new restriction and the bookings it covers (issue 14.7)', () => {
  it(
    'lists the booked shifts it covers and unassigns them on request, at phone width and by keyboard',
    { timeout: 120_000 },
    async () => {
      const { page } = e2e;
      await page.setViewportSize({ width: 390, height: 844 });
      await signInAdmin(page);
      // A booking made for this test at Oakwood Lodge's main building, soon (documents valid), at an hour of its own,
      // of a suggested staff member with no other booking there to come (the restriction covers this one alone).
      const day = new Date(Date.now() + (20 + Math.floor(Math.random() * 20)) * 86_400_000).toISOString().slice(0, 10);
      const made = await api(page, 'POST', '/api/shifts/bulk', {
        client_id: 2,
        site_id: 3,
        job_role_id: 1,
        staff_needed: 1,
        dates: [day],
        start_time: '05:35',
        end_time: '09:35',
        break_minutes: 0,
        notes: `e2e restriction ${uid()}`,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const shift = made.body.data[0];
      const suggested = (await api(page, 'GET', `/api/shifts/${shift.id}/suggestions?limit=20`)).body.data as {
        candidate_id: number;
        name: string;
      }[];
      let who: { candidate_id: number; name: string } | undefined;
      for (const s of suggested) {
        const theirs = await api(
          page,
          'GET',
          `/api/shifts?candidate_id=${s.candidate_id}&site_id=3&state=assigned&start_at_gte=${new Date().toISOString()}&per_page=1`,
        );
        if (theirs.body.total_count === 0) {
          who = s;
          break;
        }
      }
      expect(who, 'a suggested staff member with no booking to come at the site').toBeTruthy();
      const { candidate_id: staffId, name } = who!;
      const booked = await api(page, 'POST', `/api/shifts/${shift.id}/actions/assign`, {
        candidate_id: staffId,
        override_reason: 'e2e: booked to test a new restriction',
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      let restrictionId: number | undefined;
      try {
        await page.goto(`/staffs/${staffId}/restricted`);
        await page.getByRole('button', { name: 'Add restriction' }).click();
        const form = page.getByRole('dialog', { name: 'Add restriction' });
        await chooseReference(form, page, 'Client', 'Oakw', 'Oakwood Lodge');
        await chooseReference(form, page, 'Site (leave empty for every site)', 'Main', 'Oakwood Lodge – Main Building');
        await typeDate(page, form.getByRole('group', { name: 'Date' }), agencyToday('Europe/London'));
        const reason = `Complaint from the home ${uid()}`;
        await form.getByLabel('Reason').fill(reason);
        await form.getByRole('button', { name: 'Save' }).click();

        // The offer: each covered booking by date, time and site (this test's among them), to unassign or keep.
        const offer = page.getByRole('dialog', { name: 'This restriction covers 1 booked shift' });
        await offer.waitFor();
        const start = instantToZoned(new Date(shift.start_at), 'Europe/London');
        const items = offer.getByRole('list', { name: 'Booked shifts the restriction covers' }).getByRole('listitem');
        expect(await items.allTextContents()).toEqual([
          expect.stringMatching(
            new RegExp(`${formatDisplayDate(start.date)}, 05:35–09:35Oakwood Lodge – Main Building$`),
          ),
        ]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        expect(await offer.getByRole('button', { name: 'Keep it' }).isEnabled()).toBe(true);
        await offer.getByRole('button', { name: 'Unassign this shift' }).focus();
        await page.keyboard.press('Enter');
        await page.getByText(`1 shift unassigned; ${name} has been told.`).waitFor();
        await offer.waitFor({ state: 'hidden' });
        await page.getByText('None', { exact: true }).waitFor();

        const after = (await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data;
        expect(after).toMatchObject({ status: 'open', candidate_id: null });
        const saved = (
          await api(page, 'GET', `/api/candidate_restrictions?candidate_id=${staffId}&per_page=100`)
        ).body.data.find((r: any) => r.reason === reason);
        restrictionId = saved.id;
        expect(saved.affected_shifts).toEqual([]);
      } finally {
        // Leave the staff member bookable at Oakwood Lodge for the other tests.
        restrictionId ??= (
          await api(page, 'GET', `/api/candidate_restrictions?candidate_id=${staffId}&per_page=100`)
        ).body.data.find((r: any) => r.reason.startsWith('Complaint from the home '))?.id;
        if (restrictionId) await api(page, 'DELETE', `/api/candidate_restrictions/${restrictionId}`);
        const now = (await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data;
        if (now.status === 'assigned') await api(page, 'POST', `/api/shifts/${shift.id}/actions/unassign`, {});
        await api(page, 'POST', `/api/shifts/${shift.id}/actions/remove`, { reason: 'e2e clean-up' });
      }
    },
  );
});
