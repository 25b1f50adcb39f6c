import type { ResourceBehaviour } from '../engine/context.js';
import { BANDS } from '../../core/domain/pricing/types.js';
import { wageFlagSql } from './wageFlag.js';

export const candidateRatesBehaviour: ResourceBehaviour = {
  computed: {
    wage_flag: (bind, { today }) => wageFlagSql('candidate_rates', today, bind),
  },
  async beforeSave(_ctx, { record }) {
    if (BANDS.every((b) => record[`pay_${b}`] == null))
      return { [`pay_${BANDS[0]}`]: { message: 'Give at least one pay rate.' } };
  },
};
