import foundation from './001_foundation.js';

/** Every schema change, in order. Append only: an applied migration is never edited. */
export const migrations: { id: string; sql: string }[] = [{ id: '001_foundation', sql: foundation }];
