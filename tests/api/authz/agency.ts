import type { AuthzArea } from './area';
import { A, F, N, row } from './principals';
import { call } from '../helpers';

/*
 * The agency's own settings and business units (issue 35): its admins change them, its consultants read them (the
 * settings name no agency: each admin reads and saves their own, so the other agency's admin gets theirs); client
 * users and staff have no route to either. A business unit of agency A is not found by agency B's admin.
 */
export const agency: AuthzArea = {
  get rows() {
    return [
      row('GET', '/api/agency_settings', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('PUT', '/api/agency_settings', A, 'ok', F, F, F, 'ok', F, A),
      row('GET', '/api/subscription', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('POST', '/api/subscription/plan', A, 'ok', F, F, F, 'ok', F, A),
      row('GET', '/api/business_units', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/business_units/export', A, 'ok', F, F, F, 'ok', F, A),
      row('GET', '/api/business_units/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('POST', '/api/business_units', A, 201, F, F, F, 201, F, A),
      row('PUT', '/api/business_units/:id', A, 'ok', F, F, F, N, F, A),
      row('DELETE', '/api/business_units/:id', A, 'ok', F, F, F, N, F, A),
    ];
  },
  async prepare(ctx) {
    for (const [token, into] of [
      [ctx.setup, ctx.shared],
      [ctx.setupB, ctx.sharedB],
    ] as const) {
      const made = await ctx.must(
        await call(ctx.t.app, token, 'POST', '/api/business_units', { name: `Authz unit ${ctx.next()}` }),
        201,
      );
      into.business_units = made.id;
    }
  },
  createBody: { business_units: async (ctx) => ({ name: `Authz unit ${ctx.next()}` }) },
  requests: {
    // A save that changes nothing: authorised, it answers the caller's own agency's settings.
    'PUT /api/agency_settings': () => ({ method: 'PUT', url: '/api/agency_settings', payload: {} }),
    // The plan every agency is on by default: authorised, it changes nothing any other row depends on.
    'POST /api/subscription/plan': () => ({
      method: 'POST',
      url: '/api/subscription/plan',
      payload: { plan: 'unlimited' },
    }),
  },
};
