import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from './db/index.js';

/**
 * What each topic carries. Every process caches something that a write in another process can make stale;
 * the topics say what went stale.
 */
export interface Topics {
  /**
   * Sessions ended or changed: drop cached look-ups of this token, or of every session of this user or client, or
   * of every holder of this agency role (its privileges changed).
   */
  sessions: { token: string } | { userId: number } | { clientId: number } | { roleId: number };
  /** Committed writes to `table` by agency `merchantId`: cached list totals of those tables and agencies are stale. */
  totals: { changes: { table: string; merchantId: number }[] };
  /** A chat message was committed: every process tells its open chat streams of that agency (server/chat/live.ts). */
  chat: { merchantId: number; candidateId: number; messageId: number };
}
export type Topic = keyof Topics;

interface Message {
  topic: Topic;
  payload: unknown;
  /** The sending Cluster and its message number: how a sender recognises its own message coming back. */
  from: string;
  n: number;
}

/** One database channel carries every topic: each process listens once. */
const CHANNEL = 'cluster';
/** How long `publish` and `settle` wait for a message to come back before answering anyway. */
const LOOPBACK_WAIT_MS = 1000;
/** How long a message sent inside a transaction holds back cache refills if it never comes back (rollback). */
const IN_TRANSACTION_MS = 10_000;

/**
 * A message bus between every server process on one database (PostgreSQL LISTEN/NOTIFY; on PGlite, the same
 * within its one process). A process hears its own messages like everyone else's, so a handler is the one
 * place where a process reacts to a change, wherever it was made.
 *
 * Caches built on it follow two rules:
 * - read only while `healthy`: when the bus connection drops, messages are lost until it is back, and
 *   `onReset` handlers run on the drop and again on the return;
 * - fill only while `settled`: a message this process sent inside a transaction has not come back yet, so rows
 *   read now may be about to change.
 */
export class Cluster {
  private handlers = new Map<Topic, Set<(payload: any) => void>>();
  private resetHandlers = new Set<() => void>();
  private readonly id = randomBytes(8).toString('hex');
  private sent = 0;
  /** This process's messages on their way back, by number. */
  private outstanding = new Map<number, { until: number; arrived: () => void; back: Promise<void> }>();
  private stop: Array<() => unknown> = [];
  private listening = false;

  private constructor(private db: Db) {}

  /** Starts listening; answers once the bus is up. */
  static async start(db: Db): Promise<Cluster> {
    const cluster = new Cluster(db);
    // Heard before listening starts, so no drop can slip between the two.
    cluster.stop.push(db.onListenerState((up) => cluster.setListening(up)));
    cluster.stop.push(await db.listen(CHANNEL, (text) => cluster.receive(text)));
    cluster.listening = true;
    return cluster;
  }

  /** False while messages may be missed (the bus connection is down): caches must not be read or filled. */
  get healthy(): boolean {
    return this.listening;
  }

  /** True when caches may be filled: the bus is up and no message sent in a transaction is on its way back. */
  get settled(): boolean {
    const now = Date.now();
    for (const [n, o] of this.outstanding) {
      if (o.until > now) continue;
      o.arrived();
      this.outstanding.delete(n);
    }
    return this.listening && this.outstanding.size === 0;
  }

  /** Runs `handler` for every message on `topic`, from any process, this one included. Answers an unsubscribe. */
  on<T extends Topic>(topic: T, handler: (payload: Topics[T]) => void): () => void {
    if (!this.handlers.has(topic)) this.handlers.set(topic, new Set());
    this.handlers.get(topic)!.add(handler);
    return () => this.handlers.get(topic)?.delete(handler);
  }

  /** Runs `handler` when messages may have been missed (the bus dropped) and again when it is back. */
  onReset(handler: () => void): () => void {
    this.resetHandlers.add(handler);
    return () => this.resetHandlers.delete(handler);
  }

