import type { ResourceBehaviour } from '../engine/context.js';

export const availabilityBehaviour: ResourceBehaviour = {
  async beforeSave(ctx, { stored, record }) {
    if (stored) return;
    const [dup] = await ctx.db.query('select 1 from availability where merchant_id = $1 and candidate_id = $2 and date = $3', [ctx.principal.merchantId, record.candidate_id, record.date]);
    if (dup) return { date: { message: 'app.availability.already_set' } };
  },
};
