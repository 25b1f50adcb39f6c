import { render, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { AdminContext, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { http, HttpResponse } from 'msw';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineList } from '../../../src/engine/react/list';
import { pathsOf } from '../../../src/engine/react/paths';
import { invoices } from '../../../core/resources/invoices/resource';
import { installFakeApi } from './fakeApi';
import { server } from '../msw/server';
import { SELECTED_TEMPLATE_KEY, rememberTemplate, selectedTemplate } from '../../../src/resources/invoices/templates';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

installFakeApi(() => ({ clients: [{ id: 1, name: 'Acme Care', status: 'active' }] }));

const row = (id: number) => ({
  id,
  number: `INV-0000${id}`,
  label: `INV-0000${id}`,
  state: 'issued',
  client_id: 1,
  issue_date: '2030-01-07',
  due_date: '2030-02-06',
  net: 10000,
  total: 12000,
  balance: 12000,
});

describe('a list with declared totals', () => {
  it('shows the server’s totals of every matching row, not the page’s sums', async () => {
    const asked: URL[] = [];
    server.use(
      http.get('*/api/invoices', ({ request }) => {
        asked.push(new URL(request.url));
        // One page of two rows out of 30: the totals are the whole list's, as the server summed them.
        return HttpResponse.json({
          data: [row(1), row(2)],
          total_count: 30,
          total_pages: 15,
          current_page: 1,
          per_page: 2,
          references: {},
          totals: { net: 300000, vat: 60000, total: 360000, balance: 123456 },
        });
      }),
    );
    const paths = pathsOf(invoices);
    const at = paths.tab('sent');
    render(
      <TestMemoryRouter initialEntries={[at]}>
        <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ResourceContextProvider value="invoices">
            <Routes>
              <Route path={at} element={<EngineList decl={invoices} paths={paths} tabId="sent" />} />
            </Routes>
          </ResourceContextProvider>
        </AdminContext>
      </TestMemoryRouter>,
    );
    const region = await screen.findByRole('region', { name: 'Totals of the 30 shown rows' });
    const value = (label: string) => within(region).getByText(label).nextElementSibling?.textContent;
    expect(value('Net')).toBe('£3,000.00');
    expect(value('VAT')).toBe('£600.00');
    expect(value('Total')).toBe('£3,600.00');
    expect(value('Balance')).toBe('£1,234.56');
    // Under the tab's filter, as the rows are.
    expect(asked[0].searchParams.get('state')).toBe('sent');
  });
});

describe('the remembered invoice layout', () => {
  beforeEach(() => localStorage.clear());
  it('is TemplateOne by default, as the spec says, and TemplateTwo once the second is chosen', () => {
    expect(selectedTemplate()).toBe('template1');
    rememberTemplate('template2');
    expect(localStorage.getItem(SELECTED_TEMPLATE_KEY)).toBe('TemplateTwo');
    expect(selectedTemplate()).toBe('template2');
    rememberTemplate('template1');
    expect(localStorage.getItem(SELECTED_TEMPLATE_KEY)).toBe('TemplateOne');
    localStorage.setItem(SELECTED_TEMPLATE_KEY, 'something else');
    expect(selectedTemplate()).toBe('template1');
  });
});
