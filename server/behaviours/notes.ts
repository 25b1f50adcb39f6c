import type { Db, Queryable } from '../db/index.js';
import type { EnginePrincipal, ResourceBehaviour } from '../engine/context.js';
import { notify } from '../notifications/notify.js';
import { replyAudience, statusAfterReply, type SupportStatus } from '../../core/domain/support/support.js';
import { DEFAULT_TIME_ZONE, formatDisplayDate, instantToZoned } from '../../core/domain/time/agencyTime.js';

/** The agency's administrators: they answer support requests. */
async function administrators(db: Queryable, merchantId: number): Promise<number[]> {
  const rows = await db.query<{ id: number }>(`select id from users where merchant_id = $1 and kind = 'admin' and role = 'admin' and active order by id`, [merchantId]);
  return rows.map((r) => r.id);
}

const isConsultant = (p: EnginePrincipal) => p.loginType === 'admin' && p.role === 'consultant';

const diaryNotesBehaviour: ResourceBehaviour = {
  async beforeSave(ctx, e) {
    if (!e.stored) {
      e.record.user_id = ctx.principal.userId;
      e.record.owner_name = ctx.principal.name;
    }
    // A reminder moved to another time is a new reminder: it fires again.
    if (e.stored && Object.prototype.hasOwnProperty.call(e.changes, 'remind_at')) e.record.reminded_at = null;
  },
};

const supportRequestsBehaviour: ResourceBehaviour = {
  // A consultant's requests are between them and the administrators.
  scope: (principal, bind) => (isConsultant(principal) ? `requester_id = ${bind(principal.userId)}` : null),
  async beforeSave(ctx, e) {
    if (e.stored) return;
    e.record.requester_id = ctx.principal.userId;
    e.record.requester_name = ctx.principal.name;
  },
  async afterSave(ctx, e) {
    if (e.stored) return;
    const admins = (await administrators(ctx.db, ctx.principal.merchantId)).filter((id) => id !== ctx.principal.userId);
    if (admins.length === 0) return;
    await notify(ctx.db, {
      merchantId: ctx.principal.merchantId,
      event: 'support.request',
      title: `Support request: ${e.row.subject}`,
      body: `${ctx.principal.name} asked for help: ${String(e.row.description).slice(0, 200)}`,
      link: `/support_requests/${e.row.id}/show`,
      audience: { userIds: admins },
      data: { subject: e.row.subject, requester_name: ctx.principal.name },
    });
  },
};

const supportRepliesBehaviour: ResourceBehaviour = {
  // A consultant reads the replies of their own requests only.
  scope: (principal, bind) =>
    isConsultant(principal) ? `support_request_id in (select id from support_requests where merchant_id = ${bind(principal.merchantId)} and requester_id = ${bind(principal.userId)})` : null,
  async beforeSave(ctx, e) {
    if (e.stored) return;
    // The reference check kept a consultant to their own requests (the requests' scope); the request is locked so
    // its status, which the reply may change, is read after any other reply's.
    await ctx.db.query('select 1 from support_requests where merchant_id = $1 and id = $2 for update', [ctx.principal.merchantId, e.record.support_request_id]);
    e.record.author_id = ctx.principal.userId;
    e.record.author_name = ctx.principal.name;
  },
  async afterSave(ctx, e) {
    if (e.stored) return;
    const merchantId = ctx.principal.merchantId;
    const [request] = await ctx.db.query<{ id: number; subject: string; status: SupportStatus; requester_id: number | null; requester_name: string | null }>(
      'select id, subject, status, requester_id, requester_name from support_requests where merchant_id = $1 and id = $2',
      [merchantId, e.row.support_request_id],
    );
    const status = statusAfterReply({ status: request.status, requesterId: request.requester_id }, { userId: ctx.principal.userId, role: ctx.principal.role });
    if (status !== request.status) {
      await ctx.engine.update('support_requests', request.id, { status }, { reason: `Reply ${e.row.id}` });
    }
    const audience = replyAudience(request.requester_id, ctx.principal.userId, await administrators(ctx.db, merchantId));
    if (audience.length === 0) return;
    await notify(ctx.db, {
      merchantId,
      event: 'support.request',
      title: `Reply to “${request.subject}”`,
      body: `${ctx.principal.name}: ${String(e.row.body).slice(0, 200)}`,
      link: `/support_requests/${request.id}/show`,
      audience: { userIds: audience },
      data: { subject: request.subject, requester_name: request.requester_name },
    });
  },
};

export const notesBehaviours: Record<string, ResourceBehaviour> = {
  diary_notes: diaryNotesBehaviour,
  support_requests: supportRequestsBehaviour,
  support_replies: supportRepliesBehaviour,
};

/**
 * Sends the reminders that are due: each note's reminder becomes one notification to the note's writer. Run
 * every few seconds by the notifications worker, in every server process: the rows are claimed with SKIP LOCKED
 * and marked sent in the same transaction, so each reminder fires once however many processes run it.
 * Answers how many it sent.
 */
export async function fireDueReminders(db: Db, now: Date = new Date(), batch = 200): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{ id: number; merchant_id: number; title: string; note_at: Date | string; remind_at: Date | string; user_id: number | null; time_zone: string | null }>(
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
    if (due.length) await tx.query('update diary_notes set reminded_at = $1 where id = any($2)', [now, due.map((n) => n.id)]);
    return due.length;
  });
}

/** How often the worker looks for due reminders: a reminder arrives at most this late (REMINDER_INTERVAL_MS). */
export const REMINDER_INTERVAL_MS = Number(process.env.REMINDER_INTERVAL_MS) > 0 ? Number(process.env.REMINDER_INTERVAL_MS) : 15_000;
