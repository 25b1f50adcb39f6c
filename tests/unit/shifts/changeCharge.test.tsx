import type { ReactElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { http } from 'msw';
import {
  AdminContext,
  Notification,
  RecordContextProvider,
  ResourceContextProvider,
  TestMemoryRouter,
  memoryStore,
  type AuthProvider,
} from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { pathsOf } from '../../../src/engine/react/paths';
import { canAccess } from '../../../core/resources/access';
import { shifts } from '../../../core/resources/shifts/resource';
import { ShiftAmountCell, ShiftCardLine, ShiftShow } from '../../../src/resources/shifts/ShiftViews';
import { server } from '../msw/server';
import { api, installFakeApi, type Rec } from '../engine/fakeApi';
import { answer } from '../msw/contract';
import { EngineOne } from '../../../core/contracts/records';

// Issue 14 item 2 on the screens: the agency waives or changes a cancelled shift's charge from the shift's page (the
// generated action button: charge typed in pounds, sent in pence, with a reason), the lists show the charge and
// whether it was changed, and a client's user is never offered the action.

vi.setConfig({ testTimeout: 60_000 });
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const cancelled: Rec = {
  id: 41,
  summary: '28 Oct 2026, 07:00 at Main Building',
  client_id: 1,
  site_id: 2,
  job_role_id: 3,
  status: 'cancelled',
  candidate_id: null,
  candidate_name: 'Grace Hall',
  start_at: '2026-10-28T07:00:00.000Z',
  end_at: '2026-10-28T15:00:00.000Z',
  charge: 14882,
  cancel_requested_by: 'client',
  cancel_reason: 'Resident in hospital',
  cancellation_charge: 8620,
  cancellation_rule_charge: 8620,
  cancellation_charge_reason: null,
  version: 4,
};

installFakeApi(() => ({
  shifts: [{ ...cancelled }],
  clients: [{ id: 1, name: 'Kingsmead Nursing Home' }],
  sites: [{ id: 2, name: 'Main Building', client_id: 1 }],
  job_roles: [{ id: 3, name: 'Healthcare Assistant' }],
  audit_entries: [],
}));

/** What the screens asked the auth provider, once answered ('shifts.change_charge'). */
const answered: string[] = [];
beforeEach(() => {
  answered.length = 0;
});

/** Signed in as `role`, with the product's own rule of who may do what. */
const signedInAs = (role: 'consultant' | 'manager'): AuthProvider => {
  const loginType = role === 'manager' ? 'client' : 'agency';
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => ({ role, loginType }),
    canAccess: async ({ resource, action }) => {
      const allowed = canAccess({ role, loginType }, resource, action);
      answered.push(`${resource}.${action}`);
      return allowed;
    },
  };
};

function renderWith(role: 'consultant' | 'manager', route: string, pattern: string, element: ReactElement) {
  return render(
    <TestMemoryRouter initialEntries={[route]}>
      <AdminContext
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        authProvider={signedInAs(role)}
        store={memoryStore()}
      >
        <ResourceContextProvider value="shifts">
          <Routes>
            <Route path={pattern} element={element} />
          </Routes>
          <Notification />
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const showShift = (role: 'consultant' | 'manager') => {
  const paths = pathsOf(shifts);
  return renderWith(role, paths.show(41), paths.patterns.show, <ShiftShow decl={shifts} paths={paths} />);
};
const changeButton = () => document.querySelector<HTMLButtonElement>('[data-action="change_charge"] button');

describe("a cancelled shift's charge on the agency's screens", () => {
  it('is changed from the shift’s page: typed in pounds with a reason, sent in pence, with a toast that says so', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('*/api/shifts/41/actions/change_charge', async ({ request }) => {
        const body = (await request.json()) as { charge: number; reason: string };
        sent.push(body);
        Object.assign(api.records.get('shifts')![0], {
          cancellation_charge: body.charge || null,
          cancellation_charge_reason: body.reason,
          version: 5,
        });
        return answer('POST /api/shifts/:id/actions/change_charge', EngineOne, { data: api.records.get('shifts')![0] });
      }),
    );
    const user = userEvent.setup({ delay: null });
    showShift('consultant');
    const button = await waitFor(
      () => changeButton() ?? Promise.reject(new Error('no Change cancellation charge button')),
    );
    expect(button).toHaveAccessibleName('Change cancellation charge');
    expect(button).toBeEnabled();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Change cancellation charge' });
    // Both inputs are asked for before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Change cancellation charge' }));
    expect(await within(dialog).findAllByText('Required')).toHaveLength(2);
    expect(sent).toEqual([]);
    await user.type(within(dialog).getByRole('spinbutton', { name: /Charge \(0 waives it\)/ }), '50.50');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Agreed half with the manager');
    await user.click(within(dialog).getByRole('button', { name: 'Change cancellation charge' }));
    expect(await screen.findByText('Cancellation charge changed')).toBeInTheDocument();
    expect(sent).toEqual([{ charge: 5050, reason: 'Agreed half with the manager' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is not offered to a client’s user', async () => {
    expect(canAccess({ role: 'manager', loginType: 'client' }, 'shifts', 'change_charge')).toBe(false);
    showShift('manager');
    // The page is there and the screen has been told the answer, which it has drawn: no Change cancellation charge.
    await screen.findByText('Resident in hospital');
    await waitFor(() => expect(answered).toContain('shifts.change_charge'));
    await act(async () => undefined);
    expect(changeButton()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change cancellation charge' })).toBeNull();
  });
});

describe('the charge in the cancelled lists', () => {
  const cell = (record: Rec, element: ReactElement) =>
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <RecordContextProvider value={record}>{element}</RecordContextProvider>
      </AdminContext>,
    ).container.textContent;

  it('is the cancellation’s, marked when the agency waived or changed it', () => {
    expect(cell(cancelled, <ShiftAmountCell source="charge" />)).toBe('£86.20');
    expect(
      cell(
        { ...cancelled, cancellation_charge: null, cancellation_charge_reason: 'Goodwill' },
        <ShiftAmountCell source="charge" />,
      ),
    ).toBe('£0.00 (waived)');
    expect(
      cell(
        { ...cancelled, cancellation_charge: 5050, cancellation_charge_reason: 'Agreed half' },
        <ShiftAmountCell source="charge" />,
      ),
    ).toBe('£50.50 (changed)');
    // A shift that is not cancelled shows its own charge, unmarked.
    expect(
      cell(
        { ...cancelled, status: 'assigned', cancellation_charge: null, cancellation_charge_reason: null },
        <ShiftAmountCell source="charge" />,
      ),
    ).toBe('£148.82');
  });

  it('says on a phone’s card that it is the cancellation charge', () => {
    expect(
      cell({ ...cancelled, cancellation_charge: null, cancellation_charge_reason: 'Goodwill' }, <ShiftCardLine />),
    ).toBe('Grace Hall · Cancellation charge: £0.00 (waived)');
    expect(cell({ ...cancelled, status: 'assigned' }, <ShiftCardLine />)).toBe('Grace Hall · Charge: £148.82');
  });
});
