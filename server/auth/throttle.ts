/**
 * Counts failed sign-ins per account and per address. Past the limit the key is refused (429) until the
 * window has passed. Kept in memory: the product runs as one process, and a restart forgiving the count
 * is acceptable.
 */
export class LoginThrottle {
  private failures = new Map<string, { count: number; since: number }>();

  constructor(
    private limits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60 * 1000 },
  ) {}

  /** Seconds to wait before another attempt is allowed, or 0. */
  retryAfter(account: string, address: string): number {
    const now = Date.now();
    const wait = (key: string, limit: number) => {
      const f = this.failures.get(key);
      if (!f) return 0;
      if (now - f.since > this.limits.windowMs) {
        this.failures.delete(key);
        return 0;
      }
      return f.count >= limit ? Math.ceil((f.since + this.limits.windowMs - now) / 1000) : 0;
    };
    return Math.max(wait(`a:${account}`, this.limits.perAccount), wait(`ip:${address}`, this.limits.perAddress));
  }

  fail(account: string, address: string) {
    const now = Date.now();
    // Keys are removed when they come back after their window; a sweep keeps one-off addresses from piling up.
    if (this.failures.size > 10_000) for (const [k, f] of this.failures) if (now - f.since > this.limits.windowMs) this.failures.delete(k);
    for (const key of [`a:${account}`, `ip:${address}`]) {
      const f = this.failures.get(key);
      if (!f || now - f.since > this.limits.windowMs) this.failures.set(key, { count: 1, since: now });
      else f.count++;
    }
  }

  succeed(account: string) {
    this.failures.delete(`a:${account}`);
  }
}
