import { messages as chatMessages } from './chat/messages';
import { notificationMessages } from './notifications/messages';

/** English texts of this area's screens (merged into the catalogue by src/i18n/i18nProvider.ts). */
export const messages = {
  app: {
    // ── Chat with staff (app.chat.*) ──
    ...chatMessages.app,
    // ── Notifications, notification settings, mailbox ──
    // (app.notifications.*, app.notification_settings.*, app.mailbox.*)
    ...notificationMessages,
  },
};
