import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, axeProblems, payOneStaffWeek, signInAdmin, trackRequests } from './engineHelpers';

// An adjustment in a draft pay run (issue 33): /invoice/StaffPayrollViewEdit/{id} adds a one-off addition with its
// reason through the payslip's Add an adjustment dialog; the payslip's gross and its run's totals follow; axe over the
// screen and the dialog.

const e2e = useBrowser();

describe('a draft pay run’s payslip', () => {
  it('takes a one-off addition with its reason, and its gross and its run’s follow', { timeout: 180_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    // A week of the demo's payable hours not yet paid, for one staff member: their draft run.
    const made = await payOneStaffWeek(page);
    const slipId = made.payslips[0];
    const before = (await api(page, 'GET', `/api/payslips/${slipId}`)).body.data;

    const route = `/invoice/StaffPayrollViewEdit/${slipId}`;
    await page.goto(route);
    const add = page.getByRole('button', { name: 'Add an adjustment' });
    await add.waitFor();
    const problems = await axeProblems(page, route, inflight);
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Add an adjustment' });
    await dialog.getByRole('combobox', { name: 'Adjustment', exact: true }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Addition to gross pay' }).click();
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await dialog.getByRole('spinbutton', { name: 'Amount' }).fill('25');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Mileage for the Tuesday visit');
    problems.push(...(await axeProblems(page, `${route} (dialog)`, inflight)));
    await dialog.getByRole('button', { name: 'Add an adjustment' }).click();
    await page.getByText('Adjustment added').waitFor();
    await page.getByText('Mileage for the Tuesday visit').first().waitFor();

    const after = (await api(page, 'GET', `/api/payslips/${slipId}`)).body.data;
    expect(after.gross).toBe(before.gross + 2_500);
    const run = (await api(page, 'GET', `/api/pay_runs/${made.run_id}`)).body.data;
    expect(run.gross).toBe(after.gross);
    expect(problems).toEqual([]);
  });
});
