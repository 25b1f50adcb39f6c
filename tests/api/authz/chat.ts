import type { AuthzArea, AuthzContext, Req } from './area';
import { A, F, N, ownedByStaff, row, type Principal } from './principals';
import { call, DEMO } from '../helpers';
import { invitationTokenSentTo } from '../invites';

/**
 * Chat with staff and the staff sign-in (issue 9). The staff principal (staff@demo.test) reaches their own
 * channel only: the shared channel here is a colleague's, so their send, fetch and mark-read answer 404, and
 * create_channel (which names their own staff record for them) answers their own channel.
 */
let staffCandidate = 0;
const sids = { a: '', b: '' };
const candidates = { a: 0, b: 0 };

/** A new staff member of agency A, invited: the token from the invitation e-mail as sent. */
async function freshInvite(ctx: AuthzContext): Promise<string> {
  const n = ctx.next();
  const made = await ctx.must(
    await call(ctx.t.app, ctx.setup, 'POST', '/api/candidates', {
      first_name: 'Invited',
      last_name: `Person${n}`,
      email: `invited.${n}@authz.example`,
      job_role_id: ctx.shared.job_roles,
    }),
    201,
  );
  const res = await call(ctx.t.app, ctx.setup, 'POST', `/api/candidates/${made.id}/staff_invite`, {});
  if (res.statusCode !== 200) throw new Error(`invite answered ${res.statusCode}: ${res.body}`);
  return invitationTokenSentTo(ctx.t, `invited.${n}@authz.example`);
}

let readableInvite = '';

const channelBody = (ctx: AuthzContext, p: Principal, otherAgency: boolean) => ({
  sender_id: otherAgency ? candidates.b : p === 'staff' ? staffCandidate : candidates.a,
  sender_type: 'Candidate',
  receiver_id: otherAgency ? ctx.ids.merchantB : ctx.ids.merchantA,
  receiver_type: 'Merchant',
});

export const chat: AuthzArea = {
  rows: [
    // The staff sign-in: public; who am I for staff tokens only.
    row('POST', '/api/staff_login', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'),
    row('GET', '/api/staff_login', A, F, F, F, F, F, 'ok', A),
    // Agency users invite their own staff; the link's page and setting the password are public (the token is the key).
    // A capability link of another kind (the link principal's, to a shift) is no invitation: 404.
    ownedByStaff(row('POST', '/api/candidates/:id/staff_invite', A, 'ok', 'ok', F, F, N, F, A), F),
    row('GET', '/api/staff_invites/:token', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', N),
    row('POST', '/api/staff_invites/:token', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', N),
    // Chat: agency users within their agency, a staff member within their own channel; client users never.
    row('POST', '/api/chats/create_channel', A, 'ok', 'ok', F, F, N, 'ok', A),
    row('POST', '/api/chats/send_message_to_channel', A, 'ok', 'ok', F, F, N, N, A),
    row('GET', '/api/chats/fetch_messages', A, 'ok', 'ok', F, F, N, N, A),
    row('POST', '/api/chats/mark_read', A, 'ok', 'ok', F, F, N, N, A),
    row('GET', '/api/chats/conversations', A, 'ok', 'ok', F, F, 'ok', F, A),
    // The top bar's badge: the caller's own agency's count, so another agency answers its own (ok); staff have none.
    row('GET', '/api/chats/unread_count', A, 'ok', 'ok', F, F, 'ok', F, A),
    row('GET', '/api/chats/stream', A, 'ok', 'ok', F, F, 'ok', 'ok', A),
  ],
  async prepare(ctx) {
    const one = async (sql: string, params: unknown[]) => (await ctx.t.db.query<any>(sql, params))[0];
    staffCandidate = (await one('select candidate_id from users where lower(email) = $1', [DEMO.staff.email]))
      .candidate_id;
    candidates.a = (
      await one(
        'select id from candidates where merchant_id = $1 and id <> $2 and deleted_at is null order by id limit 1',
        [ctx.ids.merchantA, staffCandidate],
      )
    ).id;
    candidates.b = Number(ctx.sharedB.candidates);
    for (const [side, token, merchant] of [
      ['a', ctx.setup, ctx.ids.merchantA],
      ['b', ctx.setupB, ctx.ids.merchantB],
    ] as const) {
      const res = await call(ctx.t.app, token, 'POST', '/api/chats/create_channel', {
        sender_id: candidates[side],
        sender_type: 'Candidate',
        receiver_id: merchant,
        receiver_type: 'Merchant',
      });
      if (res.statusCode !== 200) throw new Error(`create_channel answered ${res.statusCode}: ${res.body}`);
      sids[side] = res.json().channel_sid;
      (side === 'a' ? ctx.shared : ctx.sharedB).chat_channels = (
        await one('select id from chat_channels where channel_sid = $1', [sids[side]])
      ).id;
    }
    readableInvite = await freshInvite(ctx);
  },
  requests: {
    'POST /api/staff_login': () => ({
      method: 'POST',
      url: '/api/staff_login',
      payload: { email: DEMO.staff.email, password: DEMO.staff.password },
    }),
    'POST /api/candidates/:id/staff_invite': (_ctx, _p, otherAgency) => ({
      method: 'POST',
      url: `/api/candidates/${otherAgency ? candidates.b : candidates.a}/staff_invite`,
      payload: {},
    }),
    // The link principal's request carries its own token (a link to close a shift) where an invitation's goes.
    'GET /api/staff_invites/:token': (ctx, p) => ({
      method: 'GET',
      url: `/api/staff_invites/${p === 'link' ? ctx.tokens.link : readableInvite}`,
    }),
    'POST /api/staff_invites/:token': async (ctx, p) => ({
      method: 'POST',
      url: `/api/staff_invites/${p === 'link' ? ctx.tokens.link : await freshInvite(ctx)}`,
      payload: { password: 'a-new-staff-password' },
    }),
    'POST /api/chats/create_channel': (ctx, p, otherAgency): Req => ({
      method: 'POST',
      url: '/api/chats/create_channel',
      payload: channelBody(ctx, p, otherAgency),
    }),
    'POST /api/chats/send_message_to_channel': (_ctx, _p, otherAgency) => ({
      method: 'POST',
      url: '/api/chats/send_message_to_channel',
      payload: { channel_sid: otherAgency ? sids.b : sids.a, message: 'Authz test message' },
    }),
    'GET /api/chats/fetch_messages': (_ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/chats/fetch_messages?channel_sid=${otherAgency ? sids.b : sids.a}`,
    }),
    'POST /api/chats/mark_read': (_ctx, _p, otherAgency) => ({
      method: 'POST',
      url: '/api/chats/mark_read',
      payload: { channel_sid: otherAgency ? sids.b : sids.a },
    }),
    'GET /api/chats/conversations': () => ({ method: 'GET', url: '/api/chats/conversations?page=1&per_page=10' }),
    'GET /api/chats/unread_count': () => ({ method: 'GET', url: '/api/chats/unread_count' }),
    // The stream answers at once (wait=0): its headers, the ready event, and the end.
    'GET /api/chats/stream': () => ({ method: 'GET', url: '/api/chats/stream?wait=0' }),
  },
};
