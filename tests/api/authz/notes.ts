import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, row } from '../authz-matrix';
import { call } from '../helpers';

const noteBody = (ctx: AuthzContext) => ({
  title: `Authz note ${ctx.next()}`,
  note_at: new Date(Date.now() + 3_600_000).toISOString(),
});
const requestBody = (ctx: AuthzContext) => ({
  subject: `Authz request ${ctx.next()}`,
  description: 'Something to ask the administrators.',
});

/** A support request of agency A asked by the consultant, so every agency principal that may see it does. */
async function consultantRequest(ctx: AuthzContext, status: 'open' | 'closed' = 'open'): Promise<number> {
  const id = (
    await ctx.must(await call(ctx.t.app, ctx.tokens.consultant, 'POST', '/api/support_requests', requestBody(ctx)), 201)
  ).id;
  if (status === 'closed')
    await ctx.must(
      await call(ctx.t.app, ctx.tokens.consultant, 'POST', `/api/support_requests/${id}/actions/close`, {}),
    );
  return id;
}

/**
 * Diary notes and support: agency users only. A consultant sees only their own support requests (the shared
 * records here are the consultant's); replies are never edited or deleted, requests never edited.
 */
export const notes: AuthzArea = {
  // Read when the matrix gathers the areas' rows: authz-matrix.ts (row, A, F, N) imports this file, so its
  // exports are not ready while this module is evaluated.
  get rows() {
    return [
      row('GET', '/api/get_note_count', A, 'ok', 'ok', F, F, 'ok', F, A),

      row('GET', '/api/diary_notes', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/diary_notes/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('POST', '/api/diary_notes', A, 201, 201, F, F, 201, F, A),
      row('PUT', '/api/diary_notes/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('DELETE', '/api/diary_notes/:id', A, 'ok', 'ok', F, F, N, F, A),

      row('GET', '/api/support_requests', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/support_requests/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('POST', '/api/support_requests', A, 201, 201, F, F, 201, F, A),
      row('PUT', '/api/support_requests/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/support_requests/:id', A, 'ok', F, F, F, N, F, A),
      row('POST', '/api/support_requests/:id/actions/close', A, 'ok', 'ok', F, F, N, F, A),
      row('POST', '/api/support_requests/:id/actions/reopen', A, 'ok', 'ok', F, F, N, F, A),

      row('GET', '/api/support_replies', A, 'ok', 'ok', F, F, 'ok', F, A),
      row('GET', '/api/support_replies/:id', A, 'ok', 'ok', F, F, N, F, A),
      // The other agency's admin names agency A's request: it does not exist for them (422 on the field).
      row('POST', '/api/support_replies', A, 201, 201, F, F, 422, F, A),
      row('PUT', '/api/support_replies/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/support_replies/:id', A, F, F, F, F, F, F, A),
    ];
  },
  async prepare(ctx) {
    ctx.shared.diary_notes = (
      await ctx.must(await call(ctx.t.app, ctx.setup, 'POST', '/api/diary_notes', noteBody(ctx)), 201)
    ).id;
    ctx.sharedB.diary_notes = (
      await ctx.must(await call(ctx.t.app, ctx.setupB, 'POST', '/api/diary_notes', noteBody(ctx)), 201)
    ).id;
    ctx.shared.support_requests = await consultantRequest(ctx);
    ctx.sharedB.support_requests = (
      await ctx.must(await call(ctx.t.app, ctx.setupB, 'POST', '/api/support_requests', requestBody(ctx)), 201)
    ).id;
    ctx.shared.support_replies = (
      await ctx.must(
        await call(ctx.t.app, ctx.setup, 'POST', '/api/support_replies', {
          support_request_id: ctx.shared.support_requests,
          body: 'A shared reply',
        }),
        201,
      )
    ).id;
    ctx.sharedB.support_replies = (
      await ctx.must(
        await call(ctx.t.app, ctx.setupB, 'POST', '/api/support_replies', {
          support_request_id: ctx.sharedB.support_requests,
          body: 'A reply in agency B',
        }),
        201,
      )
    ).id;
  },
  createBody: {
    diary_notes: async (ctx) => noteBody(ctx),
    support_requests: async (ctx) => requestBody(ctx),
    support_replies: async (ctx) => ({
      support_request_id: ctx.shared.support_requests,
      body: `Authz reply ${ctx.next()}`,
    }),
  },
  fresh: {
    support_requests: (ctx) => consultantRequest(ctx),
    'support_requests reopen': (ctx) => consultantRequest(ctx, 'closed'),
  },
};
