import type { ResourceBehaviour } from '../engine/context.js';

/**
 * The agency's own roles (issue 35). Their holders' sessions read the role's privileges on every look-up; a cached
 * look-up is dropped in every process once a change to the role commits (the cluster's sessions topic), so the
 * change applies to each holder's next request wherever it lands.
 */
export const agencyRolesBehaviour: ResourceBehaviour = {
  async afterSave(ctx, { stored, row }) {
    if (stored) await ctx.cluster?.publish('sessions', { roleId: Number(row.id) }, ctx.db);
  },
};
