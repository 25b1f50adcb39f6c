import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Admin, CustomRoutes, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { buildResource } from '../../../src/engine/react/buildResource';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { validateRecord } from '../../../core/engine/validate';
import { api, field, findField, params, requestsTo, installFakeApi, type Rec } from './fakeApi';

// "A test adds a throwaway entity by configuration alone and exercises its API and its generated views":
// nothing below but a declaration, buildResource and an in-memory API that follows the conventions.

vi.setConfig({ testTimeout: 30_000 });
// One react-router module instance for the engine and react-admin under vitest (see views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const vehicles: ResourceDeclaration = {
  name: 'vehicles',
  table: 'vehicles',
  label: { one: 'Vehicle', many: 'Vehicles' },
  recordRepresentation: '%{registration}',
  defaultSort: { field: 'registration', order: 'ASC' },
  search: ['registration', 'make'],
  delete: 'hard',
  access: { admin: ['list', 'show', 'create', 'edit', 'delete', 'export'] },
  tabs: [
    { id: 'all', label: 'All vehicles', filter: {} },
    { id: 'electric', label: 'Electric only', filter: { fuel: 'electric' } },
  ],
  fields: [
    {
      source: 'registration',
      type: 'text',
      label: 'Registration',
      required: true,
      maxLength: 8,
      sortable: true,
      pattern: { regex: '^[A-Z0-9 ]+$', message: 'Use capital letters and digits' },
    },
    { source: 'make', type: 'text', label: 'Make', sortable: true },
    { source: 'seats', type: 'number', label: 'Seats', integer: true, min: 1, max: 9, sortable: true },
    {
      source: 'fuel',
      type: 'choice',
      label: 'Fuel',
      required: true,
      defaultValue: 'petrol',
      filter: true,
      sortable: true,
      choices: [
        { id: 'petrol', name: 'Petrol' },
        { id: 'diesel', name: 'Diesel' },
        { id: 'electric', name: 'Electric' },
      ],
    },
    { source: 'wheelchair', type: 'boolean', label: 'Wheelchair access', defaultValue: false, filter: true },
    {
      source: 'mot_due',
      type: 'date',
      label: 'MOT due',
      date: { min: '2020-01-01' },
      views: ['show', 'edit', 'create'],
    },
  ],
};

const fleet = (): Rec[] => [
  { id: 1, registration: 'AB12 CDE', make: 'Ford', seats: 7, fuel: 'diesel', wheelchair: true, mot_due: '2026-05-01' },
  {
    id: 2,
    registration: 'EV70 ZAP',
    make: 'Nissan',
    seats: 5,
    fuel: 'electric',
    wheelchair: false,
    mot_due: '2026-08-12',
  },
];
installFakeApi(() => ({ vehicles: fleet(), vans: fleet() }));

function app(decl: ResourceDeclaration, at: string) {
  const built = buildResource(decl);
  let location = '';
  render(
    <TestMemoryRouter initialEntries={[at]} locationCallback={(l) => (location = l.pathname)}>
      <Admin dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        {built.resource}
        <CustomRoutes>{built.routes}</CustomRoutes>
      </Admin>
    </TestMemoryRouter>,
  );
  return { built, location: () => location };
}

const headers = () => [...document.querySelectorAll('thead th')].map((h) => h.textContent?.trim()).filter(Boolean);
const saveButton = () => document.querySelector<HTMLButtonElement>('button[type="submit"][aria-label="Save"]')!;
const controlOf = (label: RegExp) => field(label).closest('.MuiFormControl-root') as HTMLElement;

