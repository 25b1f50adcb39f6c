import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, axeProblems, signInAdmin, trackRequests, waitForPath } from './engineHelpers';
import { addDaysToDate, startOfWeekMonday } from '../../core/domain/time/agencyTime';
import { formatPounds } from '../../core/engine/money';
import { pdfTextOf } from '../pdfText';

// Issue 33: a pay run finalised from its page (Approve, then Finalise), its payslip's screen, the payslip e-mailed to
// the staff member; then the staff member opens it on a phone-sized page (/staff-app/payslips), reads it without
// downloading, and downloads the kept PDF, which says what the page says. axe over each screen.
const e2e = useBrowser({ mailServer: true });

const PHONE = { width: 390, height: 844 };
let slipId: number;

describe('a pay run finalised, and its payslip read by its staff member', () => {
  it(
    'is approved and finalised from its page; the payslip is e-mailed and its screen passes axe',
    {
      timeout: 180_000,
    },
    async () => {
      const { page } = e2e;
      const inflight = trackRequests(page);
      await signInAdmin(page);
      // The demo staff member's own week of signed hours: a run paying them alone.
      const staff = (await api(page, 'GET', '/api/candidates?q=staff%40demo.test')).body.data[0];
      const lines = (await api(page, 'GET', `/api/timesheet_lines?candidate_id=${staff.id}&per_page=100`)).body
        .data as { status: string; work_date: string }[];
      // Their latest: the demo's own pay runs (server/seed/payRuns.ts) paid their oldest weeks.
      const signed = lines
        .filter((l) => l.status === 'signed' || l.status === 'verified')
        .sort((a, b) => b.work_date.localeCompare(a.work_date));
      expect(signed.length, 'the demo staff member has signed hours').toBeGreaterThan(0);
      const monday = startOfWeekMonday(signed[0].work_date);
      const made = await api(page, 'POST', '/api/pay_runs/actions/generate', {
        frequency: 'weekly',
        from: monday,
        to: addDaysToDate(monday, 6),
        candidate_ids: [staff.id],
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const runId = made.body.data.run_id as number;
      slipId = made.body.data.payslips[0];

      await page.goto(`/invoice/staff-payroll/run/${runId}`);
      for (const [action, done] of [
        ['Approve', 'Pay run approved'],
        ['Finalise', 'Pay run finalised'],
      ]) {
        await page.getByRole('button', { name: action, exact: true }).click();
        await page.getByRole('dialog').getByRole('button', { name: action, exact: true }).click();
        await page.getByText(done).waitFor();
      }
      const run = (await api(page, 'GET', `/api/pay_runs/${runId}`)).body.data;
      expect(run.state).toBe('finalised');
      // The run's payslips say where each e-mail is.
      await page
        .getByText(/^(Being sent|Sent)$/)
        .first()
        .waitFor();
      const problems = await axeProblems(page, 'pay run (finalised)', inflight);
      await expect.poll(() => e2e.sentMail.filter((m) => m.to.includes(staff.email)).length).toBe(1);
      const [mail] = e2e.sentMail.filter((m) => m.to.includes(staff.email));
      expect(mail.subject).toMatch(/^Your payslip for /);
      expect(mail.text).toContain(`/staff-app/payslips/${slipId}`);

      // The payslip's own screen.
      const slip = (await api(page, 'GET', `/api/payslips/${slipId}`)).body.data;
      await page.goto(`/invoice/staff-payroll/StaffPayrollView/${slipId}`);
      await page.getByText(formatPounds(slip.net)).first().waitFor();
      const slipLines = (await api(page, 'GET', `/api/payslip_lines?payslip_id=${slipId}`)).body.data;
      for (const l of slipLines) await page.getByRole('cell', { name: l.description }).first().waitFor();
      problems.push(...(await axeProblems(page, 'StaffPayrollView (finalised)', inflight)));
      // E-mailed again from its page (an address corrected since, a lost e-mail): one more e-mail, the same copy.
      await page.getByRole('button', { name: 'E-mail it again', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'E-mail it again', exact: true }).click();
      await page.getByText('Payslip e-mailed again').waitFor();
      await expect.poll(() => e2e.sentMail.filter((m) => m.to.includes(staff.email)).length).toBe(2);
      const again = e2e.sentMail.filter((m) => m.to.includes(staff.email))[1];
      expect(again.subject).toBe(mail.subject);
      expect(problems).toEqual([]);
    },
  );

  it('is read on a phone without downloading, and its PDF says the same', { timeout: 180_000 }, async () => {
    const { page } = e2e;
    const inflight = trackRequests(page);
    await page.setViewportSize(PHONE);
    await page.goto('/staff-app/login');
    await page.getByLabel('Email').fill('staff@demo.test');
    await page.getByLabel('Password').fill('demo-staff');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await waitForPath(page, '/staff-app/shifts');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Payslips' }).click();
    await waitForPath(page, '/staff-app/payslips');
    await page.getByRole('heading', { name: 'My payslips', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'My payslips' });
    const slip = (await api(page, 'GET', `/api/payslips/${slipId}`)).body.data;
    const entry = list.getByRole('link', { name: new RegExp(`^Paid on ${slip.period_end}`) });
    await entry.waitFor();
    // Where their pay goes: their own bank details, masked only (the demo's runs paid them by bank).
    const bank = page.getByRole('region', { name: 'Where your pay goes' });
    await bank.getByText(/^Sort code ending \d{2}, account ending \d{4}\.$/).waitFor();
    // Never in full: no 6-digit sort code or 8-digit account number anywhere on the page as shown.
    expect(await page.getByRole('main').innerText()).not.toMatch(/\d{6,}/);
    const problems = await axeProblems(page, '/staff-app/payslips', inflight);
    const wide: string[] = [];
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    if ((await width()) > PHONE.width) wide.push(`/staff-app/payslips: ${await width()} px`);

    // By keyboard: the payslip's link, then Enter.
    await entry.focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, `/staff-app/payslips/${slipId}`);
    await page.getByRole('heading', { name: `Paid for ${slip.period_start} to ${slip.period_end}` }).waitFor();
    const lines = (await api(page, 'GET', `/api/payslip_lines?payslip_id=${slipId}&per_page=100`)).body.data as {
      description: string;
      amount: number;
    }[];
    const main = page.getByRole('main');
    for (const l of lines) await main.getByText(l.description).first().waitFor();
    /** Each label and amount of a section of the page, as shown. */
    const pairs = (section: string) =>
      main
        .getByRole('region', { name: section })
        .locator('dl')
        .evaluate((dl) =>
          [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? '']),
        );
    const figures = Object.fromEntries(await pairs('Pay and what was taken off'));
    expect(figures).toMatchObject({
      'Gross pay': formatPounds(slip.gross),
      'Income tax': formatPounds(slip.tax),
      'Employee National Insurance': formatPounds(slip.employee_ni),
      'Net pay': formatPounds(slip.net),
    });
    expect(figures).not.toHaveProperty('Employer National Insurance');
    const yearToDate = await pairs('Year to date');
    expect(yearToDate).toContainEqual(['Gross', formatPounds(slip.ytd_gross)]);
    problems.push(...(await axeProblems(page, '/staff-app/payslips/:id', inflight)));
    if ((await width()) > PHONE.width) wide.push(`/staff-app/payslips/:id: ${await width()} px`);

    // The kept PDF, downloaded: every figure the page shows is in it, as the page writes it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the PDF' }).click(),
    ]);
    const text = pdfTextOf(await readFile((await download.path())!));
    for (const [label, amount] of Object.entries(figures))
      expect(text).toContain(label === 'Net pay' ? `Net pay ${amount}` : `${label}: ${amount}`);
    for (const [label, amount] of yearToDate) expect(text).toContain(`${label} ${amount}`);
    for (const l of lines) expect(text).toContain(formatPounds(l.amount));

    // Someone else's payslip (or none) is said not to be theirs, in words.
    await page.goto('/staff-app/payslips/999999');
    await page.getByText('This payslip is not one of yours, or is not finalised yet.').waitFor();
    expect(wide).toEqual([]);
    expect(problems).toEqual([]);
  });
});
