import { getToken } from '../../../providers/session';
import { API } from '../../../providers/request';
import type { ChatMessage } from '../../../../core/resources/communication/chat/types';
import { readEvents } from './eventStream';

export type LiveEvent =
  | { type: 'ready' }
  | { type: 'message'; channel_sid: string; candidate_id: number; message: ChatMessage }
  | { type: 'resync' };

/** Waits before reconnecting after a failure: doubling from 1 s up to 30 s. */
const RETRY_MS = [1000, 2000, 4000, 8000, 16000, 30000];

/**
 * Listens to the chat's live stream (GET /api/chats/stream, Server-Sent Events read through fetch, since
 * EventSource cannot send the bearer token). Reconnects on its own, asking for what it missed (`after`).
 * Answers a function that stops it.
 */
export function listenToChat(onEvent: (e: LiveEvent) => void, onConnection?: (up: boolean) => void): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let lastId: number | undefined;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    if (stopped) return;
    controller = new AbortController();
    try {
      const res = await fetch(`${API}/chats/stream${lastId !== undefined ? `?after=${lastId}` : ''}`, {
        headers: { authorization: `Bearer ${getToken() ?? ''}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      // Signed out or not allowed: nothing to retry.
      if (res.status === 401 || res.status === 403) return onConnection?.(false);
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      await readEvents<LiveEvent>(res.body, (event) => {
        if (event.type === 'ready') {
          failures = 0;
          onConnection?.(true);
        }
        if (event.type === 'message') lastId = Math.max(lastId ?? 0, event.message.id);
        onEvent(event);
      });
      // The server ends each stream after a while: reconnect at once.
      schedule(0);
    } catch {
      if (stopped) return;
      onConnection?.(false);
      schedule(RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
    }
  };
  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(connect, ms);
  };
  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    controller?.abort();
  };
}
