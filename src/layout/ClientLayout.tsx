import AssignmentTurnedInIcon from '@mui/icons-material/AssignmentTurnedIn';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import LockClockIcon from '@mui/icons-material/LockClock';
import NotificationsIcon from '@mui/icons-material/Notifications';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import WorkOutlineIcon from '@mui/icons-material/WorkOutlineOutlined';
import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { NotificationsButton, UnreadBadge } from './NotificationsButton';
import { useAgencyNotifications } from './useShellData';
import { NavGroup, NavItem, SidebarNav } from './nav';
import { PanelAppBar } from './PanelAppBar';
import { PanelSidebar } from './PanelSidebar';
import { ClientProfileMenu } from './ProfileMenu';

/** The client panel's menu: Dashboard, Invoices, Schedule, Signed Timesheets, Shifts (4 lists), Notifications. */
export function ClientMenu() {
  const unread = useAgencyNotifications().data?.unread_count ?? 0;
  return (
    <SidebarNav label="app.client_menu.label">
      <NavItem to="/client/clientDashboard" label="app.client_menu.dashboard" icon={<DashboardIcon />} />
      <NavItem to="/client/invoice" label="app.client_menu.invoices" icon={<ReceiptLongIcon />} />
      <NavItem to="/client/schedule" label="app.client_menu.schedule" icon={<CalendarMonthIcon />} />
      <NavItem
        to="/client/signedTimesheet"
        label="app.client_menu.signed_timesheets"
        icon={<AssignmentTurnedInIcon />}
      />
      <NavGroup
        name="client-shifts"
        label="app.client_menu.shifts"
        icon={<WorkHistoryIcon />}
        activeOn={['/client/shift']}
      >
        <NavItem nested to="/client/shift/open-shift" label="app.client_menu.open" icon={<WorkOutlineIcon />} />
        <NavItem nested to="/client/shift/assign-shift" label="app.client_menu.assigned" icon={<HowToRegIcon />} />
        <NavItem nested to="/client/shift/closed-shift" label="app.client_menu.closed" icon={<LockClockIcon />} />
        <NavItem nested to="/client/shift/deleted-shift" label="app.client_menu.deleted" icon={<DeleteOutlineIcon />} />
      </NavGroup>
      <NavItem
        to="/client/ClientNotification"
        label="app.client_menu.notifications"
        icon={
          <UnreadBadge unread={unread} hidden>
            <NotificationsIcon />
          </UnreadBadge>
        }
      />
    </SidebarNav>
  );
}

/** Top bar: agency logo and name; the profile menu button shows the signed-in client user's name. */
export function ClientAppBar() {
  return (
    <PanelAppBar home="/client/clientDashboard" userMenu={<ClientProfileMenu />} tools={<NotificationsButton />} />
  );
}

export function ClientLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={ClientAppBar} menu={ClientMenu} sidebar={PanelSidebar} appBarAlwaysOn>
      {children}
    </Layout>
  );
}
