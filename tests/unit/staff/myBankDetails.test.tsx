import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { MyPayslipsList } from '../../../src/staff/MyPayslips';
import { OwnBankDetailsAnswer } from '../../../core/contracts/payroll';

// Issue 33 on the phone page: the staff member sees where their pay goes, masked as the agency's profile shows it
// (the server answers only the masked line), above their payslips; or, in words, that the agency has none yet.

const slip = { id: 5, period_start: '2026-10-05', period_end: '2026-10-11', gross: 52_500, net: 44_012 };

function renderPayslips() {
  render(
    <MemoryRouter>
      <MyPayslipsList
        onFailure={(e) => {
          throw e;
        }}
      />
    </MemoryRouter>,
  );
}

describe('My bank details on the staff page', () => {
  it('shows their own bank details masked above their payslips, never asking for them in full', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/payslips', () => HttpResponse.json({ data: [slip], total: 1 })),
      http.get('/api/staff_bank_details', ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return answer('own bank details', OwnBankDetailsAnswer, {
          data: { masked: 'Sort code ending 56, account ending 5678' },
        });
      }),
    );
    renderPayslips();
    const section = await screen.findByRole('region', { name: 'Where your pay goes' });
    expect(within(section).getByText('Sort code ending 56, account ending 5678.')).toBeInTheDocument();
    expect(within(section).getByText(/Only the last digits are shown/)).toBeInTheDocument();
    expect(await screen.findByText('Paid on 2026-10-11')).toBeInTheDocument();
    expect(asked).toEqual(['/api/staff_bank_details']);
  });

  it('says in words when the agency has none, even before their first payslip', async () => {
    server.use(
      http.get('/api/payslips', () => HttpResponse.json({ data: [], total: 0 })),
      http.get('/api/staff_bank_details', () =>
        answer('own bank details', OwnBankDetailsAnswer, { data: { masked: null } }),
      ),
    );
    renderPayslips();
    const section = await screen.findByRole('region', { name: 'Where your pay goes' });
    expect(within(section).getByRole('alert')).toHaveTextContent(/has no bank details for you yet/);
    expect(screen.getByText(/You have no payslips yet/)).toBeInTheDocument();
  });
});
