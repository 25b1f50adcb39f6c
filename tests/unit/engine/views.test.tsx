import type { ReactElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { AdminContext, Notification, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineCreate, EngineEdit, createDefaults } from '../../../src/engine/react/form';
import { EngineList } from '../../../src/engine/react/list';
import { EngineShow } from '../../../src/engine/react/show';
import { candidateRestrictions } from '../../../core/resources/compliance/resource';
import { pathsOf } from '../../../src/engine/react/paths';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { candidates } from '../../../core/resources/candidates/resource';
import { clients } from '../../../core/resources/clients/resource';
import { jobRoles } from '../../../core/resources/settings/resources';
import { api, field, findField, params, queryField, requestsTo, installFakeApi, type Rec } from './fakeApi';
import { http, HttpResponse } from 'msw';
import { server } from '../msw/server';

vi.setConfig({ testTimeout: 30_000 });

// Under vitest, 'react-router' (imported by the engine) and 'react-router-dom' (imported by react-admin) can load as
// two module instances (CJS and ESM builds), so the engine's <Link> would not see react-admin's router. In the
// browser bundle they are one module; here we make them one by serving 'react-router' from 'react-router-dom'.
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const people: Rec[] = [
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
    created_at: '2026-01-05T09:00:00.000Z',
  },
  {
    id: 2,
    first_name: 'Alan',
    last_name: 'Turing',
    email: 'alan@example.com',
    phone: '07000 000002',
    status: 'approved',
    activated: false,
    job_role_id: null,
    staff_status_id: null,
    created_at: '2026-01-06T09:00:00.000Z',
  },
  {
    id: 3,
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    phone: '07000 000003',
    status: 'pending',
    activated: false,
    job_role_id: null,
    staff_status_id: null,
    created_at: '2026-01-07T09:00:00.000Z',
  },
];

installFakeApi(() => ({
  candidates: people.map((p) => ({ ...p })),
  staff_detail_fields: [],
  clients: [
    {
      id: 1,
      name: 'Acme Care',
      code: 'ACME',
      billing_email: 'bills@acme.test',
      status: 'active',
      payment_terms_days: 30,
      // As the server answers every client (migration 041's default).
      timesheet_per: 'client',
      signing_methods: ['panel', 'link', 'phone'],
      shift_request_approval: 'agency',
    },
  ],
  job_roles: [
    {
      id: 4,
      name: 'Carer',
      code: 'CR',
      default_pay_rate: 1250,
      default_charge_rate: 1800,
      vat_concession: 'none',
      active: true,
    },
  ],
}));

