import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';

export type LoginType = 'admin' | 'client';

export interface AuthUser {
  id: number;
  merchant_id: number;
  client_id: number | null;
  kind: LoginType;
  role: string;
  name: string;
  email: string;
  token_hash: string;
  expires_at: string;
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

// Looking a token up costs a query; an in-process cache keeps it off the hot path. Sign-out removes the entry
// at once, so revocation is immediate; other changes (a user deactivated) take effect within CACHE_MS.
const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

export class SessionStore {
  private cache = new Map<string, { user: AuthUser | null; until: number }>();

  constructor(private db: Db, private lifetimeSeconds: number) {}

  async create(userId: number): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.lifetimeSeconds * 1000).toISOString();
    await this.db.query('insert into sessions (token_hash, user_id, expires_at) values ($1, $2, $3)', [sha256(token), userId, expiresAt]);
    // Expired rows are useless; sweeping them here keeps the table small without a scheduler.
    if (Math.random() < 0.05) await this.db.query('delete from sessions where expires_at < now()');
    return { token, expiresAt };
  }

  async resolve(token: string): Promise<AuthUser | null> {
    const hash = sha256(token);
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.user && Date.parse(hit.user.expires_at) > now ? hit.user : null;
    const [user] = await this.db.query<AuthUser>(
      `select u.id, u.merchant_id, u.client_id, u.kind, u.role, u.name, u.email, s.token_hash, s.expires_at
         from sessions s join users u on u.id = s.user_id
        where s.token_hash = $1 and s.expires_at > now() and u.active`,
      [hash],
    );
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { user: user ?? null, until: now + CACHE_MS });
    return user ?? null;
  }

  async revoke(tokenHash: string): Promise<void> {
    this.cache.delete(tokenHash);
    await this.db.query('delete from sessions where token_hash = $1', [tokenHash]);
  }
}
