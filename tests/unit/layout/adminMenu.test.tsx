import { render, screen } from '@testing-library/react';
import { http } from 'msw';
import { AdminContext, TestMemoryRouter, memoryStore } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { AdminMenu } from '../../../src/layout/AdminMenu';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { Inbox } from '../../../core/contracts/notifications';
import { UnreadCount } from '../../../core/contracts/chat';

vi.setConfig({ testTimeout: 30_000 });
// One module instance for 'react-router' and react-admin's 'react-router-dom' (see engine/views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

function serve(notificationsUnread: number, messagesUnread: number) {
  server.use(
    http.get('*/api/agency_notifications', () =>
      answer('GET /api/agency_notifications', Inbox, {
        notifications: [],
        current_page: 1,
        total_count: notificationsUnread,
        total_pages: Math.ceil(notificationsUnread / 10),
        unread_count: notificationsUnread,
        message: 'ok',
      }),
    ),
    http.get('*/api/chats/unread_count', () =>
      answer('GET /api/chats/unread_count', UnreadCount, { count: messagesUnread }),
    ),
  );
}

function renderMenu() {
  localStorage.setItem('token', 'tok-menu');
  localStorage.setItem('tokenExpiration', new Date(Date.now() + 3_600_000).toISOString());
  localStorage.setItem('loginType', 'admin');
  return render(
    <TestMemoryRouter initialEntries={['/home']}>
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <AdminMenu />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const entry = (name: string) => screen.getByRole('link', { name: new RegExp(`^${name}`) });

describe('the sidebar', () => {
  it("shows the unread messages from staff on Message, apart from the notifications' count on Notification", async () => {
    serve(2, 5);
    renderMenu();
    expect(await screen.findByText('5')).toBeInTheDocument();
    expect(entry('Message')).toHaveTextContent('5');
    expect(entry('Message')).toHaveAccessibleDescription('5 unread');
    expect(entry('Notification')).toHaveTextContent('2');
    expect(entry('Notification')).toHaveAccessibleDescription('2 unread');
  });

  it('shows no badge on Message when every message is read', async () => {
    serve(1, 0);
    renderMenu();
    await screen.findByText('1');
    expect(entry('Message').textContent).toBe('Message');
    expect(entry('Message')).not.toHaveAccessibleDescription();
  });
});
