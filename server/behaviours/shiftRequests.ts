import type { ResourceBehaviour } from '../engine/context.js';
import { notify } from '../notifications/notify.js';
import { HttpError } from '../http.js';
import { describeShiftTimes } from '../../core/domain/shifts/times.js';
import { formatDisplayDate } from '../../core/domain/time/agencyTime.js';

/**
 * A staff member's request for an open shift: the agency hears of it, and accepting it is the shift's own assign
 * (every booking check, the notifications of a booking), after which the others who asked are declined.
 */
export const shiftRequestsBehaviour: ResourceBehaviour = {
  computed: {
    candidate_name: () =>
      `(select c.first_name || ' ' || c.last_name from candidates c where c.merchant_id = shift_requests.merchant_id and c.id = shift_requests.candidate_id)`,
  },

  async afterSave(ctx, { stored, row }) {
    if (stored) return;
    const [n] = await ctx.db.query<{
      staff: string;
      client: string;
      site: string;
      role: string;
      start_at: Date | string;
      end_at: Date | string;
      approval: string;
    }>(
      `select c.first_name || ' ' || c.last_name as staff, cl.name as client, si.name as site, jr.name as role, s.start_at, s.end_at,
              cl.shift_request_approval as approval
         from shift_requests r join shifts s on s.merchant_id = r.merchant_id and s.id = r.shift_id
         join candidates c on c.merchant_id = r.merchant_id and c.id = r.candidate_id
         join clients cl on cl.id = s.client_id join sites si on si.id = s.site_id join job_roles jr on jr.id = s.job_role_id
        where r.merchant_id = $1 and r.id = $2`,
      [ctx.principal.merchantId, row.id],
    );
    // The client books a request at once when every booking check passes (issue 35, its shift request approval): the
    // assign's own checks and notifications, as the agency's accept would run them. A warning or a refusal leaves it
    // waiting for the agency, as any other request.
    if (n.approval === 'automatic') {
      await ctx.db.query('savepoint automatic_accept');
      try {
        await ctx.engine.asSystem().act('shift_requests', Number(row.id), 'accept');
        await ctx.db.query('release savepoint automatic_accept');
        return true;
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        await ctx.db.query('rollback to savepoint automatic_accept');
      }
    }
    const when = describeShiftTimes(
      new Date(n.start_at).toISOString(),
      new Date(n.end_at).toISOString(),
      ctx.timeZone,
      formatDisplayDate,
    );
    await notify(ctx.db, {
      merchantId: ctx.principal.merchantId,
      event: 'shift.requested',
      title: 'A staff member asks for a shift',
      body: `${n.staff} asks to work the ${n.role} shift at ${n.site} (${n.client}), ${when}. Accept or decline it on the shift.`,
      link: `/shifts/${row.shift_id}/show`,
      audience: { agency: true },
      data: { shift_id: row.shift_id, staff_name: n.staff, client_name: n.client, site_name: n.site, job_role: n.role },
    });
  },

  actions: {
    async accept(ctx, record, input) {
      await ctx.engine.act('shifts', Number(record.shift_id), 'assign', {
        candidate_id: Number(record.candidate_id),
        ...(input.override_reason ? { override_reason: input.override_reason } : {}),
      });
      const others = await ctx.db.query<{ id: number }>(
        `select id from shift_requests where merchant_id = $1 and shift_id = $2 and id <> $3 and status = 'pending' and deleted_at is null order by id`,
        [ctx.principal.merchantId, record.shift_id, record.id],
      );
      for (const o of others) await ctx.engine.act('shift_requests', o.id, 'decline');
    },
  },
};
