import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, signInAdmin, uid, waitForPath, openHome } from './engineHelpers';
import { formatDisplayDate } from '../../core/domain/time/agencyTime';

// Issue 14: the reports that exist are found from /report, the spec's parent routes resolve, the document report
// only reads, a rejected document says why, the history reads as words, and shift lists say what a deleted or
// cancelled shift costs. Each test makes its own records through the API and removes them.

const e2e = useBrowser();

const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF';

async function uploadPdf(page: Page): Promise<string> {
  const res = await page.evaluate(async (bytes) => {
    const r = await fetch('/api/files?kind=document', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${localStorage.getItem('token')}`,
        'content-type': 'application/pdf',
        'x-file-name': 'doc.pdf',
      },
      body: new TextEncoder().encode(bytes),
    });
    return { status: r.status, body: await r.json() };
  }, PDF);
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** A day 13 to 23 months ahead (shifts may be planned two years out), each run its own. */
function farDay() {
  return new Date(Date.now() + (400 + Math.floor(Math.random() * 300)) * 86_400_000).toISOString().slice(0, 10);
}

const listFilter = (filter: Record<string, unknown>) => `?filter=${encodeURIComponent(JSON.stringify(filter))}`;

describe('reports and spec routes', () => {
  it('/report lists the Document, Rate card and E-mail reports, each opening its report; /site and the e-mail notification settings resolve', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    await openHome(page);
    const main = page.locator('#main-content');
    // The sidebar's Reports leads to the list of reports, not a "later release" page.
    await page.getByRole('navigation').getByRole('link', { name: 'Reports', exact: true }).click();
    await waitForPath(page, '/report');
    await main.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(await page.getByTestId('coming-soon').count()).toBe(0);
    for (const [name, to, text] of [
      ['Document Report', '/report/DocumentReport/AllDoc', 'Expires on'],
      ['Rate Cards', '/report/RateCards', 'Client'],
      ['Email Report', '/report/EmailReport', 'Recipient'],
    ]) {
      await page.goto('/report');
      await main.getByRole('link', { name: new RegExp(`^${name}`) }).click();
      await waitForPath(page, to);
      await main.getByText(text, { exact: true }).first().waitFor();
    }

    await page.goto('/site');
    await waitForPath(page, '/site/siteLists');
    await main.getByText('Site name', { exact: true }).first().waitFor();

    await page.goto('/appsetting/notificationsetting/email');
    await waitForPath(page, '/appsetting/notificationsetting');
    await main.getByRole('heading', { name: 'Notification settings' }).waitFor();
    await expect(main.getByRole('tab', { name: 'E-mail', exact: true }).getAttribute('aria-selected')).resolves.toBe(
      'true',
    );
    expect(await page.getByTestId('not-found').count()).toBe(0);
  });
});

describe('documents', () => {
  it('a rejected document says why, on the Documents tab and in the report; the report offers no create, verify or delete', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Reject${uid()}`;
    const staff = await api(page, 'POST', '/api/candidates', {
      first_name: 'Rae',
      last_name: last,
      email: `rae.${last}@e2e.test`.toLowerCase(),
    });
    expect(staff.status).toBe(201);
    const staffId = staff.body.data.id;
    try {
      const category = (await api(page, 'GET', '/api/document_categories?per_page=1')).body.data[0];
      const number = `REJ-${uid()}`;
      const reason = `Photo unreadable ${uid()}`;
      const doc = await api(page, 'POST', '/api/candidate_documents', {
        candidate_id: staffId,
        document_category_id: category.id,
        number,
        file: await uploadPdf(page),
      });
      expect(doc.status).toBe(201);
      expect(
        (await api(page, 'POST', `/api/candidate_documents/${doc.body.data.id}/actions/reject`, { reason })).status,
      ).toBe(200);

      const main = page.locator('#main-content');
      await page.goto(`/staffs/${staffId}/document`);
      const row = main.locator('table tbody tr', { hasText: number });
      await row.getByText('Rejected', { exact: true }).waitFor();
      await row.getByText(`Because: ${reason}`).waitFor();

      await page.goto(`/report/DocumentReport/AllDoc${listFilter({ candidate_id: staffId })}`);
      const reportRow = main.locator('table tbody tr', { hasText: number });
      await reportRow.getByText(`Because: ${reason}`).waitFor();
      // Read-only: export, but no Create in the toolbar, and a selected row offers Export only.
      await main.getByRole('button', { name: 'Export' }).first().waitFor();
      expect(await main.getByRole('link', { name: 'Create' }).count()).toBe(0);
      expect(await main.getByRole('button', { name: 'Create' }).count()).toBe(0);
      await reportRow.getByRole('checkbox').check();
      await page.getByText('1 item selected').waitFor();
      await expect.poll(() => main.getByRole('button', { name: 'Export' }).count()).toBe(2);
      expect(await main.getByRole('button', { name: /^(Verify|Delete|Reject)$/ }).count()).toBe(0);
      // Verifying happens on the document itself.
      await reportRow.getByText(number).click();
      await page.getByRole('button', { name: 'Verify' }).waitFor();
    } finally {
      await api(page, 'DELETE', `/api/candidates/${staffId}`);
    }
  });
});

