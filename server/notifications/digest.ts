import type { Db } from '../db/index.js';
import { letterheadOf } from './notify.js';
import { queueEmails, renderEmail } from './outbox.js';

/** How often the digests go out: once a day (the periodic job's interval, across every server process). */
export const DIGEST_EVERY_MS = 24 * 60 * 60_000;

/**
 * Sends each user's daily digest (issue 30.19): one e-mail listing the events they chose to hear of once a day
 * (notification_preferences.email = 'digest'), which notify() set aside for them since their last digest. Each
 * user's items are taken and their e-mail queued in one transaction, so an item is sent once, or stays for the next
 * run. A user who has left (inactive, no e-mail) gets none; their items are dropped.
 */
export async function sendDigests(db: Db): Promise<number> {
  const waiting = await db.query<{ user_id: number; merchant_id: number }>(
    'select distinct user_id, merchant_id from notification_digest_items',
  );
  let sent = 0;
  for (const { user_id, merchant_id } of waiting) {
    await db.transaction(async (tx) => {
      const items = await tx.query<{ title: string; body: string; link: string | null; created_at: string }>(
        'delete from notification_digest_items where user_id = $1 returning title, body, link, created_at',
        [user_id],
      );
      const [user] = await tx.query<{ name: string; email: string | null; kind: string }>(
        'select name, email, kind from users where id = $1 and merchant_id = $2 and active',
        [user_id, merchant_id],
      );
      if (!user?.email || items.length === 0) return;
      items.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
      const letterhead = await letterheadOf(tx, merchant_id);
      const subject = `Your daily summary: ${items.length} ${items.length === 1 ? 'notification' : 'notifications'}`;
      const body = [
        `Hello ${user.name},`,
        `Here is what happened since your last summary:`,
        items.map((i) => `• ${i.title}: ${i.body}`).join('\n'),
        'You chose to hear of these once a day; change it on your account page, under "Notifications I receive".',
        letterhead.name,
      ].join('\n\n');
      await queueEmails(tx, [
        {
          merchantId: merchant_id,
          recipient: user.email,
          recipientName: user.name,
          event: 'digest',
          ...renderEmail(
            letterhead,
            subject,
            body,
            user.kind === 'client' ? '/client/ClientNotification' : '/notification',
          ),
        },
      ]);
      sent += 1;
    });
  }
  return sent;
}
