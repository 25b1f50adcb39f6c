import type { Queryable } from '../db/index.js';

export interface ThrottleOptions {
  /**
   * Attempts per account (e-mail) and address within a window; a successful sign-in starts the count again. Keyed on
   * both, so failures from elsewhere never lock the owner out where they sign in (issue 30.12).
   */
  perAccount: number;
  /**
   * Attempts per account from all the addresses it is not known at, within a window: guessing one account from many
   * addresses stops here, while the owner, at an address they signed in from lately, is not counted nor stopped.
   */
  perAccountAnywhere: number;
  /** Failed attempts per address within a window, for accounts not known at that address. */
  perAddress: number;
  windowSeconds: number;
  /** How long a successful sign-in makes an account known at an address. */
  knownDays: number;
  /**
   * Prefixes every key: throttles with the same namespace share their counts (every server process uses '').
   * Tests give each app its own, so failed sign-ins in one test never lock out another.
   */
  namespace: string;
}

export interface Attempt {
  /** Seconds to wait before trying again; 0 when the attempt may go ahead. */
  wait: number;
  /** The account at this address. */
  accountKey: string;
  /** Set when the attempt counted against the account from every unknown address. */
  anywhereKey?: string;
  /** Set when the attempt counted against its address (the account was not known there). */
  addressKey?: string;
  account: string;
  address: string;
}

const DEFAULTS: ThrottleOptions = {
  perAccount: 5,
  perAccountAnywhere: 50,
  perAddress: 20,
  windowSeconds: 15 * 60,
  knownDays: 30,
  namespace: '',
};

/**
 * Limits password guessing. Counts live in the database, so every server process shares them, and an attempt
 * is counted when it starts, before its password is checked: parallel requests cannot all slip under the limit.
 *
 * - Per account and address: 5 attempts in 15 minutes; the 6th is refused (429) without checking its password. A
 *   successful sign-in starts the count again. A stranger's wrong passwords lock only their own address out.
 * - Per account from unknown addresses: 50 attempts in 15 minutes, so many addresses cannot share out the guessing
 *   of one password; an address the account signed in from in the last 30 days is not counted and never stopped.
 * - Per address: 20 failed attempts in 15 minutes stop further attempts from that address, but only for
 *   accounts that have not signed in from it in the last 30 days. Someone trying many accounts from an office's
 *   address is stopped, while the people who work there (known at that address) keep signing in, each still
 *   under their own account limit.
 *
 * Windows are fixed: they start at the first attempt and end 15 minutes later.
 */
export class LoginThrottle {
  private options: ThrottleOptions;

  constructor(options: Partial<ThrottleOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Counts one sign-in attempt, before its password is checked. A `wait` above 0 refuses it. */
  async attempt(db: Queryable, account: string, address: string): Promise<Attempt> {
    const { namespace, windowSeconds, knownDays, perAccount, perAccountAnywhere, perAddress } = this.options;
    const [known] = await db.query(
      `select 1 from login_known_addresses where account = $1 and address = $2 and last_success_at > now() - make_interval(days => $3)`,
      [namespace + account, address, knownDays],
    );
    const accountKey = `${namespace}account:${account}|${address}`;
    const anywhereKey = known ? undefined : `${namespace}account:${account}`;
    const addressKey = known ? undefined : `${namespace}address:${address}`;
    const limits = new Map([[accountKey, perAccount]]);
    if (anywhereKey) limits.set(anywhereKey, perAccountAnywhere);
    if (addressKey) limits.set(addressKey, perAddress);
    // One statement per key, atomic under concurrency: a window that has passed starts again at 1.
    const counts = await db.query<{ key: string; count: number; wait: number }>(
      `insert into login_attempts as a (key, window_start, count)
       select key, now(), 1 from unnest($1::text[]) as key
       on conflict (key) do update set
         count = case when a.window_start <= now() - make_interval(secs => $2) then 1 else a.count + 1 end,
         window_start = case when a.window_start <= now() - make_interval(secs => $2) then now() else a.window_start end
       returning a.key, a.count, greatest(1, ceil(extract(epoch from a.window_start + make_interval(secs => $2) - now())))::int as wait`,
      [[...limits.keys()], windowSeconds],
    );
    let wait = 0;
    for (const c of counts) if (c.count > limits.get(c.key)!) wait = Math.max(wait, c.wait);
    // Windows that have passed are useless; sweeping now and then keeps the tables small without a scheduler.
    if (Math.random() < 0.01) {
      await db.query('delete from login_attempts where window_start < now() - make_interval(secs => $1)', [
        windowSeconds,
      ]);
      await db.query('delete from login_known_addresses where last_success_at < now() - make_interval(days => $1)', [
        knownDays,
      ]);
    }
    return { wait, accountKey, anywhereKey, addressKey, account, address };
  }

  /**
   * A successful sign-in: the account's counts start again (here and from anywhere: its owner is at the keyboard),
   * the account becomes known at this address, and the attempt is taken back from the address's count (that count
   * is of failures).
   */
  async succeeded(db: Queryable, attempt: Attempt): Promise<void> {
    await db.query('delete from login_attempts where key = any($1)', [
      [attempt.accountKey, `${this.options.namespace}account:${attempt.account}`],
    ]);
    await db.query(
      `insert into login_known_addresses (account, address, last_success_at) values ($1, $2, now())
       on conflict (account, address) do update set last_success_at = now()`,
      [this.options.namespace + attempt.account, attempt.address],
    );
    if (attempt.addressKey)
      await db.query('update login_attempts set count = count - 1 where key = $1 and count > 0', [attempt.addressKey]);
  }
}
