import type { ReactElement } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { AdminContext, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineShow } from '../../../src/engine/react/show';
import { pathsOf } from '../../../src/engine/react/paths';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { timesheetLines } from '../../../core/resources/timesheets/resource';
import { installFakeApi, type Rec } from './fakeApi';

vi.setConfig({ testTimeout: 30_000 });
// One router module for the engine and react-admin (see views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

// Issue 31.3: the screens read the lines' lock the server enforces (linesRefusal): a line of a locked timesheet shows
// no Edit or Delete and its actions say why they cannot run, before anyone tries. The timesheet lines' declaration,
// staged with a few fields and an edit and delete for the agency (the real one has neither).
const staged: ResourceDeclaration = {
  ...timesheetLines,
  recordRepresentation: 'Line %{id}',
  access: { admin: ['list', 'show', 'edit', 'delete'] },
  fields: timesheetLines.fields.filter((f) => ['timesheet_id', 'status'].includes(f.source)),
  actions: timesheetLines.actions!.filter((a) => a.name === 'verify'),
};
const line = (id: number, timesheet_id: number): Rec => ({ id, timesheet_id, status: 'pending', version: 1 });
installFakeApi(() => ({
  timesheets: [
    { id: 1, number: 'TS-00001', status: 'locked', version: 3 },
    { id: 2, number: 'TS-00002', status: 'draft', version: 1 },
  ],
  timesheet_lines: [line(10, 1), line(11, 2)],
  audit_entries: [],
}));

const paths = pathsOf(staged);
function show(id: number): ReturnType<typeof render> {
  const element: ReactElement = <EngineShow decl={staged} paths={paths} />;
  return render(
    <TestMemoryRouter initialEntries={[paths.show(id)]}>
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <ResourceContextProvider value={staged.name}>
          <Routes>
            <Route path={paths.patterns.show} element={element} />
          </Routes>
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}
const verifyButton = () =>
  waitFor(() => {
    const b = document.querySelector<HTMLButtonElement>('[data-action="verify"] button');
    if (!b) throw new Error('no verify button');
    return b;
  });

describe('a line of a document on the generated screens', () => {
  it('shows no Edit or Delete while its timesheet is locked, and disables its actions with the server’s words', async () => {
    show(10);
    const verify = await verifyButton();
    await waitFor(() => expect(verify).toBeDisabled());
    expect(document.getElementById(verify.getAttribute('aria-describedby')!)).toHaveTextContent(
      'The timesheet is locked: Verify this line runs only while it is draft, awaiting signature, signed, fully verified, disputed or amended.',
    );
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('shows Edit, Delete and its actions while its timesheet is a draft', async () => {
    show(11);
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(await verifyButton()).toBeEnabled();
  });
});
