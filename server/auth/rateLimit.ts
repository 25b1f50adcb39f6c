import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/index.js';
import { HttpError } from '../http.js';

export interface RateLimitOptions {
  /**
   * API requests a user (every session of theirs together), or an address without a valid token, may make per minute.
   */
  perMinute: number;
  /**
   * Prefixes every key: limits with the same namespace share their counts (every server process uses '').
   * Tests give each app its own, so one test's requests never use up another's budget.
   */
  namespace: string;
  /**
   * The window the limit counts over, in seconds: a minute for the API (perMinute is then per minute); the public
   * job board's applications count over an hour (server/careers).
   */
  windowSeconds: number;
}

/** Counts whose window passed are swept after this long: past the longest window any limit uses (an hour). */
const SWEEP_AFTER_SECONDS = 3600;
/**
 * Requests of one key a process lets through on the count it last read, before it writes them: far below the
 * limit, one statement per BATCH requests (or per FLUSH_MS) instead of one per request.
 */
const BATCH = 20;
const FLUSH_MS = 1000;

/** Adds `n` requests to a key's count: its window restarts once a minute has passed. */
const COUNT = `insert into api_request_counts as a (key, window_start, count)
  select k, now(), n from unnest($1::text[], $2::int[]) as x(k, n)
  on conflict (key) do update set
    count = case when a.window_start <= now() - make_interval(secs => $3) then excluded.count else a.count + excluded.count end,
    window_start = case when a.window_start <= now() - make_interval(secs => $3) then now() else a.window_start end
  returning a.key, a.count, greatest(1, ceil(extract(epoch from a.window_start + make_interval(secs => $3) - now())))::int as wait`;

/** A key's count as this process last read it (until its window ends), and its requests not written yet. */
interface Known {
  count: number;
  until: number;
  pending: number;
}

/**
 * The API's rate limit, counted in the database so that every server process shares one count: per user
 * (a new sign-in brings no fresh budget, and a session is always one user's), or per address for callers
 * without a valid token (inventing tokens does not escape it), on an unlogged table (a count lost in a crash is of
 * no consequence). Windows are fixed: a minute from the first request. Near the limit every request is counted in
 * the database before it runs, so the limit holds exactly there; far below it (BATCH requests or more to spare on
 * the count last read) a process counts requests itself and writes them together, at most BATCH at a time or after
 * FLUSH_MS. Those requests were all allowed anyway; the most the processes together can let through beyond the
 * limit is what each had counted and not written yet, under BATCH each. A counted statement per request was a
 * third of a list request's work.
 */
export class ApiRateLimit {
  readonly options: RateLimitOptions;
  private known = new Map<string, Known>();
  private timer?: NodeJS.Timeout;

  constructor(options: Partial<RateLimitOptions> & Pick<RateLimitOptions, 'perMinute'>) {
    this.options = { namespace: '', windowSeconds: 60, ...options };
  }

  /** The key a request is counted under. */
  keyOf(req: FastifyRequest): string {
    return `${this.options.namespace}${req.auth ? `user:${req.auth.id}` : `address:${req.ip}`}`;
  }

  /** Counts the request; past the limit, answers 429 with Retry-After (the caller resolves the session first). */
  async check(db: Queryable, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { perMinute } = this.options;
    const key = this.keyOf(req);
    const now = Date.now();
    let k = this.known.get(key);
    if (k && k.until > now && k.count + k.pending + 1 + BATCH <= perMinute && k.pending + 1 < BATCH) {
      k.pending++;
      this.headers(reply, k.count + k.pending, Math.ceil((k.until - now) / 1000));
      this.timer ??= setTimeout(() => void this.flush(db), FLUSH_MS).unref();
      return;
    }
    // Near the limit, a key not read yet, or a batch full: this request and those counted here go in now.
    if (!k) this.known.set(key, (k = { count: 0, until: 0, pending: 0 }));
    const n = k.pending + 1;
    k.pending = 0;
    let c: { count: number; wait: number };
    try {
      [c] = await db.query<{ count: number; wait: number }>(COUNT, [[key], [n], this.options.windowSeconds]);
    } catch (e) {
      k.pending += n - 1;
      throw e;
    }
    k.count = c.count;
    k.until = Date.now() + c.wait * 1000;
    if (this.known.size > 10_000) this.known.clear();
    this.headers(reply, c.count + k.pending, c.wait);
    // Windows that have passed are useless; sweeping now and then keeps the table small without a scheduler.
    if (Math.random() < 0.001)
      await db.query('delete from api_request_counts where window_start < now() - make_interval(secs => $1)', [
        Math.max(SWEEP_AFTER_SECONDS, this.options.windowSeconds),
      ]);
    if (c.count > perMinute) {
      reply.header('retry-after', String(c.wait));
      throw new HttpError(429, `Too many requests. Try again in ${c.wait} ${c.wait === 1 ? 'second' : 'seconds'}.`);
    }
  }

  /** Writes what this process counted and has not written, every key in one statement, and reads the counts back. */
  async flush(db: Queryable): Promise<void> {
    this.timer = undefined;
    const batch = [...this.known].filter(([, k]) => k.pending > 0).map(([key, k]) => ({ key, k, n: k.pending }));
    if (batch.length === 0) return;
    for (const b of batch) b.k.pending -= b.n;
    try {
      const rows = await db.query<{ key: string; count: number; wait: number }>(COUNT, [
        batch.map((b) => b.key),
        batch.map((b) => b.n),
        this.options.windowSeconds,
      ]);
      const now = Date.now();
      for (const r of rows) {
        const k = this.known.get(r.key);
        if (k) Object.assign(k, { count: r.count, until: now + r.wait * 1000 });
      }
    } catch {
      // Counted again with the next write; the database being away is answered by the requests themselves.
      for (const b of batch) b.k.pending += b.n;
    }
  }

  /** Stops the timer of a pending write, writing what it holds (the app closing). */
  async close(db: Queryable): Promise<void> {
    clearTimeout(this.timer);
    await this.flush(db);
  }

  private headers(reply: FastifyReply, count: number, wait: number) {
    reply.header('x-ratelimit-limit', String(this.options.perMinute));
    reply.header('x-ratelimit-remaining', String(Math.max(0, this.options.perMinute - count)));
    reply.header('x-ratelimit-reset', String(wait));
  }
}
