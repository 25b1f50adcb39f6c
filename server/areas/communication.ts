import { compactNotificationCounts } from '../notifications/counts.js';
import { DIGEST_EVERY_MS, sendDigests } from '../notifications/digest.js';
import { emailDelivery } from '../notifications/outbox.js';
import { chatRoutes } from '../routes/chat.js';
import { notificationRoutes } from '../routes/notifications.js';
import { seedCommunication } from '../seed/communication.js';
import type { ServerArea } from './area.js';
import { communicationResources } from '../../core/resources/communication/resource.js';

export const communicationArea: ServerArea = {
  name: 'communication',
  declarations: communicationResources,
  routes: [notificationRoutes, chatRoutes],
  // The outbox's delivery: one job per transaction that queued mail (server/notifications/outbox.ts).
  jobKinds: [emailDelivery],
  jobs: [
    { name: 'notification-counts', everyMs: 60_000, run: compactNotificationCounts },
    { name: 'notification-digest', everyMs: DIGEST_EVERY_MS, run: sendDigests },
  ],
  seed: seedCommunication,
};
