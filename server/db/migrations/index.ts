import foundation from './001_foundation.js';
import resources from './002_resources.js';
import workflow from './003_workflow.js';
import files from './004_files.js';
import sharedState from './005_shared_state.js';
import compliance from './006_compliance.js';

/** Every schema change, in order. Append only: an applied migration is never edited. */
export const migrations: { id: string; sql: string }[] = [
  { id: '001_foundation', sql: foundation },
  { id: '002_resources', sql: resources },
  { id: '003_workflow', sql: workflow },
  { id: '004_files', sql: files },
  { id: '005_shared_state', sql: sharedState },
  { id: '006_compliance', sql: compliance },
];
