import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';

/**
 * The demo agency's client settings (issue 35): new clients invoiced weekly, one timesheet per client, signed every
 * way (the third client: not on a phone); and one client user who turned the overdue reminders off (David Okoro of
 * the second client), so the e-mails screen shows a user set otherwise than the agency's default.
 */
export async function seedClientSettings(db: Queryable, ctx: SeedContext) {
  await db.query(
    `insert into client_settings (merchant_id, invoice_mode, timesheet_per) values ($1, 'Weekly', 'client')`,
    [ctx.merchantId],
  );
  // The third client has no phone approvers: its timesheets are signed in its panel or by the e-mailed link.
  await db.query(`update clients set signing_methods = '{panel,link}' where merchant_id = $1 and id = $2`, [
    ctx.merchantId,
    ctx.clientIds[2],
  ]);
  await db.query(
    `insert into notification_preferences (merchant_id, user_id, event, email)
     select merchant_id, id, 'invoice.payment_due', 'off' from users
      where merchant_id = $1 and kind = 'client' and client_id = $2`,
    [ctx.merchantId, ctx.clientIds[1]],
  );
}
