import EmailIcon from '@mui/icons-material/Email';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import { Button } from 'react-admin';
import { Link, Route } from 'react-router';
import { buildResource } from '../../../engine/react/buildResource';
import { SettingsLayout } from '../../../layout/SettingsLayout';
import { emailOutbox } from '../../../../core/resources/communication/emailResource';
import { Mailbox } from '../email/Mailbox';
import { NotificationsPage } from './NotificationsPage';
import { NotificationSettings, NOTIFICATION_SETTING_TABS } from './NotificationSettings';

/**
 * The e-mail report (/report/EmailReport, the engine's list with filters and CSV) and the embedded mailbox beside it.
 */
export const emailReport = buildResource(emailOutbox, {
  icon: EmailIcon,
  // Reports → E-mail report → Mailbox (the README's path): what the embedded mail server received.
  listActions: (
    <Button component={Link} to="/report/EmailReport/mailbox" label="app.mailbox.title">
      <MarkEmailReadIcon />
    </Button>
  ),
  extraRoutes: () => [
    <Route key="mailbox" path="/report/EmailReport/mailbox" element={<Mailbox />} />,
    <Route key="mailbox-one" path="/report/EmailReport/mailbox/:id" element={<Mailbox />} />,
  ],
});

/** Agency-panel screens: the notifications page and the notification settings' tabs (inside the settings layout). */
export const notificationAdminRoutes = [
  <Route key="notification" path="/notification" element={<NotificationsPage panel="agency" />} />,
  ...NOTIFICATION_SETTING_TABS.map((t) => (
    <Route
      key={t.path}
      path={t.path}
      element={
        <SettingsLayout>
          <NotificationSettings />
        </SettingsLayout>
      }
    />
  )),
];

/** Client-panel screens: the client's notifications. */
export const notificationClientRoutes = [
  <Route key="client-notification" path="/client/ClientNotification" element={<NotificationsPage panel="client" />} />,
];
