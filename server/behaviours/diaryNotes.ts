import type { ResourceBehaviour } from '../engine/context.js';

export const diaryNotesBehaviour: ResourceBehaviour = {
  async beforeSave(ctx, e) {
    if (!e.stored) {
      e.record.user_id = ctx.principal.userId;
      e.record.owner_name = ctx.principal.name;
    }
    // A reminder moved to another time is a new reminder: it fires again.
    if (e.stored && Object.prototype.hasOwnProperty.call(e.changes, 'remind_at')) e.record.reminded_at = null;
  },
};
