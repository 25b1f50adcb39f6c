import { diaryNotesBehaviour } from '../behaviours/diaryNotes.js';
import { supportRepliesBehaviour } from '../behaviours/supportReplies.js';
import { supportRequestsBehaviour } from '../behaviours/supportRequests.js';
import { fireDueReminders, REMINDER_INTERVAL_MS } from '../notifications/diaryReminders.js';
import { notesRoutes } from '../routes/notes.js';
import { seedNotes } from '../seed/notes.js';
import type { ServerArea } from './area.js';
import { notesResources } from '../../core/resources/notes/resource.js';

export const notesArea: ServerArea = {
  name: 'notes',
  declarations: notesResources,
  behaviours: {
    diary_notes: diaryNotesBehaviour,
    support_requests: supportRequestsBehaviour,
    support_replies: supportRepliesBehaviour,
  },
  routes: [notesRoutes],
  jobs: [{ name: 'diary-reminders', everyMs: REMINDER_INTERVAL_MS, run: (db) => fireDueReminders(db) }],
  seed: seedNotes,
};
