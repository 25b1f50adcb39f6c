import foundation from './001_foundation.js';
import resources from './002_resources.js';

/** Every schema change, in order. Append only: an applied migration is never edited. */
export const migrations: { id: string; sql: string }[] = [
  { id: '001_foundation', sql: foundation },
  { id: '002_resources', sql: resources },
];
