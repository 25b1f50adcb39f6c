import ChatIcon from '@mui/icons-material/Chat';
import { Box, IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';
import { AppBar, Layout, LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { AdminMenu } from './AdminMenu';
import { AgencyBrand } from './AgencyBrand';
import { NotificationsButton } from './NotificationsButton';
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
    <AppBar
      color="inherit"
      elevation={1}
      alwaysOn
      userMenu={<AdminProfileMenu />}
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <StaffSearch />
          <ChatButton />
          <NotificationsButton />
          <LoadingIndicator />
        </Box>
      }
    >
      <AgencyBrand home="/home" />
      <TitlePortal variant="subtitle1" sx={{ color: 'text.secondary', display: { xs: 'none', lg: 'block' } }} />
    </AppBar>
  );
}

export function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={AdminAppBar} menu={AdminMenu} appBarAlwaysOn>
      {children}
    </Layout>
  );
}
