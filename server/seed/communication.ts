import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import { seedNotifications } from './notifications.js';
import { seedChat } from './chat.js';

/** The communication area's demo data: notifications and e-mail (seedNotifications), and chat. */
export async function seedCommunication(db: Queryable, ctx: SeedContext) {
  await seedNotifications(db, ctx);
  // Chat with staff, and the staff sign-in (server/seed/chat.ts).
  await seedChat(db, ctx);
}
