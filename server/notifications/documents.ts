import type { Db } from '../db/index.js';
import { agencyToday, DEFAULT_TIME_ZONE, addDaysToDate, formatDisplayDate } from '../../core/domain/time/agencyTime.js';
import {
  EXPIRED_LOOKBACK_DAYS,
  REMINDER_DAYS,
  reminderDue,
  reminderKey,
} from '../../core/domain/notifications/documentReminders.js';
import { notify } from './notify.js';

/**
 * The daily document job: once per agency-day (in the agency's time zone), every current document that has
 * reached a reminder threshold (60, 30, 7 days, or expired) is notified, once per document and threshold.
 * Safe to run from several processes at once: each agency-day is claimed by one of them. Answers how many
 * reminders it sent.
 */
export async function runDocumentReminders(db: Db, now: Date = new Date()): Promise<number> {
  const agencies = await db.query<{ id: number; time_zone: string | null }>(
    'select id, time_zone from merchants order by id',
  );
  let sent = 0;
  for (const agency of agencies) {
    const today = agencyToday(agency.time_zone || DEFAULT_TIME_ZONE, now);
    sent += await db.transaction(async (tx) => {
      // Claims the agency's day: a second process waits for this one's commit, then finds the day taken.
      const claimed = await tx.query(
        `insert into agency_job_runs (merchant_id, job, last_day) values ($1, 'document-reminders', $2)
         on conflict (merchant_id, job) do update set last_day = excluded.last_day where agency_job_runs.last_day < excluded.last_day returning 1`,
        [agency.id, today],
      );
      if (claimed.length === 0) return 0;
      const documents = await tx.query<{
        id: number;
        expiry_date: string;
        candidate_id: number;
        staff_name: string;
        document: string;
      }>(
        `select d.id, d.expiry_date, d.candidate_id, c.first_name || ' ' || c.last_name as staff_name, k.name as document
           from candidate_documents d
           join candidates c on c.merchant_id = d.merchant_id and c.id = d.candidate_id and c.deleted_at is null
           join document_categories k on k.merchant_id = d.merchant_id and k.id = d.document_category_id
          where d.merchant_id = $1 and d.deleted_at is null and d.current and d.status <> 'rejected'
            and d.expiry_date between $2::date and $3::date
          order by d.expiry_date, d.id`,
        [agency.id, addDaysToDate(today, -EXPIRED_LOOKBACK_DAYS), addDaysToDate(today, REMINDER_DAYS[0])],
      );
      let n = 0;
      for (const d of documents) {
        const threshold = reminderDue(d.expiry_date, today);
        if (threshold === null) continue;
        const expired = threshold === 'expired';
        const expiry = formatDisplayDate(d.expiry_date);
        await notify(tx, {
          merchantId: agency.id,
          event: expired ? 'document.expired' : 'document.due',
          title: expired ? `${d.document} expired` : `${d.document} expires in ${threshold} days`,
          body: expired
            ? `The ${d.document} of ${d.staff_name} expired on ${expiry}.`
            : `The ${d.document} of ${d.staff_name} expires on ${expiry}.`,
          link: `/staffs/${d.candidate_id}`,
          audience: { agency: true, candidateId: d.candidate_id },
          data: {
            staff_name: d.staff_name,
            document: d.document,
            expiry_date: expiry,
            days_left: expired ? 0 : threshold,
          },
          dedupeKey: reminderKey(d.id, threshold),
        });
        n += 1;
      }
      return n;
    });
  }
  return sent;
}
