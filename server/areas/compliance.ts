import { availabilityBehaviour } from '../behaviours/availability.js';
import { candidateDocumentsBehaviour } from '../behaviours/candidateDocuments.js';
import { candidateRestrictionsBehaviour } from '../behaviours/candidateRestrictions.js';
import { documentCategoriesBehaviour } from '../behaviours/documentCategories.js';
import { runDocumentReminders } from '../notifications/documents.js';
import { availabilityRoutes } from '../routes/availability.js';
import { complianceRoutes } from '../routes/compliance.js';
import type { ServerArea } from './area.js';
import { complianceResources } from '../../core/resources/compliance/resource.js';
import { documentCategories } from '../../core/resources/settings/resources.js';

export const complianceArea: ServerArea = {
  name: 'compliance',
  declarations: [...complianceResources, documentCategories],
  behaviours: {
    candidate_documents: candidateDocumentsBehaviour,
    document_categories: documentCategoriesBehaviour,
    candidate_restrictions: candidateRestrictionsBehaviour,
    availability: availabilityBehaviour,
  },
  routes: [complianceRoutes, availabilityRoutes],
  jobs: [{ name: 'document-reminders', everyMs: 10 * 60_000, run: (db) => runDocumentReminders(db) }],
};
