import type { ReactElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, memoryStore, type AuthProvider } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { AssignDialog } from '../../../src/resources/shifts/AssignDialog';
import { CancelDialog } from '../../../src/resources/shifts/CancelDialog';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { Cancellation, Checks, Suggestions } from '../../../core/contracts/shifts';
import { EngineList } from '../../../core/contracts/records';

vi.setConfig({ testTimeout: 30_000 });
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const signedInAs = (role: string): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => ({ role, loginType: role === 'manager' ? 'client' : 'agency' }),
  canAccess: async () => true,
});

function renderAs(role: string, element: ReactElement) {
  return render(
    <AdminContext
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      authProvider={signedInAs(role)}
      store={memoryStore()}
    >
      {element}
    </AdminContext>,
  );
}

const shift = { id: 41, start_at: '2026-12-05T20:00:00.000Z', end_at: '2026-12-06T08:00:00.000Z' };
const people = [
  { id: 7, first_name: 'Rae', last_name: 'Newman' },
  { id: 8, first_name: 'Sam', last_name: 'Tired' },
];

/** The shift API of the assign dialog: suggestions, the staff search, the checks per person, and assign. */
const AWR = { weeks: 2, qualified: false, paused: false, resetOn: null };
const READY = {
  candidate_id: 9,
  name: 'Ola Ready',
  job_role: 'Registered Nurse',
  available: true,
  availability: 'fits',
  preferred: false,
  avoided: false,
  hours_this_week: 12,
  soft: [],
  awr: AWR,
};
/** The checks of one person as GET /api/shifts/:id/check answers them (passes when no hard check fails). */
const checksOf = (candidateId: number, found: { hard: any[]; soft: any[]; info: any[] }) => ({
  candidate_id: candidateId,
  name: people.find((p) => p.id === candidateId)?.first_name ?? 'Someone',
  passes: found.hard.length === 0,
  ...found,
  awr: AWR,
});

function serveAssign(
  checks: Record<number, any>,
  assign: (body: any) => Response = () => HttpResponse.json({ data: { ...shift, status: 'assigned' } }),
  suggested: any[] = [READY],
) {
  const assigned: any[] = [];
  server.use(
    http.get('*/api/shifts/41/suggestions', () =>
      answer('GET /api/shifts/:id/suggestions', Suggestions, { data: suggested }),
    ),
    http.get('*/api/candidates', () =>
      answer('GET /api/candidates', EngineList, {
        data: people,
        total_count: 2,
        total_pages: 1,
        current_page: 1,
        per_page: 25,
        references: {},
      }),
    ),
    http.get('*/api/shifts/41/check', ({ request }) => {
      const id = Number(new URL(request.url).searchParams.get('candidate_id'));
      return answer('GET /api/shifts/:id/check', Checks, { data: checksOf(id, checks[id]) });
    }),
    http.post('*/api/shifts/41/actions/assign', async ({ request }) => {
      const body = await request.json();
      assigned.push(body);
      return assign(body);
    }),
  );
  return assigned;
}

async function pick(name: string) {
  const user = userEvent.setup();
  const search = await screen.findByRole('combobox', { name: 'Find a staff member' });
  await user.click(search);
  await user.type(search, name.split(' ')[0]);
  await user.click(await screen.findByRole('option', { name }));
  return user;
}

