import { render, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { AdminContext, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { http, HttpResponse } from 'msw';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { pathsOf } from '../../../src/engine/react/paths';
import { PayrollReport } from '../../../src/resources/payroll';
import { payslips } from '../../../core/resources/payroll/resource';
import { installFakeApi } from '../engine/fakeApi';
import { server } from '../msw/server';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

installFakeApi(() => ({
  candidates: [{ id: 7, first_name: 'Ava', last_name: 'Reid' }],
  pay_runs: [{ id: 3, period_start: '2030-01-07', period_end: '2030-01-13', state: 'finalised' }],
  employment_types: [{ id: 2, name: 'Umbrella company' }],
}));

const payslip = {
  id: 11,
  pay_run_id: 3,
  candidate_id: 7,
  state: 'finalised',
  period_start: '2030-01-07',
  period_end: '2030-01-13',
  employment_type_id: 2,
  clients: 'Acme Care, Bay Hospital',
  hours: 37.5,
  gross: 61234,
  holiday_pay: 0,
  deductions: 1500,
  tax: 0,
  employee_ni: 0,
  employer_cost: 0,
  net: 59734,
};

describe('the payroll report', () => {
  it('opens on the finalised runs’ payslips with their figures, the totals of every matching row beneath, and only reads', async () => {
    const asked: URL[] = [];
    server.use(
      http.get('*/api/payslips', ({ request }) => {
        asked.push(new URL(request.url));
        return HttpResponse.json({
          data: [payslip],
          total_count: 40,
          total_pages: 2,
          current_page: 1,
          per_page: 25,
          references: {},
          totals: {
            hours: 1234.5,
            gross: 4_567_800,
            holiday_pay: 123_400,
            deductions: 9_900,
            tax: 456_700,
            employee_ni: 234_500,
            employer_cost: 345_600,
            net: 3_866_700,
          },
        });
      }),
    );
    const paths = pathsOf(payslips);
    const tab = paths.tab('finalised');
    render(
      <TestMemoryRouter initialEntries={['/report/PayrollReport']}>
        <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ResourceContextProvider value="payslips">
            <Routes>
              <Route path={paths.list} element={<PayrollReport decl={payslips} paths={paths} />} />
              <Route path={tab} element={<PayrollReport decl={payslips} paths={paths} tabId="finalised" />} />
            </Routes>
          </ResourceContextProvider>
        </AdminContext>
      </TestMemoryRouter>,
    );
    expect(tab).toBe('/report/PayrollReport/finalised');
    const region = await screen.findByRole('region', { name: 'Totals of the 40 shown rows' });
    expect(screen.getByRole('tab', { name: 'Finalised' }).getAttribute('aria-selected')).toBe('true');
    // The tab's filter: the payslips of finalised runs.
    expect(asked[0].searchParams.get('run_state')).toBe('finalised');

    const value = (label: string) => within(region).getByText(label).nextElementSibling?.textContent;
    expect(value('Hours')).toBe('1234.5');
    expect(value('Gross')).toBe('£45,678.00');
    expect(value('Holiday pay')).toBe('£1,234.00');
    expect(value('Deductions')).toBe('£99.00');
    expect(value('Tax')).toBe('£4,567.00');
    expect(value('Employee NI')).toBe('£2,345.00');
    expect(value('Employer costs')).toBe('£3,456.00');
    expect(value('Net')).toBe('£38,667.00');

    const table = screen.getByRole('table');
    const row = within(table).getAllByRole('row')[1];
    await within(row).findByText('£612.34');
    within(row).getByText('£597.34');
    // A report: export, but nothing made, changed or deleted from it.
    screen.getAllByRole('button', { name: 'Export' });
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});
