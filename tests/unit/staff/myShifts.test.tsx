import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { server } from '../msw/server';
import { MyShiftsList, shiftTimes, type MyShift } from '../../../src/staff/MyShifts';

// Issue 16 item 9 on the phone page: My shifts lists the staff member's upcoming and past shifts from the engine's
// shifts list, times on the agency's clock (not the phone's), with site, address, role and notes, and says in
// words when there are none.

const shift = (over: Partial<MyShift>): MyShift => ({
  id: 1,
  start_at: '2026-07-01T07:00:00.000Z',
  end_at: '2026-07-01T15:00:00.000Z',
  status: 'assigned',
  site_name: 'Main Building',
  site_address: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA' },
  job_role_name: 'Healthcare Assistant',
  notes: 'Ring the bell at the side door',
  hours: 7.5,
  pay: 9750,
  ...over,
});

/** Answers the upcoming and the past list the screen asks for; records what it asked. */
function serve(upcoming: MyShift[], past: MyShift[]) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get('/api/shifts', ({ request }) => {
      const q = new URL(request.url).searchParams;
      asked.push(q);
      return HttpResponse.json({ data: q.has('start_at_gte') ? upcoming : past, total_count: 0 });
    }),
  );
  return asked;
}

describe('My shifts', () => {
  it('shows upcoming and past shifts on the agency’s clock, with where, what and notes', async () => {
    const asked = serve(
      [shift({ id: 1 })],
      [
        shift({
          id: 2,
          start_at: '2026-01-10T20:00:00.000Z',
          end_at: '2026-01-11T08:00:00.000Z',
          status: 'cancelled',
          notes: null,
        }),
      ],
    );
    render(<MyShiftsList timeZone="Europe/London" onFailure={() => undefined} />);
    const upcoming = await screen.findByRole('region', { name: 'Upcoming' });
    // 07:00 UTC in July is 08:00 in London (summer time), whatever the test machine's zone.
    expect(within(upcoming).getByRole('heading', { name: 'Wed 1 Jul, 08:00–16:00' })).toBeInTheDocument();
    expect(within(upcoming).getByText('Healthcare Assistant at Main Building')).toBeInTheDocument();
    expect(within(upcoming).getByText('1 High Street, Leeds, LS1 1AA')).toBeInTheDocument();
    expect(within(upcoming).getByText(/Ring the bell at the side door/)).toBeInTheDocument();
    expect(within(upcoming).getByText('7.5 paid hours · £97.50 pay')).toBeInTheDocument();
    const past = screen.getByRole('region', { name: 'Past' });
    expect(within(past).getByRole('heading', { name: 'Sat 10 Jan, 20:00–08:00' })).toBeInTheDocument();
    expect(within(past).getByText('Cancelled')).toBeInTheDocument();
    // Upcoming from the agency's today, soonest first; past before it, latest first; deleted shifts left out.
    expect(asked.map((q) => [q.get('start_at_gte') ?? q.get('start_at_lte'), q.get('order'), q.get('state')])).toEqual(
      expect.arrayContaining([
        ['today', 'asc', 'assigned,closed,cancelled'],
        ['-1d', 'desc', 'assigned,closed,cancelled'],
      ]),
    );
  });

  it('says in words when there are no shifts at all', async () => {
    serve([], []);
    render(<MyShiftsList timeZone="Europe/London" onFailure={() => undefined} />);
    expect(
      await screen.findByText('You have no shifts yet. When your agency books you on a shift, it appears here.'),
    ).toBeInTheDocument();
  });

  it('says when only the upcoming ones are missing', async () => {
    serve([], [shift({ id: 3 })]);
    render(<MyShiftsList timeZone="Europe/London" onFailure={() => undefined} />);
    expect(await screen.findByText('No upcoming shifts.')).toBeInTheDocument();
  });

  it('hands a failure (an ended session) to the page', async () => {
    server.use(
      http.get('/api/shifts', () =>
        HttpResponse.json({ message: 'Your session has expired. Please sign in again.' }, { status: 401 }),
      ),
    );
    const failures: unknown[] = [];
    render(<MyShiftsList timeZone="Europe/London" onFailure={(e) => failures.push(e)} />);
    await vi.waitFor(() => expect(failures.length).toBeGreaterThan(0));
    expect((failures[0] as { status: number }).status).toBe(401);
  });

  it('reads times in the zone given, not the machine’s', () => {
    expect(
      shiftTimes({ start_at: '2026-07-01T07:00:00.000Z', end_at: '2026-07-01T15:00:00.000Z' }, 'America/New_York'),
    ).toBe('Wed 1 Jul, 03:00–11:00');
  });
});
