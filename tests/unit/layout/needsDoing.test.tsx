import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { AdminContext, TestMemoryRouter, memoryStore } from 'react-admin';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { NeedsDoing } from '../../../src/pages/NeedsDoing';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { NeedsDoingAnswer } from '../../../core/contracts/dashboard';
import { UnreadCount } from '../../../core/contracts/chat';
import { Said } from '../../../core/contracts/common';

vi.setConfig({ testTimeout: 30_000 });
// One module instance for 'react-router' and react-admin's 'react-router-dom' (see engine/views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

// Issue 34: the agency dashboard's "Needs doing": each count a link named by its sentence to the list it counts,
// zeros in words, a loading state, a failure that can be retried.

const AS_OF = '2026-11-29T09:00:00.000Z';
const figures: NeedsDoingAnswer = {
  as_of: AS_OF,
  data: [
    {
      id: 'unfilled_24h',
      count: 3,
      route: '/shift-list/open',
      filter: { start_at_gte: AS_OF, start_at_lte: '2026-11-30T09:00:00.000Z' },
    },
    { id: 'staff_pending', count: 1, route: '/staffs/pendingStaff', filter: {} },
    { id: 'invoice_drafts', count: 0, route: '/invoice/client-invoice/draft', filter: {} },
    { id: 'invoices_overdue', count: 2, sum: 123456, route: '/invoice/client-invoice/overdue', filter: {} },
  ],
};

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderQueue(answerWith: () => Response | Promise<Response>, unread = 4) {
  localStorage.setItem('token', 'tok-home');
  localStorage.setItem('tokenExpiration', new Date(Date.now() + 3_600_000).toISOString());
  localStorage.setItem('loginType', 'admin');
  server.use(
    http.get('*/api/dashboard/needs_doing', answerWith),
    http.get('*/api/chats/unread_count', () => answer('GET /api/chats/unread_count', UnreadCount, { count: unread })),
  );
  return render(
    <TestMemoryRouter initialEntries={['/home']}>
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/home" element={<NeedsDoing />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('Needs doing on the dashboard', () => {
  it('names each count by its sentence, waiting items first, and opens the counted list with its filter', async () => {
    renderQueue(() => answer('GET /api/dashboard/needs_doing', NeedsDoingAnswer, figures));
    // Loading says so before the figures arrive.
    expect(screen.getByRole('status')).toHaveTextContent('Counting what needs doing…');
    const section = await screen.findByRole('region', { name: 'Needs doing' });
    const links = await within(section).findAllByRole('link');
    expect(links.map((l) => l.getAttribute('aria-label'))).toEqual([
      '3 unfilled shifts in the next 24 hours',
      '1 staff member awaiting approval',
      '2 overdue invoices, £1,234.56 outstanding',
      '4 unread messages from staff',
      'No invoice drafts waiting to be issued',
    ]);
    // The zero is said in words, not as a bare 0.
    expect(within(section).getByText('No invoice drafts waiting to be issued')).toBeInTheDocument();
    expect(screen.queryByText('Nothing needs doing right now.')).toBeNull();

    await userEvent.click(within(section).getByRole('link', { name: '3 unfilled shifts in the next 24 hours' }));
    const where = new URL(screen.getByTestId('where').textContent!, 'http://x');
    expect(where.pathname).toBe('/shift-list/open');
    expect(JSON.parse(where.searchParams.get('filter')!)).toEqual(figures.data[0].filter);
  });

  it('says when nothing needs doing, and each item still leads to its list', async () => {
    renderQueue(
      () =>
        answer('GET /api/dashboard/needs_doing', NeedsDoingAnswer, {
          as_of: AS_OF,
          data: [{ id: 'staff_pending', count: 0, route: '/staffs/pendingStaff', filter: {} }],
        }),
      0,
    );
    expect(await screen.findByText('Nothing needs doing right now.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'No staff awaiting approval' })).toHaveAttribute(
      'href',
      '/staffs/pendingStaff?filter=%7B%7D',
    );
    expect(screen.getByRole('link', { name: 'No unread messages from staff' })).toHaveAttribute('href', '/chat');
  });

  it('says the figures could not be counted, and Try again asks once more', async () => {
    let asked = 0;
    renderQueue(() => {
      asked++;
      return asked === 1
        ? answer('failure', Said, { message: 'An unexpected error occurred. Please try again later.' }, 500)
        : answer('GET /api/dashboard/needs_doing', NeedsDoingAnswer, figures);
    });
    expect(await screen.findByText('What needs doing could not be counted just now.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: '1 staff member awaiting approval' })).toBeInTheDocument();
    expect(asked).toBe(2);
  });
});
