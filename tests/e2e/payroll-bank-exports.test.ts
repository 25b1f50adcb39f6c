import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { useBrowser } from './harness';
import { api, axeProblems, payOneStaffWeek, signInAdmin, trackRequests } from './engineHelpers';

// Issue 33, output: an admin enters a staff member's bank details on their profile (refused in words next to the
// field first), sees them masked and in full; an approved pay run's page offers its three files, refuses the bank file
// in words while its staff member has no bank details, and downloads it once they do. Axe over both screens.

const e2e = useBrowser();

describe('bank details and a pay run’s files', () => {
  it('an admin enters bank details on a profile, masked, then shown in full', { timeout: 180_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await signInAdmin(page);
    const staff = (await api(page, 'GET', '/api/candidates?per_page=1&sort=id&order=ASC')).body.data[0] as {
      id: number;
    };
    const route = `/staffs/${staff.id}/overview`;
    await page.goto(route);
    const open = page.getByTestId('profile-actions').getByRole('button', { name: 'Bank details' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Bank details' });
    await dialog.getByRole('textbox', { name: 'Sort code' }).fill('12-34-5');
    await dialog.getByRole('textbox', { name: 'Account number' }).fill('1234');
    await dialog.getByRole('textbox', { name: 'Name on the account' }).fill('Ann Example');
    await dialog.getByRole('button', { name: 'Bank details' }).click();
    await dialog.getByText('Enter the sort code as 6 digits, like 12-34-56.').waitFor();
    await dialog.getByText('Enter the account number as 8 digits, like 12345678.').waitFor();
    const problems = await axeProblems(page, `${route} (bank details dialog)`, inflight);
    await dialog.getByRole('textbox', { name: 'Sort code' }).fill('12-34-56');
    await dialog.getByRole('textbox', { name: 'Account number' }).fill('12345678');
    await dialog.getByRole('button', { name: 'Bank details' }).click();
    await page.getByText('Bank details saved').waitFor();
    const masked = page.getByTestId('bank-details-masked');
    await expect.poll(() => masked.textContent()).toBe('Sort code ending 56, account ending 5678');
    await page.getByRole('button', { name: 'Show in full' }).click();
    const full = page.getByRole('region', { name: /Bank details in full/ });
    await full.getByText('12-34-56').waitFor();
    await full.getByText('12345678').waitFor();
    await full.getByText('Ann Example').waitFor();
    problems.push(...(await axeProblems(page, `${route} (shown in full)`, inflight)));
    await page.getByRole('button', { name: 'Hide' }).click();
    await full.getByText('12345678').waitFor({ state: 'hidden' });
    // The view is in their history.
    const trail = (await api(page, 'GET', `/api/audit_entries?resource=candidates&record_id=${staff.id}&per_page=100`))
      .body.data as { action: string | null }[];
    expect(trail.filter((e) => e.action === 'view_bank_details')).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it(
    'an approved run’s page exports its files, the bank file refused in words until its staff have bank details',
    {
      timeout: 180_000,
    },
    async () => {
      const { page } = e2e;
      const inflight = trackRequests(page);
      await signInAdmin(page);
      const made = await payOneStaffWeek(page, { withoutBankDetails: true });
      const paid = made.candidate_id;
      const route = `/invoice/staff-payroll/run/${made.run_id}`;
      await page.goto(route);
      const bank = page.getByRole('button', { name: 'Bank payments file (BACS)' });
      await bank.waitFor();
      // A draft has no files yet.
      expect(await bank.isDisabled()).toBe(true);
      // The payslips show the VAT paid on top (none here: a PAYE staff member) to an admin, who reads pay.
      await page.getByRole('columnheader', { name: 'VAT' }).waitFor();
      // Beside the files, the way to the self-billing agreements the self-billing export names.
      await page.getByRole('link', { name: 'Self-billing agreements' }).click();
      await page.waitForURL('**/invoice/staff-payroll/self-billing-agreements');
      await page.getByRole('columnheader', { name: 'Ends or reviewed by' }).waitFor();
      const listProblems = await axeProblems(page, '/invoice/staff-payroll/self-billing-agreements', inflight);
      await page.goto(route);
      await bank.waitFor();
      await page.getByText('Approve the run to export its files.').waitFor();
      expect((await api(page, 'POST', `/api/pay_runs/${made.run_id}/actions/approve`, {})).status).toBe(200);
      await page.reload();
      await expect.poll(() => bank.isEnabled()).toBe(true);
      // Without the staff member's bank details: refused, naming them.
      await bank.click();
      await page.getByRole('alert').filter({ hasText: 'The bank payments file was not made' }).waitFor();
      const problems = [...listProblems, ...(await axeProblems(page, `${route} (files)`, inflight))];
      expect(
        (
          await api(page, 'POST', `/api/candidates/${paid}/actions/set_bank_details`, {
            sort_code: '40-11-22',
            account_number: '87654321',
            account_name: 'Payee Example',
          })
        ).status,
      ).toBe(200);
      const [download] = await Promise.all([page.waitForEvent('download'), bank.click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^pay-run-${made.run_id}-.*-bank\\.csv$`));
      const text = (await readFile((await download.path())!)).toString('utf8');
      expect(text).toContain('"401122","87654321","PAYEE EXAMPLE"');
      const [bureau] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Payroll bureau CSV' }).click(),
      ]);
      expect((await readFile((await bureau.path())!)).toString('utf8')).toContain('Payroll ID');
      expect(problems).toEqual([]);
    },
  );
});