  /**
   * Sends a message to every process, this one included.
   * - Through `via`, a transaction: this process's handlers run at once (dropping from a cache early is always
   *   safe), and every process's handlers run again when the transaction commits, as PostgreSQL delivers it
   *   then (never on rollback). Until it comes back, this process does not refill caches (`settled`).
   * - Otherwise it is sent at once, and the answer waits (at most a second) until the message has come back to
   *   this process: by then PostgreSQL has handed it to every listening process.
   */
  async publish<T extends Topic>(topic: T, payload: Topics[T], via?: Queryable): Promise<void> {
    const message: Message = { topic, payload, from: this.id, n: ++this.sent };
    const text = JSON.stringify(message);
    if (!this.listening) return this.db.notify(CHANNEL, text, via);
    // Expected before sending: PGlite delivers the message before notify answers.
    const back = this.expect(message.n, via ? IN_TRANSACTION_MS : LOOPBACK_WAIT_MS);
    if (via) {
      this.dispatch(message);
      return this.db.notify(CHANNEL, text, via);
    }
    try {
      await this.db.notify(CHANNEL, text);
      await within(back, LOOPBACK_WAIT_MS);
    } finally {
      this.outstanding.delete(message.n);
    }
  }

  /**
   * Answers once every message this process sent has come back (at most a second): call it after committing a
   * transaction that published, to know every process has heard before answering the caller.
   */
  async settle(): Promise<void> {
    await within(Promise.all([...this.outstanding.values()].map((o) => o.back)), LOOPBACK_WAIT_MS);
  }

  async close(): Promise<void> {
    this.listening = false;
    for (const o of this.outstanding.values()) o.arrived();
    this.outstanding.clear();
    for (const stop of this.stop.splice(0)) await stop();
  }

  private expect(n: number, ms: number): Promise<void> {
    let arrived!: () => void;
    const back = new Promise<void>((resolve) => (arrived = resolve));
    this.outstanding.set(n, { until: Date.now() + ms, arrived, back });
    return back;
  }

  private receive(text: string) {
    let message: Message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    this.dispatch(message);
    if (message.from !== this.id) return;
    this.outstanding.get(message.n)?.arrived();
    this.outstanding.delete(message.n);
  }

  private dispatch(message: Message) {
    for (const handler of this.handlers.get(message.topic) ?? []) {
      try {
        handler(message.payload);
      } catch (e) {
        console.error(`A handler of ${message.topic} messages failed:`, e);
      }
    }
  }

  private setListening(up: boolean) {
    this.listening = up;
    for (const handler of this.resetHandlers) {
      try {
        handler();
      } catch (e) {
        console.error('A cache reset failed:', e);
      }
    }
  }
}

/** `promise`, or nothing after `ms`. */
function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).then(() =>
    clearTimeout(timer),
  );
}

/**
 * Shares a process's list-total cache (server/engine/totals.ts) with every other process: a committed write
 * in any process drops the matching totals everywhere. Totals may already be up to 10 s stale after writes made
 * outside the engine, so while the bus is down they are only emptied on the drop and on the return.
 */
export function shareTotals(
  cluster: Cluster,
  totals: {
    publish?: (table: string, merchantId: number) => void;
    invalidate(table: string, merchantId: number): void;
    clear(): void;
  },
): void {
  // A NOTIFY takes a database-wide lock at commit: sent once per write it would serialise concurrent writers.
  // Writes are gathered for a few milliseconds and told in one message (this process has already dropped its own).
  const pending = new Map<string, { table: string; merchantId: number }>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const changes = [...pending.values()];
    pending.clear();
    // A bus that is down (or closed) resets every process's totals when it is back: nothing to tell.
    if (!cluster.healthy) return;
    cluster.publish('totals', { changes }).catch((e) => console.error('Could not tell other processes of a write:', e));
  };
  totals.publish = (table, merchantId) => {
    pending.set(`${table}|${merchantId}`, { table, merchantId });
    timer ??= setTimeout(flush, TOTALS_BATCH_MS).unref();
  };
  cluster.on('totals', ({ changes }) =>
    changes.forEach(({ table, merchantId }) => totals.invalidate(table, merchantId)),
  );
  cluster.onReset(() => totals.clear());
}

/** How long writes are gathered before other processes are told their totals are stale. */
const TOTALS_BATCH_MS = 20;
