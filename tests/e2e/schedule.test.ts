import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin, uid } from './engineHelpers';

// The schedule: a shift dragged to another day moves (the move action); a refused move goes back and says why;
// the staff week moves a shift to another day by dragging its chip.

// On a product of its own: it books the demo's staff, and a booking made by a file running beside it on the shared
// product could clash with one made here, or be counted in what this file checks.
const e2e = useBrowser();

const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/**
 * A Monday 13 to 23 months ahead (within the two years shifts may be planned), in a week the demo leaves empty: each
 * run its own.
 */
function farMonday() {
  const d = new Date(Date.now() + (400 + Math.floor(Math.random() * 300)) * 86_400_000);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** A Monday 3 to 8 weeks ahead: near enough that the demo staff's documents are still valid, for bookings. */
function nearMonday() {
  const d = new Date(Date.now() + (21 + Math.floor(Math.random() * 35)) * 86_400_000);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The staff the booking checks let work every one of these shifts (the suggestions), best first. */
async function bookable(page: Page, ...shiftIds: number[]) {
  const lists = await Promise.all(
    shiftIds.map(async (id) =>
      ((await api(page, 'GET', `/api/shifts/${id}/suggestions?limit=50`)).body.data as { candidate_id: number }[]).map(
        (c) => c.candidate_id,
      ),
    ),
  );
  const everywhere = lists[0].filter((c) => lists.every((l) => l.includes(c)));
  expect(everywhere.length, 'a demo staff member free for these shifts').toBeGreaterThan(0);
  return everywhere;
}

/**
 * Staff members the checks allow on the shift and on the same times on `date`, where a test moves it: a probe shift
 * there is asked for its suggestions too, then deleted. Others' random weeks may have booked the first suggestion near
 * the target day, and a move is checked there as a booking is.
 */
async function movable(page: Page, shiftId: number, date: string, times: { start_time: string; end_time: string }) {
  const probe = await openShift(page, date, times);
  try {
    const everywhere = await bookable(page, shiftId, probe.id);
    // A drag sends no override reason: whoever has a soft check at the target (hours this week, rest) is refused 422.
    const atTarget = (await api(page, 'GET', `/api/shifts/${probe.id}/suggestions?limit=50`)).body.data as {
      candidate_id: number;
      soft: unknown[];
    }[];
    const clean = everywhere.filter((c) => atTarget.some((s) => s.candidate_id === c && s.soft.length === 0));
    expect(clean.length, 'a demo staff member the move needs no reason for').toBeGreaterThan(0);
    return clean;
  } finally {
    expect((await api(page, 'DELETE', `/api/shifts/${probe.id}`, { reason: 'e2e probe' })).status).toBe(200);
  }
}

/** Books a staff member on a shift through the API (warnings overridden: an admin's reason). */
async function book(page: Page, shiftId: number, candidateId: number) {
  const booked = await api(page, 'POST', `/api/shifts/${shiftId}/actions/assign`, {
    candidate_id: candidateId,
    override_reason: 'e2e: booked to test a move',
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
}

async function openShift(
  page: Page,
  date: string,
  times: { start_time: string; end_time: string },
  extra: Record<string, unknown> = {},
) {
  const r = await api(page, 'POST', '/api/shifts/bulk', {
    client_id: 2,
    site_id: 3,
    job_role_id: 1,
    staff_needed: 1,
    dates: [date],
    break_minutes: 0,
    notes: `e2e schedule ${uid()}`,
    ...times,
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data[0] as { id: number; start_at: string; end_at: string };
}

/** Drags an element to the middle of a point, step by step as a hand does (FullCalendar follows pointer moves). */
async function dragTo(page: Page, selector: string, to: { x: number; y: number }) {
  const box = (await page.locator(selector).boundingBox())!;
  const from = { x: box.x + box.width / 2, y: box.y + Math.min(12, box.height / 2) };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 5, from.y + 5, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

describe('schedule', () => {
  it('drags a shift to another day in the week view: it moves, keeping its times', { timeout: 90_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const monday = farMonday();
    const wednesday = addDays(monday, 2);
    const shift = await openShift(page, wednesday, { start_time: '10:00', end_time: '14:00' });
    await page.goto(`/schedule?date=${monday}`);
    const event = `.fc-event[data-shift-id="${shift.id}"]`;
    await page.locator(event).waitFor();
    // Focusable, named with its state and time, and Enter opens it.
    expect(await page.locator(event).getAttribute('aria-label')).toMatch(/Open: Wed .*10:00–14:00/);

    const thursday = (await page.locator(`td.fc-timegrid-col[data-date="${addDays(monday, 3)}"]`).boundingBox())!;
    const from = (await page.locator(event).boundingBox())!;
    const moved = page.waitForResponse((r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`));
    await dragTo(page, event, { x: thursday.x + thursday.width / 2, y: from.y + Math.min(12, from.height / 2) });
    expect((await moved).status()).toBe(200);

    const after = (await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data;
    expect(Date.parse(after.start_at) - Date.parse(shift.start_at)).toBe(86_400_000);
    expect(Date.parse(after.end_at) - Date.parse(after.start_at)).toBe(4 * 3_600_000);
    await page.getByText('Shift moved').waitFor();

    // Enter on the focused event opens it: open, assign or cancel from there.
    await page.locator(event).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Assign' }).waitFor();
    await dialog.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL((u) => u.pathname === `/shifts/${shift.id}/show`);
  });

  it('puts a refused move back and says why', { timeout: 90_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const monday = farMonday();
    const shift = await openShift(page, addDays(monday, 1), { start_time: '09:00', end_time: '12:00' });
    await page.goto(`/schedule?date=${monday}`);
    const event = `.fc-event[data-shift-id="${shift.id}"]`;
    await page.locator(event).waitFor();
    // Cancelled meanwhile (say, by a colleague): the move is refused and the event goes back where it was.
    expect((await api(page, 'POST', `/api/shifts/${shift.id}/actions/cancel`, { reason: 'Not needed' })).status).toBe(
      200,
    );
    const before = (await page.locator(event).boundingBox())!;
    const target = (await page.locator(`td.fc-timegrid-col[data-date="${addDays(monday, 2)}"]`).boundingBox())!;
    const refused = page.waitForResponse((r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`));
    await dragTo(page, event, { x: target.x + target.width / 2, y: before.y + Math.min(12, before.height / 2) });
    expect((await refused).status()).toBeGreaterThanOrEqual(400);
    await page
      .getByRole('alert')
      .filter({ hasText: /cancelled|open or assigned/i })
      .first()
      .waitFor();
    const back = (await page.locator(event).boundingBox())!;
    expect(Math.abs(back.x - before.x)).toBeLessThan(2);
    expect((await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data.start_at).toBe(shift.start_at);
  });

  it('moves a shift to another day on the staff week', { timeout: 90_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const monday = farMonday();
    const shift = await openShift(page, addDays(monday, 4), { start_time: '20:00', end_time: '08:00' });
    await page.goto(`/schedule?date=${monday}`);
    await page.getByRole('button', { name: 'Staff week' }).click();
    const chip = page.locator(`[data-testid="staff-week"] [data-shift-id="${shift.id}"]`);
    await chip.waitFor();
    expect(await chip.getAttribute('aria-label')).toMatch(/^Open: 20:00–08:00/);
    const moved = page.waitForResponse((r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`));
    await chip.dragTo(page.locator(`[data-staff-row="open"] td[data-date="${addDays(monday, 5)}"]`));
    expect((await moved).status()).toBe(200);
    const after = (await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data;
    expect(Date.parse(after.start_at) - Date.parse(shift.start_at)).toBe(86_400_000);
    await page
      .locator(`[data-staff-row="open"] td[data-date="${addDays(monday, 5)}"] [data-shift-id="${shift.id}"]`)
      .waitFor();
  });

  it(
    'keeps its date, layout and filters in the address: a reload and Calendar → Staff week keep them',
    { timeout: 90_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      const monday = farMonday();
      await page.goto(`/schedule?date=${addDays(monday, 2)}`);
      await page.locator('[data-testid="schedule-calendar"][data-ready="true"]').waitFor();
      // The next week: the address follows.
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL((u) => u.searchParams.get('date') === addDays(monday, 7));
      // A filter is in the address too.
      await page.goto(`/schedule?date=${addDays(monday, 7)}&client_id=2`);
      await page.locator('[data-testid="schedule-calendar"][data-ready="true"]').waitFor();
      const asked = page.waitForRequest(
        (r) => r.url().includes('/api/schedule?') && new URL(r.url()).searchParams.get('client_id') === '2',
      );
      await page.reload();
      await asked;
      expect(new URL(page.url()).searchParams.get('date')).toBe(addDays(monday, 7));
      // Calendar → Staff week stays on the week shown, not this week.
      await page.getByRole('button', { name: 'Staff week' }).click();
      await page.waitForURL((u) => u.searchParams.get('view') === 'staff');
      await page
        .locator(`[data-testid="staff-week"] [data-date="${addDays(monday, 8)}"]`)
        .first()
        .waitFor();
      await page.reload();
      await page
        .locator(`[data-testid="staff-week"] [data-date="${addDays(monday, 8)}"]`)
        .first()
        .waitFor();
      expect(new URL(page.url()).searchParams.get('client_id')).toBe('2');
    },
  );

  it(
    'asks before a drag moves a booked shift; keeping it leaves the shift where it was',
    { timeout: 90_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      const monday = nearMonday();
      const times = { start_time: '04:10', end_time: '06:40' };
      const shift = await openShift(page, addDays(monday, 1), times);
      await book(page, shift.id, (await movable(page, shift.id, addDays(monday, 2), times))[0]);
      await page.goto(`/schedule?date=${monday}&client_id=2`);
      const event = `.fc-event[data-shift-id="${shift.id}"]`;
      await page.locator(event).waitFor();
      const before = (await page.locator(event).boundingBox())!;
      const target = (await page.locator(`td.fc-timegrid-col[data-date="${addDays(monday, 2)}"]`).boundingBox())!;
      let moves = 0;
      page.on('request', (r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`) && moves++);
      await dragTo(page, event, { x: target.x + target.width / 2, y: before.y + Math.min(12, before.height / 2) });
      const confirm = page.getByRole('dialog', { name: 'Move a booked shift?' });
      await confirm.waitFor();
      await confirm.getByRole('button', { name: 'Keep it where it was' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await expect.poll(async () => Math.abs((await page.locator(event).boundingBox())!.x - before.x)).toBeLessThan(2);
      expect(moves).toBe(0);
      // Confirmed, it moves.
      const moved = page.waitForResponse((r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`));
      await dragTo(page, event, { x: target.x + target.width / 2, y: before.y + Math.min(12, before.height / 2) });
      await confirm.getByRole('button', { name: 'Move the shift' }).click();
      expect((await moved).status()).toBe(200);
    },
  );
});

describe('schedule: booked shifts (issue 14, item 17)', () => {
  it(
    'the staff week asks before a drag moves a booked shift, as the calendar does; keeping it leaves it where it was',
    { timeout: 90_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      const monday = nearMonday();
      const times = { start_time: '04:20', end_time: '06:50' };
      const shift = await openShift(page, addDays(monday, 1), times);
      const who = (await movable(page, shift.id, addDays(monday, 2), times))[0];
      await book(page, shift.id, who);
      // Their row alone (the staff filter), as a coordinator looks at one person's week.
      await page.goto(`/schedule?date=${monday}&view=staff&candidate_id=${who}`);
      const chip = page.locator(`[data-testid="staff-week"] [data-shift-id="${shift.id}"]`);
      await chip.waitFor();
      let moves = 0;
      page.on('request', (r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`) && moves++);
      const target = page.locator(`[data-staff-row="${who}"] td[data-date="${addDays(monday, 2)}"]`);
      await chip.dragTo(target);
      const confirm = page.getByRole('dialog', { name: 'Move a booked shift?' });
      await confirm.waitFor();
      // It says who is booked, from when to when, and that they and the client are told.
      expect(await confirm.textContent()).toMatch(
        /is booked for .*04:20–06:50\. Move the shift to .*04:20–06:50\? .* and the client are told\./,
      );
      await confirm.getByRole('button', { name: 'Keep it where it was' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect(moves).toBe(0);
      await page
        .locator(`[data-staff-row="${who}"] td[data-date="${addDays(monday, 1)}"] [data-shift-id="${shift.id}"]`)
        .waitFor();

      // Confirmed, it moves a day on, still booked.
      const moved = page.waitForResponse((r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`));
      await chip.dragTo(target);
      await confirm.getByRole('button', { name: 'Move the shift' }).click();
      expect((await moved).status()).toBe(200);
      await page
        .locator(`[data-staff-row="${who}"] td[data-date="${addDays(monday, 2)}"] [data-shift-id="${shift.id}"]`)
        .waitFor();
      const after = (await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data;
      expect(Date.parse(after.start_at) - Date.parse(shift.start_at)).toBe(86_400_000);
      expect(after).toMatchObject({ status: 'assigned', candidate_id: who });
    },
  );

  it(
    'a move refused for a clash the client filter hides says so, and offers to open that booking or clear the filter',
    { timeout: 90_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      const monday = nearMonday();
      const sites = (await api(page, 'GET', '/api/sites?per_page=100')).body.data as {
        id: number;
        client_id: number;
      }[];
      const elsewhere = sites.find((s) => s.client_id !== 2)!;
      // One staff member works Tuesday 04:30–07:00 at another client, and Monday at client 2.
      const hidden = await openShift(
        page,
        addDays(monday, 1),
        { start_time: '04:30', end_time: '07:00' },
        { client_id: elsewhere.client_id, site_id: elsewhere.id },
      );
      const shift = await openShift(page, monday, { start_time: '04:30', end_time: '07:00' });
      const who = (await bookable(page, hidden.id, shift.id))[0];
      await book(page, hidden.id, who);
      await book(page, shift.id, who);
      await page.goto(`/schedule?date=${monday}&client_id=2`);
      const event = `.fc-event[data-shift-id="${shift.id}"]`;
      await page.locator(event).waitFor();
      expect(await page.locator(`.fc-event[data-shift-id="${hidden.id}"]`).count()).toBe(0);

      // Dragged onto Tuesday, where the other client's booking is: confirmed, then refused.
      const before = (await page.locator(event).boundingBox())!;
      const tuesday = (await page.locator(`td.fc-timegrid-col[data-date="${addDays(monday, 1)}"]`).boundingBox())!;
      await dragTo(page, event, { x: tuesday.x + tuesday.width / 2, y: before.y + Math.min(12, before.height / 2) });
      const refused = page.waitForResponse((r) => r.url().endsWith(`/api/shifts/${shift.id}/actions/move`));
      await page
        .getByRole('dialog', { name: 'Move a booked shift?' })
        .getByRole('button', { name: 'Move the shift' })
        .click();
      expect((await refused).status()).toBe(409);
      const alert = page.getByRole('alert').filter({ hasText: 'the filters hide it' });
      expect(await alert.textContent()).toMatch(/already booked/);
      await alert.getByText('The booking it clashes with is not shown here: the filters hide it.').waitFor();
      expect(await alert.getByRole('link', { name: 'Open that booking' }).getAttribute('href')).toBe(
        `/shifts/${hidden.id}/show`,
      );

      // Clearing the filter shows it, on the same week.
      await alert.getByRole('button', { name: 'Clear the filters' }).click();
      await page.waitForURL((u) => !u.searchParams.has('client_id') && u.searchParams.get('date') === monday);
      await page.locator(`.fc-event[data-shift-id="${hidden.id}"]`).waitFor();
      expect((await api(page, 'GET', `/api/shifts/${shift.id}`)).body.data.start_at).toBe(shift.start_at);

      // "Open that booking" opens it.
      await page.goto(`/schedule?date=${monday}&client_id=2`);
      await page.locator(event).waitFor();
      await dragTo(page, event, { x: tuesday.x + tuesday.width / 2, y: before.y + Math.min(12, before.height / 2) });
      await page
        .getByRole('dialog', { name: 'Move a booked shift?' })
        .getByRole('button', { name: 'Move the shift' })
        .click();
      await page.getByRole('alert').getByRole('link', { name: 'Open that booking' }).click();
      await page.waitForURL((u) => u.pathname === `/shifts/${hidden.id}/show`);
    },
  );
});
