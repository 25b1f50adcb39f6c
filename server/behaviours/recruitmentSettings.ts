import type { ResourceBehaviour } from '../engine/context.js';
import { removedStages, stagesOf, tidyStages, type Stage } from '../../core/domain/recruitment/stages.js';

/**
 * The agency's recruitment settings (issue 35): a stage it removes from its pipeline must hold no applicant (they
 * would be at a stage no screen shows), refused in words naming the stage and how many; the labels are kept trimmed.
 * The settings row is locked by the save (agencyRowId's `for update`) and a move to a stage reads it under a share
 * lock, so no applicant reaches a stage while it is being removed.
 */
export const recruitmentSettingsBehaviour: ResourceBehaviour = {
  async beforeSave(ctx, e) {
    if (!('stages' in e.changes) || !Array.isArray(e.changes.stages)) return;
    const after = tidyStages(e.changes.stages as Stage[]);
    e.changes.stages = after;
    e.record.stages = after;
    const gone = removedStages(stagesOf(e.stored?.stages), after);
    if (!gone.length) return;
    const held = await ctx.db.query<{ stage: string; n: number }>(
      `select stage, count(*)::int as n from job_applications where merchant_id = $1 and stage = any($2::text[])
        group by stage`,
      [ctx.principal.merchantId, gone.map((s) => s.id)],
    );
    const first = gone.find((s) => held.some((h) => h.stage === s.id));
    if (!first) return;
    const n = held.find((h) => h.stage === first.id)!.n;
    return {
      stages: {
        message: `${first.label} cannot be removed: ${n} ${n === 1 ? 'applicant is' : 'applicants are'} at it. Move them to another stage first.`,
      },
    };
  },
};
