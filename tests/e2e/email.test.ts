import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin, uid, waitForPath } from './engineHelpers';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';

// E-mail over the product's embedded SMTP server: a cancelled shift's e-mail arrives in the mailbox that agency
// admins read, and the e-mail report lists it as sent. On a product of its own: the mailbox's newest e-mail is
// the whole agency's, and a file running beside this one sends mail too.

const e2e = useBrowser();

describe('the embedded mailbox', () => {
  it('shows the e-mail sent after a shift is cancelled', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const clients = (await api(page, 'GET', '/api/clients?q=Meadowbank')).body.data;
    const client = clients.find((c: any) => c.name === 'Meadowbank Care Home');
    const site = (await api(page, 'GET', `/api/sites?client_id=${client.id}&per_page=1`)).body.data[0];
    // A job role the client has a client-wide rate card for (other tests add roles without one).
    const card = (await api(page, 'GET', `/api/rate_cards?client_id=${client.id}&per_page=100`)).body.data.find(
      (c: any) => c.site_id == null && c.effective_to == null,
    );
    const role = { id: card.job_role_id };
    const day = addDaysToDate(agencyToday('Europe/London'), 20 + Math.floor(Math.random() * 200));
    const at = (time: string) => zonedDateTimeToInstant(day, time, 'Europe/London').toISOString();
    const made = await api(page, 'POST', '/api/shifts', {
      client_id: client.id,
      site_id: site.id,
      job_role_id: role.id,
      start_at: at('08:00'),
      end_at: at('16:00'),
    });
    expect(made.status).toBe(201);
    const reason = `Mailbox probe ${uid()}`;
    const cancelled = await api(page, 'POST', `/api/shifts/${made.body.data.id}/actions/cancel`, { reason });
    expect(cancelled.status).toBe(200);

    await page.goto('/report/EmailReport/mailbox');
    await page.getByRole('heading', { name: 'Mailbox', level: 1 }).waitFor();
    const received = page.getByRole('list', { name: 'Received e-mails' });
    // The worker sends within a second or two; the mailbox shows it once it has arrived.
    await expect
      .poll(
        async () => {
          await page.reload();
          // By its subject: other mail arrives too (the demo's diary reminders fall due at times of the day).
          const cancellation = received.getByRole('button', { name: /^Shift cancelled/ }).first();
          await cancellation.waitFor();
          await cancellation.click();
          await page.getByRole('tab', { name: 'Plain text' }).click();
          return page.getByTestId('mail-text').textContent();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toContain(reason);
    await waitForPath(page, /^\/report\/EmailReport\/mailbox\/\d+$/);
    await page.getByRole('tab', { name: 'As sent' }).click();
    const frame = page.getByTitle('The e-mail as sent');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.contentFrame().getByText(reason).count()).toBeGreaterThan(0);

    // The report lists it as sent.
    const report = (await api(page, 'GET', `/api/email_outbox?event=shift.cancelled&status=sent&per_page=5`)).body.data;
    expect(report.some((r: any) => r.status === 'sent' && r.attempts >= 1)).toBe(true);
    await page.goto('/report/EmailReport');
    await page.getByRole('table').waitFor();
    // Reports → E-mail report → Mailbox, as the README says (issue 30.19): a link on the report, on a phone too.
    await page.getByRole('link', { name: 'Mailbox' }).click();
    await waitForPath(page, '/report/EmailReport/mailbox');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/report/EmailReport');
    await page.getByText('Shift cancelled').first().waitFor();
    // On a phone it is the toolbar's icon, named for screen readers and within the screen's width.
    const mailbox = page.locator('#main-content a[href="/report/EmailReport/mailbox"]');
    expect(await mailbox.getAttribute('aria-label')).toBe('Mailbox');
    const box = (await mailbox.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await page.goto('/report/EmailReport/mailbox');
    await page.getByRole('heading', { name: 'Mailbox', level: 1 }).waitFor();
  });
});
