import type { ResourceBehaviour } from '../engine/context.js';
import { clientsBehaviour } from './clients.js';
import { availabilityBehaviour, candidatesBehaviour, documentCategoriesBehaviour, documentsBehaviour, restrictionsBehaviour } from './compliance.js';
import { rateBehaviours } from './rates.js';
import { shiftBehaviours } from './shifts.js';
import { notesBehaviours } from './notes.js';
import { usersBehaviour } from './users.js';

/** What each resource does on the server beyond its declaration (hooks, action effects, computed fields). */
export const behaviours: Record<string, ResourceBehaviour> = {
  clients: clientsBehaviour,
  candidates: candidatesBehaviour,
  candidate_documents: documentsBehaviour,
  document_categories: documentCategoriesBehaviour,
  candidate_restrictions: restrictionsBehaviour,
  availability: availabilityBehaviour,
  ...rateBehaviours,
  ...shiftBehaviours,
  ...notesBehaviours,
  users: usersBehaviour,
};