describe('the assign dialog', () => {
  it('assigns a suggested person in one click', async () => {
    const assigned = serveAssign({});
    const onAssigned = vi.fn();
    renderAs('consultant', <AssignDialog shift={shift} onClose={() => undefined} onAssigned={onAssigned} />);
    const row = (await screen.findAllByTestId('suggestion'))[0];
    expect(row).toHaveTextContent('Ola Ready');
    await userEvent.click(within(row).getByRole('button', { name: 'Assign Ola Ready' }));
    await waitFor(() => expect(onAssigned).toHaveBeenCalled());
    expect(assigned).toEqual([{ candidate_id: 9 }]);
  });

  it('says whether each suggestion is available in words: "Not set" when nothing was entered, never "No"', async () => {
    serveAssign({}, undefined, [
      READY,
      { ...READY, candidate_id: 10, name: 'Noel Unset', available: false, availability: 'not_set' },
      { ...READY, candidate_id: 11, name: 'Una Away', available: false, availability: 'unavailable' },
      { ...READY, candidate_id: 12, name: 'Nia Nights', available: false, availability: 'mismatch' },
    ]);
    renderAs('consultant', <AssignDialog shift={shift} onClose={() => undefined} />);
    const rows = await screen.findAllByTestId('suggestion');
    const column = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .findIndex((h) => h.textContent === 'Available');
    expect(rows.map((r) => within(r).getAllByRole('cell')[column].textContent)).toEqual([
      'Yes',
      'Not set',
      'Unavailable',
      'Other hours',
    ]);
  });

  it('lists hard failures in words and does not offer to assign', async () => {
    const assigned = serveAssign({
      7: {
        hard: [
          { code: 'not_approved', severity: 'hard', message: 'Rae Newman is not approved.' },
          { code: 'overlap', severity: 'hard', message: 'Rae Newman works 19:00–07:00 that night.' },
        ],
        soft: [],
        info: [],
      },
    });
    renderAs('admin', <AssignDialog shift={shift} onClose={() => undefined} />);
    await pick('Rae Newman');
    const hard = await screen.findByTestId('check-error');
    expect(
      within(hard)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Rae Newman is not approved.', 'Rae Newman works 19:00–07:00 that night.']);
    expect(screen.getByRole('button', { name: 'Assign Rae Newman' })).toBeDisabled();
    expect(assigned).toEqual([]);
  });

  it('lets an admin book despite soft warnings only with a reason, which is sent', async () => {
    const assigned = serveAssign({
      8: {
        hard: [],
        soft: [{ code: 'rest', severity: 'soft', message: 'Only 9 hours of rest after the previous shift.' }],
        info: [{ code: 'awr', severity: 'info', message: 'Agency Workers Regulations: week 3 of 12.' }],
      },
    });
    renderAs('admin', <AssignDialog shift={shift} onClose={() => undefined} />);
    const user = await pick('Sam Tired');
    await screen.findByText('Only 9 hours of rest after the previous shift.');
    screen.getByText('Agency Workers Regulations: week 3 of 12.');
    const button = screen.getByRole('button', { name: 'Override and assign Sam Tired' });
    expect(button).toBeDisabled();
    await user.type(
      screen.getByRole('textbox', { name: /Reason to book despite the warnings/ }),
      'Agreed with the nurse',
    );
    await user.click(button);
    await waitFor(() => expect(assigned).toEqual([{ candidate_id: 8, override_reason: 'Agreed with the nurse' }]));
  });

  it('a consultant cannot override soft warnings', async () => {
    serveAssign({
      8: { hard: [], soft: [{ code: 'rest', severity: 'soft', message: 'Only 9 hours of rest.' }], info: [] },
    });
    renderAs('consultant', <AssignDialog shift={shift} onClose={() => undefined} />);
    await pick('Sam Tired');
    await screen.findByText('Only an admin can book despite these warnings.');
    expect(screen.queryByRole('textbox', { name: /Reason to book/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Override and assign Sam Tired' })).toBeDisabled();
  });

  it("shows the server's refusal as it says it", async () => {
    serveAssign({ 7: { hard: [], soft: [], info: [] } }, () =>
      HttpResponse.json(
        {
          message: 'Rae Newman was booked elsewhere a moment ago.',
          errors: { candidate_id: 'Overlaps another shift.' },
        },
        { status: 409 },
      ),
    );
    renderAs('admin', <AssignDialog shift={shift} onClose={() => undefined} />);
    const user = await pick('Rae Newman');
    await screen.findByText('Every booking check passes.');
    await user.click(screen.getByRole('button', { name: 'Assign Rae Newman' }));
    const refusal = await screen.findByText('Rae Newman was booked elsewhere a moment ago. Overlaps another shift.');
    expect(refusal.closest('[role="alert"]')).not.toBeNull();
  });
});

describe('the cancel dialog', () => {
  it('says the late-cancellation charge before confirming, and asks a reason', async () => {
    const cancelled: any[] = [];
    server.use(
      http.get('*/api/shifts/41/cancellation', () =>
        answer('GET /api/shifts/:id/cancellation', Cancellation, {
          data: {
            allowed: true,
            requested_by: 'client',
            late: true,
            hours: 4,
            charge: 9800,
            at: '2026-12-05T10:00:00Z',
          },
        }),
      ),
      http.post('*/api/shifts/41/actions/cancel', async ({ request }) => {
        cancelled.push(await request.json());
        return HttpResponse.json({ data: { ...shift, status: 'cancelled' } });
      }),
    );
    const onCancelled = vi.fn();
    renderAs('manager', <CancelDialog shift={shift} onClose={() => undefined} onCancelled={onCancelled} />);
    expect(await screen.findByTestId('cancellation-charge')).toHaveTextContent(
      'Cancelling now charges 4 hours: £98.00.',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Cancel the shift' }));
    await screen.findByText('Say why the shift is cancelled.');
    expect(cancelled).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Resident in hospital');
    await user.click(screen.getByRole('button', { name: 'Cancel the shift' }));
    await waitFor(() => expect(onCancelled).toHaveBeenCalled());
    expect(cancelled).toEqual([{ reason: 'Resident in hospital' }]);
  });

  it('asks an agency user who requested it, prices that party, and sends it (issue 14.2)', async () => {
    const asked: (string | null)[] = [];
    const cancelled: any[] = [];
    server.use(
      http.get('*/api/shifts/41/cancellation', ({ request }) => {
        const by = new URL(request.url).searchParams.get('requested_by');
        asked.push(by);
        const at = '2026-12-05T10:00:00Z';
        return answer('GET /api/shifts/:id/cancellation', Cancellation, {
          data:
            by === 'client'
              ? { allowed: true, requested_by: 'client', late: true, hours: 4, charge: 9800, at }
              : { allowed: true, requested_by: by ?? 'agency', late: false, hours: 0, charge: 0, at },
        });
      }),
      http.post('*/api/shifts/41/actions/cancel', async ({ request }) => {
        cancelled.push(await request.json());
        return HttpResponse.json({ data: { ...shift, status: 'cancelled' } });
      }),
    );
    const onCancelled = vi.fn();
    renderAs('admin', <CancelDialog shift={shift} onClose={() => undefined} onCancelled={onCancelled} />);
    const group = await screen.findByRole('radiogroup', { name: 'Who asked for the cancellation?' });
    await waitFor(() =>
      expect(screen.getByTestId('cancellation-charge')).toHaveTextContent('Cancelling now is free of charge.'),
    );
    const user = userEvent.setup();
    expect(within(group).getByRole('radio', { name: 'The agency' })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: 'The client' }));
    await waitFor(
      () =>
        expect(screen.getByTestId('cancellation-charge')).toHaveTextContent('Cancelling now charges 4 hours: £98.00.'),
      { timeout: 10_000 },
    );
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Home phoned');
    await user.click(screen.getByRole('button', { name: 'Cancel the shift' }));
    await waitFor(() => expect(onCancelled).toHaveBeenCalled(), { timeout: 10_000 });
    // (A first preview may go before the panel is known; then the agency's, then the client's.)
    expect(asked.slice(-2)).toEqual(['agency', 'client']);
    expect(cancelled).toEqual([{ reason: 'Home phoned', requested_by: 'client' }]);
  });

  it('says why a shift cannot be cancelled and offers no confirm', async () => {
    server.use(
      http.get('*/api/shifts/41/cancellation', () =>
        answer('GET /api/shifts/:id/cancellation', Cancellation, {
          data: {
            allowed: false,
            requested_by: 'client',
            late: false,
            hours: 0,
            charge: 0,
            at: '2026-12-05T10:00:00Z',
            message: 'This shift has passed unfilled: delete it instead; it cannot be cancelled or charged.',
          },
        }),
      ),
    );
    renderAs('manager', <CancelDialog shift={shift} onClose={() => undefined} />);
    expect(await screen.findByTestId('cancellation-charge')).toHaveTextContent('This shift has passed unfilled');
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel the shift' })).toBeDisabled();
  });

  it('says when cancelling is free', async () => {
    server.use(
      http.get('*/api/shifts/41/cancellation', () =>
        answer('GET /api/shifts/:id/cancellation', Cancellation, {
          data: { allowed: true, requested_by: 'client', late: false, hours: 0, charge: 0, at: '2026-12-05T10:00:00Z' },
        }),
      ),
    );
    renderAs('manager', <CancelDialog shift={shift} onClose={() => undefined} />);
    expect(await screen.findByTestId('cancellation-charge')).toHaveTextContent('Cancelling now is free of charge.');
  });
});
