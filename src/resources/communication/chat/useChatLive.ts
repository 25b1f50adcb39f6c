import { useEffect, useMemo, useState } from 'react';
import { listenToChat, type LiveEvent } from './stream';

/** The chat's live stream, shared by a screen's parts (the conversation list and the open conversation). */
export interface ChatLive {
  subscribe(listener: (e: LiveEvent) => void): () => void;
}

/** Opens the live stream while the screen is shown; `connected` is false while it reconnects. */
export function useChatLive(): { live: ChatLive; connected: boolean } {
  const [connected, setConnected] = useState(true);
  const listeners = useMemo(() => new Set<(e: LiveEvent) => void>(), []);
  const live = useMemo<ChatLive>(
    () => ({
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    }),
    [listeners],
  );
  useEffect(() => {
    let first = true;
    return listenToChat((event) => {
      let heard = event;
      if (event.type === 'ready') {
        // Reconnections get what they missed from the stream itself; the first connection may come after the
        // screen's first fetch, so what was sent in between is fetched again.
        if (!first) return;
        first = false;
        heard = { type: 'resync' };
      }
      listeners.forEach((l) => l(heard));
    }, setConnected);
  }, [listeners]);
  return { live, connected };
}
