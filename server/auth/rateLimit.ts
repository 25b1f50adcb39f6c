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
}

const WINDOW_SECONDS = 60;

/**
 * The API's rate limit, counted in the database so that every server process shares one count: per user
 * (a new sign-in brings no fresh budget, and a session is always one user's), or per address for callers
 * without a valid token (inventing tokens does not escape it). One statement per request, on an unlogged
 * table (a count lost in a crash is of no consequence). Windows are fixed: a minute from the first request.
 */
export class ApiRateLimit {
  readonly options: RateLimitOptions;

  constructor(options: Partial<RateLimitOptions> & Pick<RateLimitOptions, 'perMinute'>) {
    this.options = { namespace: '', ...options };
  }

  /** The key a request is counted under. */
  keyOf(req: FastifyRequest): string {
    return `${this.options.namespace}${req.auth ? `user:${req.auth.id}` : `address:${req.ip}`}`;
  }

  /** Counts the request; past the limit, answers 429 with Retry-After (the caller resolves the session first). */
  async check(db: Queryable, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { perMinute } = this.options;
    const [c] = await db.query<{ count: number; wait: number }>(
      `insert into api_request_counts as a (key, window_start, count) values ($1, now(), 1)
       on conflict (key) do update set
         count = case when a.window_start <= now() - make_interval(secs => $2) then 1 else a.count + 1 end,
         window_start = case when a.window_start <= now() - make_interval(secs => $2) then now() else a.window_start end
       returning a.count, greatest(1, ceil(extract(epoch from a.window_start + make_interval(secs => $2) - now())))::int as wait`,
      [this.keyOf(req), WINDOW_SECONDS],
    );
    reply.header('x-ratelimit-limit', String(perMinute));
    reply.header('x-ratelimit-remaining', String(Math.max(0, perMinute - c.count)));
    reply.header('x-ratelimit-reset', String(c.wait));
    // Windows that have passed are useless; sweeping now and then keeps the table small without a scheduler.
    if (Math.random() < 0.001)
      await db.query('delete from api_request_counts where window_start < now() - make_interval(secs => $1)', [
        WINDOW_SECONDS,
      ]);
    if (c.count > perMinute) {
      reply.header('retry-after', String(c.wait));
      throw new HttpError(429, `Too many requests. Try again in ${c.wait} ${c.wait === 1 ? 'second' : 'seconds'}.`);
    }
  }
}
