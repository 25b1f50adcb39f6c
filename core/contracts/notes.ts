/** The diary's count beside "Diary Notes" (server/routes/notes.ts). */
import Type, { type Static } from 'typebox';

export const NoteCount = Type.Object({ count: Type.Integer() });
export type NoteCount = Static<typeof NoteCount>;
