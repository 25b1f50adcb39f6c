import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { format, subDays } from 'date-fns';
import { useBrowser } from './harness';
import {
  api,
  chooseReference,
  dateField,
  rowsWith,
  searchList,
  signInAdmin,
  typeDate,
  uid,
  waitForPath,
} from './engineHelpers';

// Browser tests of the workflow engine on staff compliance (issue 6): documents and the compliance summary,
// restrictions, the history, stale edits, bulk actions and an action's refusal. Each test makes its own staff
// member (unique e-mail) through the API and removes what it made.

const e2e = useBrowser();

const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF';

async function makeStaff(page: Page, first: string, last: string, extra: Record<string, unknown> = {}) {
  const made = await api(page, 'POST', '/api/candidates', {
    first_name: first,
    last_name: last,
    email: `${first}.${last}@e2e.test`.toLowerCase(),
    ...extra,
  });
  expect(made.status).toBe(201);
  return made.body.data as { id: number; version: number };
}

/** Uploads a small PDF to the file store (raw bytes), as the forms do; resolves to its id. */
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

/** The signed-in user's name, as the audit trail and "recorded by" show it. */
async function myName(page: Page): Promise<string> {
  const name = (await api(page, 'GET', '/api/admin_login')).body.user.name;
  expect(name).toBeTruthy();
  return name;
}

const compliance = async (page: Page, id: number) =>
  (await api(page, 'GET', `/api/candidates/${id}/compliance`)).body.data;

