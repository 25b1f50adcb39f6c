import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { AdminContext, Notification, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { ChildList } from '../../../src/engine/react/children';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { candidates } from '../../../core/resources/candidates/resource';
import { server } from '../msw/server';
import { api, installFakeApi, type Rec } from './fakeApi';
import { answer as checked } from '../msw/contract';
import { EngineOne } from '../../../core/contracts/records';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const ada: Rec = {
  id: 1,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  status: 'approved',
  activated: true,
  job_role_id: null,
  staff_status_id: null,
  version: 3,
};
installFakeApi(() => ({ candidates: [{ ...ada }], staff_detail_fields: [], audit_entries: [] }));

// Staff as the children of their status: a child list over a declaration with real actions and lifecycle reasons
// (the fake API accepts the status filter candidates declare).
const children: ResourceDeclaration = {
  ...candidates,
  parent: { resource: 'clients', field: 'status', onDelete: 'hide' },
};

describe('ChildList rowActions="menu"', () => {
  it('lists a row’s actions in one named menu, a refused one with its reason, and runs the chosen one through its dialog', async () => {
    const seen: string[] = [];
    server.use(
      http.post('*/api/candidates/:id/actions/:name', async ({ request }) => {
        seen.push(new URL(request.url).pathname);
        const row = api.records.get('candidates')!.find((r) => r.id === 1)!;
        Object.assign(row, { activated: false, version: 4 });
        return checked('POST /api/candidates/:id/actions/:name', EngineOne, { data: row });
      }),
    );
    const user = userEvent.setup({ delay: null });
    render(
      <TestMemoryRouter>
        <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ChildList decl={children} parentId="approved" rowActions="menu" />
          <Notification />
        </AdminContext>
      </TestMemoryRouter>,
    );
    const opener = await screen.findByRole('button', { name: 'Actions for Ada Lovelace' });
    expect(opener).toHaveAttribute('aria-haspopup', 'menu');
    // One button per row, not one per action.
    expect(screen.queryByRole('button', { name: 'Deactivate' })).toBeNull();

    await user.click(opener);
    const menu = await screen.findByRole('menu', { name: 'Actions for Ada Lovelace' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => within(i).getAllByText(/./)[0].textContent)).toEqual([
      'Approve',
      'Reject',
      'Activate',
      'Deactivate',
      'Bank details',
      'Edit',
    ]);
    const approve = items[0];
    expect(approve).toHaveAttribute('aria-disabled', 'true');
    expect(approve).toHaveTextContent(
      'This staff member is approved: Approve is only for a pending or rejected staff member.',
    );
    expect(items[2]).toHaveAttribute('aria-disabled', 'true');
    expect(items[2]).toHaveTextContent('Already active');
    expect(items[3]).not.toHaveAttribute('aria-disabled');

    // By keyboard: the menu closes and the item's confirmation opens (its dialog outlives the menu).
    items[3].focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Deactivate Ada Lovelace? They cannot be booked for shifts until they are activated again.',
    );
    await waitFor(() => expect(opener).not.toHaveAttribute('aria-expanded'));
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(seen).toEqual(['/api/candidates/1/actions/deactivate']));
    expect(await screen.findByText('Staff member deactivated')).toBeInTheDocument();
  });
});
