import type { Db } from '../db/index.js';

/**
 * Folds the notification count deltas (appended by the notifications table's triggers) into one row per
 * audience. Deleting only the rows it read, a concurrent fold or insert loses nothing.
 */
export async function compactNotificationCounts(db: Db) {
  await db.query(
    `with dup as (select merchant_id, client_id, candidate_id, user_id from notification_counts group by 1, 2, 3, 4 having count(*) > 1),
     gone as (delete from notification_counts c using dup d
               where c.merchant_id = d.merchant_id and c.client_id = d.client_id and c.candidate_id = d.candidate_id and c.user_id = d.user_id
               returning c.*)
     insert into notification_counts (merchant_id, client_id, candidate_id, user_id, total, unread)
     select merchant_id, client_id, candidate_id, user_id, sum(total), sum(unread) from gone group by 1, 2, 3, 4`,
  );
}
