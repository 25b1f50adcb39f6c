import ChatIcon from '@mui/icons-material/Chat';
import { IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';
import { Layout, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { AdminMenu } from './AdminMenu';
import { nameWithUnread, NotificationsButton, UnreadBadge } from './NotificationsButton';
import { PanelAppBar } from './PanelAppBar';
import { PanelSidebar } from './PanelSidebar';
import { AdminProfileMenu } from './ProfileMenu';
import { StaffSearch } from './StaffSearch';
import { useChatUnread } from './useShellData';

/** The top bar's chat button, its badge the agency's unread messages from staff. */
function ChatButton() {
  const translate = useTranslate();
  const unread = useChatUnread().data ?? 0;
  const label = translate('app.topbar.chat');
  const name = nameWithUnread(translate, label, unread);
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" component={Link} to="/chat" aria-label={name}>
        <UnreadBadge unread={unread}>
          <ChatIcon />
        </UnreadBadge>
      </IconButton>
    </Tooltip>
  );
}

/** Top bar: agency logo and name, page title, staff search, chat, notifications, profile menu. */
export function AdminAppBar() {
  return (
    <PanelAppBar
      home="/home"
      userMenu={<AdminProfileMenu />}
      tools={
        <>
          <StaffSearch />
          <ChatButton />
          <NotificationsButton />
        </>
      }
    />
  );
}

export function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={AdminAppBar} menu={AdminMenu} sidebar={PanelSidebar} appBarAlwaysOn>
      {children}
    </Layout>
  );
}