describe('shifts', () => {
  it('history names the client, site and job role, and writes price lines and bulk dates as text', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const day = farDay();
    const made = await api(page, 'POST', '/api/shifts/bulk', {
      client_id: 2,
      site_id: 3,
      job_role_id: 1,
      staff_needed: 1,
      dates: [day],
      break_minutes: 0,
      start_time: '08:00',
      end_time: '16:00',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const shift = made.body.data[0];
    try {
      const [client, site, role] = await Promise.all([
        api(page, 'GET', '/api/clients/2'),
        api(page, 'GET', '/api/sites/3'),
        api(page, 'GET', '/api/job_roles/1'),
      ]);
      await page.goto(`/shifts/${shift.id}/show`);
      const history = page.getByRole('region', { name: 'History' });
      const entry = history.locator('li[data-entry]').first();
      await entry.getByText('Created', { exact: true }).waitFor();
      await expect.poll(() => entry.innerText(), { timeout: 15_000 }).toContain(`Client: ${client.body.data.name}`);
      const text = await entry.innerText();
      expect(text).toContain(`Site: ${site.body.data.name}`);
      expect(text).toContain(`Job role: ${role.body.data.name}`);
      // The product's own wording of a date ("2 Sep 2028"), not the test runner's ICU ("2 Sept 2028" in Node 24).
      expect(text).toContain(`Created in bulk: Dates: ${formatDisplayDate(day)}; Staff needed: 1`);
      // The whole entry in the message: a day far ahead is drawn at random, so a failure must say which and what
      // showed.
      expect(text, `${day}: ${text}`).toMatch(/Price lines: Band: [A-Z][a-z]+( [a-z]+)*, Start: \d/);
      expect(text, `${day}: ${text}`).toMatch(/Charge: £\d/);
      expect(text).not.toMatch(/\[object Object\]|\{"|Client: 2\b|Site: 3\b/);
    } finally {
      await api(page, 'POST', `/api/shifts/${shift.id}/actions/remove`, { reason: 'e2e' });
    }
  });

  it('the cancelled and deleted list says Deleted for a deleted shift, and shows a cancelled one’s cancellation charge only', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const day = farDay();
    const made = await api(page, 'POST', '/api/shifts/bulk', {
      client_id: 2,
      site_id: 3,
      job_role_id: 1,
      staff_needed: 2,
      dates: [day],
      break_minutes: 0,
      start_time: '05:17',
      end_time: '13:17',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [cancelled, deleted] = made.body.data as { id: number; start_at: string; charge: number }[];
    expect(cancelled.charge).toBeGreaterThan(0);
    expect(
      (await api(page, 'POST', `/api/shifts/${cancelled.id}/actions/cancel`, { reason: 'Not needed' })).status,
    ).toBe(200);
    expect((await api(page, 'POST', `/api/shifts/${deleted.id}/actions/remove`, { reason: 'Made twice' })).status).toBe(
      200,
    );
    try {
      const start = new Date(cancelled.start_at);
      const window = {
        start_at_gte: new Date(start.getTime() - 60_000).toISOString(),
        start_at_lte: new Date(start.getTime() + 60_000).toISOString(),
      };
      await page.goto(`/shift-list/deleted${listFilter(window)}`);
      const main = page.locator('#main-content');
      const rows = main.locator('table tbody tr');
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      const headers = (await main.locator('table thead th').allInnerTexts()).map((h) => h.trim());
      const cell = async (row: number, header: string) => {
        const i = headers.indexOf(header);
        return i < 0 ? undefined : (await rows.nth(row).locator('td').nth(i).innerText()).trim();
      };
      const statuses = [await cell(0, 'Status'), await cell(1, 'Status')].sort();
      expect(statuses).toEqual(['Cancelled', 'Deleted']);
      const byStatus = async (status: string) => ((await cell(0, 'Status')) === status ? 0 : 1);
      const c = await byStatus('Cancelled');
      const d = await byStatus('Deleted');
      // Cancelled well ahead: no late-cancellation charge, and nothing of the work's pay or margin.
      expect(await cell(c, 'Charge')).toBe('£0.00');
      for (const h of ['Pay', 'Margin']) if (headers.includes(h)) expect(await cell(c, h)).toBe('—');
      for (const h of ['Charge', 'Pay', 'Margin']) if (headers.includes(h)) expect(await cell(d, h)).toBe('—');
    } finally {
      await api(page, 'POST', `/api/shifts/${cancelled.id}/actions/remove`, { reason: 'e2e' });
    }
  });
});
