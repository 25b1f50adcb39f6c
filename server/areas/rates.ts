import { candidateRatesBehaviour } from '../behaviours/candidateRates.js';
import { clientRulesBehaviour } from '../behaviours/clientRules.js';
import { holidayOverridesBehaviour } from '../behaviours/holidayOverrides.js';
import { jobRolesBehaviour } from '../behaviours/jobRoles.js';
import { rateCardsBehaviour } from '../behaviours/rateCards.js';
import { ratesRoutes } from '../routes/rates.js';
import { seedRates } from '../seed/rates.js';
import type { ServerArea } from './area.js';
import { rateResources } from '../../core/resources/rates/resource.js';
import { jobRoles } from '../../core/resources/settings/resources.js';

export const ratesArea: ServerArea = {
  name: 'rates',
  // Job roles are a setting; their default pay and charge are a rates matter.
  declarations: [...rateResources, jobRoles],
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
