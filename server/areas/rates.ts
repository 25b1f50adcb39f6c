import { candidateRatesBehaviour } from '../behaviours/candidateRates.js';
import { clientRulesBehaviour } from '../behaviours/clientRules.js';
import { holidayOverridesBehaviour } from '../behaviours/holidayOverrides.js';
import { jobRolesBehaviour } from '../behaviours/jobRoles.js';
import { rateCardsBehaviour } from '../behaviours/rateCards.js';
import { ratesRoutes } from '../routes/rates.js';
import { seedRates } from '../seed/rates.js';
import type { ServerArea } from './area.js';

export const ratesArea: ServerArea = {
  behaviours: {
    rate_cards: rateCardsBehaviour,
    candidate_rates: candidateRatesBehaviour,
    client_rules: clientRulesBehaviour,
    holiday_overrides: holidayOverridesBehaviour,
    // Job roles are a setting; their default pay's minimum-wage flag is a rates matter.
    job_roles: jobRolesBehaviour,
  },
  routes: [ratesRoutes],
  seed: seedRates,
};
