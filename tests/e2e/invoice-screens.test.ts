import axe from 'axe-core';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, controlOf, settleScreen, signInAdmin, trackRequests, typeDate, uid, waitForPath } from './engineHelpers';
import { formatPounds } from '../../core/engine/money';

// The agency's invoice screens (issue 32) on the demo's invoices: the list's tabs and totals, an invoice issued,
// viewed in both layouts (the choice kept by the browser), downloaded, sent (found in the mailbox), credited in part
// and paid (an overpayment refused next to the amount), its draft editor, and axe over each of these routes.

const e2e = useBrowser();

/** Requests in flight per page, for settleScreen. */
const inflightOf = new WeakMap<Page, () => number>();

/** Waits until the page has settled (settleScreen), counting its requests from the first call. */
async function settle(page: Page) {
  if (!inflightOf.has(page)) inflightOf.set(page, trackRequests(page));
  await settleScreen(page, inflightOf.get(page)!);
}

/** Serious or critical axe violations (WCAG 2.1 A and AA) of the page once it has settled (settleScreen). */
async function axeProblems(page: Page, route: string): Promise<string[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = (await page.evaluate(() =>
    (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    }),
  )) as { violations: { id: string; impact: string; nodes: { target: string[]; html: string }[] }[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${route} — ${v.id}: ${v.nodes.map((n) => n.html.slice(0, 300)).join(' | ')}`);
}

const viewPath = (id: number) => `/invoice/client-invoice/client-InvoiceView/${id}`;
const invoice = async (page: Page, id: number) => (await api(page, 'GET', `/api/invoices/${id}`)).body.data;

/** A demo draft with lines, of a client with an e-mail address to send to. */
async function demoDraft(page: Page) {
  const drafts = (await api(page, 'GET', '/api/invoices?state=draft&per_page=100')).body.data;
  const draft = drafts.find((d: any) => Number(d.line_count) > 0);
  expect(draft, 'a demo draft with lines').toBeTruthy();
  return draft as { id: number; client_id: number };
}

describe('the invoice screens', () => {
  it(
    'list by state with the totals of every shown row, issue, both layouts remembered, PDF, send and the mailbox',
    { timeout: 240_000 },
    async () => {
      const { page } = e2e;
      inflightOf.set(page, trackRequests(page));
      await signInAdmin(page);
      const problems: string[] = [];

      // The draft tab's totals are the server's, over every draft, not the page's.
      const listed = (await api(page, 'GET', '/api/invoices?state=draft&per_page=1')).body;
      await page.goto('/invoice/client-invoice/draft');
      const totals = page.getByRole('region', { name: /^Totals of the \d+ shown rows?$/ });
      await totals.waitFor();
      expect(await totals.getByRole('heading').textContent()).toContain(String(listed.total_count));
      expect(await totals.locator('[data-total="net"]').textContent()).toBe(formatPounds(listed.totals.net));
      expect(await totals.locator('[data-total="balance"]').textContent()).toBe(formatPounds(listed.totals.balance));
      problems.push(...(await axeProblems(page, '/invoice/client-invoice/draft')));
      await page.goto('/invoice/client-invoice');
      await totals.waitFor();
      problems.push(...(await axeProblems(page, '/invoice/client-invoice')));

      const draft = await demoDraft(page);
      await page.goto(viewPath(draft.id));
      await page.getByRole('region', { name: 'Lines' }).getByRole('table').waitFor();
      await page.getByRole('region', { name: 'Totals by VAT rate' }).waitFor();
      problems.push(...(await axeProblems(page, `${viewPath(draft.id)} (draft)`)));
      // A draft has no number, so no e-invoice yet.
      await page.getByRole('button', { name: /^PDF \(/ }).waitFor();
      expect(await page.getByRole('button', { name: 'E-invoice (UBL)' }).count()).toBe(0);

      // The draft's editor: its PO number saved.
      const po = `PO-${uid()}`;
      await page.getByRole('link', { name: 'Edit draft' }).click();
      await waitForPath(page, `/edit/${draft.id}/template1`);
      await page.getByRole('textbox', { name: 'PO number' }).fill(po);
      await page.getByRole('region', { name: 'Lines (descriptions and VAT treatment)' }).getByRole('table').waitFor();
      problems.push(...(await axeProblems(page, `/edit/${draft.id}/template1 (draft)`)));
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForPath(page, viewPath(draft.id));
      expect((await invoice(page, draft.id)).po_number).toBe(po);

      // Issue it.
      await settle(page);
      await page.getByRole('button', { name: 'Issue' }).click();
      await page.getByRole('dialog', { name: 'Issue' }).getByRole('button', { name: 'Issue' }).click();
      await expect.poll(async () => (await invoice(page, draft.id)).state).toBe('issued');
      const issued = await invoice(page, draft.id);
      expect(issued.number).toMatch(/^INV-\d+$/);
      await page
        .getByRole('heading', { name: new RegExp(issued.number) })
        .first()
        .waitFor();

      // An issued invoice's editor opens read-only and says why.
      await page.goto(`/edit/${draft.id}/template1`);
      await page
        .getByText(/This invoice is issued and locked: it can no longer be changed/)
        .first()
        .waitFor();
      expect(await page.getByRole('textbox', { name: 'PO number' }).isDisabled()).toBe(true);
      problems.push(...(await axeProblems(page, `/edit/${draft.id}/template1 (issued)`)));

      // Template 1 by default; choosing template 2 is remembered after a reload and used by the PDF button.
      await page.goto(viewPath(draft.id));
      await page.getByRole('button', { name: 'PDF (Template 1)' }).waitFor();
      await page.getByRole('link', { name: 'Template 2' }).click();
      await waitForPath(page, `/invoice/client-InvoiceView/${draft.id}/template2`);
      await page.locator('iframe[data-template="template2"]').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('selectedTemplate'))).toBe('TemplateTwo');
      await page.getByText(/The copy kept when the invoice was issued on/).waitFor();
      problems.push(...(await axeProblems(page, `/invoice/client-InvoiceView/${draft.id}/template2`)));
      await page.reload();
      await page.locator('iframe[data-template="template2"]').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('selectedTemplate'))).toBe('TemplateTwo');
      await page.goto(viewPath(draft.id));
      const pdfButton = page.getByRole('button', { name: 'PDF (Template 2)' });
      const [download] = await Promise.all([page.waitForEvent('download'), pdfButton.click()]);
      const saved = await readFile((await download.path())!);
      expect(saved.subarray(0, 5).toString()).toBe('%PDF-');
      // The kept copy of template 2, byte for byte.
      const kept = await page.evaluate(async (id) => {
        const res = await fetch(`/api/invoices/${id}/pdf?template=template2`, {
          headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
        });
        return Array.from(new Uint8Array(await res.arrayBuffer()));
      }, draft.id);
      expect(Buffer.from(kept).equals(saved)).toBe(true);
      // Its e-invoice (UBL), once issued, named and numbered as the invoice.
      const [ubl] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'E-invoice (UBL)' }).click(),
      ]);
      expect(ubl.suggestedFilename()).toBe(`${issued.number}.xml`);
      const xml = await readFile((await ubl.path())!, 'utf8');
      expect(xml.startsWith('<?xml')).toBe(true);
      expect(xml).toContain(`>${issued.number}<`);
      await page.getByRole('link', { name: 'Template 1' }).click();
      await page.locator('iframe[data-template="template1"]').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('selectedTemplate'))).toBe('TemplateOne');
      problems.push(...(await axeProblems(page, `/invoice/client-InvoiceView/${draft.id}/template1`)));

      // Send: e-mailed through the outbox, marked sent, and in the embedded mailbox.
      await page.goto(viewPath(draft.id));
      await settle(page);
      await page.getByRole('button', { name: 'Send to the client' }).click();
      await page
        .getByRole('dialog', { name: 'Send to the client' })
        .getByRole('button', { name: 'Send to the client' })
        .click();
      await expect.poll(async () => (await invoice(page, draft.id)).state).toBe('sent');
      await page.goto('/report/EmailReport/mailbox');
      await page.getByRole('heading', { name: 'Mailbox', level: 1 }).waitFor();
      const received = page.getByRole('list', { name: 'Received e-mails' });
      await expect
        .poll(
          async () => {
            await page.reload();
            await received.waitFor();
            return received.getByRole('button', { name: new RegExp(issued.number) }).count();
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toBeGreaterThan(0);
      expect(problems).toEqual([]);
    },
  );

  it(
    'credits part of an issued invoice and records a payment, refusing an overpayment next to the amount',
    { timeout: 120_000 },
    async () => {
      const { page } = e2e;
      inflightOf.set(page, trackRequests(page));
      await signInAdmin(page);
      const draft = await demoDraft(page);
      expect((await api(page, 'POST', `/api/invoices/${draft.id}/actions/issue`, {})).status).toBe(200);
      const before = await invoice(page, draft.id);
      await page.goto(viewPath(draft.id));

      // A partial credit note: an amount with a reason.
      // Loaded whole (lines, payments, history) before a click: on a busy machine a click can land mid-render.
      await settle(page);
      await page.getByRole('button', { name: 'Credit note' }).click();
      const credit = page.getByRole('dialog', { name: 'Credit note' });
      await credit.getByRole('combobox', { name: 'Credit', exact: true }).click();
      await page.getByRole('listbox').getByRole('option', { name: 'An amount' }).click();
      await credit.getByRole('spinbutton', { name: 'Amount to credit (ex VAT)' }).fill('10');
      await credit.getByRole('textbox', { name: 'Why it is credited' }).fill('Break not taken off');
      await credit.getByRole('button', { name: 'Credit note' }).click();
      const notes = page.getByRole('region', { name: 'Credit notes' });
      await notes.getByRole('link', { name: /^CN-\d+$/ }).waitFor();
      await notes.getByText('Break not taken off').waitFor();
      // Its PDF, kept when it was made, downloaded from where it is listed.
      const cn = (await notes.getByRole('link', { name: /^CN-\d+$/ }).textContent())!;
      const [cnDownload] = await Promise.all([
        page.waitForEvent('download'),
        notes.getByRole('button', { name: `Download ${cn} (PDF)` }).click(),
      ]);
      expect((await readFile((await cnDownload.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
      const credited = await invoice(page, draft.id);
      expect(credited.credited).toBeLessThan(0);
      expect(credited.balance).toBeLessThan(before.balance);

      // A payment of more than is left is refused in words under the amount; then a part payment is recorded.
      await settle(page);
      await page.getByRole('button', { name: 'Record payment' }).click();
      const dialog = page.getByRole('dialog', { name: /^Record a payment from / });
      const amount = dialog.getByRole('spinbutton', { name: 'Amount' });
      // What is left to pay, in pounds as the money input writes them (a whole £170 is "170": 2026-11-30's balance).
      expect(Number(await amount.inputValue())).toBe(credited.balance / 100);
      await amount.fill(((credited.balance + 10_000) / 100).toFixed(2));
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      const refusal = dialog.locator('.MuiFormHelperText-root', { hasText: /overpay|more than/ });
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(/left to pay|owes/);
      expect(await axeProblems(page, `${viewPath(draft.id)} (payment dialog)`)).toEqual([]);
      await amount.fill('12.34');
      await dialog.getByRole('textbox', { name: 'Reference' }).fill('BACS 4471');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const paymentsSection = page.getByRole('region', { name: 'Payments' });
      await paymentsSection.getByText('BACS 4471').waitFor();
      const paid = await invoice(page, draft.id);
      expect(paid.paid).toBe(1234);
      expect(paid.state).toBe('part_paid');
      expect(paid.balance).toBe(credited.balance - 1234);
      expect(await page.locator('[data-amount="balance"]').textContent()).toBe(formatPounds(paid.balance));
      expect(await axeProblems(page, viewPath(draft.id))).toEqual([]);

      // The credit note's own page (its link in the list) offers its e-invoice: a UBL CreditNote naming the invoice.
      await notes.getByRole('link', { name: cn }).click();
      await page.getByRole('button', { name: 'E-invoice (UBL)' }).waitFor();
      await settle(page);
      const [cnUbl] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'E-invoice (UBL)' }).click(),
      ]);
      expect(cnUbl.suggestedFilename()).toBe(`${cn}.xml`);
      const cnXml = await readFile((await cnUbl.path())!, 'utf8');
      expect(cnXml).toMatch(/<CreditNote[\s>]/);
      expect(cnXml).toContain(`<cbc:ID>${cn}</cbc:ID>`);
      expect(cnXml).toMatch(
        new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${before.number}</cbc:ID>`),
      );
      expect(await axeProblems(page, `credit note ${cn}`)).toEqual([]);
    },
  );

  it(
    'exports the invoices issued in a period typed in the product’s date picker, refusing one that ends first',
    { timeout: 120_000 },
    async () => {
      const { page } = e2e;
      inflightOf.set(page, trackRequests(page));
      await signInAdmin(page);
      // The demo's issued invoices fall on several days: the period is the latest of them alone.
      const all = (await api(page, 'GET', '/api/invoices?per_page=100')).body.data as {
        number: string | null;
        issue_date: string | null;
      }[];
      const days = [...new Set(all.map((i) => i.issue_date).filter((d): d is string => !!d))].sort();
      expect(days.length, 'demo invoices issued on two days or more').toBeGreaterThan(1);
      const day = days.at(-1)!;
      const ukDay = `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
      await page.goto('/invoice/client-invoice');
      await settle(page);
      // The list leads to the earlier exports too (for those who see them but cannot export).
      expect(await page.getByRole('link', { name: 'Earlier exports' }).getAttribute('href')).toBe('/invoice/exports');
      await page.getByRole('button', { name: 'Accounting export' }).click();
      const dialog = page.getByRole('dialog', { name: 'Accounting export' });
      await dialog.waitFor();
      // Ending before it starts: refused under the day it is about, nothing exported.
      await typeDate(page, dialog.getByRole('group', { name: 'Issued from' }), day);
      await typeDate(page, dialog.getByRole('group', { name: 'Issued to' }), days[0]);
      await dialog.getByRole('heading', { name: 'Accounting export' }).click();
      await dialog.getByRole('button', { name: 'QuickBooks Online (CSV)' }).click();
      const to = controlOf(page, page.getByRole('group', { name: 'Issued to' }));
      await to.getByText('Ends before From.').waitFor();
      expect(await axeProblems(page, '/invoice/client-invoice (accounting export)')).toEqual([]);
      // The day alone (with any the demo exported before): every row of the file is an invoice issued that day.
      await typeDate(page, dialog.getByRole('group', { name: 'Issued to' }), day);
      await dialog.getByRole('checkbox', { name: 'Include documents exported before' }).check();
      await dialog.getByRole('heading', { name: 'Accounting export' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'QuickBooks Online (CSV)' }).click(),
      ]);
      await dialog.waitFor({ state: 'hidden' });
      // A BOM, then every text cell quoted (the product's CSV).
      const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
      const [head, ...rows] = csv.trim().split(/\r?\n/);
      expect(head.startsWith('"InvoiceNo","Customer","InvoiceDate",')).toBe(true);
      expect(rows.length).toBeGreaterThan(0);
      // The invoice's date is the first cell in dd/MM/yyyy (a comma in a quoted name cannot shift it).
      const dates = rows.map((r) => r.match(/\b\d{2}\/\d{2}\/\d{4}\b/)?.[0]);
      expect(new Set(dates)).toEqual(new Set([ukDay]));
      const numbers = all.filter((i) => i.issue_date === day).map((i) => i.number!);
      const starts = (n: string | null) => rows.some((r) => r.startsWith(`"${n}",`));
      for (const n of numbers) expect(starts(n), n).toBe(true);
      for (const other of all.filter((i) => i.issue_date && i.issue_date !== day))
        expect(starts(other.number), other.number!).toBe(false);

      // The export is listed among the earlier ones (the dialog leads there), and its row and its page download it
      // again, the same file, recording no new export.
      const [batch] = (await api(page, 'GET', '/api/invoice_export_batches?per_page=1')).body.data;
      await page.getByRole('button', { name: 'Accounting export' }).click();
      await page
        .getByRole('dialog', { name: 'Accounting export' })
        .getByRole('link', { name: 'Earlier exports' })
        .click();
      await waitForPath(page, '/invoice/exports');
      const row = page.getByRole('table').getByRole('row').nth(1);
      await row.getByText('QuickBooks Online').waitFor();
      expect(await row.textContent()).toContain(String(batch.document_count));
      expect(await axeProblems(page, '/invoice/exports')).toEqual([]);
      // Its row downloads it again without opening it: the same file byte for byte, no new export.
      const [fromRow] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('button', { name: `Download again: export ${batch.id}` }).click(),
      ]);
      expect(fromRow.suggestedFilename()).toBe(download.suggestedFilename());
      expect((await readFile((await fromRow.path())!)).equals(await readFile((await download.path())!))).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/invoice/exports');
      expect((await api(page, 'GET', '/api/invoice_export_batches?per_page=1')).body.data[0].id).toBe(batch.id);
      await row.getByText('QuickBooks Online').click();
      await waitForPath(page, `/invoice/exports/${batch.id}`);
      await settle(page);
      const [again] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download again' }).click(),
      ]);
      expect(again.suggestedFilename()).toBe(download.suggestedFilename());
      expect((await readFile((await again.path())!)).equals(await readFile((await download.path())!))).toBe(true);
      const [newest] = (await api(page, 'GET', '/api/invoice_export_batches?per_page=1')).body.data;
      expect(newest.id).toBe(batch.id);
      expect(await axeProblems(page, `/invoice/exports/${batch.id}`)).toEqual([]);
    },
  );

  it('fits a 390 px phone', { timeout: 120_000 }, async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    inflightOf.set(page, trackRequests(page));
    await signInAdmin(page);
    const any = (await api(page, 'GET', '/api/invoices?state=part_paid&per_page=1')).body.data[0];
    for (const route of [
      '/invoice/client-invoice',
      viewPath(any.id),
      `/invoice/client-InvoiceView/${any.id}/template1`,
      `/edit/${any.id}/template2`,
    ]) {
      await page.goto(route);
      await page.locator('#main-content').waitFor();
      await settle(page);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide, route).toBeLessThanOrEqual(390);
      expect(await axeProblems(page, `${route} (390 px)`)).toEqual([]);
    }
  });
});
