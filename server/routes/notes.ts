import type { FastifyInstance } from 'fastify';
import { route } from './route.js';
import { buildWhere } from '../engine/query.js';
import { NoteCount } from '../../core/contracts/notes.js';

/** The diary's count beside "Diary Notes" in the profile menu. */
export async function notesRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/get_note_count',
    // Whoever may read the diary may count their own notes in it (agency users; never client users).
    may: { diary_notes: 'list' },
    schema: {
      tags: ['Diary notes'],
      summary: "How many diary notes the signed-in user has today (on the agency's clock)",
      response: { 200: NoteCount },
    },
    handler: async ({ ctx }) => {
      const notes = app.engine.get('diary_notes')!;
      // The diary's Today tab narrowed to "Mine": the count and the list the menu item opens cannot disagree.
      const { where, params } = buildWhere(notes, ctx, { tab: 'today', user_id: 'me' });
      const [{ n }] = await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from ${notes.table} where ${where}`,
        params.values,
      );
      return { count: n };
    },
  });
}
