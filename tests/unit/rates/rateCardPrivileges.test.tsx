import { act, render, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { AdminContext, ResourceContextProvider, TestMemoryRouter, memoryStore, type AuthProvider } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineCreate } from '../../../src/engine/react/form';
import { pathsOf } from '../../../src/engine/react/paths';
import { rateCards } from '../../../core/resources/rates/resource';
import type { Principal } from '../../../core/engine/types';
import { installFakeApi } from '../engine/fakeApi';

vi.setConfig({ testTimeout: 30_000 });
// One router module for the engine and react-admin (see views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

// Issue 35: a rate card's pay rates need the "Pay rates" privilege (its charge rates "Charge rates, margins"); a custom
// role without it is told on the form, before a save the server would refuse. Built-in roles see no warning.
installFakeApi(() => ({ rate_cards: [], clients: [], sites: [], job_roles: [], staff_detail_fields: [] }));

// The permissions given, with a latch: the form has been rendered with them once the promise has settled.
let asked: Promise<Principal> | undefined;
const auth = (permissions: Principal): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: () => (asked = Promise.resolve(permissions)),
});
/** Waits for the form to have read the role's permissions (so that no warning is no warning yet). */
async function permissionsRead() {
  await screen.findByRole('button', { name: 'Save' });
  await waitFor(() => expect(asked).toBeDefined());
  await act(async () => void (await asked));
}
const paths = pathsOf(rateCards);
function create(permissions: Principal) {
  return render(
    <TestMemoryRouter initialEntries={[paths.create]}>
      <AdminContext
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        authProvider={auth(permissions)}
        store={memoryStore()}
      >
        <ResourceContextProvider value={rateCards.name}>
          <Routes>
            <Route path={paths.patterns.create} element={<EngineCreate decl={rateCards} paths={paths} />} />
          </Routes>
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('the rate card form and the signed-in role’s field groups', () => {
  it('warns a custom role without pay rates, in words, before any save', async () => {
    create({ loginType: 'agency', role: 'custom', privileges: ['rate_cards.create', 'fields.margins'] });
    await permissionsRead();
    expect(
      await screen.findByText(
        'Your role is not granted “Pay rates and pay”, which this form needs: saving it will be refused. ' +
          'Ask an admin to grant it to your role (Settings → Privileges).',
      ),
    ).toBeVisible();
  });

  it('says nothing to a custom role holding both groups, nor to an admin', async () => {
    const granted = create({
      loginType: 'agency',
      role: 'custom',
      privileges: ['rate_cards.create', 'fields.margins', 'fields.pay_rates'],
    });
    await permissionsRead();
    expect(screen.queryByText(/Your role is not granted/)).toBeNull();
    granted.unmount();
    asked = undefined;
    create({ loginType: 'agency', role: 'admin' });
    await permissionsRead();
    expect(screen.queryByText(/Your role is not granted/)).toBeNull();
  });
});
