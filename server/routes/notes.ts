import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { forbidden } from '../http.js';
import { permits } from '../../core/resources/access.js';
import { contextOf } from '../engine/routes.js';
import { buildWhere } from '../engine/query.js';
import { NoteCount } from '../../core/contracts/notes.js';

/** The diary's count beside "Diary Notes" in the profile menu. */
export async function notesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/get_note_count', {
    config: { access: 'any' },
    schema: {
      tags: ['Diary notes'],
      summary: "How many diary notes the signed-in user has today (on the agency's clock)",
      response: { 200: NoteCount },
    },
    handler: async (req) => {
      const notes = app.engine.get('diary_notes')!;
      // Whoever may read the diary may count their own notes in it (agency users; never client users).
      if (!permits({ loginType: req.auth!.loginType, role: req.auth!.role }, notes.decl, 'list')) throw forbidden();
      // The diary's Today tab narrowed to "Mine": the count and the list the menu item opens cannot disagree.
      const ctx = await contextOf(app.db, req);
      const { where, params } = buildWhere(notes, ctx, { tab: 'today', user_id: 'me' });
      const [{ n }] = await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from ${notes.table} where ${where}`,
        params.values,
      );
      return { count: n };
    },
  });
}
