import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './harness';
import { api, seriousViolations, signInClient, waitForPath } from './engineHelpers';
import { layoutProblems, PHONE } from './layout';

// The client panel's invoices (issue 32) on a phone: the client sees what it owes and its issued invoices as cards,
// opens one, reads its lines and what was paid against it, and downloads the PDF kept at issue and its e-invoice
// (UBL), and a credit note's; an invoice that is not its own is "not found". axe judges both screens.
const e2e = useBrowser();

/** axe-core's serious and critical WCAG 2.1 A/AA violations on the page as it is, by rule and first element. */
async function violations(page: Page): Promise<string[]> {
  return (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 160)}`);
}

describe('the client’s invoices', () => {
  it('on a 390 px phone: the balance, the invoices as cards, one opened and its kept PDF downloaded', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInClient(page);
    await page.goto('/client/invoice');
    const list = page.getByRole('list', { name: 'Invoices' });
    await list.waitFor();
    // What the API says the client owes is what the screen says.
    const open = await api<{ data: { balance: number; overdue: boolean }[] }>(
      page,
      'GET',
      '/api/invoices?state=issued,sent,part_paid&per_page=100',
    );
    const owed = open.body.data.reduce((s, i) => s + i.balance, 0);
    const pounds = `£${(owed / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
    const summary = page.getByRole('definition').first();
    await expect.poll(() => summary.textContent()).toBe(pounds);
    expect(await layoutProblems(page, '/client/invoice', PHONE.width, true)).toEqual([]);
    expect(await violations(page)).toEqual([]);
    expect(await page.locator('main').textContent()).not.toMatch(/\bPay rate|Margin|Timesheet line/);

    // The first invoice, by keyboard: its link focused and followed.
    const first = list.getByRole('link').first();
    const number = (await first.textContent())!.trim();
    expect(number).toMatch(/^INV-\d+$/);
    await first.focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, /^\/client\/invoice\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: `Invoice ${number}` }).waitFor();
    await page.getByRole('list', { name: 'Lines' }).waitFor();
    const invoice = (await api(page, 'GET', `/api/invoices/${id}`)).body.data;
    const lines = (await api(page, 'GET', `/api/invoice_lines?invoice_id=${id}&per_page=100`)).body.data;
    expect(await page.getByRole('list', { name: 'Lines' }).getByRole('listitem').count()).toBe(lines.length);
    const total = `£${(invoice.total / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
    expect(await page.getByRole('definition').allTextContents()).toContain(total);
    expect(await layoutProblems(page, `/client/invoice/${id}`, PHONE.width, true)).toEqual([]);
    expect(await violations(page)).toEqual([]);

    // The PDF kept at issue, in the layout the agency chose, as the client's own copy.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download ${number} (PDF)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${invoice.template}-${number}.pdf`);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    // Its e-invoice (EN 16931 UBL), the document the API gives in the client's scope, named by its number.
    const [ubl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download ${number} (e-invoice, UBL)` }).click(),
    ]);
    expect(ubl.suggestedFilename()).toBe(`${number}.xml`);
    const xml = await readFile((await ubl.path())!, 'utf8');
    expect(xml).toMatch(/^<\?xml[^>]*>\s*<Invoice\s/);
    expect(xml).toContain(`<cbc:ID>${number}</cbc:ID>`);
    expect(xml).not.toMatch(/margin|pay rate/i);
  });

  it('on a 390 px phone: a credited invoice’s credit note offers its own e-invoice', async () => {
    const { page } = e2e;
    await page.setViewportSize(PHONE);
    await signInClient(page);
    // The demo credits one of the client's invoices in full.
    const notes = (await api(page, 'GET', '/api/credit_notes?per_page=100')).body.data as {
      id: number;
      number: string;
      invoice_id: number;
    }[];
    expect(notes.length).toBeGreaterThan(0);
    const note = notes[0];
    await page.goto(`/client/invoice/${note.invoice_id}`);
    const list = page.getByRole('list', { name: 'Credit notes' });
    await list.waitFor();
    expect(await layoutProblems(page, `/client/invoice/${note.invoice_id}`, PHONE.width, true)).toEqual([]);
    const [ubl] = await Promise.all([
      page.waitForEvent('download'),
      list.getByRole('button', { name: `Download ${note.number} (e-invoice, UBL)` }).click(),
    ]);
    expect(ubl.suggestedFilename()).toBe(`${note.number}.xml`);
    const xml = await readFile((await ubl.path())!, 'utf8');
    expect(xml).toMatch(/^<\?xml[^>]*>\s*<CreditNote\s/);
    expect(xml).toContain(`<cbc:ID>${note.number}</cbc:ID>`);
  });

  it('says an invoice that is not the client’s own was not found', async () => {
    const { page } = e2e;
    await signInClient(page);
    // Another client's: the API answers 404, as for one that does not exist.
    const mine = (await api(page, 'GET', '/api/invoices?per_page=100')).body.data.map((i: { id: number }) => i.id);
    const other = Math.max(0, ...mine) + 100_000;
    expect((await api(page, 'GET', `/api/invoices/${other}`)).status).toBe(404);
    await page.goto(`/client/invoice/${other}`);
    await page.getByText('This invoice was not found.', { exact: false }).waitFor();
    expect(await violations(page)).toEqual([]);
  });
});
