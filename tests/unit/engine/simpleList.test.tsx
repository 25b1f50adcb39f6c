import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { AdminContext, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineList, simpleListParts } from '../../../src/engine/react/list';
import { pathsOf } from '../../../src/engine/react/paths';
import { candidates } from '../../../core/resources/candidates/resource';
import { sites } from '../../../core/resources/sites/resource';
import { installFakeApi } from './fakeApi';

vi.setConfig({ testTimeout: 30_000 });
// One router module for the engine and react-admin (see views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

installFakeApi(() => ({
  candidates: [
    {
      id: 1,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '07000 000001',
      status: 'approved',
      activated: true,
      job_role_id: null,
      staff_status_id: null,
    },
    {
      id: 3,
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone: null,
      status: 'pending',
      activated: false,
      job_role_id: null,
      staff_status_id: null,
    },
  ],
  staff_detail_fields: [],
}));

/** A phone: every media query of the theme's "down('md')" kind matches. */
function asPhone(matches: boolean) {
  window.matchMedia = ((query: string) => ({
    matches,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as any;
}
afterEach(() => {
  delete (window as any).matchMedia;
});

function listAt() {
  const paths = pathsOf(candidates);
  render(
    <TestMemoryRouter initialEntries={[paths.list]}>
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <ResourceContextProvider value="candidates">
          <Routes>
            <Route path={paths.list} element={<EngineList decl={candidates} paths={paths} />} />
            <Route path="/staffs/:id" element={<div>profile page</div>} />
          </Routes>
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('the declaration-driven SimpleList', () => {
  it('takes its name from recordRepresentation, the next two list fields as detail, and the status choice', () => {
    const staff = simpleListParts(candidates);
    expect(staff.primary({ id: 1, first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(staff.secondary.map((f) => f.source)).toEqual(['email', 'phone']);
    expect(staff.status?.source).toBe('status');
    const place = simpleListParts(sites);
    expect(place.primary({ id: 2, name: 'Annexe' })).toBe('Annexe');
    expect(place.secondary.every((f) => f.source !== 'name' && f.source !== 'status')).toBe(true);
  });

  it('below the tablet breakpoint the list is one card a record (no table); a tap opens the record', async () => {
    asPhone(true);
    listAt();
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    expect(document.querySelector('table')).toBeNull();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('Approved')).toBeInTheDocument();
    // (The tab "Pending" is above the list; the card's status is inside it.)
    expect(screen.getAllByText('Pending').some((el) => el.closest('li'))).toBe(true);
    // An empty detail reads "—".
    expect(screen.getAllByText('—').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByText('Ada Lovelace'));
    expect(await screen.findByText('profile page')).toBeInTheDocument();
  });

  it('on a wide screen the same list is a table whose rows take focus and whose names are links', async () => {
    asPhone(false);
    listAt();
    const link = await screen.findByRole('link', { name: 'Ada' });
    expect(link.getAttribute('href')).toBe('/staffs/1');
    const row = link.closest('tr')!;
    expect(row.classList.contains('engine-row')).toBe(true);
    // The list is one Tab stop (roving tabindex): the first row takes the focus, the others are reached by arrows.
    const rows = [...document.querySelectorAll<HTMLElement>('tbody tr.engine-row')];
    expect(rows.map((r) => r.getAttribute('tabindex'))).toEqual(['0', '-1']);
    expect(rows.indexOf(row)).toBe(1);
    rows[0].focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(row);
    expect(rows.map((r) => r.getAttribute('tabindex'))).toEqual(['-1', '0']);
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('profile page')).toBeInTheDocument();
  });
});
