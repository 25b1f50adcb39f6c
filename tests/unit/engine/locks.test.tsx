import type { ReactElement } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { AdminContext, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineEdit } from '../../../src/engine/react/form';
import { EngineShow } from '../../../src/engine/react/show';
import { pathsOf } from '../../../src/engine/react/paths';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { candidates } from '../../../core/resources/candidates/resource';
import { findField, installFakeApi, type Rec } from './fakeApi';

vi.setConfig({ testTimeout: 30_000 });
// One router module for the engine and react-admin (see views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

// Issue 31.1: the generated screens read the lifecycle's locks before any save, as the server enforces them. A staff
// declaration staged for the test: approved is final, the notes are editable only while pending.
const staged: ResourceDeclaration = {
  ...candidates,
  lifecycle: { ...candidates.lifecycle!, final: ['approved'] },
  fields: candidates.fields.map((f) => (f.source === 'notes' ? { ...f, editableIn: ['pending'] } : f)),
};
const person = (id: number, status: string): Rec => ({
  id,
  first_name: 'Ada',
  last_name: `Lovelace ${id}`,
  email: `ada${id}@example.com`,
  status,
  activated: false,
  job_role_id: null,
  staff_status_id: null,
  notes: 'Prefers nights',
  version: 1,
});
installFakeApi(() => ({
  candidates: [person(1, 'approved'), person(2, 'pending'), person(3, 'rejected')],
  staff_detail_fields: [],
  audit_entries: [],
}));

function renderAt(route: string, pattern: string, element: ReactElement) {
  return render(
    <TestMemoryRouter initialEntries={[route]}>
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <ResourceContextProvider value={staged.name}>
          <Routes>
            <Route path={pattern} element={element} />
          </Routes>
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}
const paths = pathsOf(staged);
const show = (id: number) => renderAt(paths.show(id), paths.patterns.show, <EngineShow decl={staged} paths={paths} />);
const edit = (id: number) => renderAt(paths.edit(id), paths.patterns.edit, <EngineEdit decl={staged} paths={paths} />);

describe('the generated screens read the lifecycle’s locks', () => {
  it('show no Edit or Delete on a locked record, and both on an open one', async () => {
    const locked = show(1);
    await screen.findByText('Lovelace 1');
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    locked.unmount();
    show(2);
    await screen.findByText('Lovelace 2');
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('show a field not editable in the record’s state read-only, with the lifecycle’s reason, before any save', async () => {
    edit(3);
    const notes = await findField(/^Notes/);
    expect(notes).toHaveAttribute('readonly');
    expect(screen.getByText('Can be changed only while the staff member is pending (it is rejected)')).toBeVisible();
    // Another field still edits.
    expect(await findField(/^First name/)).not.toHaveAttribute('readonly');
  });

  it('edit the same field in a state that allows it', async () => {
    edit(2);
    const notes = await findField(/^Notes/);
    expect(notes).not.toHaveAttribute('readonly');
    expect(screen.queryByText(/Can be changed only while/)).toBeNull();
  });

  it('offer no save on a locked record’s edit page, and say why', async () => {
    edit(1);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'This staff member is approved and locked: it can no longer be changed.',
      ),
    );
    expect(await findField(/^First name/)).toHaveAttribute('readonly');
    expect(document.querySelector('button[type="submit"]')).toBeNull();
  });
});