describe('documents and compliance', () => {
  it('uploads a PDF on the Documents tab, verifies it from its row, and the summary turns compliant', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Docs${uid()}`;
    const staff = await makeStaff(page, 'Dana', last);
    const docIds: number[] = [];
    try {
      const before = await compliance(page, staff.id);
      expect(before.compliant).toBe(false);
      expect(before.missing.length).toBeGreaterThan(0);
      const [viaScreen, ...viaApi] = [...before.missing].reverse() as { category_id: number; name: string }[];

      await page.goto(`/staffs/${staff.id}/document`);
      const summary = page.getByTestId('compliance-summary');
      await summary.getByText('Not compliant').waitFor();
      for (const m of before.missing) await expect.poll(() => summary.textContent()).toContain(m.name);

      // Every other required category: uploaded and verified through the API.
      for (const m of viaApi) {
        const file = await uploadPdf(page);
        const doc = await api(page, 'POST', '/api/candidate_documents', {
          candidate_id: staff.id,
          document_category_id: m.category_id,
          number: `API-${m.category_id}`,
          file,
        });
        expect(doc.status).toBe(201);
        docIds.push(doc.body.data.id);
        expect(
          (await api(page, 'POST', `/api/candidate_documents/${doc.body.data.id}/actions/verify`, {})).status,
        ).toBe(200);
      }
      await page.reload();
      await summary.getByText('Not compliant').waitFor();
      await expect.poll(() => summary.textContent()).toContain(viaScreen.name);
      for (const m of viaApi) expect(await summary.textContent()).not.toContain(m.name);

      // The last one through the screen: Add document, the category, a number and the PDF.
      const number = `SCR-${uid()}`;
      await page.getByRole('button', { name: 'Add document' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add document' });
      await chooseReference(dialog, page, 'Category', viaScreen.name.slice(0, 4), viaScreen.name);
      await dialog.getByRole('textbox', { name: 'Document number' }).fill(number);
      await dialog
        .locator('input[type="file"]')
        .setInputFiles({ name: 'proof.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) });
      await dialog.getByText('proof.pdf').waitFor();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });

      const row = rowsWith(page, number);
      await row.getByText('Awaiting check').waitFor();
      const stored = (await api(page, 'GET', `/api/candidate_documents?candidate_id=${staff.id}`)).body.data.find(
        (d: any) => d.number === number,
      );
      expect(stored).toMatchObject({ document_category_id: viaScreen.category_id, status: 'awaiting' });
      docIds.push(stored.id);
      // The stored file is the PDF's bytes, typed by them.
      const file = await page.evaluate(async (u) => {
        const r = await fetch(u, { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
        return { type: r.headers.get('content-type'), text: await r.text() };
      }, `/api/files/${stored.file}`);
      expect(file).toEqual({ type: 'application/pdf', text: PDF });

      // The checker opens the file from its row, named as uploaded; it is saved under that name, then verified.
      const saved = page.waitForEvent('download');
      await row.getByRole('button', { name: 'proof.pdf' }).click();
      expect((await saved).suggestedFilename()).toBe('proof.pdf');

      // Still not compliant: the new document awaits its check.
      await summary.getByText('Not compliant').waitFor();
      await row.getByRole('button', { name: 'Verify' }).click();
      await row.getByText('Verified', { exact: true }).waitFor();
      // Verified once: its Verify button is now disabled, saying why.
      await expect.poll(() => row.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
      await summary.getByText('Compliant', { exact: true }).waitFor();
      expect(await summary.textContent()).not.toContain('Missing');
      expect((await compliance(page, staff.id)).compliant).toBe(true);
      expect((await api(page, 'GET', `/api/candidate_documents/${stored.id}`)).body.data.status).toBe('verified');
    } finally {
      for (const id of docIds) await api(page, 'DELETE', `/api/candidate_documents/${id}`);
      await api(page, 'DELETE', `/api/candidates/${staff.id}`);
    }
  });
});

describe('restrictions', () => {
  it('restricts a staff member from a site on the Restricted tab; the client profile lists it too', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const tag = uid();
    const staff = await makeStaff(page, 'Rory', `Restr${tag}`);
    const client = await api(page, 'POST', '/api/clients', {
      name: `E2E Restricting ${tag}`,
      billing_email: 'owner@e2e-restr.test',
      status: 'active',
    });
    expect(client.status).toBe(201);
    const site = await api(page, 'POST', '/api/sites', {
      name: `E2E Ward ${tag}`,
      client_id: client.body.data.id,
      address: { line1: '2 Test Road', postcode: 'LS2 7AB' },
      status: 'active',
    });
    expect(site.status).toBe(201);
    const reason = `Asked not to return ${tag}`;
    const day = format(subDays(new Date(), 3), 'yyyy-MM-dd');
    try {
      await page.goto(`/staffs/${staff.id}/restricted`);
      await page.getByRole('button', { name: 'Add restriction' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add restriction' });
      await chooseReference(dialog, page, 'Client', `Restricting ${tag}`, `E2E Restricting ${tag}`);
      await chooseReference(dialog, page, 'Site (leave empty for every site)', `Ward ${tag}`, `E2E Ward ${tag}`);
      await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
      // The date starts on today, the day a restriction is usually recorded.
      expect(await dialog.locator('input[name="restricted_on"]').inputValue()).toBe(format(new Date(), 'yyyy-MM-dd'));
      // Another date, typed into the picker field (its calendar opens on the click; the caret is in the year).
      const calendar = page.locator('.MuiPickerPopper-root');
      await typeDate(page, dialog.getByRole('group', { name: 'Date', exact: true }), day);
      await calendar.waitFor();
      await expect.poll(() => dialog.locator('input[name="restricted_on"]').inputValue()).toBe(day);
      // Escape closes the calendar only, not the dialog with what has been typed in it.
      await page.keyboard.press('Escape');
      await calendar.waitFor({ state: 'hidden' });
      expect(await dialog.isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });

      const row = rowsWith(page, reason);
      await row.getByText(`E2E Restricting ${tag}`).waitFor();
      await row.getByText(`E2E Ward ${tag}`).waitFor();
      await row.getByText(await myName(page), { exact: true }).waitFor(); // recorded by the signed-in admin
      const stored = (await api(page, 'GET', `/api/candidate_restrictions?candidate_id=${staff.id}`)).body.data;
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        client_id: client.body.data.id,
        site_id: site.body.data.id,
        reason,
        restricted_on: day,
      });

      await page.goto(`/client/client/${client.body.data.id}`);
      const card = page.locator('.MuiCard-root', { has: page.getByRole('heading', { name: 'Staff restricted here' }) });
      const onClient = card.locator('table tbody tr', { hasText: reason });
      await onClient.getByText(`Rory Restr${tag}`).waitFor();
      await onClient.getByText(`E2E Ward ${tag}`).waitFor();
      // A row opens the staff member's Restricted tab.
      await onClient.getByText(reason).click();
      await waitForPath(page, `/staffs/${staff.id}/restricted`);
    } finally {
      const left = (await api(page, 'GET', `/api/candidate_restrictions?candidate_id=${staff.id}`)).body.data ?? [];
      for (const r of left) await api(page, 'DELETE', `/api/candidate_restrictions/${r.id}`);
      await api(page, 'DELETE', `/api/sites/${site.body.data.id}`);
      await api(page, 'DELETE', `/api/clients/${client.body.data.id}`);
      await api(page, 'DELETE', `/api/candidates/${staff.id}`);
    }
  });
});

describe('history', () => {
  it('approving in the profile header adds "Approve" by the admin to the History tab', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const staff = await makeStaff(page, 'Hana', `Hist${uid()}`);
    try {
      const me = await myName(page);
      await page.goto(`/staffs/${staff.id}/overview`);
      const header = page.locator('.MuiCard-root').first();
      await header.getByText('Pending', { exact: true }).waitFor();
      await header.getByRole('button', { name: 'Approve' }).click();
      await header.getByText('Approved', { exact: true }).waitFor();
      expect((await api(page, 'GET', `/api/candidates/${staff.id}`)).body.data.status).toBe('approved');

      await page.getByRole('tab', { name: 'History' }).click();
      await waitForPath(page, `/staffs/${staff.id}/candidate-history`);
      const entries = page
        .getByRole('list', { name: 'History' })
        .getByRole('listitem')
        .filter({ has: page.locator('.MuiChip-root') });
      const approve = entries.filter({ has: page.locator('.MuiChip-root', { hasText: /^Approve$/ }) });
      await approve.first().waitFor();
      expect(await approve.count()).toBe(1);
      await approve.getByText(me, { exact: true }).waitFor();
      // The creation is there too, below it (newest first).
      const created = entries.filter({ has: page.locator('.MuiChip-root', { hasText: 'Created' }) });
      await created.first().waitFor();
      expect(await entries.first().getAttribute('data-entry')).toBe(await approve.getAttribute('data-entry'));

      // Filtered by day on the product's own picker (yyyy-MM-dd, typed): from tomorrow, nothing yet; cleared, all
      // again.
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      expect(await page.locator('input[type="date"]').count()).toBe(0);
      await typeDate(page, 'From', tomorrow);
      await page.keyboard.press('Escape');
      await page.getByText('No history yet.').waitFor();
      expect(await entries.count()).toBe(0);
      await dateField(page, 'From').getByRole('spinbutton').first().click();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Backspace');
      await approve.first().waitFor();
    } finally {
      await api(page, 'DELETE', `/api/candidates/${staff.id}`);
    }
  });
});

describe('stale edits', () => {
  it("a save over someone else's change says so, and Reload shows their change", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Stale${uid()}`;
    const staff = await makeStaff(page, 'Sam', last);
    try {
      await page.goto(`/staffs/edit/${staff.id}`);
      const mobile = page.getByRole('textbox', { name: 'Mobile', exact: true });
      await mobile.fill('07700 900001');

      // Meanwhile, someone else changes the record.
      const other = await api(page, 'PUT', `/api/candidates/${staff.id}`, { notes: 'Changed elsewhere' });
      expect(other.status).toBe(200);

      const puts: number[] = [];
      page.on(
        'response',
        (r) =>
          r.request().method() === 'PUT' &&
          new URL(r.url()).pathname === `/api/candidates/${staff.id}` &&
          puts.push(r.status()),
      );
      await page.getByRole('button', { name: 'Save' }).click();
      // In the form (react-admin also says it in a passing notification).
      const alert = page.locator('#main-content').getByRole('alert').filter({ hasText: 'changed by someone else' });
      await alert.waitFor();
      expect(puts).toEqual([409]);
      await waitForPath(page, `/staffs/edit/${staff.id}`);
      // Nothing of this form was stored.
      expect((await api(page, 'GET', `/api/candidates/${staff.id}`)).body.data).toMatchObject({
        notes: 'Changed elsewhere',
        phone: null,
      });

      await alert.getByRole('button', { name: 'Reload' }).click();
      await alert.waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Notes', exact: true }).inputValue())
        .toBe('Changed elsewhere');
      expect(await mobile.inputValue()).toBe('');

      // Saving again now works, on the new version.
      await mobile.fill('07700 900002');
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, /^\/staffs\/(profileview\/)?\d+/);
      expect((await api(page, 'GET', `/api/candidates/${staff.id}`)).body.data).toMatchObject({
        notes: 'Changed elsewhere',
        phone: '07700 900002',
      });
    } finally {
      await api(page, 'DELETE', `/api/candidates/${staff.id}`);
    }
  });
});

