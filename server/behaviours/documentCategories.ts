import type { ResourceBehaviour } from '../engine/context.js';
import { refreshCompliance } from '../services/compliance.js';

export const documentCategoriesBehaviour: ResourceBehaviour = {
  async afterSave(ctx, { stored, row }) {
    const same =
      stored &&
      stored.mandatory === row.mandatory &&
      JSON.stringify(stored.job_role_ids) === JSON.stringify(row.job_role_ids);
    if (!same) await refreshCompliance(ctx.db, ctx.principal.merchantId);
  },
  async afterDelete(ctx) {
    await refreshCompliance(ctx.db, ctx.principal.merchantId);
  },
};