describe('a throwaway entity declared in the test', () => {
  it('needs no routes of its own beyond the tabs: react-admin paths serve list, create, show and edit', () => {
    const { paths, routes, name } = buildResource(vehicles);
    expect(name).toBe('vehicles');
    expect([paths.list, paths.create, paths.show(3), paths.edit(3)]).toEqual([
      '/vehicles',
      '/vehicles/create',
      '/vehicles/3/show',
      '/vehicles/3',
    ]);
    expect(routes.map((r) => (r.props as { path: string }).path)).toEqual(['/vehicles/all', '/vehicles/electric']);
  });

  it('its list shows the declared columns and the API rows, with server paging and the default sort', async () => {
    app(vehicles, '/vehicles');
    expect(await screen.findByText('EV70 ZAP')).toBeInTheDocument();
    expect(screen.getByText('AB12 CDE')).toBeInTheDocument();
    expect(headers()).toEqual(['Registration', 'Make', 'Seats', 'Fuel', 'Wheelchair access']);
    expect(screen.getByText('Diesel')).toBeInTheDocument(); // the choice's name, not its id
    expect(params(requestsTo('vehicles', 'GET').at(-1)!)).toEqual({
      page: '1',
      per_page: '25',
      sort: 'registration',
      order: 'asc',
      // The columns it shows, and nothing of a vehicle the list does not.
      fields: 'registration,make,seats,fuel,wheelchair',
    });
  });

  it('its tab has its own route and sends its filter', async () => {
    app(vehicles, '/vehicles/electric');
    expect(await screen.findByText('EV70 ZAP')).toBeInTheDocument();
    expect(screen.queryByText('AB12 CDE')).toBeNull();
    expect(params(requestsTo('vehicles', 'GET').at(-1)!)).toMatchObject({ fuel: 'electric' });
    const tab = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find(
      (t) => t.textContent === 'Electric only',
    )!;
    expect(tab).toHaveAttribute('aria-selected', 'true');
  });

  it('its free-text search sends q', async () => {
    const user = userEvent.setup({ delay: null });
    app(vehicles, '/vehicles');
    expect(await screen.findByText('EV70 ZAP')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search'), 'nissan');
    await waitFor(() => expect(params(requestsTo('vehicles', 'GET').at(-1)!)).toMatchObject({ q: 'nissan' }));
    await waitFor(() => expect(screen.queryByText('AB12 CDE')).toBeNull());
    expect(screen.getByText('EV70 ZAP')).toBeInTheDocument();
  });

  it('its create form validates from the declaration, then POSTs the typed values and shows the new record', async () => {
    const user = userEvent.setup({ delay: null });
    const t = app(vehicles, '/vehicles/create');
    const registration = await findField(/^Registration/);
    for (const label of [/^Make/, /^Seats/, /^Wheelchair access/]) expect(field(label)).toBeInTheDocument();
    expect(screen.getAllByText('MOT due').length).toBeGreaterThan(0);

    // The declared pattern's message, next to the field, and no call.
    await user.type(registration, 'ab-12');
    await user.click(saveButton());
    await waitFor(() =>
      expect(within(controlOf(/^Registration/)).getByText('Use capital letters and digits')).toBeInTheDocument(),
    );
    await user.clear(registration);
    await user.type(field(/^Make/), 'Ford');
    await user.click(saveButton());
    await waitFor(() => expect(within(controlOf(/^Registration/)).getByText('Required')).toBeInTheDocument());
    expect(requestsTo('vehicles', 'POST')).toHaveLength(0);

    await user.type(registration, 'LT24 BUS');
    await user.type(field(/^Seats/), '8');
    await user.click(screen.getByLabelText(/^Fuel/));
    await user.click(await screen.findByText('Electric', { selector: 'li' }));
    await user.click(field(/^Wheelchair access/));
    await user.click(saveButton());

    await waitFor(() => expect(requestsTo('vehicles', 'POST')).toHaveLength(1));
    const body = requestsTo('vehicles', 'POST')[0].body;
    expect(body).toEqual({ registration: 'LT24 BUS', make: 'Ford', seats: 8, fuel: 'electric', wheelchair: true }); // the date picker has its own tests
    // What the form sends passes the server's check of the same declaration.
    expect(validateRecord(vehicles, body)).toEqual({});
    // Redirected to the new record's show view, served from the API.
    await waitFor(() => expect(t.location()).toBe('/vehicles/3/show'));
    expect(await screen.findByText('LT24 BUS')).toBeInTheDocument();
    expect(api.records.get('vehicles')).toHaveLength(3);
  });

  it('declared spec routes are canonical: react-admin paths redirect to them', async () => {
    const vans: ResourceDeclaration = {
      ...vehicles,
      name: 'vans',
      routes: {
        list: '/fleet/van-list',
        show: '/fleet/van/:id',
        edit: '/fleet/van/:id/edit',
        create: '/fleet/new-van',
      },
      tabs: [
        { id: 'all', label: 'All vans', filter: {}, path: '/fleet/van-list/all' },
        { id: 'electric', label: 'Electric vans', filter: { fuel: 'electric' } },
      ],
    };
    const t = app(vans, '/vans/2/show');
    await waitFor(() => expect(t.location()).toBe('/fleet/van/2'));
    expect(await screen.findByText('EV70 ZAP')).toBeInTheDocument();
    expect(requestsTo('vans', 'GET').some((r) => r.url.pathname === '/api/vans/2')).toBe(true);
    const built = buildResource(vans);
    expect(built.routes.map((r) => (r.props as { path: string }).path)).toEqual([
      '/fleet/van-list',
      '/fleet/new-van',
      '/fleet/van/:id',
      '/fleet/van/:id/edit',
      '/fleet/van-list/all',
      '/fleet/van-list/electric',
    ]);
  });
});