describe('bulk actions', () => {
  it('approves two pending staff at once from the staff list', async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Bulk${uid()}`;
    const a = await makeStaff(page, 'Ann', last);
    const b = await makeStaff(page, 'Ben', last);
    try {
      await page.goto('/staffs/pendingStaff');
      await page.getByRole('tab', { name: 'Pending', selected: true }).waitFor();
      await searchList(page, 'candidates', last);
      await expect.poll(() => rowsWith(page, last).count()).toBe(2);
      for (const first of ['Ann', 'Ben'])
        await rowsWith(page, first).filter({ hasText: last }).getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Approve' }).click();
      // Approve asks no question; if a confirmation were declared, confirm it.
      const confirm = page.getByRole('dialog').getByRole('button', { name: 'Approve' });
      if (await confirm.isVisible()) await confirm.click();

      await expect
        .poll(async () => [
          (await api(page, 'GET', `/api/candidates/${a.id}`)).body.data.status,
          (await api(page, 'GET', `/api/candidates/${b.id}`)).body.data.status,
        ])
        .toEqual(['approved', 'approved']);
      // They leave the Pending tab.
      await expect.poll(() => rowsWith(page, last).count()).toBe(0);
    } finally {
      await api(page, 'DELETE', `/api/candidates/${a.id}`);
      await api(page, 'DELETE', `/api/candidates/${b.id}`);
    }
  });
});

describe('an action the server refuses', () => {
  it("a consultant activating a non-compliant staff member sees the server's reason in the dialog", async () => {
    const { page } = e2e;
    await signInAdmin(page);
    const last = `Act${uid()}`;
    const staff = await makeStaff(page, 'Cleo', last);
    try {
      expect((await api(page, 'POST', `/api/candidates/${staff.id}/actions/approve`, {})).status).toBe(200);
      expect((await compliance(page, staff.id)).compliant).toBe(false);
      await page.evaluate(() => localStorage.clear());
      await signInAdmin(page, 'consultant@demo.test');

      await page.goto(`/staffs/${staff.id}/overview`);
      const header = page.locator('.MuiCard-root').first();
      await header.getByRole('button', { name: 'Activate', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Activate', exact: true });
      await dialog.getByRole('textbox', { name: 'Reason to activate although not compliant' }).fill('Needed tonight');
      await dialog.getByRole('button', { name: 'Activate', exact: true }).click();
      // The server's reason, next to the reason input: what is missing.
      const missing = (await compliance(page, staff.id)).missing.map((m: { name: string }) => m.name).join(', ');
      await dialog.getByText(`Not compliant. Missing: ${missing}.`, { exact: true }).waitFor();
      expect(await dialog.isVisible()).toBe(true);
      expect((await api(page, 'GET', `/api/candidates/${staff.id}`)).body.data.activated).toBe(false);
    } finally {
      await page.evaluate(() => localStorage.clear());
      await signInAdmin(page);
      await api(page, 'DELETE', `/api/candidates/${staff.id}`);
    }
  });
});
