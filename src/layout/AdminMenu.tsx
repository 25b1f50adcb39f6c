import AssessmentIcon from '@mui/icons-material/Assessment';
import BusinessIcon from '@mui/icons-material/Business';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ChatIcon from '@mui/icons-material/Chat';
import DashboardIcon from '@mui/icons-material/Dashboard';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import GavelIcon from '@mui/icons-material/Gavel';
import GroupIcon from '@mui/icons-material/Group';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LocationCityIcon from '@mui/icons-material/LocationCity';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import RequestQuoteIcon from '@mui/icons-material/RequestQuote';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SettingsIcon from '@mui/icons-material/Settings';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import TodayIcon from '@mui/icons-material/Today';
import ViewWeekIcon from '@mui/icons-material/ViewWeek';
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { NavGroup, NavHeading, NavItem, SidebarNav } from './nav';
import { UnreadBadge } from './NotificationsButton';
import { useAgencyNotifications, useChatUnread } from './useShellData';

/** The agency panel's sidebar, exactly as the spec's "Navigation" lists it. */
export function AdminMenu() {
  const translate = useTranslate();
  const notifications = useAgencyNotifications();
  const unread = notifications.data?.unread_count ?? 0;
  // Messages from staff have their own count (the chat's), as in the top bar: they are not notifications.
  const unreadMessages = useChatUnread().data ?? 0;
  return (
    <>
      <SidebarNav label="app.menu.label">
        <NavItem to="/home" label="app.menu.dashboard" icon={<DashboardIcon />} />
        <NavGroup
          name="client"
          label="app.menu.client"
          icon={<BusinessIcon />}
          activeOn={['/client', '/site', '/rates_and_rules']}
        >
          <NavItem
            nested
            to="/client/client-list"
            label="app.menu.client_list"
            icon={<ListAltIcon />}
            activeOn={['/client/client-list', '/client/edit', '/client/view', '/client/client']}
          />
          <NavItem nested to="/site/siteLists" label="app.menu.site" icon={<LocationCityIcon />} activeOn={['/site']} />
          <NavItem nested to="/rates_and_rules" label="app.menu.rates_and_rules" icon={<GavelIcon />} />
        </NavGroup>
        <NavGroup name="staff" label="app.menu.staff" icon={<PeopleIcon />} activeOn={['/staff', '/staffs']}>
          <NavItem
            nested
            to="/staff/staff-list"
            label="app.menu.staff_list"
            icon={<GroupIcon />}
            activeOn={['/staff/staff-list', '/staffs']}
          />
          <NavItem nested to="/staff/availability" label="app.menu.staff_availability" icon={<EventAvailableIcon />} />
        </NavGroup>
        <NavItem
          to="/shifts"
          label="app.menu.shifts"
          icon={<WorkHistoryIcon />}
          activeOn={['/shifts', '/shift-list']}
        />
        <NavItem to="/schedule" label="app.menu.schedule" icon={<CalendarMonthIcon />} />
        <NavGroup name="timesheet" label="app.menu.timesheet" icon={<ScheduleIcon />} activeOn={['/timesheet']}>
          <NavItem nested to="/timesheet/weekly" label="app.menu.weekly" icon={<ViewWeekIcon />} />
          <NavItem nested to="/timesheet/custom" label="app.menu.custom" icon={<TodayIcon />} />
          <NavItem nested to="/timesheet/signed" label="app.menu.signed" icon={<TaskAltIcon />} />
        </NavGroup>
        <NavGroup
          name="invoice"
          label="app.menu.invoice"
          icon={<ReceiptLongIcon />}
          activeOn={['/invoice', '/edit/:id/:templateType']}
        >
          <NavItem
            nested
            to="/invoice/client-invoice"
            label="app.menu.client_invoice"
            icon={<RequestQuoteIcon />}
            activeOn={[
              '/invoice/client-invoice',
              '/invoice/GenerateView',
              '/invoice/exports',
              '/invoice/client-InvoiceView',
              '/invoice/Generate-invoice',
              '/invoice/edit',
              '/edit/:id/:templateType',
            ]}
          />
          <NavItem
            nested
            to="/invoice/staff-payroll"
            label="app.menu.staff_payroll"
            icon={<PaymentsIcon />}
            activeOn={['/invoice/staff-payroll', '/invoice/StaffPayrollViewEdit']}
          />
        </NavGroup>
        <NavItem to="/recruitment" label="app.menu.recruitment" icon={<PersonSearchIcon />} />
        <NavItem to="/report" label="app.menu.reports" icon={<AssessmentIcon />} />
        <NavHeading label="app.menu.support_group" />
        <NavItem
          to="/chat"
          label="app.menu.message"
          icon={
            <UnreadBadge unread={unreadMessages} hidden>
              <ChatIcon />
            </UnreadBadge>
          }
          describedBy={unreadMessages ? 'sidebar-unread-messages' : undefined}
        />
        <NavItem
          to="/notification"
          label="app.menu.notification"
          icon={
            <UnreadBadge unread={unread} hidden>
              <NotificationsIcon />
            </UnreadBadge>
          }
          describedBy={unread ? 'sidebar-unread-count' : undefined}
        />
        <NavItem to="/support" label="app.menu.support" icon={<HelpOutlineIcon />} />
        <NavItem to="/appsetting" label="app.menu.settings" icon={<SettingsIcon />} />
      </SidebarNav>
      {/* Outside the sidebar's list, which holds list items only. */}
      {unread > 0 && (
        <Box id="sidebar-unread-count" sx={{ display: 'none' }}>
          {translate('app.menu.unread', { smart_count: unread })}
        </Box>
      )}
      {unreadMessages > 0 && (
        <Box id="sidebar-unread-messages" sx={{ display: 'none' }}>
          {translate('app.menu.unread', { smart_count: unreadMessages })}
        </Box>
      )}
    </>
  );
}
