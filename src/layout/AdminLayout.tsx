import ChatIcon from '@mui/icons-material/Chat';
import { IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';
import { Layout, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { AdminMenu } from './AdminMenu';
import { NotificationsButton } from './NotificationsButton';
import { PanelAppBar } from './PanelAppBar';
import { AdminProfileMenu } from './ProfileMenu';
import { StaffSearch } from './StaffSearch';

function ChatButton() {
  const translate = useTranslate();
  const label = translate('app.topbar.chat');
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" component={Link} to="/chat" aria-label={label}>
        <ChatIcon />
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
    <Layout appBar={AdminAppBar} menu={AdminMenu} appBarAlwaysOn>
      {children}
    </Layout>
  );
}
