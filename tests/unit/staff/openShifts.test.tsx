import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { OpenShiftsList } from '../../../src/staff/OpenShifts';
import { TimesheetReview, type ReviewLine } from '../../../src/resources/timesheets/TimesheetReview';
import { OpenShiftsAnswer, ShiftRequestMade, type OpenShift } from '../../../core/contracts/staff';
import { Said } from '../../../core/contracts/common';

// Issue 17 on the phone page: the open shifts the staff member may ask for (answered through the API's contract),
// Request and its refusal in words; and the client's review of a timesheet's lines (charge only, choose, approve
// with a name and signature, or dispute with a reason).

const shift = (over: Partial<OpenShift>): OpenShift => ({
  id: 7,
  start_at: '2026-07-01T07:00:00.000Z',
  end_at: '2026-07-01T15:00:00.000Z',
  break_minutes: 30,
  client_name: 'Meadowbank Care Home',
  site_name: 'Main Building',
  site_address: { line1: '1 High Street', city: 'Leeds', postcode: 'LS1 1AA' },
  job_role_name: 'Healthcare Assistant',
  notes: 'Ring the bell',
  hours: 7.5,
  pay: 9750,
  request_id: null,
  ...over,
});

describe('Open shifts on the staff page', () => {
  it('lists the open shifts with a map link, and Request puts the request on the shift', async () => {
    let asked = 0;
    server.use(
      http.get('/api/staff_open_shifts', () => answer('open shifts', OpenShiftsAnswer, { data: [shift({})] })),
      http.post('/api/staff_open_shifts/7/request', () => {
        asked++;
        return answer(
          'request',
          ShiftRequestMade,
          {
            data: { id: 3, shift_id: 7, status: 'pending', note: null, created_at: '2026-06-20T10:00:00.000Z' },
          },
          201,
        );
      }),
    );
    render(
      <OpenShiftsList
        timeZone="Europe/London"
        onFailure={(e) => {
          throw e;
        }}
      />,
    );
    const item = await screen.findByRole('listitem');
    expect(within(item).getByText('Wed 1 Jul, 08:00–16:00')).toBeInTheDocument();
    // Issue 29.17: the pay is shown, so the staff member knows what the shift is worth before asking for it.
    expect(within(item).getByText('7.5 paid hours · £97.50 pay')).toBeInTheDocument();
    expect(within(item).getByRole('link', { name: /on a map/ })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/search?query=1%20High%20Street%2C%20Leeds%2C%20LS1%201AA',
    );
    await userEvent.click(within(item).getByRole('button', { name: /^Request/ }));
    expect(await screen.findByText(/Request sent/)).toBeInTheDocument();
    expect(within(item).getByText('Requested: the agency will answer')).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Withdraw request' })).toBeInTheDocument();
    expect(asked).toBe(1);
  });

  it('says so when none suits, and says why a request is refused', async () => {
    server.use(http.get('/api/staff_open_shifts', () => answer('open shifts', OpenShiftsAnswer, { data: [] })));
    const { unmount } = render(<OpenShiftsList onFailure={() => undefined} />);
    expect(await screen.findByText(/No open shifts suit you/)).toBeInTheDocument();
    unmount();

    server.use(
      http.get('/api/staff_open_shifts', () => answer('open shifts', OpenShiftsAnswer, { data: [shift({})] })),
      http.post('/api/staff_open_shifts/7/request', () =>
        answer('refusal', Said, { message: 'This shift is no longer open to you.' }, 409),
      ),
    );
    render(<OpenShiftsList onFailure={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: /^Request/ }));
    expect(await screen.findByText('This shift is no longer open to you.')).toBeInTheDocument();
  });
});

const line = (over: Partial<ReviewLine>): ReviewLine => ({
  id: 1,
  work_date: '2026-07-01',
  staff: 'Ann Lee',
  role: 'Healthcare Assistant',
  site: 'Main Building',
  scheduled_start: '2026-07-01T07:00:00.000Z',
  scheduled_end: '2026-07-01T15:00:00.000Z',
  actual_start: '2026-07-01T07:00:00.000Z',
  actual_end: '2026-07-01T15:30:00.000Z',
  break_minutes: 30,
  hours: 8,
  charge: 16000,
  status: 'pending',
  ...over,
});

describe('the client’s review of a timesheet', () => {
  it('asks for a name and a signature before approving, and lets the client choose lines awaiting signature', async () => {
    const approve = vi.fn(async () => undefined);
    render(
      <TimesheetReview
        lines={[line({ id: 1 }), line({ id: 2, staff: 'Bo Khan' }), line({ id: 3, status: 'signed' })]}
        mode="panel"
        timeZone="Europe/London"
        onApprove={approve}
        onDispute={async () => undefined}
      />,
    );
    // Charge, never pay.
    expect(screen.getAllByText('£160.00').length).toBeGreaterThan(0);
    expect(screen.queryByText(/^Pay/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Approve and sign' }));
    expect(screen.getByText('Type your full name.')).toBeInTheDocument();
    expect(screen.getByText(/Sign in the box, or use your typed name/)).toBeInTheDocument();
    expect(approve).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Choose the line of Bo Khan on 2026-07-01' }));
    expect(screen.getByRole('status')).toHaveTextContent('1 line chosen');
    // A signed line cannot be chosen again.
    expect(screen.getAllByRole('checkbox')).toHaveLength(3); // the two open lines and "choose all"
  });

  it('disputes the chosen lines with a reason, which it asks for', async () => {
    const dispute = vi.fn(async () => undefined);
    render(
      <TimesheetReview lines={[line({ id: 4 })]} mode="panel" onApprove={async () => undefined} onDispute={dispute} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Dispute the chosen lines' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send the dispute' }));
    expect(screen.getByText('Choose the lines to approve or dispute first.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: /^Choose the line of Ann Lee/ }));
    await userEvent.type(screen.getByLabelText(/Why the chosen lines are wrong/), 'She left at 15:00.');
    await userEvent.click(screen.getByRole('button', { name: 'Send the dispute' }));
    expect(dispute).toHaveBeenCalledWith({ line_ids: [4], reason: 'She left at 15:00.' });
  });
});
