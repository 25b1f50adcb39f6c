import { Card, CardContent, Typography } from '@mui/material';
import { useCanAccess, useTranslate, type Identifier } from 'react-admin';
import { ChildList } from '../../engine/react/children';
import { diaryNotes } from '../../../core/resources/notes/resource';

const COLUMNS = ['note_at', 'title', 'owner_name', 'remind_at'];

// A note's reference is optional, so on a profile it plays the part of a parent.
const about = {
  candidate_id: {
    ...diaryNotes,
    parent: { resource: 'candidates', field: 'candidate_id', onDelete: 'refuse' as const },
  },
  client_id: { ...diaryNotes, parent: { resource: 'clients', field: 'client_id', onDelete: 'refuse' as const } },
};

/**
 * The diary notes about one staff member or client, on their profile: listed, added (tied to them) and edited there.
 */
export function NotesAbout({ field, id }: { field: 'candidate_id' | 'client_id'; id: Identifier }) {
  const { canAccess } = useCanAccess({ resource: diaryNotes.name, action: 'list' });
  if (!canAccess) return null;
  return <ChildList decl={about[field]} parentId={id} columns={COLUMNS} />;
}

/** The client profile's section of diary notes about the client. */
export function ClientNotesCard({ id }: { id: Identifier }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: diaryNotes.name, action: 'list' });
  if (!canAccess) return null;
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('app.notes.about')}
        </Typography>
        <NotesAbout field="client_id" id={id} />
      </CardContent>
    </Card>
  );
}
