import type { Queryable } from '../db/index.js';
import type { Cluster, Topics } from '../cluster.js';
import { endsSession } from '../auth/sessions.js';
import type { ChatMessage } from '../../core/contracts/chat.js';
import { MESSAGE_COLUMNS, messageFor, type MessageRow } from './channels.js';

/** What an open chat screen hears: a message on one of its channels, or that it may have missed some. */
export type LiveEvent =
  | { type: 'message'; channel_sid: string; candidate_id: number; message: ChatMessage }
  /** Messages may have been lost (the bus between processes dropped): fetch the open conversation again. */
  | { type: 'resync' };

export interface Listener {
  merchantId: number;
  /** A staff member hears their own channel only; null: an agency user, who hears every channel of the agency. */
  candidateId: number | null;
  deliver(event: LiveEvent): void;
  /** The session the stream belongs to, and how to end the stream when that session ends. */
  session?: { token_hash: string; id: number; client_id: number | null; end(): void };
}

/** Streams one session may hold open at once in a process (a few tabs); more answer 429. */
export const STREAMS_PER_SESSION = 4;
/**
 * Streams one person (user) may hold open at once in a process, over all their sign-ins: a few devices with a few tabs
 * each. Far below the agency's cap, so one person signing in many times cannot take every stream of the agency
 * (issue 30.10: one staff member with 130 sign-ins held all 500).
 */
export const STREAMS_PER_USER = 10;
/** Streams one agency may hold open at once in a process (its users' tabs and its staff's phones); more answer 429. */
export const STREAMS_PER_AGENCY = 500;
/** The caps in force in this process (a test lowers them for a moment). */
export const streamLimits = {
  perSession: STREAMS_PER_SESSION,
  perUser: STREAMS_PER_USER,
  perAgency: STREAMS_PER_AGENCY,
};

/** How many missed messages a reconnecting stream is sent at most (older ones: fetch_messages). */
export const BACKLOG_MAX = 200;

type EventRow = MessageRow & { channel_sid: string; candidate_id: number };

/**
 * The open chat streams of this process. Every process hears every committed message through the cluster bus
 * (PostgreSQL LISTEN/NOTIFY), reads it once and hands it to its own streams of that agency, so a message sent
 * through one server process reaches the screens connected to any other.
 */
export class ChatHub {
  private listeners = new Map<number, Set<Listener>>();

  constructor(
    private db: Queryable,
    private cluster: Cluster,
  ) {
    cluster.on(
      'chat',
      (event) => void this.hear(event).catch((e) => console.error('A chat message could not be delivered:', e)),
    );
    cluster.onReset(() => this.each(() => true, { type: 'resync' }));
    // The announcement that ends sessions (sign-out, a user, client or staff member losing the right to sign in)
    // ends their open streams too, in every process.
    cluster.on('sessions', (ended) => {
      for (const set of this.listeners.values())
        for (const l of set) if (l.session && endsSession(ended, l.session)) l.session.end();
    });
  }

  /**
   * Why a new stream of this session may not open (its words for a 429), or null: each session, each user and each
   * agency holds at most `streamLimits` streams in this process.
   */
  refusal(merchantId: number, tokenHash: string, userId: number): string | null {
    const set = this.listeners.get(merchantId);
    let mine = 0;
    let theirs = 0;
    for (const l of set ?? []) {
      if (l.session?.token_hash === tokenHash) mine++;
      if (l.session?.id === userId) theirs++;
    }
    if (mine >= streamLimits.perSession) {
      return `This sign-in already has ${streamLimits.perSession} live chat connections open, the most it may. Close the chat in another tab or window, then reload this one.`;
    }
    if (theirs >= streamLimits.perUser) {
      return `You already have ${streamLimits.perUser} live chat connections open on your devices and tabs, the most one person may. Close the chat somewhere else, then reload this one.`;
    }
    if ((set?.size ?? 0) >= streamLimits.perAgency) {
      return `Your agency has too many live chat connections open right now (at most ${streamLimits.perAgency}). Messages still arrive when you reload the conversation; try the live chat again in a minute.`;
    }
    return null;
  }

  /** Tells every process (this one included) of a committed message. */
  publish(event: Topics['chat']): Promise<void> {
    return this.cluster.publish('chat', event);
  }

  /** Starts delivering to `listener`; answers the function that stops it. */
  add(listener: Listener): () => void {
    let set = this.listeners.get(listener.merchantId);
    if (!set) this.listeners.set(listener.merchantId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(listener.merchantId) === set) this.listeners.delete(listener.merchantId);
    };
  }

  /** How many streams are open in this process. */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  /** The messages after `after` that `listener` would have heard, oldest first (a stream reconnecting). */
  async backlog(listener: Omit<Listener, 'deliver'>, after: number): Promise<LiveEvent[]> {
    const rows = await this.db.query<EventRow>(
      `select ${MESSAGE_COLUMNS}, c.channel_sid, c.candidate_id
         from chat_messages m join chat_channels c on c.id = m.channel_id
        where m.merchant_id = $1 and m.id > $2 and ($3::int is null or c.candidate_id = $3)
        order by m.id limit $4`,
      [listener.merchantId, after, listener.candidateId, BACKLOG_MAX],
    );
    return rows.map((row) => this.eventFor(row, listener));
  }

  private async hear({ merchantId, candidateId, messageId }: Topics['chat']) {
    const hears = (l: Listener) => l.candidateId === null || l.candidateId === candidateId;
    if (![...(this.listeners.get(merchantId) ?? [])].some(hears)) return;
    // Read once per process, whatever the number of streams.
    const [row] = await this.db.query<EventRow>(
      `select ${MESSAGE_COLUMNS}, c.channel_sid, c.candidate_id
         from chat_messages m join chat_channels c on c.id = m.channel_id
        where m.id = $1 and m.merchant_id = $2`,
      [messageId, merchantId],
    );
    if (!row) return;
    for (const l of this.listeners.get(merchantId) ?? []) if (hears(l)) l.deliver(this.eventFor(row, l));
  }

  private eventFor(row: EventRow, reader: { candidateId: number | null }): LiveEvent {
    return {
      type: 'message',
      channel_sid: row.channel_sid,
      candidate_id: row.candidate_id,
      message: messageFor(row, reader),
    };
  }

  private each(match: (l: Listener) => boolean, event: LiveEvent) {
    for (const set of this.listeners.values()) for (const l of set) if (match(l)) l.deliver(event);
  }
}
