import type { ReactElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { http, HttpResponse } from 'msw';
import { AdminContext, Notification, ResourceContextProvider, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { EngineEdit } from '../../../src/engine/react/form';
import { EngineList } from '../../../src/engine/react/list';
import { EngineShow } from '../../../src/engine/react/show';
import { pathsOf } from '../../../src/engine/react/paths';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { candidates } from '../../../core/resources/candidates/resource';
import { transitionOf } from '../../../core/engine/lifecycle';
import { server } from '../msw/server';
import { api, field, findField, requestsTo, installFakeApi, type Rec } from './fakeApi';
import { answer as checked } from '../msw/contract';
import { EngineMany, EngineOne } from '../../../core/contracts/records';

vi.setConfig({ testTimeout: 30_000 });
// One router module for the engine and react-admin (see views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const people: Rec[] = [
  {
    id: 1,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    status: 'approved',
    activated: true,
    job_role_id: null,
    staff_status_id: null,
    version: 3,
  },
  {
    id: 2,
    first_name: 'Alan',
    last_name: 'Turing',
    email: 'alan@example.com',
    status: 'approved',
    activated: false,
    job_role_id: null,
    staff_status_id: null,
    version: 1,
  },
  {
    id: 3,
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    status: 'pending',
    activated: false,
    job_role_id: null,
    staff_status_id: null,
    version: 1,
  },
  {
    id: 4,
    first_name: 'Joan',
    last_name: 'Clarke',
    email: 'joan@example.com',
    status: 'pending',
    activated: false,
    job_role_id: null,
    staff_status_id: null,
    version: 1,
  },
];

installFakeApi(() => ({ candidates: people.map((p) => ({ ...p })), staff_detail_fields: [], audit_entries: [] }));

/** Serves the action routes over the fake API's records: runs the declared patch, or answers what `answer` says. */
function serveActions(answer?: (req: { path: string; body: any }) => Response | undefined) {
  const seen: { path: string; body: any }[] = [];
  const run = (ids: number[], name: string, body: any) => {
    const rows = api.records.get('candidates')!.filter((r) => ids.includes(r.id));
    const action = candidates.actions!.find((a) => a.name === name)!;
    // As the server does: the action's patch, then the state its transition declares.
    const to = transitionOf(candidates.lifecycle, name)?.to;
    for (const r of rows) Object.assign(r, action.patch?.(r, body) ?? {}, typeof to === 'string' ? { status: to } : {});
    return rows;
  };
  server.use(
    http.post('*/api/candidates/actions/:name', async ({ request, params }) => {
      const body = await request.json();
      const s = { path: new URL(request.url).pathname, body };
      seen.push(s);
      return (
        answer?.(s) ??
        checked('POST /api/candidates/actions/:name', EngineMany, {
          data: run((body as any).ids, String(params.name), body),
        })
      );
    }),
    http.post('*/api/candidates/:id/actions/:name', async ({ request, params }) => {
      const body = await request.json();
      const s = { path: new URL(request.url).pathname, body };
      seen.push(s);
      return (
        answer?.(s) ??
        checked('POST /api/candidates/:id/actions/:name', EngineOne, {
          data: run([Number(params.id)], String(params.name), body)[0],
        })
      );
    }),
  );
  return seen;
}

function renderAt(decl: ResourceDeclaration, route: string, pattern: string, element: ReactElement) {
  return render(
    <TestMemoryRouter initialEntries={[route]}>
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <ResourceContextProvider value={decl.name}>
          <Routes>
            <Route path={pattern} element={element} />
            <Route path="*" element={<div>elsewhere</div>} />
          </Routes>
          <Notification />
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}
const show = (decl: ResourceDeclaration, id: number) => {
  const paths = pathsOf(decl);
  return renderAt(decl, paths.show(id), paths.patterns.show, <EngineShow decl={decl} paths={paths} />);
};
const actionButton = (name: string) => document.querySelector<HTMLButtonElement>(`[data-action="${name}"] button`);
const findActionButton = (name: string) =>
  waitFor(() => {
    const b = actionButton(name);
    if (!b) throw new Error(`no ${name} button`);
    return b;
  });

describe('RecordActions on the generated show view', () => {
  it('disables an action its lifecycle or its guard refuses and says why', async () => {
    show(candidates, 1);
    const approve = await findActionButton('approve');
    expect(approve).toBeDisabled();
    const reasonId = approve.getAttribute('aria-describedby')!;
    expect(document.getElementById(reasonId)).toHaveTextContent(
      'This staff member is approved: Approve is only for a pending or rejected staff member.',
    );
    // Ada is active, so deactivate is offered and activate is not (its guard: the state allows it).
    expect(actionButton('deactivate')).toBeEnabled();
    const activate = actionButton('activate')!;
    expect(activate).toBeDisabled();
    expect(document.getElementById(activate.getAttribute('aria-describedby')!)).toHaveTextContent('Already active');
  });

  it('disables a transition its lifecycle does not allow from the record’s state, saying the state, and everything but the declared transitions of a locked record', async () => {
    const staged: ResourceDeclaration = {
      ...candidates,
      lifecycle: {
        field: 'status',
        final: ['approved'],
        transitions: [
          { action: 'approve', from: ['pending'], to: 'approved' },
          { action: 'reject', from: ['pending', 'approved'], to: 'rejected' },
        ],
      },
      actions: candidates.actions!.map(({ guard: _guard, ...a }) => a),
    };
    show(staged, 1);
    const approve = await findActionButton('approve');
    expect(approve).toBeDisabled();
    expect(document.getElementById(approve.getAttribute('aria-describedby')!)).toHaveTextContent(
      'This staff member is approved: Approve is only for a pending staff member.',
    );
    // Approved is final: reject is declared from it; deactivate, no transition, is locked out.
    expect(actionButton('reject')).toBeEnabled();
    const deactivate = actionButton('deactivate')!;
    expect(deactivate).toBeDisabled();
    expect(document.getElementById(deactivate.getAttribute('aria-describedby')!)).toHaveTextContent(
      'This staff member is approved and locked: it can no longer be changed. Only Reject can still be run.',
    );
  });

  it('asks for confirmation, naming the record, before running a confirmed action', async () => {
    const seen = serveActions();
    const user = userEvent.setup({ delay: null });
    // A declaration with a confirmation and no input: react-admin's Confirm.
    const archiving: ResourceDeclaration = {
      ...candidates,
      actions: [
        {
          name: 'approve',
          label: 'Approve',
          roles: ['admin'],
          confirm: 'Approve %{name} now?',
          success: 'Approved',
          // Once approved, the lifecycle (the candidates') disables it.
          patch: () => ({ status: 'approved' }),
        },
      ],
    };
    show(archiving, 3);
    await user.click(await findActionButton('approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve Grace Hopper now?');
    expect(seen).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0].path).toBe('/api/candidates/3/actions/approve');
    await waitFor(() => expect(actionButton('approve')).toBeDisabled());
  });

  it('adds the sentence its declaration chooses from the record, filled with its fields (issue 29.5)', async () => {
    serveActions();
    const user = userEvent.setup({ delay: null });
    const sending: ResourceDeclaration = {
      ...candidates,
      actions: [
        {
          name: 'approve',
          label: 'Approve',
          roles: ['admin'],
          confirm: 'Approve %{name} now?',
          confirmDetail: (r) => (r.email ? 'Their e-mail goes to %{email}.' : null),
          success: 'Approved',
        },
      ],
    };
    show(sending, 3);
    await user.click(await findActionButton('approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve Grace Hopper now? Their e-mail goes to grace@example.com.');
  });

  it('asks for the reason only when the server says it is needed, with its words, and shows its field error next to the input', async () => {
    const seen = serveActions(({ body }) =>
      body.override_reason
        ? undefined
        : HttpResponse.json(
            {
              message: 'Alan Turing is not compliant. Missing: DBS check. Give a reason to activate them anyway.',
              errors: { override_reason: 'Not compliant (missing: DBS check). Give a reason to activate anyway.' },
            },
            { status: 422 },
          ),
    );
    const user = userEvent.setup({ delay: null });
    show(candidates, 2);
    await user.click(await findActionButton('activate'));
    // Tried first without a reason; the refusal opens the dialog, saying why.
    const dialog = await screen.findByRole('dialog');
    expect(seen[0]).toEqual({ path: '/api/candidates/2/actions/activate', body: {} });
    expect(dialog).toHaveTextContent('Alan Turing is not compliant. Missing: DBS check.');
    await user.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(await within(dialog).findByText(/Not compliant \(missing: DBS check\)/)).toBeInTheDocument();
    await user.type(field(/^Reason to activate/), 'Checks booked for Monday');
    await user.click(within(dialog).getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seen.at(-1)!.body).toEqual({ override_reason: 'Checks booked for Monday' });
    expect(await screen.findByText('Staff member activated')).toBeInTheDocument();
  }, 90_000);

  it('activates a compliant staff member at once, asking nothing', async () => {
    const seen = serveActions();
    const user = userEvent.setup({ delay: null });
    show(candidates, 2);
    await user.click(await findActionButton('activate'));
    expect(await screen.findByText('Staff member activated')).toBeInTheDocument();
    expect(seen).toEqual([{ path: '/api/candidates/2/actions/activate', body: {} }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before deactivating, and deactivates nothing when cancelled', async () => {
    const seen = serveActions();
    const user = userEvent.setup({ delay: null });
    show(candidates, 1);
    await user.click(await findActionButton('deactivate'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Deactivate Ada Lovelace? They cannot be booked for shifts until they are activated again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(seen).toHaveLength(0);
    await user.click(await findActionButton('deactivate'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0].path).toBe('/api/candidates/1/actions/deactivate');
  });

  it('says what the server answers when it refuses (409)', async () => {
    serveActions(() =>
      HttpResponse.json({ message: 'Someone else has just deactivated this staff member.' }, { status: 409 }),
    );
    const user = userEvent.setup({ delay: null });
    show(candidates, 1);
    await user.click(await findActionButton('deactivate'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Someone else has just deactivated this staff member.')).toBeInTheDocument();
  });
});

describe('BulkActions in the list', () => {
  it('runs a bulk action on the selected records through the bulk route, all at once', async () => {
    const seen = serveActions();
    const user = userEvent.setup({ delay: null });
    const paths = pathsOf(candidates);
    renderAt(candidates, paths.list, paths.list, <EngineList decl={candidates} paths={paths} />);
    const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    await user.click(within(await row('Hopper')).getByRole('checkbox'));
    await user.click(within(await row('Clarke')).getByRole('checkbox'));
    await user.click(await findActionButton('approve'));
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0].path).toBe('/api/candidates/actions/approve');
    expect([...seen[0].body.ids].sort()).toEqual([3, 4]);
    expect(await screen.findByText('2 staff approved')).toBeInTheDocument();
    expect(api.records.get('candidates')!.filter((r) => r.status === 'approved')).toHaveLength(4);
  });
});

describe('Stale edits', () => {
  it('says the record changed meanwhile and reloads it only when asked', async () => {
    // Someone else saved first: the stored version is 4, the form holds 3.
    server.use(
      http.put('*/api/candidates/1', async ({ request }) => {
        const body = (await request.json()) as any;
        const stored = api.records.get('candidates')!.find((r) => r.id === 1)!;
        if (body.version !== stored.version)
          return HttpResponse.json(
            {
              message: 'This staff member was changed by someone else while you were editing it.',
              errors: { version: 'Changed meanwhile' },
            },
            { status: 409 },
          );
        return checked('PUT /api/candidates/:id', EngineOne, { data: { ...stored, ...body } });
      }),
    );
    const user = userEvent.setup({ delay: null });
    const paths = pathsOf(candidates);
    renderAt(candidates, paths.edit(1), paths.patterns.edit, <EngineEdit decl={candidates} paths={paths} />);
    const first = await findField(/^First name/);
    Object.assign(
      api.records.get('candidates')!.find((r) => r.id === 1)!,
      { first_name: 'Augusta', version: 4 },
    );
    await user.clear(first);
    await user.type(first, 'Ada B.');
    await user.click(document.querySelector<HTMLButtonElement>('button[type="submit"][aria-label="Save"]')!);
    const alert = await screen.findByText(/This record was changed by someone else while you were editing it/);
    expect(requestsTo('candidates', 'PUT')).toHaveLength(0); // served by the handler above, not the fake API
    // The local edit is still there until Reload is pressed.
    expect(field(/^First name/)).toHaveValue('Ada B.');
    await user.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(field(/^First name/)).toHaveValue('Augusta'));
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
  });
});

describe('action icons', () => {
  it('every icon a declaration names is one the screens draw (an unknown name would show a generic arrow)', async () => {
    const { ACTION_ICONS } = await import('../../../src/engine/react/actions');
    const { declarations } = await import('../../../core/resources/declarations');
    const unknown = declarations.flatMap((d) =>
      (d.actions ?? []).filter((a) => a.icon && !ACTION_ICONS[a.icon]).map((a) => `${d.name}.${a.name}: ${a.icon}`),
    );
    expect(unknown).toEqual([]);
  });
});
