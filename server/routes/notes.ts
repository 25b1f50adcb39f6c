import type { FastifyInstance } from 'fastify';
import { forbidden } from '../http.js';
import { permits } from '../../src/resources/access.js';
import { contextOf } from '../engine/routes.js';
import { noteCountToday } from '../resources/notes.js';

/** The diary's count beside "Diary Notes" in the profile menu. */
export async function notesRoutes(app: FastifyInstance) {
  app.get('/api/get_note_count', {
    config: { access: 'any' },
    schema: {
      tags: ['Diary notes'],
      summary: "How many diary notes the signed-in user has today (on the agency's clock)",
      response: { 200: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } },
    },
    handler: async (req) => {
      // Whoever may read the diary may count their own notes in it (agency users; never client users).
      if (!permits({ loginType: req.auth!.kind, role: req.auth!.role }, app.engine.get('diary_notes')!.decl, 'list')) throw forbidden();
      return { count: await noteCountToday(await contextOf(app.db, req)) };
    },
  });
}
