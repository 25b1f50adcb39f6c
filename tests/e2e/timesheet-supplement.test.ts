import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin } from './engineHelpers';
import { workedShift, ZONE } from './timesheetHelpers';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../../core/domain/time/agencyTime';

// Issue 29.10: a late line for a client-week already sent goes on a supplement, which the week's screen names.
const e2e = useBrowser({ demo: 'current weeks' });

describe('a client-week and its supplement', () => {
  it('the week screen shows the supplement as such, beside the timesheet sent', { timeout: 180_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const week = startOfWeekMonday(addDaysToDate(agencyToday(ZONE), -7 * 47));
    const book = (day: number) => workedShift(page, addDaysToDate(week, day), 'Supplement e2e');
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
