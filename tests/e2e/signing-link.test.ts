import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import type { Page } from 'playwright-core';
import { api, signInAdmin } from './engineHelpers';
import { workedShift, ZONE } from './timesheetHelpers';
import { addDaysToDate, agencyToday, startOfWeekMonday } from '../../core/domain/time/agencyTime';

/*
 * Signing a timesheet through the link its e-mail carries, without an account (issue 17). The product's own
 * embedded mailbox hides single-use links from the agency users who read it (they must not sign as the client), so
 * this file's product sends its mail to a mail server of the file's own, as the client's approver's would be,
 * and follows the link found there.
 */
const e2e = useBrowser({ mailServer: true, demo: 'current weeks' });

/** The e-mail for timesheet `number` with its signing link (the outbox worker sends within seconds), and the link. */
async function mailedLink(number: string) {
  const isIt = (m: (typeof e2e.sentMail)[number]) => m.text.includes(number) && m.text.includes('/sign-timesheet/');
  await expect.poll(() => e2e.sentMail.find(isIt), { timeout: 60_000, interval: 500 }).toBeTruthy();
  const mail = e2e.sentMail.find(isIt)!;
  return { mail, link: /\/sign-timesheet\/[A-Za-z0-9_-]+/.exec(mail.text)![0] };
}

/** Runs `steps` as the approver, who holds no account: a fresh context at phone width, nothing signed in. */
async function asApprover(page: Page, steps: (approver: Page) => Promise<void>) {
  const approverContext = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 390, height: 844 } });
  try {
    await steps(await approverContext.newPage());
  } finally {
    await approverContext.close();
  }
}

describe('signing by link', () => {
  it(
    'the approver opens the e-mailed link, signs without an account, and the link works once',
    { timeout: 180_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);

      // A worked shift at Meadowbank, its week generated and submitted: the approver is e-mailed a link.
      const week = startOfWeekMonday(addDaysToDate(agencyToday(ZONE), -7 * 45));
      await workedShift(page, week, 'Signing link e2e');
      const generated = await api(page, 'POST', '/api/timesheets/actions/generate', { week_start: week });
      const id = generated.body.data.timesheets[0];
      const submitted = await api(page, 'POST', `/api/timesheets/${id}/actions/submit`, {});
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const number = submitted.body.data.number as string;

      // The e-mail arrives (the outbox worker sends within seconds) and carries the link.
      const { link } = await mailedLink(number);

      // Opened by the approver, who holds no account: a fresh context, nothing signed in.
      await asApprover(page, async (approver) => {
        await approver.goto(`${e2e.baseURL}${link}`);
        await approver.getByRole('heading', { name: new RegExp(number) }).waitFor();
        // The page as the approver first sees it is axe-clean, its orange "Dispute the chosen lines" included (3.11:1
        // before issue 30.5).
        await approver.getByRole('button', { name: 'Dispute the chosen lines' }).waitFor();
        await approver.evaluate(axe.source);
        const violations = await approver.evaluate(async () => {
          const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
          });
          return result.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`);
        });
        expect(violations).toEqual([]);
        await approver.getByLabel('Your full name').fill('Link Approver');
        await approver.getByRole('button', { name: 'Sign with my typed name' }).click();
        await approver.getByRole('button', { name: 'Approve and sign' }).click();
        await approver.getByText('Thank you: the timesheet is signed.').waitFor();

        // The link works once.
        await approver.goto(`${e2e.baseURL}${link}`);
        await approver
          .getByRole('alert')
          .getByText(/already been used/)
          .waitFor();
      });

      const signed = await api(page, 'GET', `/api/timesheets/${id}`);
      expect(signed.body.data.status).toBe('signed');
      const signatures = await api(page, 'GET', `/api/timesheet_signatures?timesheet_id=${id}`);
      expect(signatures.body.data[0]).toMatchObject({ signer_name: 'Link Approver', signed_via: 'link' });
    },
  );

  it(
    'Submit names who receives the link; the approver signs one of two lines, the link stays for the other (issue 29.5)',
    { timeout: 180_000 },
    async () => {
      const { page } = e2e;
      await signInAdmin(page);
      const clients = await api(page, 'GET', '/api/clients?q=Meadowbank&per_page=5');
      const client = clients.body.data.find((c: { name: string }) => c.name.startsWith('Meadowbank'));
      const approverEmail = (await api(page, 'GET', `/api/clients/${client.id}`)).body.data;
      const recipient = (approverEmail.timesheet_approver_email || approverEmail.email) as string;
      const week = startOfWeekMonday(addDaysToDate(agencyToday(ZONE), -7 * 46));
      for (const day of [0, 1]) await workedShift(page, addDaysToDate(week, day), 'Signing link e2e');
      const generated = await api(page, 'POST', '/api/timesheets/actions/generate', { week_start: week });
      const id = generated.body.data.timesheets[0];
      const number = (await api(page, 'GET', `/api/timesheets/${id}`)).body.data.number as string;

      // The coordinator submits from the timesheet's screen: the dialog says who gets the link.
      await page.goto(`/timesheets/${id}/show`);
      await page.getByRole('button', { name: 'Submit to the client' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`The signing link is e-mailed to ${recipient}`, { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Submit to the client' }).click();
      await expect
        .poll(async () => (await api(page, 'GET', `/api/timesheets/${id}`)).body.data.status)
        .toBe('submitted');

      const { mail, link } = await mailedLink(number);
      expect(mail.to).toContain(recipient);

      await asApprover(page, async (approver) => {
        await approver.goto(`${e2e.baseURL}${link}`);
        await approver.getByRole('heading', { name: new RegExp(number) }).waitFor();
        await approver
          .getByRole('checkbox', { name: /Choose the line of/ })
          .first()
          .check();
        await approver.getByLabel('Your full name').fill('Link Approver');
        await approver.getByRole('button', { name: 'Sign with my typed name' }).click();
        await approver.getByRole('button', { name: 'Approve and sign' }).click();
        await approver.getByText('One line still awaits a signature', { exact: false }).waitFor();
        // The link still works: the other line is signed with it, then the timesheet is.
        await approver.getByLabel('Your full name').fill('Link Approver');
        await approver.getByRole('button', { name: 'Sign with my typed name' }).click();
        await approver.getByRole('button', { name: 'Approve and sign' }).click();
        await approver.getByText('Thank you: the timesheet is signed.').waitFor();
      });
      expect((await api(page, 'GET', `/api/timesheets/${id}`)).body.data.status).toBe('signed');
    },
  );
});
