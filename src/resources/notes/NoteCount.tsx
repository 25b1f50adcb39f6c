import { Chip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { request } from '../../providers/request';
import type { NoteCount as NoteCountAnswer } from '../../../core/contracts/notes';

/** Today's diary notes of the signed-in user, beside "Diary Notes" in the profile menu (nothing when none). */
export function DiaryNoteCount() {
  const translate = useTranslate();
  // Asked each time the menu opens (the menu mounts its items then): a note added meanwhile counts.
  const { data } = useQuery({
    queryKey: ['get_note_count'],
    queryFn: () => request<NoteCountAnswer>('/get_note_count'),
    staleTime: 0,
  });
  if (!data?.count) return null;
  return (
    <Chip
      size="small"
      color="primary"
      label={data.count}
      title={translate('app.notes.count', { smart_count: data.count })}
      sx={{ ml: 1 }}
      data-testid="diary-note-count"
    />
  );
}
