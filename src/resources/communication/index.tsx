import type { Area } from '../area';
import { chatRoutes } from './chat/routes';
import { emailReport, notificationAdminRoutes, notificationClientRoutes } from './notifications/routes';

const area: Area = {
  // ── Notifications and e-mail (src/resources/communication/notifications/, email/) ──
  resources: [emailReport],
  clientRoutes: [...notificationClientRoutes],
  // ── Chat with staff (src/resources/communication/chat/) ──
  adminRoutes: [...chatRoutes, ...notificationAdminRoutes],
};
export default area;
