import {
  Alert,
  Box,
  Button,
  Card,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../../providers/http';

const PER_PAGE = 20;
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

interface MailSummary {
  id: number;
  subject: string | null;
  envelope_to: string[];
  envelope_from: string | null;
  received_at: string;
}

/**
 * The embedded mail server's mailbox (/report/EmailReport/mailbox): what the product's e-mail looked like
 * when it arrived, for agency admins. The HTML is shown in a sandboxed frame (no scripts, no access to the
 * app), or as text.
 */
export function Mailbox() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { id } = useParams();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['mailbox', page],
    retry: false,
    queryFn: ({ signal }) =>
      api<{ data: MailSummary[]; total: number }>(`/mailbox?page=${page}&per_page=${PER_PAGE}`, { signal }),
  });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PER_PAGE));
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate('app.mailbox.title')} />
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h5" component="h1">
          {translate('app.mailbox.title')}
        </Typography>
        <Button component={Link} to="/report/EmailReport">
          {translate('app.mailbox.report')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.mailbox.intro')}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(260px, 1fr) 2fr' }, gap: 2 }}>
        <Card variant="outlined">
          {list.isError ? (
            <Alert severity="error" sx={{ m: 1 }}>
              {translate('app.mailbox.load_failed')}
            </Alert>
          ) : list.data?.data.length === 0 ? (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {translate('app.mailbox.empty')}
            </Typography>
          ) : (
            <List disablePadding aria-label={translate('app.mailbox.received')}>
              {(list.data?.data ?? []).map((m) => (
                <ListItem key={m.id} divider disablePadding>
                  <ListItemButton
                    selected={String(m.id) === id}
                    aria-current={String(m.id) === id ? 'true' : undefined}
                    onClick={() => navigate(`/report/EmailReport/mailbox/${m.id}`)}
                  >
                    <ListItemText
                      primary={m.subject || translate('app.mailbox.no_subject')}
                      secondary={`${m.envelope_to.join(', ')} · ${when(m.received_at)}`}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
          {pages > 1 && (
            <Stack direction="row" spacing={1} sx={{ p: 1, alignItems: 'center' }}>
              <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {translate('app.mailbox.previous')}
              </Button>
              <Typography variant="caption">
                {page} / {pages}
              </Typography>
              <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {translate('app.mailbox.next')}
              </Button>
            </Stack>
          )}
        </Card>
        {id ? <Message id={id} /> : <Typography color="text.secondary">{translate('app.mailbox.choose')}</Typography>}
      </Box>
    </Box>
  );
}

function Message({ id }: { id: string }) {
  const translate = useTranslate();
  const [view, setView] = useState<'html' | 'text'>('html');
  const query = useQuery({
    queryKey: ['mailbox', 'one', id],
    retry: false,
    queryFn: ({ signal }) =>
      api<{
        data: MailSummary & {
          text: string | null;
          html: string | null;
          message_id: string | null;
          attachments: { filename: string | null; content_type: string; size: number }[];
        };
      }>(`/mailbox/${encodeURIComponent(id)}`, { signal }),
  });
  if (query.isError) return <Alert severity="error">{translate('app.mailbox.not_found')}</Alert>;
  if (!query.data) return <Typography role="status">{translate('app.loading')}</Typography>;
  const m = query.data.data;
  const hasHtml = !!m.html;
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }} component="article" aria-labelledby="mail-subject">
      <Typography id="mail-subject" variant="h6" component="h2">
        {m.subject || translate('app.mailbox.no_subject')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('app.mailbox.from')}: {m.envelope_from} · {translate('app.mailbox.to')}: {m.envelope_to.join(', ')} ·{' '}
        {when(m.received_at)}
      </Typography>
      {m.attachments.length > 0 && (
        // What the message carried (an invoice's kept PDF): named, typed and sized as it arrived.
        <Box component="section" aria-labelledby="mail-attachments" sx={{ mt: 1 }}>
          <Typography id="mail-attachments" variant="subtitle2" component="h3">
            {translate('app.mailbox.attachments')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {m.attachments.map((a, i) => (
              <li key={i}>
                <Typography variant="body2">
                  {translate('app.mailbox.attachment', {
                    name: a.filename ?? '—',
                    type: a.content_type,
                    size: Math.max(1, Math.round(a.size / 1024)),
                  })}
                </Typography>
              </li>
            ))}
          </Box>
        </Box>
      )}
      {hasHtml && (
        <Tabs value={view} onChange={(_, v) => setView(v)} aria-label={translate('app.mailbox.view')} sx={{ my: 1 }}>
          <Tab value="html" label={translate('app.mailbox.html')} />
          <Tab value="text" label={translate('app.mailbox.text')} />
        </Tabs>
      )}
      {hasHtml && view === 'html' ? (
        // sandbox="" : no scripts, no forms, no same-origin access to the app.
        <Box
          component="iframe"
          title={translate('app.mailbox.html_frame')}
          sandbox=""
          srcDoc={m.html!}
          sx={{ width: '100%', height: 480, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
        />
      ) : (
        <Box
          component="pre"
          sx={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', m: 0, mt: 1 }}
          data-testid="mail-text"
        >
          {m.text}
        </Box>
      )}
    </Paper>
  );
}
