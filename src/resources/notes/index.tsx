import { Navigate, Route, Link, useParams } from 'react-router';
import {
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Grid,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import EditNoteIcon from '@mui/icons-material/EditNote';
import ContactSupportIcon from '@mui/icons-material/ContactSupport';
import { DeleteButton, Show, Title, TopToolbar, useRecordContext, useStore, useTranslate } from 'react-admin';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import { EngineList } from '../../engine/react/list';
import { ShowFields } from '../../engine/react/show';
import { type ViewOptions } from '../../engine/react/viewOptions';
import { RecordActions } from '../../engine/react/actions';
import { ChildList } from '../../engine/react/children';
import { diaryNotes, supportReplies, supportRequests } from '../../../core/resources/notes/resource';
import { HOW_TOS, howToOf } from './howTos';
import { HelpLink, helpPath } from './HelpLink';

/**
 * The diary: /dairy_notes opens Today; Upcoming and Past are the other tabs. "Mine" narrows every tab to the
 * caller's own notes (the server resolves user_id=me); the choice is remembered across tabs.
 */
function DiaryList(props: ViewOptions & { tabId?: string }) {
  const translate = useTranslate();
  const [mine, setMine] = useStore<boolean>('diary_notes.mine', false);
  if (!props.tabId) return <Navigate to={props.paths.tab('today')} replace />;
  const decl = {
    ...props.decl,
    // The writer is chosen with the toggle, not typed as a number among the filters.
    fields: props.decl.fields.map((f) => (f.source === 'user_id' ? { ...f, filter: false } : f)),
    tabs: props.decl.tabs!.map((t) => ({ ...t, filter: mine ? { ...t.filter, user_id: 'me' } : t.filter })),
    // The past reads from the most recent back.
    defaultSort: props.tabId === 'past' ? { field: 'note_at', order: 'DESC' as const } : props.decl.defaultSort,
  };
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2, mt: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {translate('app.notes.title')}
        </Typography>
        <HelpLink topic="notifications" />
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mine ? 'mine' : 'everyone'}
          onChange={(_, v) => v && setMine(v === 'mine')}
          aria-label={translate('app.notes.whose')}
        >
          <ToggleButton value="everyone">{translate('app.notes.everyone')}</ToggleButton>
          <ToggleButton value="mine">{translate('app.notes.mine')}</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <EngineList key={mine ? 'mine' : 'everyone'} {...props} decl={decl} />
    </Box>
  );
}

/**
 * A support request with its conversation: replies are added under it and move its status. Not EngineShow: the
 * conversation is the request's history (a history panel would repeat every reply), and requests are never edited.
 */
function SupportRequestShow({ decl, paths }: ViewOptions) {
  return (
    <Show
      resource={decl.name}
      actions={
        <TopToolbar>
          <RecordActions decl={decl} />
          <DeleteButton mutationMode="pessimistic" redirect={paths.list} />
        </TopToolbar>
      }
    >
      <ShowFields decl={decl} />
      <Conversation />
    </Show>
  );
}

function Conversation() {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box sx={{ px: 2, pb: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('app.support.replies')}
      </Typography>
      <ChildList decl={supportReplies} parentId={record.id} columns={['author_name', 'body', 'created_at']} />
    </Box>
  );
}

/** /support: the how-tos of the main jobs, and the way to the administrators. */
function SupportPage() {
  const translate = useTranslate();
  return (
    <Box sx={{ mt: 2 }}>
      <Title title="app.support.title" />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('app.support.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.support.intro')}
      </Typography>
      <Card sx={{ mb: 3 }}>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate('app.support.requests')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.support.requests_intro')}
          </Typography>
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              component={Link}
              to="/support_requests/create"
              startIcon={<ContactSupportIcon />}
            >
              {translate('app.support.new_request')}
            </Button>
            <Button variant="outlined" component={Link} to="/support/requests">
              {translate('app.support.my_requests')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('app.support.how_tos')}
      </Typography>
      <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {HOW_TOS.map((h) => (
          <Grid key={h.topic} size={{ xs: 12, sm: 6, md: 4 }} component="li">
            <Card sx={{ height: '100%' }}>
              <CardActionArea component={Link} to={helpPath(h.topic)} sx={{ height: '100%', alignItems: 'flex-start' }}>
                <CardContent>
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                    {h.title}
                  </Typography>
                  <Typography color="text.secondary">{h.summary}</Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}

/** /support/help/:topic: one how-to, its steps, and the screen it is about. */
function HowToPage() {
  const translate = useTranslate();
  const { topic } = useParams();
  const howTo = howToOf(topic);
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Button component={Link} to="/support" size="small" sx={{ mb: 1 }}>
          {translate('app.support.back')}
        </Button>
        {!howTo ? (
          <Typography role="status">{translate('app.support.not_found')}</Typography>
        ) : (
          <>
            <Title title={howTo.title} />
            <Typography variant="h5" component="h1" gutterBottom>
              {howTo.title}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {howTo.summary}
            </Typography>
            <Typography variant="h6" component="h2">
              {translate('app.support.steps')}
            </Typography>
            <Box component="ol" sx={{ pl: 3 }}>
              {howTo.steps.map((s) => (
                <Typography component="li" key={s} sx={{ mb: 0.5 }}>
                  {s}
                </Typography>
              ))}
            </Box>
            <Button variant="contained" component={Link} to={howTo.screen}>
              {translate('app.support.open_screen')}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

const notes = buildResource(diaryNotes, { icon: EditNoteIcon, list: DiaryList });
const requests = buildResource(supportRequests, { icon: ContactSupportIcon, show: SupportRequestShow });
// Shown inside a support request; registered so react-admin knows the resource.
const replies = buildResource(supportReplies);

const area: Area = {
  resources: [notes, requests, replies],
  adminRoutes: [
    <Route key="support" path="/support" element={<SupportPage />} />,
    <Route key="support-help" path="/support/help/:topic" element={<HowToPage />} />,
  ],
};
export default area;
