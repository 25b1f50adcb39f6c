// Issue 29.1: a client's phone approvers. The client's manager sets each one's PIN (hashed before the transaction, like
// a password, and never in the audit trail); an approver for one site signs only that site's lines.
import type { Problems } from '../../core/engine/validate.js';
import type { ResourceBehaviour } from '../engine/context.js';
import { hashPassword } from '../auth/passwords.js';

export const timesheetApproversBehaviour: ResourceBehaviour = {
  async beforeSave(ctx, { stored, record }): Promise<Problems | void> {
    // A colleague is one approver, with one PIN (the table's unique index holds it under a race).
    if (!stored && record.user_id != null) {
      const [taken] = await ctx.db.query(
        'select name from timesheet_approvers where merchant_id = $1 and user_id = $2 and deleted_at is null',
        [ctx.principal.merchantId, record.user_id],
      );
      if (taken) return { user_id: { message: `${taken.name} is already a phone approver: set their PIN instead.` } };
    }
    if (record.site_id == null) return;
    const clientId = record.client_id ?? stored?.client_id;
    const [site] = await ctx.db.query(
      'select 1 from sites where merchant_id = $1 and id = $2 and client_id = $3 and deleted_at is null',
      [ctx.principal.merchantId, record.site_id, clientId],
    );
    if (!site) return { site_id: { message: 'Choose one of this client’s sites, or leave it empty for every site.' } };
  },
  actions: {
    async set_pin(ctx, _r, input) {
      return { pin_hash: input.pin_hash, pin_set_at: ctx.now.toISOString() };
    },
  },
  prepare: { set_pin: async (input) => ({ pin_hash: await hashPassword(String(input.pin)) }) },
};
