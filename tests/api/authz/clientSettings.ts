import type { AuthzArea } from './area';
import { A, F, N, row } from './principals';
import { fixtureWrite } from '../helpers';

/*
 * Client settings (issue 35): the agency's defaults for new clients and the e-mails its client users get. Its admins
 * change them, its consultants read them, client users and staff nothing; each agency its own row, and another
 * agency's client user is not found. A new client's starting values are read by whoever may create a client.
 */
const users = { a: 0, b: 0 };

export const clientSettings: AuthzArea = {
  rows: [
    row('GET', '/api/clients/defaults', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('GET', '/api/client_settings', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('PUT', '/api/client_settings', A, 'ok', F, F, F, 'ok', F, A),
    row('GET', '/api/client_settings/users', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('PUT', '/api/client_settings/users/:id', A, 'ok', F, F, F, N, F, A),
  ],
  async prepare(ctx) {
    const [a] = await ctx.t.db.query<{ id: number }>(
      `select id from users where merchant_id = $1 and kind = 'client' and client_id = $2 order by id limit 1`,
      [ctx.ids.merchantA, ctx.ids.clientA],
    );
    users.a = a.id;
    // Agency B has no client user of its own in the demo: one, for its admin's 404 on agency A's and A's on B's.
    const [clientOfB] = await ctx.t.db.query<{ id: number }>(
      'select id from clients where merchant_id = $1 order by id limit 1',
      [ctx.ids.merchantB],
    );
    const [b] = await fixtureWrite<{ id: number }>(
      ctx.t.db,
      `insert into users (merchant_id, client_id, kind, name, email, password_hash, role)
       values ($1, $2, 'client', 'Authz Client B', $3, 'not-a-password-hash', 'manager') returning id`,
      [ctx.ids.merchantB, clientOfB.id, `authz-client-b-${ctx.next()}@other.example`],
    );
    users.b = b.id;
  },
  requests: {
    'PUT /api/client_settings': () => ({ method: 'PUT', url: '/api/client_settings', payload: {} }),
    'PUT /api/client_settings/users/:id': (_ctx, _p, otherAgency) => ({
      method: 'PUT',
      url: `/api/client_settings/users/${otherAgency ? users.b : users.a}`,
      payload: { emails: { 'shift.filled': null } },
    }),
  },
};
