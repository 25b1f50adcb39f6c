import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Badge,
  Box,
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import AddCommentIcon from '@mui/icons-material/AddComment';
import { useQueryClient } from '@tanstack/react-query';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router';
import { FileAvatar } from '../../../engine/react/files';
import { visuallyHidden } from '../../../theme';
import { PageHeader } from '../../../pages/PageHeader';
import { chatUnreadKey } from '../../../layout/useShellData';
import { getMerchantId } from '../../../providers/session';
import { request } from '../../../providers/request';
import { createChannel, fetchConversations } from './api';
import type { Conversation } from '../../../../core/resources/communication/chat/types';
import { ChatConversation } from './ChatConversation';
import { chatReducer, closedChat } from './chatState';
import { chatText } from './messages';
import { useChatLive } from './useChatLive';

const PAGE = 20;

interface StaffOption {
  id: number;
  name: string;
}

/** Picks a staff member of the agency by name (the staff list's search). */
function NewChatDialog({
  open,
  onClose,
  onChoose,
}: {
  open: boolean;
  onClose: () => void;
  onChoose: (s: StaffOption) => void;
}) {
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<StaffOption[]>([]);
  const [chosen, setChosen] = useState<StaffOption | null>(null);
  useEffect(() => {
    if (!open) return;
    // Debounced like the staff search (300 ms).
    const timer = setTimeout(() => {
      const q = query.trim();
      request<{ data: any[] }>(
        `/candidates?per_page=10&sort=last_name&order=asc${q ? `&q=${encodeURIComponent(q)}` : ''}`,
      )
        .then((r) => setOptions(r.data.map((c) => ({ id: c.id, name: `${c.first_name} ${c.last_name}` }))))
        .catch(() => setOptions([]));
    }, 300);
    return () => clearTimeout(timer);
  }, [query, open]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="new-chat-title">
      <DialogTitle id="new-chat-title">{chatText('new_chat')}</DialogTitle>
      <DialogContent>
        <Autocomplete
          options={options}
          value={chosen}
          onChange={(_, v) => setChosen(v)}
          onInputChange={(_, v) => setQuery(v)}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(o) => o}
          renderInput={(params) => <TextField {...params} autoFocus label={chatText('choose_staff')} margin="dense" />}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{chatText('cancel')}</Button>
        <Button variant="contained" disabled={!chosen} onClick={() => chosen && onChoose(chosen)}>
          {chatText('start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The agency's chat (/chat): conversations with staff, latest first with unread counts, and the open one. A chat
 * starts from "New chat" or from a staff profile (/chat?staff={id}); /chat?channel={sid} opens a conversation.
 */
export function ChatPage() {
  const [params, setParams] = useSearchParams();
  const [state, dispatch] = useReducer(chatReducer, closedChat);
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [listError, setListError] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const { live, connected } = useChatLive();
  const channelParam = params.get('channel');
  const staffParam = params.get('staff');
  const openSid = state.status === 'open' ? state.channelSid : null;
  const openSidRef = useRef(openSid);
  openSidRef.current = openSid;
  const queryClient = useQueryClient();
  const refreshUnread = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: chatUnreadKey }),
    [queryClient],
  );

  const loadConversations = useCallback(async (upTo: number) => {
    try {
      const r = await fetchConversations(1, PAGE * upTo);
      setConversations(r.data);
      setTotal(r.total);
      setListError(null);
    } catch (e) {
      setListError((e as Error).message);
    } finally {
      setLoaded(true);
    }
  }, []);
  useEffect(() => void loadConversations(page), [loadConversations, page]);

  // A staff member named in the address: open (or make) their channel, then show it by its sid.
  useEffect(() => {
    if (!staffParam) return;
    const candidateId = Number(staffParam);
    dispatch({ type: 'open', candidateId });
    let current = true;
    createChannel(candidateId, Number(getMerchantId()))
      .then((sid) => {
        if (!current) return;
        dispatch({ type: 'opened', channelSid: sid, candidateId });
        setParams({ channel: sid }, { replace: true });
        void loadConversations(1);
      })
      .catch((e) => {
        if (!current) return;
        dispatch({ type: 'failed' });
        setOpenError((e as Error).message || chatText('open_failed'));
      });
    return () => {
      current = false;
    };
  }, [staffParam, setParams, loadConversations]);

  useEffect(() => {
    if (channelParam && !staffParam) dispatch({ type: 'opened', channelSid: channelParam });
    if (!channelParam && !staffParam) dispatch({ type: 'close' });
  }, [channelParam, staffParam]);

  // The list follows the stream: a conversation with a new message moves to the top.
  useEffect(
    () =>
      live.subscribe((event) => {
        if (event.type === 'resync') {
          refreshUnread();
          return void loadConversations(1);
        }
        if (event.type !== 'message') return;
        // The open conversation reads what arrives, and tells the badge itself once read.
        if (event.message.sender_type === 'Candidate' && event.channel_sid !== openSidRef.current) refreshUnread();
        setConversations((list) => {
          const found = list.find((c) => c.channel_sid === event.channel_sid);
          if (!found) {
            void loadConversations(1);
            return list;
          }
          const fromStaff = event.message.sender_type === 'Candidate';
          const updated: Conversation = {
            ...found,
            last_message: event.message.content,
            last_sender_type: event.message.sender_type,
            last_message_at: event.message.created_at,
            unread_count:
              fromStaff && openSidRef.current !== event.channel_sid ? found.unread_count + 1 : found.unread_count,
          };
          return [updated, ...list.filter((c) => c !== found)];
        });
      }),
    [live, loadConversations, refreshUnread],
  );

  // Opening a conversation reads it.
  useEffect(() => {
    if (openSid)
      setConversations((list) => list.map((c) => (c.channel_sid === openSid ? { ...c, unread_count: 0 } : c)));
  }, [openSid]);

  const open = (sid: string) => setParams({ channel: sid });
  const current = conversations.find((c) => c.channel_sid === openSid);

  return (
    // contain: a long last message is cut short (noWrap), never widening the page on a phone.
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height: 'calc(100vh - 112px)',
        minHeight: 480,
        contain: 'inline-size',
      }}
    >
      <Title title={chatText('title')} />
      <PageHeader title={chatText('title')}>
        <Button variant="contained" startIcon={<AddCommentIcon />} onClick={() => setChoosing(true)}>
          {chatText('new_chat')}
        </Button>
      </PageHeader>
      {!connected && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {chatText('offline')}
        </Alert>
      )}
      {openError && (
        <Alert severity="error" sx={{ mb: 1 }} onClose={() => setOpenError(null)}>
          {openError}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 2, flex: 1, minHeight: 0, flexDirection: { xs: 'column', md: 'row' } }}>
        <Card
          component="nav"
          aria-label={chatText('conversations')}
          sx={{ width: { md: 340 }, flexShrink: 0, overflowY: 'auto', maxHeight: { xs: 240, md: 'none' } }}
        >
          {listError && <Alert severity="error">{listError}</Alert>}
          {loaded && !listError && conversations.length === 0 && (
            <Typography sx={{ p: 2 }}>{chatText('no_conversations')}</Typography>
          )}
          {/* Each conversation is a list item holding its button: a list may hold only list items (axe's list
              rule). */}
          <List dense disablePadding>
            {conversations.map((c) => (
              <ListItem key={c.channel_sid} disablePadding>
                <ListItemButton
                  selected={c.channel_sid === openSid}
                  onClick={() => open(c.channel_sid)}
                  aria-current={c.channel_sid === openSid ? 'true' : undefined}
                >
                  <ListItemAvatar>
                    <FileAvatar value={c.profile_photo} alt={c.staff_name} />
                  </ListItemAvatar>
                  <ListItemText
                    sx={{ minWidth: 0 }}
                    primary={c.staff_name}
                    secondary={c.last_message ?? chatText('no_messages')}
                    slotProps={{
                      secondary: { noWrap: true },
                      primary: { sx: { fontWeight: c.unread_count ? 700 : 400 } },
                    }}
                  />
                  {c.unread_count > 0 && (
                    <>
                      {/* The number is seen; its words ("2 unread") are read out with the button's name. */}
                      <Badge
                        color="primary"
                        badgeContent={c.unread_count}
                        sx={{ ml: 2, mr: 1 }}
                        slotProps={{ badge: { 'aria-hidden': true } as any }}
                      />
                      <Box component="span" sx={visuallyHidden}>
                        {chatText('unread', { count: c.unread_count })}
                      </Box>
                    </>
                  )}
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          {conversations.length < total && (
            <Button fullWidth onClick={() => setPage((p) => p + 1)}>
              {chatText('load_more')}
            </Button>
          )}
        </Card>
        <Card sx={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
          {state.status === 'closed' ? (
            <Typography sx={{ p: 3 }} color="text.secondary">
              {chatText('pick_conversation')}
            </Typography>
          ) : (
            <>
              {current && (
                <Typography variant="h6" component="h2" sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
                  {current.staff_name}
                </Typography>
              )}
              <ChatConversation state={state} live={live} onRead={refreshUnread} />
            </>
          )}
        </Card>
      </Box>
      <NewChatDialog
        open={choosing}
        onClose={() => setChoosing(false)}
        onChoose={(s) => {
          setChoosing(false);
          setParams({ staff: String(s.id) });
        }}
      />
    </Box>
  );
}
