import type { AuthzArea } from './area';
import { A, F, row } from '../authz-matrix';

/** The agency dashboard's figures (issue 34): agency users only, each of their own agency. */
export const dashboard: AuthzArea = {
  // Read when the matrix gathers the areas' rows (see notes.ts).
  get rows() {
    return [row('GET', '/api/dashboard/needs_doing', A, 'ok', 'ok', F, F, 'ok', F, A)];
  },
};
