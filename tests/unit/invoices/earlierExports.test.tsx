import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { AdminContext, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineList } from '../../../src/engine/react/list';
import { pathsOf } from '../../../src/engine/react/paths';
import { invoiceExportBatches } from '../../../core/resources/invoices/exportBatches';
import { DownloadAgainButton } from '../../../src/resources/invoices/AccountingExport';
import { installFakeApi, requestsTo } from '../engine/fakeApi';
import { server } from '../msw/server';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

// Issue 32: each row of the earlier exports' list (/invoice/exports) downloads its export's files again, as its page
// does (GET /api/invoices/export/{package}?batch={id}: the same file, no new export), without opening the row.
const batch = (id: number, pkg: 'xero' | 'quickbooks') => ({
  id,
  package: pkg,
  period_from: '2031-03-01',
  period_to: '2031-03-09',
  client_id: null,
  include_exported: false,
  document_count: 3,
  file_count: 1,
  excluded_count: 0,
  exported_by: 'Ada Admin',
  created_at: '2031-03-10T09:00:00Z',
});
installFakeApi(() => ({ invoice_export_batches: [batch(8, 'quickbooks'), batch(7, 'xero')], clients: [] }));

const saved: string[] = [];
beforeEach(() => {
  saved.length = 0;
  URL.createObjectURL = () => 'blob:test/1';
  URL.revokeObjectURL = () => undefined;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push(this.download);
  };
});

describe('the earlier exports’ list', () => {
  it('downloads a row’s export again from the row, recording nothing and leaving the list in place', async () => {
    const asked: string[] = [];
    server.use(
      http.get('*/api/invoices/export/:pkg', ({ request, params }) => {
        asked.push(`${String(params.pkg)}?${new URL(request.url).searchParams}`);
        return new HttpResponse('*ContactName', {
          headers: {
            'content-type': 'text/csv',
            'content-disposition': `attachment; filename="${String(params.pkg)}-2031-03-10-export-7-invoices.csv"`,
          },
        });
      }),
    );
    const decl = invoiceExportBatches;
    const paths = pathsOf(decl);
    render(
      <TestMemoryRouter initialEntries={['/invoice/exports']}>
        <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ResourceContextProvider value={decl.name}>
            <Routes>
              <Route
                path="/invoice/exports"
                element={<EngineList decl={decl} paths={paths} rowActions={<DownloadAgainButton inRow />} />}
              />
              <Route path="/invoice/exports/:id" element={<p>The export’s page</p>} />
            </Routes>
          </ResourceContextProvider>
        </AdminContext>
      </TestMemoryRouter>,
    );
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
    // One button a row, named by its export.
    const again = await within(table).findByRole('button', { name: 'Download again: export 7' });
    expect(within(table).getByRole('button', { name: 'Download again: export 8' })).toBeTruthy();
    await userEvent.click(again);
    await waitFor(() => expect(saved).toEqual(['xero-2031-03-10-export-7-invoices.csv']));
    // The batch's own files, in its package's layout; no new export (no write of any kind).
    expect(asked).toEqual(['xero?batch=7']);
    expect(requestsTo('invoice_export_batches').filter((r) => r.method !== 'GET')).toEqual([]);
    // The click was the button's: the row did not open the export's page.
    expect(screen.queryByText('The export’s page')).toBeNull();
    expect(screen.getByRole('table')).toBeTruthy();
  });
});
