import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { HASH_QUEUE_DEFAULTS, type HashQueueOptions } from './auth/hashQueue.js';
import { loadPlans, type PlanSet } from './subscription/plans.js';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** How long a bearer token lives, in seconds. */
  tokenLifetimeSeconds: number;
  /** Where the built single-page app lives; absent in API-only tests. */
  staticDir?: string;
  /**
   * Whose X-Forwarded-For to believe for the caller's address (Fastify's `trustProxy`), which the sign-in
   * throttle counts by. TRUST_PROXY: unset or 'false' trusts no one (the address is the connection's); 'true'
   * trusts every hop; a number trusts that many hops; otherwise a comma-separated list of proxy addresses or
   * CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /**
   * API requests a user (all their sessions together, on every process), or an address without a session, may make per
   * minute; RATE_LIMIT_PER_MINUTE, default 1200.
   */
  rateLimitPerMinute: number;
  /**
   * Password hashing bounds (server/auth/hashQueue.ts): PASSWORD_HASH_CONCURRENCY hashes at once (default 2),
   * SIGN_IN_QUEUE_PER_ADDRESS sign-ins checked or waiting per address (default 20), SIGN_IN_QUEUE_WAITING
   * sign-ins waiting in all (default 100).
   */
  passwordHashing: HashQueueOptions;
  /** SMTP_URL: the mail server e-mail goes out through; unset, the product starts its own on a local port. */
  smtpUrl?: string;
  /** EMBEDDED_SMTP_PORT: that embedded server's port (default 0: any free port). */
  embeddedSmtpPort: number;
  /** PUBLIC_URL: the product's address as mail readers reach it (links in e-mails); default http://HOST:PORT. */
  publicUrl: string;
  /** MAIL_FROM: the sender address of the product's e-mail. */
  mailFrom?: string;
  /**
   * The plans agencies subscribe to (issue 35): PLANS (JSON text) or PLANS_FILE (a JSON file's path), checked here
   * so a mistake stops the start in words; neither, the bundled Starter, Growth and Unlimited
   * (server/subscription/plans.ts).
   */
  plans: PlanSet;
  /**
   * DEMO_HISTORY: `off` loads the demo without its year of history (server/seed/history.ts), only its current weeks:
   * a first start about a third quicker, and past weeks free to book (the browser tests that book them). Default on.
   */
  demoHistory: boolean;
}

export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Checked here so a typo stops the start with a clear message rather than deep inside Fastify.
  for (const entry of list) {
    const [ip, bits, ...rest] = entry.split('/');
    const range = isIP(ip) !== 0 && rest.length === 0 && (bits === undefined || /^\d{1,3}$/.test(bits));
    // proxy-addr's names for the usual private ranges.
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    if (!range && !named)
      throw new Error(`TRUST_PROXY: "${entry}" is not true, false, a number of hops, an address or a CIDR range.`);
  }
  return list;
}

/**
 * The setting as Fastify takes it. Fastify 5 ignores a bare number of hops (it cannot check the nearest peer),
 * so hops become a function trusting that many nearest hops: like 'true', only for a server that is reachable
 * through its proxies alone.
 */
export function fastifyTrustProxy(
  value: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1200;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: env.HOST || '127.0.0.1',
    port: Number(env.PORT || 8080),
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    tokenLifetimeSeconds: Number(env.TOKEN_LIFETIME_SECONDS || 12 * 60 * 60),
    staticDir: resolve(env.STATIC_DIR || './dist/client'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    rateLimitPerMinute: positiveInteger(
      env.RATE_LIMIT_PER_MINUTE,
      DEFAULT_RATE_LIMIT_PER_MINUTE,
      'RATE_LIMIT_PER_MINUTE',
    ),
    passwordHashing: {
      concurrency: positiveInteger(
        env.PASSWORD_HASH_CONCURRENCY,
        HASH_QUEUE_DEFAULTS.concurrency,
        'PASSWORD_HASH_CONCURRENCY',
      ),
      perKey: positiveInteger(env.SIGN_IN_QUEUE_PER_ADDRESS, HASH_QUEUE_DEFAULTS.perKey, 'SIGN_IN_QUEUE_PER_ADDRESS'),
      maxWaiting: positiveInteger(env.SIGN_IN_QUEUE_WAITING, HASH_QUEUE_DEFAULTS.maxWaiting, 'SIGN_IN_QUEUE_WAITING'),
    },
    smtpUrl: env.SMTP_URL || undefined,
    embeddedSmtpPort: Number(env.EMBEDDED_SMTP_PORT || 0),
    publicUrl: env.PUBLIC_URL || `http://${env.HOST || '127.0.0.1'}:${env.PORT || 8080}`,
    mailFrom: env.MAIL_FROM || undefined,
    plans: loadPlans(env),
    demoHistory: onOrOff(env.DEMO_HISTORY, true, 'DEMO_HISTORY'),
  };
}

/** A setting that is `on` or `off`; anything else stops the start with a clear message. */
function onOrOff(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  if (value.trim() === 'on') return true;
  if (value.trim() === 'off') return false;
  throw new Error(`${name}: "${value}" is neither on nor off.`);
}

/** A setting that must be a whole number above 0; a typo stops the start with a clear message. */
function positiveInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name}: "${value}" is not a whole number above 0.`);
  return n;
}
