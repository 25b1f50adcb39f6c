import { compactNotificationCounts } from '../notifications/counts.js';
import { chatRoutes } from '../routes/chat.js';
import { notificationRoutes } from '../routes/notifications.js';
import { seedCommunication } from '../seed/communication.js';
import type { ServerArea } from './area.js';

export const communicationArea: ServerArea = {
  routes: [notificationRoutes, chatRoutes],
  jobs: [{ name: 'notification-counts', everyMs: 60_000, run: compactNotificationCounts }],
  seed: seedCommunication,
};
