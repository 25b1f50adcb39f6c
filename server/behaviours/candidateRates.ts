import type { ResourceBehaviour } from '../engine/context.js';
import { BANDS } from '../../core/domain/pricing/types.js';
import { wageFlagSql } from './wageFlag.js';

export const candidateRatesBehaviour: ResourceBehaviour = {
  computed: {
    wage_flag: (bind, { today }) => wageFlagSql('candidate_rates', today, bind),
  },
  async beforeSave(ctx, { stored, record }) {
    const [dup] = await ctx.db.query(
      'select 1 from candidate_rates where merchant_id = $1 and candidate_id = $2 and job_role_id is not distinct from $3 and effective_from = $4 and id <> $5',
      [ctx.principal.merchantId, record.candidate_id, record.job_role_id ?? null, record.effective_from, stored?.id ?? 0],
    );
    if (dup) return { effective_from: { message: 'This staff member already has pay rates for this job role from that date. Edit them instead.' } };
    if (BANDS.every((b) => record[`pay_${b}`] == null)) return { [`pay_${BANDS[0]}`]: { message: 'Give at least one pay rate.' } };
  },
};