function renderAt(decl: ResourceDeclaration, route: string, pattern: string, element: ReactElement) {
  return render(
    <TestMemoryRouter initialEntries={[route]}>
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <ResourceContextProvider value={decl.name}>
          <Routes>
            <Route path={pattern} element={element} />
            <Route path="*" element={<div>elsewhere</div>} />
          </Routes>
          {/* The toasts a save or delete shows. */}
          <Notification />
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const list = (decl: ResourceDeclaration, tabId?: string) => {
  const paths = pathsOf(decl);
  const at = tabId ? paths.tab(tabId) : paths.list;
  return renderAt(decl, at, at, <EngineList decl={decl} paths={paths} tabId={tabId} />);
};
const create = (decl: ResourceDeclaration) => {
  const paths = pathsOf(decl);
  return renderAt(decl, paths.create, paths.patterns.create, <EngineCreate decl={decl} paths={paths} />);
};
const edit = (decl: ResourceDeclaration, id: number) => {
  const paths = pathsOf(decl);
  return renderAt(decl, paths.edit(id), paths.patterns.edit, <EngineEdit decl={decl} paths={paths} />);
};
const show = (decl: ResourceDeclaration, id: number) => {
  const paths = pathsOf(decl);
  return renderAt(decl, paths.show(id), paths.patterns.show, <EngineShow decl={decl} paths={paths} />);
};

const headers = () => [...document.querySelectorAll('thead th')].map((h) => h.textContent?.trim()).filter(Boolean);
// Role queries over a whole react-admin screen are slow in jsdom; these elements have stable selectors.
const saveButton = () => document.querySelector<HTMLButtonElement>('button[type="submit"][aria-label="Save"]')!;
const tab = (label: string) =>
  [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.textContent === label)!;
/** The form control (input, label and helper text) around a labelled input. */
const controlOf = (label: RegExp) => field(label).closest('.MuiFormControl-root, .MuiTextField-root') as HTMLElement;

describe('EngineList', () => {
  it('shows the declared list columns and the rows from the API, asking for page, per_page, sort, order and the tab filter', async () => {
    list(candidates, 'activeStaff');
    expect(await screen.findByText('Lovelace')).toBeInTheDocument();
    // The declared list columns, less those declared listHidden (Mobile, Staff status, Activated: in the column
    // chooser).
    expect(headers()).toEqual(['First name', 'Last name', 'E-mail', 'Job role', 'Status', 'Compliance']);
    expect(candidates.fields.filter((f) => f.listHidden).map((f) => f.label)).toEqual([
      'Mobile',
      'Staff status',
      'Activated',
    ]);
    // Only the active (approved and activated) staff member is listed.
    expect(screen.queryByText('Turing')).toBeNull();
    expect(screen.queryByText('Hopper')).toBeNull();
    const calls = requestsTo('candidates', 'GET');
    expect(calls.length).toBeGreaterThan(0);
    expect(params(calls.at(-1)!)).toEqual({
      page: '1',
      per_page: '25',
      sort: 'last_name',
      order: 'asc',
      status: 'approved',
      activated: 'true',
      // What the rows show, hidden columns included; the rest of a staff member is read on their page.
      fields: 'first_name,last_name,email,phone,job_role_id,staff_status_id,status,activated,compliance,custom_fields',
    });
    // Fields kept off the list (date of birth, address, notes) have no column.
    expect(screen.queryByText('Date of birth')).toBeNull();
    // The tabs link to the spec routes.
    expect(tab('Active')).toHaveAttribute('aria-selected', 'true');
    expect(tab('Inactive')).toHaveAttribute('href', '/staffs/InactiveStaff');
  });

  it('the inactive tab asks for approved and not activated', async () => {
    list(candidates, 'InactiveStaff');
    expect(await screen.findByText('Turing')).toBeInTheDocument();
    expect(screen.queryByText('Lovelace')).toBeNull();
    expect(params(requestsTo('candidates', 'GET').at(-1)!)).toMatchObject({ status: 'approved', activated: 'false' });
  });

  it('sorting by clicking a sortable column header sends sort and order; unsortable columns are not buttons', async () => {
    const user = userEvent.setup({ delay: null });
    list(candidates, 'allStaffs');
    expect(await screen.findByText('Hopper')).toBeInTheDocument();
    const before = requestsTo('candidates', 'GET').length;
    await user.click(document.querySelector('th [data-field="first_name"]')!);
    await waitFor(() => expect(requestsTo('candidates', 'GET').length).toBeGreaterThan(before));
    expect(params(requestsTo('candidates', 'GET').at(-1)!)).toMatchObject({ sort: 'first_name', order: 'asc' });
    // Compliance is a shown column that is not declared sortable: a plain header, no sort button.
    const compliance = [...document.querySelectorAll('thead th')].find((h) => h.textContent?.trim() === 'Compliance')!;
    expect(compliance).toBeTruthy();
    expect(compliance.querySelector('[role="button"]')).toBeNull();
    expect(document.querySelector('th [data-field="compliance"]')).toBeNull();
    expect(document.querySelector('th [data-field="phone"]')).toBeNull();
    expect(document.querySelector('th [data-field="staff_status_id"]')).toBeNull();
  });

  it('a bulk delete names what it deleted, never react-admin\'s "Element deleted"', async () => {
    const user = userEvent.setup({ delay: null });
    list(candidates, 'allStaffs');
    const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    await user.click(within(await row('Lovelace')).getByRole('checkbox'));
    await user.click(within(await row('Turing')).getByRole('checkbox'));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('2 staff deleted')).toBeInTheDocument();
    expect(requestsTo('candidates', 'DELETE')).toHaveLength(2);
  });

  it('an empty list says so and offers to add the first one', async () => {
    api.records.set('clients', []);
    list(clients, 'allClient');
    expect(await screen.findByText('No clients yet.')).toBeInTheDocument();
    expect(screen.getByText('Add the first one').closest('a')).toHaveAttribute('href', '/client/create');
  });

  it('an empty filtered tab says that nothing matches', async () => {
    list(clients, 'Inactive-Client');
    expect(await screen.findByText('No clients match these filters.')).toBeInTheDocument();
    expect(params(requestsTo('clients', 'GET').at(-1)!)).toMatchObject({ status: 'inactive' });
  });

  it('money columns show pounds from pence', async () => {
    list(jobRoles);
    expect(await screen.findByText('£12.50')).toBeInTheDocument();
    // The default charge (£18.00) is a column the chooser offers: the list leaves it out until chosen.
    expect(screen.queryByText('£18.00')).toBeNull();
  });
});

describe('EngineCreate', () => {
  it("a new restriction's date starts on today (the day it is usually recorded)", () => {
    expect(createDefaults(candidateRestrictions, new Date(2026, 4, 7, 23, 30))).toMatchObject({
      restricted_on: '2026-05-07',
    });
    // Other dates start empty.
    expect(createDefaults(clients)).not.toHaveProperty('created_at');
  });

  it('shows the declared inputs', async () => {
    create(clients);
    expect(await findField(/^Name/)).toBeInTheDocument();
    for (const label of [
      /^Client code/,
      /^E-mail/,
      /^Billing e-mail/,
      /^Phone/,
      /^VAT number/,
      /^Payment terms \(days\)/,
      /^Notes/,
      /^Address line 1/,
      /^Postcode/,
    ]) {
      expect(field(label), String(label)).toBeInTheDocument();
    }
    // Read-only and list-only fields are not inputs.
    expect(queryField(/^Added/)).toBeNull();
    // Declared defaults fill the form.
    expect(field(/^Payment terms/)).toHaveValue(30);
  });

  it("client-side validation shows 'Required' next to an empty required field and calls no API", async () => {
    const user = userEvent.setup({ delay: null });
    create(clients);
    // A pristine form cannot be saved; touch an optional field so Save is enabled.
    await user.type(await findField(/^Notes/), 'Prefers e-mail.');
    await user.click(saveButton());
    await waitFor(() => expect(within(controlOf(/^Name/)).getByText('Required')).toBeInTheDocument());
    expect(within(controlOf(/^Billing e-mail/)).getByText('Required')).toBeInTheDocument();
    await user.type(field(/^Billing e-mail/), 'not-an-address');
    await user.click(saveButton());
    await waitFor(() =>
      expect(within(controlOf(/^Billing e-mail/)).getByText('Invalid email address')).toBeInTheDocument(),
    );
    expect(requestsTo('clients', 'POST')).toHaveLength(0);
  });

  it("a server 422 shows the server's message next to the field and nothing is created", async () => {
    const user = userEvent.setup({ delay: null });
    api.validate = (_r, body) =>
      body.email === 'taken@acme.test' ? { email: 'Already used by another record' } : undefined;
    create(clients);
    await user.type(await findField(/^Name/), 'Beta Homes');
    await user.type(field(/^E-mail/), 'taken@acme.test');
    await user.type(field(/^Billing e-mail/), 'bills@beta.test');
    await user.click(saveButton());
    await waitFor(() =>
      expect(within(controlOf(/^E-mail/)).getByText('Already used by another record')).toBeInTheDocument(),
    );
    expect(requestsTo('clients', 'POST')).toHaveLength(1);
    expect(api.records.get('clients')).toHaveLength(1);
    expect(screen.queryByText('elsewhere')).toBeNull();
  });

  it('a valid create POSTs the typed values and the declared defaults, then goes to the new record', async () => {
    const user = userEvent.setup({ delay: null });
    create(clients);
    await user.type(await findField(/^Name/), 'Beta Homes');
    await user.type(field(/^Billing e-mail/), 'bills@beta.test');
    await user.type(field(/^Postcode/), 'LS1 4AP');
    await user.click(saveButton());
    await waitFor(() => expect(requestsTo('clients', 'POST')).toHaveLength(1));
    expect(requestsTo('clients', 'POST')[0].body).toMatchObject({
      name: 'Beta Homes',
      billing_email: 'bills@beta.test',
      status: 'active',
      payment_terms_days: 30,
      address: { postcode: 'LS1 4AP' },
    });
    expect(await screen.findByText('elsewhere')).toBeInTheDocument(); // redirected to /client/view/2
    // The toast names what was saved.
    expect(await screen.findByText('Client created')).toBeInTheDocument();
  });

  it('money is typed in pounds and sent in pence (12.50 → 1250)', async () => {
    const user = userEvent.setup({ delay: null });
    create(jobRoles);
    await user.type(await findField(/^Job role/), 'Nurse');
    await user.type(field(/^Default pay rate/), '12.50');
    await user.type(field(/^Default charge rate/), '20.1');
    await user.click(saveButton());
    await waitFor(() => expect(requestsTo('job_roles', 'POST')).toHaveLength(1));
    expect(requestsTo('job_roles', 'POST')[0].body).toMatchObject({
      name: 'Nurse',
      default_pay_rate: 1250,
      default_charge_rate: 2010,
      active: true,
    });
  });

  it('money limits are given to the input in pounds, and an amount over them is not sent', async () => {
    const user = userEvent.setup({ delay: null });
    create(jobRoles);
    await user.type(await findField(/^Job role/), 'Nurse');
    const pay = field(/^Default pay rate/) as HTMLInputElement;
    expect(pay).toHaveAttribute('max', '1000');
    expect(pay).toHaveAttribute('min', '0');
    await user.type(pay, '1000.01');
    expect(pay.validity.rangeOverflow).toBe(true);
    await user.click(saveButton());
    // The form has judged the save (its error is shown next to the field) before the absence of a request is read.
    expect(await screen.findByText('Must be 1000 or less')).toBeInTheDocument();
    expect(requestsTo('job_roles', 'POST')).toHaveLength(0);
  });
});

describe('EngineEdit and EngineShow', () => {
  it('the edit form loads the record and PUTs the changed data', async () => {
    const user = userEvent.setup({ delay: null });
    edit(clients, 1);
    const name = await findField(/^Name/);
    await waitFor(() => expect(name).toHaveValue('Acme Care'));
    await user.clear(name);
    await user.type(name, 'Acme Care Group');
    await user.click(saveButton());
    await waitFor(() => expect(requestsTo('clients', 'PUT')).toHaveLength(1));
    const put = requestsTo('clients', 'PUT')[0];
    expect(put.url.pathname).toBe('/api/clients/1');
    expect(put.body).toMatchObject({ name: 'Acme Care Group', billing_email: 'bills@acme.test', status: 'active' });
    expect(api.records.get('clients')![0].name).toBe('Acme Care Group');
  });

  it('the edit form shows money in pounds and sends pence', async () => {
    const user = userEvent.setup({ delay: null });
    edit(jobRoles, 4);
    const pay = await findField(/^Default pay rate/);
    await waitFor(() => expect(pay).toHaveValue(12.5));
    await user.clear(pay);
    await user.type(pay, '13.75');
    await user.click(saveButton());
    await waitFor(() => expect(requestsTo('job_roles', 'PUT')).toHaveLength(1));
    expect(requestsTo('job_roles', 'PUT')[0].body).toMatchObject({ default_pay_rate: 1375, default_charge_rate: 1800 });
  });

  it('an edit that breaks validation is not sent', async () => {
    const user = userEvent.setup({ delay: null });
    edit(clients, 1);
    const name = await findField(/^Name/);
    await waitFor(() => expect(name).toHaveValue('Acme Care'));
    await user.clear(name);
    await user.click(saveButton());
    await waitFor(() => expect(within(controlOf(/^Name/)).getByText('Required')).toBeInTheDocument());
    expect(requestsTo('clients', 'PUT')).toHaveLength(0);
  });

  it('the show view labels and formats the fields', async () => {
    show(jobRoles, 4);
    expect(await screen.findByText('Carer')).toBeInTheDocument();
    expect(screen.getByText('Default pay rate (per hour)')).toBeInTheDocument();
    expect(screen.getByText('£12.50')).toBeInTheDocument();
    expect(screen.getByText('£18.00')).toBeInTheDocument();
  });
});

describe('CSV export', () => {
  it("downloads the server's file of the whole list, asked with the list's filters and sort, under the name it gives", async () => {
    api.records.set(
      'clients',
      Array.from({ length: 150 }, (_, i) => ({
        id: i + 1,
        name: `Client ${String(i + 1).padStart(3, '0')}`,
        code: `C${i + 1}`,
        status: 'active',
        billing_email: `b${i + 1}@x.test`,
      })),
    );
    const asked: URL[] = [];
    server.use(
      http.get('*/api/clients/export', ({ request }) => {
        asked.push(new URL(request.url));
        return new HttpResponse('\uFEFF"ID","Name"\r\n1,"Client 001"\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="clients-2026-11-27.csv"',
          },
        });
      }),
    );
    const saved: { blob: Blob; name: string }[] = [];
    // The download goes through msSaveOrOpenBlob where the browser has it (as react-admin's downloadCSV does).
    (window.navigator as any).msSaveOrOpenBlob = (blob: Blob, name: string) => saved.push({ blob, name });
    try {
      list(clients);
      await screen.findByText('Client 001');
      const before = requestsTo('clients', 'GET').length;
      // The list's Export, not the bulk-selection one.
      await userEvent.click(
        screen.getAllByRole('button', { name: 'Export' }).find((b) => !b.closest('.RaBulkActionsToolbar-root'))!,
      );
      await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
      expect(saved[0].name).toBe('clients-2026-11-27.csv');
      expect(await saved[0].blob.text()).toContain('Client 001');
      expect(asked).toHaveLength(1);
      expect(asked[0].searchParams.get('format')).toBe('csv');
      expect(asked[0].searchParams.get('sort')).toBe(clients.defaultSort.field);
      // The browser gathers nothing itself: no list pages were asked for the file.
      expect(requestsTo('clients', 'GET').length).toBe(before);
    } finally {
      delete (window.navigator as any).msSaveOrOpenBlob;
    }
  });
});
