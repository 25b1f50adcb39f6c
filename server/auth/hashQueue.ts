import { HttpError } from '../http.js';

export interface HashQueueOptions {
  /** Password hashes computed at once. Each takes a thread of libuv's pool (4 threads, shared with file reads). */
  concurrency: number;
  /** Hashes one key (a caller's address) may have running or waiting; past it, 429. */
  perKey: number;
  /** Hashes waiting for a turn, all keys together; past it, 503. */
  maxWaiting: number;
}

// perKey: the sign-in throttle already stops an address's 21st failure in 15 minutes.
export const HASH_QUEUE_DEFAULTS: HashQueueOptions = { concurrency: 2, perKey: 20, maxWaiting: 100 };

/** How long a key's failed sign-ins count against its turn: a key that failed lately waits behind one that did not. */
const RECENT_MS = 60_000;
/** What a refusal's Retry-After says, in seconds. */
export const HASH_RETRY_AFTER_SECONDS = 5;

interface Waiter {
  key: string;
  seq: number;
  /** A sign-in's (it may be shed for a caller that failed less); hashing without a key is never refused. */
  refusable: boolean;
  start: () => void;
  refuse: (e: Error) => void;
}

const busy = () => new HttpError(503, 'The server is busy checking other sign-ins. Try again in a few seconds.');

/**
 * Password hashing, bounded. A hash runs in libuv's thread pool, which also reads files for the app's pages:
 * unbounded, a flood of failed sign-ins takes every thread and the whole server stalls. At most `concurrency`
 * hashes run at once; the rest wait, up to `perKey` per key and `maxWaiting` in all, and beyond that are
 * refused at once, before any hashing.
 *
 * The next to run is the waiting key with the lightest load: the fewest failed sign-ins in the last minute, then the
 * fewest sign-ins running or waiting (first come first served among equals): someone signing in from their own
 * address goes ahead of addresses that keep failing or send many at once. When the queue is full, a newcomer whose
 * address would be lighter than the heaviest waiting one takes the latest place of that address (that sign-in is
 * refused), so a burst cannot fill the queue against everyone else: a sign-in from an address with no failures and
 * nothing else waiting is refused only when every waiting sign-in is the only one of an address without failures
 * (issue 30.4: before, a burst of fresh addresses, none of which had failed yet, refused it).
 */
export class HashQueue {
  readonly options: HashQueueOptions;
  private running = 0;
  private waiting: Waiter[] = [];
  private seq = 0;
  /** Hashes running or waiting, per key. */
  private queued = new Map<string, number>();
  /** Failed sign-ins per key in the current minute. */
  private recent = new Map<string, { n: number; since: number }>();
  private watchers: Array<{ n: number; resolve: () => void }> = [];

  constructor(options: Partial<HashQueueOptions> = {}) {
    this.options = { ...HASH_QUEUE_DEFAULTS, ...options };
  }

  /** Hashes waiting for a turn. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Resolves once at least `n` hashes are waiting (tests order concurrent sign-ins with it). */
  whenWaiting(n: number): Promise<void> {
    if (this.waiting.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ n, resolve }));
  }

  /** The refusal `run(key)` would answer now, or null: lets a caller refuse before doing any other work. */
  refusal(key: string): HttpError | null {
    if ((this.queued.get(key) ?? 0) >= this.options.perKey) {
      return new HttpError(
        429,
        'Too many sign-ins are being checked from your address at once. Try again in a few seconds.',
      );
    }
    if (
      this.running >= this.options.concurrency &&
      this.waiting.length >= this.options.maxWaiting &&
      !this.victimFor(key, false)
    )
      return busy();
    return null;
  }

  /**
   * The waiting sign-in a newcomer from `key` would displace in a full queue: the latest of those that failed most, and
   * more than `key`.
   */
  private victimFor(key: string, newcomerCounted: boolean): Waiter | undefined {
    let worst: Waiter | undefined;
    for (const w of this.waiting) {
      if (!w.refusable) continue;
      const order = worst ? this.compareLoad(w.key, worst.key) : 1;
      if (order > 0 || (order === 0 && w.seq > worst!.seq)) worst = w;
    }
    // The newcomer counts as queued: an address never displaces its own sign-ins or an equal address's.
    return worst && this.compareLoad(worst.key, key, newcomerCounted ? 0 : 1) > 0 ? worst : undefined;
  }

  /**
   * Which of two keys is heavier (above 0: `a`): more failed sign-ins in the last minute, then more sign-ins running
   * or waiting (`bExtra` counts a newcomer of `b` not yet queued).
   */
  private compareLoad(a: string, b: string, bExtra = 0): number {
    const failed = this.recentCount(a) - this.recentCount(b);
    if (failed !== 0) return failed;
    return (this.queued.get(a) ?? 0) - ((this.queued.get(b) ?? 0) + bExtra);
  }

  /**
   * Runs `hash` when its turn comes. With a key (a sign-in's address) it is refused (HttpError 429 or 503) when
   * the queue is full; without one (setting a password, loading the demo) it always waits its turn.
   */
  async run<T>(key: string | null, hash: () => Promise<T>): Promise<T> {
    const refusable = key !== null;
    if (key !== null) {
      const refused = this.refusal(key);
      if (refused) throw refused;
    } else key = '';
    this.queued.set(key, (this.queued.get(key) ?? 0) + 1);
    try {
      if (this.running >= this.options.concurrency) {
        if (refusable && this.waiting.length >= this.options.maxWaiting) {
          const victim = this.victimFor(key, true);
          if (!victim) throw busy();
          this.waiting.splice(this.waiting.indexOf(victim), 1);
          victim.refuse(busy());
        }
        await new Promise<void>((start, refuse) => {
          this.waiting.push({ key: key!, seq: ++this.seq, refusable, start, refuse });
          this.watchers = this.watchers.filter((w) => (this.waiting.length >= w.n ? (w.resolve(), false) : true));
        });
      } else {
        this.running++;
      }
      try {
        return await hash();
      } finally {
        this.next();
      }
    } finally {
      const left = (this.queued.get(key) ?? 1) - 1;
      if (left > 0) this.queued.set(key, left);
      else this.queued.delete(key);
    }
  }

  /** A running hash ended: its place goes to the waiting key with the lightest load, or is freed. */
  private next() {
    if (this.waiting.length === 0) {
      this.running--;
      return;
    }
    let best = 0;
    for (let i = 1; i < this.waiting.length; i++) {
      const order = this.compareLoad(this.waiting[i].key, this.waiting[best].key);
      if (order < 0 || (order === 0 && this.waiting[i].seq < this.waiting[best].seq)) best = i;
    }
    const [w] = this.waiting.splice(best, 1);
    w.start(); // keeps the running place
  }

  private recentCount(key: string): number {
    const r = this.recent.get(key);
    return r && Date.now() - r.since < RECENT_MS ? r.n : 0;
  }

  /** A sign-in from `key` failed (a wrong password): its next turns come after those of keys that did not fail. */
  failed(key: string) {
    const now = Date.now();
    const r = this.recent.get(key);
    if (r && now - r.since < RECENT_MS) r.n++;
    else this.recent.set(key, { n: 1, since: now });
    // Old minutes are of no use; the map stays as small as the addresses seen in the last minute.
    if (this.recent.size > 10_000)
      for (const [k, v] of this.recent) if (now - v.since >= RECENT_MS) this.recent.delete(k);
  }
}
