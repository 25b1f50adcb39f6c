import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, Notification, TestMemoryRouter, memoryStore } from 'react-admin';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { RestrictionsTab, type CoveredShift } from '../../../src/resources/compliance/RestrictionBookings';
import { server } from '../msw/server';
import { api, field, findField, installFakeApi, type Rec } from '../engine/fakeApi';
import { answer } from '../msw/contract';
import { EngineMany, EngineOne } from '../../../core/contracts/records';

// Issue 14 item 7 on the screens: a new restriction that covers future bookings lists them (date, time, site) and
// offers to unassign them through the shifts' own bulk unassign (which tells the staff member), or to keep them.

vi.setConfig({ testTimeout: 60_000 });
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const covered: CoveredShift[] = [
  {
    id: 80,
    start_at: '2026-11-26T08:00:00+00:00',
    end_at: '2026-11-26T20:00:00+00:00',
    site: 'Meadowbank – Main Building',
  },
  {
    id: 81,
    start_at: '2026-11-28T20:00:00+00:00',
    end_at: '2026-11-29T08:00:00+00:00',
    site: 'Meadowbank – North Wing',
  },
];

installFakeApi(() => ({
  candidate_restrictions: [],
  clients: [{ id: 5, name: 'Meadowbank Care Home' }],
  sites: [],
  merchants: [{ id: 1, time_zone: 'Europe/London' }],
  audit_entries: [],
}));

beforeEach(() => {
  // The agency's time zone comes from its merchant record (the shell's look-up).
  localStorage.setItem('merchant_id', '1');
});

/**
 * The server's part: a restriction is saved with the bookings it covers (computed), and the shifts' bulk unassign
 * takes them off it (or answers `refuse`).
 */
function serveRestrictions(refuse?: string) {
  const unassigned: unknown[] = [];
  const restrictions = () => api.records.get('candidate_restrictions')!;
  server.use(
    http.post('*/api/candidate_restrictions', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      const row = { ...body, id: 9, recorded_by: 'Alex Morgan', affected_shifts: covered };
      restrictions().push(row as Rec);
      return answer('POST /api/candidate_restrictions', EngineOne, { data: row }, 201);
    }),
    http.post('*/api/shifts/actions/unassign', async ({ request }) => {
      const body = (await request.json()) as { ids: number[] };
      unassigned.push(body);
      if (refuse) return HttpResponse.json({ message: refuse }, { status: 409 });
      for (const r of restrictions())
        r.affected_shifts = (r.affected_shifts as CoveredShift[]).filter((s) => !body.ids.includes(s.id));
      return answer('POST /api/shifts/actions/unassign', EngineMany, {
        data: body.ids.map((id) => ({ id, status: 'open' })),
      });
    }),
  );
  return unassigned;
}

function renderTab() {
  return render(
    <TestMemoryRouter initialEntries={['/staffs/116/restricted']}>
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <RestrictionsTab candidateId={116} staffName="Maria Khan" />
        <Notification />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('a restriction that covers booked shifts', () => {
  it('once added, lists those bookings and unassigns them all on request, saying so by name', async () => {
    const unassigned = serveRestrictions();
    const user = userEvent.setup({ delay: null });
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Add restriction' }));
    const form = await screen.findByRole('dialog', { name: 'Add restriction' });
    const client = within(form).getByRole('combobox', { name: /^Client/ });
    await user.type(client, 'Mead');
    await user.click(await screen.findByRole('option', { name: 'Meadowbank Care Home' }));
    await user.type(await findField(/^Reason/), 'Complaint from the home');
    // The restriction's date: typed in the product's picker, yyyy-MM-dd.
    const year = within(within(form).getByRole('group', { name: /^Date/ })).getAllByRole('spinbutton')[0];
    await user.click(year);
    act(() => year.focus());
    await user.keyboard('20261125');
    await user.click(field(/^Reason/));
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    const offer = await screen.findByRole('dialog', { name: 'This restriction covers 2 booked shifts' });
    expect(offer).toHaveTextContent('Maria Khan is still booked for these 2 shifts');
    const items = within(
      within(offer).getByRole('list', { name: 'Booked shifts the restriction covers' }),
    ).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Thu 26 Nov 2026, 08:00–20:00Meadowbank – Main Building',
      'Sat 28 Nov 2026, 20:00–08:00Meadowbank – North Wing',
    ]);
    expect(within(offer).getByRole('button', { name: 'Keep them' })).toBeEnabled();
    await user.click(within(offer).getByRole('button', { name: 'Unassign these 2 shifts' }));
    expect(await screen.findByText('2 shifts unassigned; Maria Khan has been told.')).toBeInTheDocument();
    expect(unassigned).toEqual([{ ids: [80, 81] }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The row now says the restriction covers no booking.
    expect(await screen.findByText('None')).toBeInTheDocument();
  });

  it('kept, stays on the restriction’s row, which offers them again; a refusal is said in the dialog, nothing unassigned', async () => {
    api.records.set('candidate_restrictions', [
      {
        id: 9,
        candidate_id: 116,
        client_id: 5,
        site_id: null,
        reason: 'Barred by the home',
        restricted_on: '2026-11-25',
        recorded_by: 'Alex Morgan',
        affected_shifts: covered.slice(0, 1),
      },
    ]);
    const unassigned = serveRestrictions('Shift 80 is no longer assigned: someone unassigned it a moment ago.');
    const user = userEvent.setup({ delay: null });
    renderTab();
    await user.click(await screen.findByRole('button', { name: '1 booked shift' }));
    const offer = await screen.findByRole('dialog', { name: 'This restriction covers 1 booked shift' });
    await user.click(within(offer).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(unassigned).toEqual([]);

    await user.click(screen.getByRole('button', { name: '1 booked shift' }));
    const again = await screen.findByRole('dialog', { name: 'This restriction covers 1 booked shift' });
    await user.click(within(again).getByRole('button', { name: 'Unassign this shift' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent(
      'Shift 80 is no longer assigned: someone unassigned it a moment ago.',
    );
    expect(unassigned).toEqual([{ ids: [80] }]);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
