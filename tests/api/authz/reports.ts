import type { AuthzArea } from './area';
import { A, F, row } from '../authz-matrix';

/**
 * The declared reports (issue 34), each over its base resource's list: the activity and spend reports for the
 * agency and its clients (a client user reads their own client's), the staff report for the agency only. Each
 * caller reads their own agency's rows, so another agency's admin is answered (with their own figures).
 */
export const reports: AuthzArea = {
  // Read when the matrix gathers the areas' rows (see notes.ts).
  get rows() {
    return [
      row('GET', '/api/reports/client_activity', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/reports/client_activity/export', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/reports/staff_activity', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/staff_activity/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      // The staff report's compliance and working-time view: the agency's only, as the staff report.
      row('GET', '/api/reports/staff_standing', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/staff_standing/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      // Business units (issue 34): the agency's own organisation, never a client user's.
      row('GET', '/api/reports/business_unit_activity', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/business_unit_activity/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/client_spend', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/reports/client_spend/export', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      // The Invoice Report's views: the agency's books, never a client user's (they read their own invoices).
      row('GET', '/api/reports/aged_debt', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/aged_debt/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/invoiced', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/invoiced/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      // VAT by rate: over invoice lines and credit note lines (the caller must list both), the agency's only.
      row('GET', '/api/reports/vat', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/reports/vat/export', A, 'ok', 'ok', F, F, 'ok', F, A),
    ];
  },
};
