import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, axeProblems, chooseRunWeek, signInAdmin, trackRequests, waitForPath } from './engineHelpers';
import { nextWeek, workedShift } from './timesheetHelpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';
import { taxPeriodOf } from '../../core/domain/payroll/periods';

// Issue 33: a weekly pay run made from the screen: the period chosen with the date picker (snapped to its Monday),
// previewed with each staff member's hours, gross and net, created as a run whose job shows its progress, then the
// run's page with its payslips. axe over the new screens, on a phone's width too.
const e2e = useBrowser({ demo: 'current weeks' });

describe('a weekly pay run', () => {
  it('previews, creates with a progress bar and shows the run and its payslips', { timeout: 240_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    // A verified line on the Wednesday of a week of its own, one the product has tax figures for (a pay day in a tax
    // year without them is refused in words).
    let week = nextWeek();
    while ('error' in taxPeriodOf(addDaysToDate(week, 6), 'weekly')) week = nextWeek();
    const shift = await workedShift(page, addDaysToDate(week, 2), 'Pay run e2e');
    const generated = await api(page, 'POST', '/api/timesheets/actions/generate', { week_start: week });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    for (const id of generated.body.data.timesheets as number[]) {
      const verified = await api(page, 'POST', `/api/timesheets/${id}/actions/verify`, {
        reason: 'Pay run e2e',
        all_lines: 1,
      });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    }
    const candidateId = (await api(page, 'GET', `/api/shifts/${shift}`)).body.data.candidate_id as number;
    const who = (await api(page, 'GET', `/api/candidates/${candidateId}`)).body.data;
    const name = `${who.first_name} ${who.last_name}`;

    // From the runs' list to the screen.
    await page.goto('/invoice/staff-payroll');
    await page.getByRole('link', { name: 'New pay run' }).click();
    await waitForPath(page, '/invoice/staff-payroll/GenerateStaff');
    // The Wednesday is typed; a week's run starts on its Monday (said under the field) and ends on its Sunday.
    const sunday = await chooseRunWeek(page, week);

    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('table', { name: 'Preview' });
    await preview.getByRole('rowheader', { name: new RegExp(`^${name}`) }).waitFor();
    const asked = await api(page, 'POST', '/api/pay_runs/actions/generate', {
      frequency: 'weekly',
      from: week,
      to: sunday,
      preview: true,
    });
    const slips = asked.body.data.payslips as { candidate_id: number; gross: number }[];
    await page
      .getByText(new RegExp(`^${slips.length === 1 ? 'One payslip' : `${slips.length} payslips`} would be made`))
      .waitFor();
    expect(await axeProblems(page, 'GenerateStaff (preview)', inflight)).toEqual([]);

    await page.getByRole('button', { name: 'Create the pay run' }).click();
    await page.getByRole('progressbar', { name: 'Staff paid' }).first().waitFor();
    await page.getByText('The payslips are made').waitFor({ timeout: 60_000 });
    await page.getByText(`${slips.length} of ${slips.length}`).waitFor();
    await page.getByRole('link', { name: /^Open pay run \d+$/ }).click();
    await waitForPath(page, /^\/invoice\/staff-payroll\/run\/\d+$/);
    const runId = Number(page.url().split('/').pop());
    const run = (await api(page, 'GET', `/api/pay_runs/${runId}`)).body.data;
    expect(run).toMatchObject({
      state: 'draft',
      progress: 'done',
      period_start: week,
      period_end: sunday,
      staff_count: slips.length,
      gross: slips.reduce((n, s) => n + s.gross, 0),
    });
    const mine = await api(page, 'GET', `/api/payslips?pay_run_id=${runId}&candidate_id=${candidateId}`);
    expect(mine.body.data).toHaveLength(1);
    await page.getByText(name).first().waitFor();
    expect(await axeProblems(page, 'pay run', inflight)).toEqual([]);

    // One staff member's screen from their profile; the same screens at a phone's width pass axe too.
    await page.goto(`/staffs/${candidateId}/overview`);
    await page.getByRole('link', { name: 'Pay run' }).click();
    await waitForPath(page, `/invoice/staff-payroll/GenerateSingleStaff/${candidateId}`);
    await page.getByText(`A run for ${name} alone`).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await axeProblems(page, 'GenerateSingleStaff (390 px)', inflight)).toEqual([]);
    await page.goto('/invoice/staff-payroll/GenerateStaff');
    await page.getByRole('button', { name: 'Preview' }).waitFor();
    expect(await axeProblems(page, 'GenerateStaff (390 px)', inflight)).toEqual([]);
  });
});
