import type { AuthzArea } from './area';
import { A, F, row } from './principals';

/**
 * Payroll (issue 33): gross to net shows pay and deductions, the agency's alone. Agency users of either agency
 * calculate (nothing of a record is named); client users and staff members are refused.
 */
export const payroll: AuthzArea = {
  rows: [row('POST', '/api/payroll/calculate', A, 'ok', 'ok', F, F, 'ok', F, A)],
  requests: {
    'POST /api/payroll/calculate': () => ({
      method: 'POST',
      url: '/api/payroll/calculate',
      payload: {
        tax_year: '2026-27',
        frequency: 'weekly',
        period: 1,
        gross: 50_000,
        tax_code: '1257L',
        week1: false,
        ytd_gross: 0,
        ytd_tax: 0,
        ni_category: 'A',
      },
    }),
  },
};
