import type { Db } from '../db/index.js';
import { notify } from './notify.js';
import { DEFAULT_TIME_ZONE, formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime.js';

/**
 * Sends the reminders that are due: each note's reminder becomes one notification to the note's writer. Run
 * every few seconds by the notifications worker, in every server process: the rows are claimed with SKIP LOCKED
 * and marked sent in the same transaction, so each reminder fires once however many processes run it.
 * Answers how many it sent.
 */
export async function fireDueReminders(db: Db, now: Date = new Date(), batch = 200): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{
      id: number;
      merchant_id: number;
      title: string;
      note_at: Date | string;
      remind_at: Date | string;
      user_id: number | null;
      time_zone: string | null;
    }>(
      `select n.id, n.merchant_id, n.title, n.note_at, n.remind_at, n.user_id, m.time_zone
         from diary_notes n join merchants m on m.id = n.merchant_id
        where n.remind_at <= $1 and n.reminded_at is null and n.deleted_at is null
        order by n.remind_at
        limit $2
        for update of n skip locked`,
      [now, batch],
    );
    for (const note of due) {
      // A writer who has left the agency has no one to remind; the reminder is spent all the same.
      if (note.user_id === null) continue;
      const at = instantToZoned(new Date(note.note_at), note.time_zone || DEFAULT_TIME_ZONE);
      await notify(tx, {
        merchantId: note.merchant_id,
        event: 'note.reminder',
        title: `Reminder: ${note.title}`,
        body: `Diary note for ${formatDisplayDate(at.date)} at ${at.time}.`,
        link: `/dairy_notes/${note.id}/show`,
        audience: { userIds: [note.user_id] },
        data: { note_title: note.title, note_date: formatDisplayDate(at.date), note_time: at.time },
        dedupeKey: `note.reminder:${note.id}:${new Date(note.remind_at).toISOString()}`,
      });
    }
    if (due.length)
      await tx.query('update diary_notes set reminded_at = $1 where id = any($2)', [now, due.map((n) => n.id)]);
    return due.length;
  });
}

/** How often the worker looks for due reminders: a reminder arrives at most this late (REMINDER_INTERVAL_MS). */
export const REMINDER_INTERVAL_MS =
  Number(process.env.REMINDER_INTERVAL_MS) > 0 ? Number(process.env.REMINDER_INTERVAL_MS) : 15_000;
