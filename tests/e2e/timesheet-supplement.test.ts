import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin } from './engineHelpers';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';

// Issue 29.10: a late line for a client-week already sent goes on a supplement, which the week's screen names.
const e2e = useBrowser();
const ZONE = 'Europe/London';

describe('a client-week and its supplement', () => {
  it('the week screen shows the supplement as such, beside the timesheet sent', { timeout: 180_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const clients = await api(page, 'GET', '/api/clients?q=Meadowbank&per_page=5');
    const client = clients.body.data.find((c: { name: string }) => c.name.startsWith('Meadowbank'));
    const site = (await api(page, 'GET', `/api/sites?client_id=${client.id}&per_page=1`)).body.data[0];
    const role = (await api(page, 'GET', '/api/job_roles?per_page=1')).body.data[0];
    const week = startOfWeekMonday(addDaysToDate(agencyToday(ZONE), -7 * 47));
    const book = async (day: number) => {
      const date = addDaysToDate(week, day);
      const shift = await api(page, 'POST', '/api/shifts', {
        client_id: client.id,
        site_id: site.id,
        job_role_id: role.id,
        start_at: zonedDateTimeToInstant(date, '08:00', ZONE).toISOString(),
        end_at: zonedDateTimeToInstant(date, '16:00', ZONE).toISOString(),
      });
      expect(shift.status, JSON.stringify(shift.body)).toBe(201);
      const who = (await api(page, 'GET', `/api/shifts/${shift.body.data.id}/suggestions?limit=1`)).body.data[0];
      const assigned = await api(page, 'POST', `/api/shifts/${shift.body.data.id}/actions/assign`, {
        candidate_id: who.candidate_id,
      });
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    };
    await book(0);
    const first = (await api(page, 'POST', '/api/timesheets/actions/generate', { week_start: week })).body.data
      .timesheets[0];
    expect((await api(page, 'POST', `/api/timesheets/${first}/actions/submit`, {})).status).toBe(200);
    const number = (await api(page, 'GET', `/api/timesheets/${first}`)).body.data.number as string;
    // A shift of that week worked and generated after the week was sent.
    await book(2);
    const late = await api(page, 'POST', '/api/timesheets/actions/generate', { week_start: week });
    const supplement = late.body.data.timesheets[0];
    expect(supplement).not.toBe(first);

    await page.goto(`/timesheet/weekly?week=${week}`);
    await page.getByText(`Supplement to ${number}`).waitFor();
    const rows = page.getByRole('row').filter({ hasText: 'Meadowbank' });
    expect(await rows.count()).toBe(2);
  });
});
