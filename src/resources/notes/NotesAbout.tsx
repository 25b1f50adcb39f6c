import { Card, CardContent, Typography } from '@mui/material';
import { useCanAccess, useTranslate, type Identifier } from 'react-admin';
import { ChildList } from '../../engine/react/children';
import { diaryNotes } from './resource';

const COLUMNS = ['note_at', 'title', 'owner_name', 'remind_at'];

/**
 * The diary notes about one staff member or client, on their profile: listed, added (tied to them) and edited
 * there. A note's reference is optional, so on this screen it plays the part of a parent.
 */
export function NotesAbout({ field, id }: { field: 'candidate_id' | 'client_id'; id: Identifier }) {
  const { canAccess } = useCanAccess({ resource: diaryNotes.name, action: 'list' });
  if (!canAccess) return null;
  const decl = { ...diaryNotes, parent: { resource: field === 'candidate_id' ? 'candidates' : 'clients', field, onDelete: 'refuse' as const } };
  return <ChildList decl={decl} parentId={id} columns={COLUMNS} />;
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
