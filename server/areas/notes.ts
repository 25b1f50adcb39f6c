import { diaryNotesBehaviour } from '../behaviours/diaryNotes.js';
import { supportRepliesBehaviour } from '../behaviours/supportReplies.js';
import { supportRequestsBehaviour } from '../behaviours/supportRequests.js';
import { fireDueReminders, REMINDER_INTERVAL_MS } from '../notifications/diaryReminders.js';
import { notesRoutes } from '../routes/notes.js';
import { seedNotes } from '../seed/notes.js';
import type { ServerArea } from './area.js';

export const notesArea: ServerArea = {
  behaviours: {
    diary_notes: diaryNotesBehaviour,
    support_requests: supportRequestsBehaviour,
    support_replies: supportRepliesBehaviour,
  },
  routes: [notesRoutes],
  jobs: [{ name: 'diary-reminders', everyMs: REMINDER_INTERVAL_MS, run: (db) => fireDueReminders(db) }],
  seed: seedNotes,
};
