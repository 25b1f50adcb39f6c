import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, ListContextProvider, Notification } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { AccountingExportButton } from '../../../src/resources/invoices/AccountingExport';
import { server } from '../msw/server';

// Issue 32: the invoice list's accounting export asks the export route with the list's client and the "include"
// choice, saves the file under the server's name, and says what was exported, left out and not importable.
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

const inList = () =>
  render(
    <AdminContext i18nProvider={i18nProvider}>
      <ListContextProvider value={{ filterValues: { client_id: 5 } } as never}>
        <AccountingExportButton />
      </ListContextProvider>
      <Notification />
    </AdminContext>,
  );

describe('<AccountingExportButton>', () => {
  it('exports the filtered client for Xero and says what it left out', async () => {
    const asked = answer();
    inList();
    await userEvent.click(screen.getByRole('button', { name: 'Accounting export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Xero (CSV)' }));
    await waitFor(() => expect(saved).toEqual(['xero-2031-03-10-export-7-invoices.csv']));
    expect(asked).toEqual(['xero?client_id=5']);
    expect(await screen.findByText('4 documents exported (export 7). 2 exported before were left out.')).toBeTruthy();
  });

  it('includes documents exported before when ticked, and names what QuickBooks cannot take', async () => {
    const asked = answer();
    inList();
    await userEvent.click(screen.getByRole('button', { name: 'Accounting export' }));
    await userEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Include documents exported before' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'QuickBooks Online (CSV)' }));
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
    await userEvent.click(screen.getByRole('button', { name: 'Accounting export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Xero (CSV)' }));
    expect(
      await screen.findByText('Nothing to export for Xero: 3 issued documents were exported before.'),
    ).toBeTruthy();
    expect(saved).toEqual([]);
  });
});
