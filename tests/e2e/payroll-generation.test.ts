import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, dateField, signInAdmin, waitForPath } from './engineHelpers';
import { nextWeek, workedShift } from './timesheetHelpers';
import { addDaysToDate } from '../../core/domain/time/agencyTime';

// Issue 33: a weekly pay run made from the screen: the period chosen with the date picker (snapped to its Monday),
// previewed with each staff member's hours, gross and net, created as a run whose job shows its progress, then the
// run's page with its payslips. axe over the new screens, on a phone's width too.
const e2e = useBrowser();

async function serious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = (await page.evaluate(() =>
    (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    }),
  )) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Types a date into a plain date picker (its calendar opens from its button only), part by part as a user does. */
async function typePlainDate(page: Page, label: string, date: string) {
  const parts = dateField(page, label).getByRole('spinbutton');
  await parts.first().click();
  for (const [i, digits] of date.split('-').entries()) {
    await expect.poll(() => parts.nth(i).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(digits, { delay: 20 });
  }
}

describe('a weekly pay run', () => {
  it('previews, creates with a progress bar and shows the run and its payslips', { timeout: 240_000 }, async () => {
    const { page } = e2e;
    await signInAdmin(page);
    // A verified line on the Wednesday of a week of its own.
    const week = nextWeek();
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
    await typePlainDate(page, 'From', addDaysToDate(week, 2));
    const sunday = addDaysToDate(week, 6);
    await page.getByText(`From Monday ${week}`).waitFor();
    const typed = (label: string) =>
      dateField(page, label)
        .getByRole('spinbutton')
        .allTextContents()
        .then((parts) => parts.join('-'));
    await expect.poll(() => typed('To')).toBe(sunday);

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
    expect(await serious(page)).toEqual([]);

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
    expect(await serious(page)).toEqual([]);

    // One staff member's screen from their profile; the same screens at a phone's width pass axe too.
    await page.goto(`/staffs/${candidateId}/overview`);
    await page.getByRole('link', { name: 'Pay run' }).click();
    await waitForPath(page, `/invoice/staff-payroll/GenerateSingleStaff/${candidateId}`);
    await page.getByText(`A run for ${name} alone`).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await serious(page)).toEqual([]);
    await page.goto('/invoice/staff-payroll/GenerateStaff');
    await page.getByRole('button', { name: 'Preview' }).waitFor();
    expect(await serious(page)).toEqual([]);
  });
});
