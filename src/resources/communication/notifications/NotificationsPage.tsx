import DoneAllIcon from '@mui/icons-material/DoneAll';
import {
  Alert,
  Box,
  Button,
  Card,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router';
import {
  notificationsKey,
  NOTIFICATION_INBOXES,
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationsAnswer,
} from '../../../layout/useShellData';
import { api } from '../../../providers/http';

/** Shown before "Show all" (spec: 2 at first, then show all and load more). */
export const NOTIFICATIONS_SHOWN_FIRST = 2;

const when = (iso?: string) =>
  iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '';

/**
 * A panel's notifications (/notification for the agency, /client/ClientNotification for a client): pages of 10,
 * the first 2 shown, "Show all" shows the loaded page, "Load more" the next one; "Mark all as read"; a
 * notification leads to its screen.
 */
export function NotificationsPage({ panel }: { panel: 'agency' | 'client' }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const inbox = NOTIFICATION_INBOXES[panel];
  const [showAll, setShowAll] = useState(false);
  const [marking, setMarking] = useState(false);
  const [markFailed, setMarkFailed] = useState(false);
  const query = useInfiniteQuery({
    queryKey: [...notificationsKey, 'page', panel],
    initialPageParam: 1,
    retry: false,
    queryFn: ({ pageParam, signal }) =>
      api<NotificationsAnswer>(`${inbox.list}?page=${pageParam}&per_page=${NOTIFICATIONS_PAGE_SIZE}`, { signal }),
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.notifications.length, 0) < last.total_count && last.notifications.length > 0
        ? last.current_page + 1
        : undefined,
  });
  const pages = query.data?.pages ?? [];
  const all = pages.flatMap((p) => p.notifications);
  const latest = pages[pages.length - 1];
  const unread = latest?.unread_count ?? 0;
  const shown = showAll ? all : all.slice(0, NOTIFICATIONS_SHOWN_FIRST);

  const markAll = async () => {
    setMarking(true);
    setMarkFailed(false);
    try {
      await api(inbox.readAll, { method: 'PUT' });
      await queryClient.invalidateQueries({ queryKey: notificationsKey });
    } catch {
      setMarkFailed(true);
    } finally {
      setMarking(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Title title={translate('app.notifications.title')} />
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2, flexWrap: 'wrap', gap: 1 }}
      >
        <Box>
          <Typography variant="h5" component="h1">
            {translate('app.notifications.title')}
          </Typography>
          {latest && (
            <Typography variant="body2" color="text.secondary" role="status">
              {translate('app.notifications.summary', { total: latest.total_count, unread })}
            </Typography>
          )}
        </Box>
        <Button
          variant="outlined"
          startIcon={<DoneAllIcon />}
          onClick={markAll}
          disabled={marking || unread === 0 || query.isError}
        >
          {translate('app.notifications.mark_all_read')}
        </Button>
      </Stack>
      {markFailed && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {translate('app.notifications.mark_failed')}
        </Alert>
      )}
      <Card variant="outlined">
        {query.isError ? (
          <Alert severity="error" role="alert" sx={{ m: 2 }}>
            {translate('app.topbar.notifications_failed')}
          </Alert>
        ) : query.isPending ? (
          <Typography sx={{ p: 2 }} color="text.secondary" role="status">
            {translate('app.loading')}
          </Typography>
        ) : all.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {translate('app.topbar.no_notifications')}
          </Typography>
        ) : (
          <List disablePadding aria-label={translate('app.notifications.title')}>
            {shown.map((n) => (
              <ListItem
                key={n.id}
                divider
                disablePadding
                sx={{ bgcolor: n.read ? undefined : 'action.hover' }}
                data-testid="notification"
              >
                <ListItemButton
                  disabled={!n.link}
                  sx={{ '&.Mui-disabled': { opacity: 1 } }}
                  onClick={() => n.link && navigate(n.link)}
                >
                  <ListItemText
                    primary={
                      <>
                        {!n.read && (
                          <Box
                            component="span"
                            sx={{
                              display: 'inline-block',
                              width: 8,
                              height: 8,
                              borderRadius: '50%',
                              bgcolor: 'error.main',
                              mr: 1,
                            }}
                            role="img"
                            aria-label={translate('app.topbar.unread_marker')}
                          />
                        )}
                        <Box component="span" sx={{ fontWeight: n.read ? 400 : 600 }}>
                          {n.title}
                        </Box>
                      </>
                    }
                    secondary={
                      <>
                        {n.body}
                        <Box component="span" sx={{ display: 'block', fontSize: '0.75rem' }}>
                          {when(n.created_at)}
                        </Box>
                      </>
                    }
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Card>
      {!query.isError && all.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          {!showAll && all.length > NOTIFICATIONS_SHOWN_FIRST && (
            <Button onClick={() => setShowAll(true)}>{translate('app.notifications.show_all')}</Button>
          )}
          {query.hasNextPage && (
            <Button
              onClick={() => {
                setShowAll(true);
                void query.fetchNextPage();
              }}
              disabled={query.isFetchingNextPage}
            >
              {translate('app.notifications.load_more')}
            </Button>
          )}
        </Stack>
      )}
    </Box>
  );
}
