import type { ResourceBehaviour } from '../engine/context.js';
import { notify } from '../notifications/notify.js';
import { replyAudience, replyTransition, type SupportStatus } from '../../core/domain/support/support.js';
import { administrators, isConsultant } from './supportRequests.js';

export const supportRepliesBehaviour: ResourceBehaviour = {
  // A consultant reads the replies of their own requests only.
  scope: (principal, bind) =>
    isConsultant(principal)
      ? `support_request_id in (select id from support_requests where merchant_id = ${bind(principal.merchantId)} and requester_id = ${bind(principal.userId)})`
      : null,
  async beforeSave(ctx, e) {
    if (e.stored) return;
    // The reference check kept a consultant to their own requests (the requests' scope); the request is locked so
    // its status, which the reply may change, is read after any other reply's.
    await ctx.db.query('select 1 from support_requests where merchant_id = $1 and id = $2 for update', [
      ctx.principal.merchantId,
      e.record.support_request_id,
    ]);
    e.record.author_id = ctx.principal.userId;
    e.record.author_name = ctx.principal.name;
  },
  async afterSave(ctx, e) {
    if (e.stored) return;
    const merchantId = ctx.principal.merchantId;
    const [request] = await ctx.db.query<{
      id: number;
      subject: string;
      status: SupportStatus;
      requester_id: number | null;
      requester_name: string | null;
    }>(
      'select id, subject, status, requester_id, requester_name from support_requests where merchant_id = $1 and id = $2',
      [merchantId, e.row.support_request_id],
    );
    const move = replyTransition(
      { status: request.status, requesterId: request.requester_id },
      { userId: ctx.principal.userId, role: ctx.principal.role },
    );
    if (move) await ctx.engine.act('support_requests', request.id, move, {}, { reason: `Reply ${e.row.id}` });
    const audience = replyAudience(
      request.requester_id,
      ctx.principal.userId,
      await administrators(ctx.db, merchantId),
    );
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
