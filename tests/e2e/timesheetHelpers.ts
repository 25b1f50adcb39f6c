// What the timesheet browser tests share: Meadowbank's worked shifts in weeks of their own, a submitted timesheet,
// a drawn signature.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { api, uid } from './engineHelpers';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';

export const ZONE = 'Europe/London';

/**
 * Each test works in a week of its own, far enough back to hold nothing of the demo's current weeks: the files that
 * book these weeks run on the demo without its year of history (`useBrowser({ demo: 'current weeks' })`).
 */
let weeksBack = 30 + Math.floor(Math.random() * 10);
export const nextWeek = () => startOfWeekMonday(addDaysToDate(agencyToday(ZONE), -7 * weeksBack++));

export const instant = (date: string, time: string) => zonedDateTimeToInstant(date, time, ZONE).toISOString();

/** Meadowbank (client@demo.test's client), one of its sites and a job role. */
export async function meadowbank(page: Page) {
  const clients = await api(page, 'GET', '/api/clients?q=Meadowbank&per_page=5');
  const client = clients.body.data.find((c: { name: string }) => c.name.startsWith('Meadowbank'));
  const sites = await api(page, 'GET', `/api/sites?client_id=${client.id}&per_page=1`);
  const roles = await api(page, 'GET', '/api/job_roles?per_page=1');
  return { client: client.id as number, site: sites.body.data[0].id as number, role: roles.body.data[0].id as number };
}

/** A shift at Meadowbank on `date`, booked for the first staff member who passes the checks (as the agency admin). */
export async function workedShift(page: Page, date: string, note: string, candidateId?: number) {
  const m = await meadowbank(page);
  const made = await api(page, 'POST', '/api/shifts', {
    client_id: m.client,
    site_id: m.site,
    job_role_id: m.role,
    start_at: instant(date, '08:00'),
    end_at: instant(date, '16:00'),
    notes: note,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.data.id as number;
  let who = candidateId;
  if (!who) {
    const suggestions = await api(page, 'GET', `/api/shifts/${id}/suggestions?limit=5`);
    who = suggestions.body.data[0].candidate_id;
  }
  const booked = await api(page, 'POST', `/api/shifts/${id}/actions/assign`, { candidate_id: who });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  return id;
}

/** A week's timesheet for Meadowbank, generated and submitted through the API (for the client's tests). */
export async function submittedTimesheet(page: Page, lines = 1) {
  const week = nextWeek();
  for (let i = 0; i < lines; i++) await workedShift(page, addDaysToDate(week, i), `TS e2e ${uid()}`);
  const generated = await api(page, 'POST', '/api/timesheets/actions/generate', { week_start: week });
  expect(generated.status, JSON.stringify(generated.body)).toBe(200);
  const id = generated.body.data.timesheets[0] as number;
  const submitted = await api(page, 'POST', `/api/timesheets/${id}/actions/submit`, {});
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  return { id, number: submitted.body.data.number as string };
}

/** Draws a stroke across the signature pad with the mouse (a finger on a phone). */
export async function drawSignature(page: Page) {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(box.x + 20 + i * 15, box.y + box.height / 2 + (i % 2 ? -25 : 25), { steps: 3 });
  await page.mouse.up();
  await page.getByText('Signed. Clear it to sign again.').waitFor();
}
