import type { Queryable } from '../db/index.js';
import type { EnginePrincipal, ResourceBehaviour } from '../engine/context.js';
import { notify } from '../notifications/notify.js';

/** The agency's administrators: they answer support requests. */
export async function administrators(db: Queryable, merchantId: number): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select id from users where merchant_id = $1 and kind = 'admin' and role = 'admin' and active order by id`,
    [merchantId],
  );
  return rows.map((r) => r.id);
}

export const isConsultant = (p: EnginePrincipal) => p.loginType === 'agency' && p.role === 'consultant';

export const supportRequestsBehaviour: ResourceBehaviour = {
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
