import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, ListContextProvider, Notification } from 'react-admin';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { AccountingExportButton } from '../../../src/resources/invoices/AccountingExport';
import { server } from '../msw/server';

// The dialog links to the earlier exports: one router module for react-admin's router and the product's Link.
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

// Issue 32: the invoice list's accounting export asks the export route with the period chosen with the product's
// date picker (the list's own Issued filter to start with), the list's client and the "include" choice, saves the file
// under the server's name, says what was exported, left out and not importable, and shows a refused period under its
// day.
const saved: string[] = [];
beforeEach(() => {
  saved.length = 0;
  localStorage.setItem('token', 'tok-export');
  URL.createObjectURL = () => 'blob:test/1';
  URL.revokeObjectURL = () => undefined;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push(this.download);
  };
});

function answer(status = 200) {
  const asked: string[] = [];
  server.use(
    http.get('*/api/invoices/export/:pkg', ({ request, params }) => {
      asked.push(`${String(params.pkg)}?${new URL(request.url).searchParams}`);
      if (status === 422)
        return HttpResponse.json(
          { message: 'Check the export’s filters.', errors: { to: 'Ends before From.' } },
          { status },
        );
      if (status !== 200)
        return HttpResponse.json(
          { message: 'Nothing to export for Xero: 3 issued documents were exported before.' },
          { status },
        );
      return new HttpResponse('*ContactName', {
        headers: {
          'content-type': 'text/csv',
          'content-disposition': `attachment; filename="${String(params.pkg)}-2031-03-10-export-7-invoices.csv"`,
          'x-export-batch': '7',
          'x-export-documents': '4',
          'x-export-excluded': '2',
          'x-export-skipped': params.pkg === 'quickbooks' ? '1' : '0',
        },
      });
    }),
  );
  return asked;
}

const inList = (filterValues: Record<string, unknown> = { client_id: 5 }) =>
  render(
    <AdminContext i18nProvider={i18nProvider}>
      <ListContextProvider value={{ filterValues } as never}>
        <AccountingExportButton />
      </ListContextProvider>
      <Notification />
    </AdminContext>,
  );

/** Opens the export's dialog from the list's button. */
async function opened() {
  await userEvent.click(screen.getByRole('button', { name: 'Accounting export' }));
  return screen.findByRole('dialog', { name: 'Accounting export' });
}

/** Types a day (digits only: the picker's sections, yyyy-MM-dd) into the picker labelled `label`. */
async function typeDay(dialog: HTMLElement, label: RegExp, digits: string) {
  const year = within(within(dialog).getByRole('group', { name: label })).getAllByRole('spinbutton')[0];
  await userEvent.click(year);
  act(() => year.focus());
  await userEvent.keyboard(digits);
}

describe('<AccountingExportButton>', () => {
  it('exports the filtered client for Xero and says what it left out', async () => {
    const asked = answer();
    inList();
    const dialog = await opened();
    // The earlier exports are a link away, to download one again.
    expect(within(dialog).getByRole('link', { name: 'Earlier exports' }).getAttribute('href')).toMatch(
      /\/invoice\/exports$/,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Xero (CSV)' }));
    await waitFor(() => expect(saved).toEqual(['xero-2031-03-10-export-7-invoices.csv']));
    expect(asked).toEqual(['xero?client_id=5']);
    expect(await screen.findByText('4 documents exported (export 7). 2 exported before were left out.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('exports the period typed in the product’s date pickers, yyyy-MM-dd', async () => {
    const asked = answer();
    inList();
    const dialog = await opened();
    await typeDay(dialog, /^Issued from/, '20310301');
    await typeDay(dialog, /^Issued to/, '20310331');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Xero (CSV)' }));
    await waitFor(() => expect(asked).toEqual(['xero?from=2031-03-01&to=2031-03-31&client_id=5']));
  });

  it('starts from the list’s Issued filter, and shows a refused period under its day', async () => {
    const asked = answer(422);
    inList({ issue_date_gte: '2031-03-31', issue_date_lte: '2031-03-01' });
    const dialog = await opened();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Xero (CSV)' }));
    await waitFor(() => expect(asked).toEqual(['xero?from=2031-03-31&to=2031-03-01']));
    const to = within(dialog)
      .getByRole('group', { name: /^Issued to/ })
      .closest('.MuiFormControl-root')!;
    await waitFor(() => expect(to).toHaveTextContent('Ends before From.'));
    expect(saved).toEqual([]);
  });

  it('includes documents exported before when ticked, and names what QuickBooks cannot take', async () => {
    const asked = answer();
    inList();
    const dialog = await opened();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Include documents exported before' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'QuickBooks Online (CSV)' }));
    await waitFor(() => expect(asked).toEqual(['quickbooks?client_id=5&include_exported=true']));
    expect(
      await screen.findByText(
        '4 documents exported (export 7). 2 exported before were left out. 1 credit note(s) to enter by hand: QuickBooks does not import them.',
      ),
    ).toBeTruthy();
  });

  it('shows the server’s words when there is nothing to export', async () => {
    answer(409);
    inList();
    const dialog = await opened();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Xero (CSV)' }));
    expect(
      await screen.findByText('Nothing to export for Xero: 3 issued documents were exported before.'),
    ).toBeTruthy();
    expect(saved).toEqual([]);
  });
});
