import type { ResourceBehaviour } from '../engine/context.js';
import { endSessionsOfClient } from '../auth/sessions.js';

/**
 * A client that is made inactive or deleted loses its panel at once: its users' sessions end in the same
 * transaction (and every process forgets them), and sign-in refuses them while the client is not active.
 */
export const clientsBehaviour: ResourceBehaviour = {
  async afterSave(ctx, { stored, row }) {
    if (stored && stored.status === 'active' && row.status !== 'active')
      await endSessionsOfClient(ctx.db, ctx.cluster!, ctx.principal.merchantId, Number(row.id));
  },
  async afterDelete(ctx, row) {
    await endSessionsOfClient(ctx.db, ctx.cluster!, ctx.principal.merchantId, Number(row.id));
  },
};
