import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  TextField,
  Typography,
} from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { format } from 'date-fns';
import { fetchFailureText, fetchMessages, markRead, sendFailureText, sendMessage } from './api';
import type { ChatMessage } from '../../../../core/resources/communication/chat/types';
import { sendable, type ChatState } from './chatState';
import { chatText } from './messages';
import { ScrollFollower } from './scroll';
import type { ChatLive } from './useChatLive';

/** Messages by id, oldest first, each once. */
function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

const when = (iso: string) => format(new Date(iso), 'd MMM, HH:mm');

/**
 * One conversation: its messages (live), older ones on request, and the box to write in. Used by the agency's
 * chat screen and the staff member's own page. Sending needs an open channel and some text besides whitespace.
 * `onRead` is told once the server has marked the conversation read (the agency's unread badge follows it).
 */
export function ChatConversation({
  state,
  live,
  emptyText,
  onRead,
}: {
  state: ChatState;
  live: ChatLive;
  emptyText?: string;
  onRead?: () => void;
}) {
  const sid = state.status === 'open' ? state.channelSid : null;
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const follower = useRef(new ScrollFollower());
  const onReadRef = useRef(onRead);
  onReadRef.current = onRead;
  /** What the next render must do with the scroll position. */
  const scrollPlan = useRef<{ kind: 'bottom' } | { kind: 'follow' } | { kind: 'keep'; fromBottom: number } | null>(
    null,
  );

  const loadLatest = useCallback(
    async (first: boolean) => {
      if (!sid) return;
      if (first) setLoading(true);
      try {
        const page = await fetchMessages(sid);
        scrollPlan.current = first ? { kind: 'bottom' } : { kind: 'follow' };
        setMessages((current) => (first ? page.messages : mergeMessages(current, page.messages)));
        if (first) setHasMore(page.has_more);
        setLoadError(null);
        // Fetching the latest page marked the conversation read.
        onReadRef.current?.();
      } catch (e) {
        setLoadError(fetchFailureText(e));
      } finally {
        if (first) setLoading(false);
      }
    },
    [sid],
  );

  useEffect(() => {
    setMessages([]);
    setHasMore(false);
    setLoadError(null);
    void loadLatest(true);
  }, [loadLatest]);

  // New messages as they arrive; after a reconnect, what may have been missed.
  useEffect(
    () =>
      live.subscribe((event) => {
        if (!sid) return;
        if (event.type === 'resync') return void loadLatest(false);
        if (event.type !== 'message' || event.channel_sid !== sid) return;
        scrollPlan.current = { kind: 'follow' };
        setMessages((current) => mergeMessages(current, [event.message]));
        if (!event.message.mine)
          void markRead(sid, event.message.id).then(
            () => onReadRef.current?.(),
            () => undefined,
          );
      }),
    [live, sid, loadLatest],
  );

  useLayoutEffect(() => {
    const el = listRef.current;
    const plan = scrollPlan.current;
    scrollPlan.current = null;
    if (!el || !plan) return;
    if (plan.kind === 'keep') {
      el.scrollTop = el.scrollHeight - plan.fromBottom;
      return;
    }
    if (plan.kind === 'follow' && !follower.current.shouldFollow()) return;
    follower.current.followed();
    el.scrollTop = el.scrollHeight;
  }, [messages]);

  const loadOlder = async () => {
    if (!sid || messages.length === 0) return;
    try {
      const page = await fetchMessages(sid, messages[0].id);
      const el = listRef.current;
      scrollPlan.current = { kind: 'keep', fromBottom: el ? el.scrollHeight - el.scrollTop : 0 };
      setMessages((current) => mergeMessages(current, page.messages));
      setHasMore(page.has_more);
    } catch (e) {
      setLoadError(fetchFailureText(e));
    }
  };

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const out = sendable(state, text);
    if (!out || sending) return;
    setSending(true);
    try {
      const answer = await sendMessage(out.channelSid, out.message);
      // The reader wrote it: the view goes to it whatever the scroll rule says.
      scrollPlan.current = { kind: 'bottom' };
      setMessages((current) => mergeMessages(current, [answer.data]));
      setText('');
    } catch (err) {
      setSendError(sendFailureText(err));
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    // Enter sends; Shift+Enter starts a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const canSend = !!sendable(state, text) && !sending;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}>
      {state.status === 'opening' && (
        <Box role="status" sx={{ p: 3, display: 'flex', gap: 1, alignItems: 'center' }}>
          <CircularProgress size={18} /> {chatText('opening')}
        </Box>
      )}
      {loadError && (
        <Alert severity="error" sx={{ m: 1 }}>
          {loadError}
        </Alert>
      )}
      <Box
        ref={listRef}
        role="log"
        aria-label={chatText('title')}
        aria-live="polite"
        tabIndex={0}
        data-testid="chat-messages"
        onScroll={(e) => follower.current.scrolled(e.currentTarget)}
        sx={{
          flex: 1,
          minHeight: 200,
          overflowY: 'auto',
          p: 2,
          display: 'flex',
          flexDirection: 'column',
          gap: 1,
          bgcolor: 'grey.50',
        }}
      >
        {hasMore && (
          <Button size="small" onClick={loadOlder} sx={{ alignSelf: 'center' }}>
            {chatText('load_older')}
          </Button>
        )}
        {loading && (
          <Typography role="status" color="text.secondary">
            {chatText('loading')}
          </Typography>
        )}
        {!loading && sid && messages.length === 0 && !loadError && (
          <Typography color="text.secondary">{emptyText ?? chatText('no_messages')}</Typography>
        )}
        {messages.map((m) => (
          <Box
            key={m.id}
            data-testid="chat-message"
            sx={{
              alignSelf: m.mine ? 'flex-end' : 'flex-start',
              maxWidth: '80%',
              bgcolor: m.mine ? 'primary.main' : 'background.paper',
              color: m.mine ? 'primary.contrastText' : 'text.primary',
              border: m.mine ? 0 : 1,
              borderColor: 'divider',
              borderRadius: 2,
              px: 1.5,
              py: 1,
            }}
          >
            <Typography variant="caption" component="div" sx={{ opacity: 0.9 }}>
              {m.sender} · <time dateTime={m.created_at}>{when(m.created_at)}</time>
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {m.content}
            </Typography>
          </Box>
        ))}
      </Box>
      <Box
        component="form"
        onSubmit={send}
        sx={{ display: 'flex', gap: 1, p: 1, alignItems: 'flex-end', borderTop: 1, borderColor: 'divider' }}
      >
        <TextField
          inputRef={inputRef}
          label={chatText('message_label')}
          placeholder={chatText('placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={state.status !== 'open'}
          multiline
          maxRows={4}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
        <IconButton type="submit" color="primary" aria-label={chatText('send')} disabled={!canSend}>
          {sending ? <CircularProgress size={20} /> : <SendIcon />}
        </IconButton>
      </Box>
      <Dialog open={sendError !== null} onClose={() => setSendError(null)} aria-labelledby="chat-send-error-title">
        <DialogTitle id="chat-send-error-title">{chatText('error_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{sendError}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSendError(null)} autoFocus>
            {chatText('ok')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
