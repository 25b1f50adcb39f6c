import type { ResourceBehaviour } from '../engine/context.js';
import { availabilityBehaviour } from './availability.js';
import { candidateDocumentsBehaviour } from './candidateDocuments.js';
import { candidateRatesBehaviour } from './candidateRates.js';
import { candidateRestrictionsBehaviour } from './candidateRestrictions.js';
import { candidatesBehaviour } from './candidates.js';
import { clientRulesBehaviour } from './clientRules.js';
import { clientsBehaviour } from './clients.js';
import { diaryNotesBehaviour } from './diaryNotes.js';
import { documentCategoriesBehaviour } from './documentCategories.js';
import { holidayOverridesBehaviour } from './holidayOverrides.js';
import { rateCardsBehaviour } from './rateCards.js';
import { shiftBehaviours } from './shifts.js';
import { supportRepliesBehaviour } from './supportReplies.js';
import { supportRequestsBehaviour } from './supportRequests.js';
import { usersBehaviour } from './users.js';

/** What each resource does on the server beyond its declaration (hooks, action effects, computed fields). */
export const behaviours: Record<string, ResourceBehaviour> = {
  clients: clientsBehaviour,
  candidates: candidatesBehaviour,
  candidate_documents: candidateDocumentsBehaviour,
  document_categories: documentCategoriesBehaviour,
  candidate_restrictions: candidateRestrictionsBehaviour,
  availability: availabilityBehaviour,
  rate_cards: rateCardsBehaviour,
  candidate_rates: candidateRatesBehaviour,
  client_rules: clientRulesBehaviour,
  holiday_overrides: holidayOverridesBehaviour,
  ...shiftBehaviours,
  diary_notes: diaryNotesBehaviour,
  support_requests: supportRequestsBehaviour,
  support_replies: supportRepliesBehaviour,
  users: usersBehaviour,
};
