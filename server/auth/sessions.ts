import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index.js';
import type { Cluster, Topics } from '../cluster.js';

import { loginTypeOfStored, type LoginType, type PanelLoginType } from '../../core/engine/types.js';

export type { LoginType, PanelLoginType };

export interface AuthUser {
  id: number;
  merchant_id: number;
  client_id: number | null;
  /** A staff user's own staff record (login type 'staff'); null for agency and client users. */
  candidate_id: number | null;
  /** A capability link's holder never has a session: only the three panels sign in. */
  loginType: PanelLoginType;
  role: string;
  /**
   * For role 'custom': its agency role and that role's privileges, read with the user on every look-up
   * (USER_PRIVILEGES); a change to the role ends the cached look-ups of its holders in every process.
   */
  agency_role_id?: number | null;
  privileges?: string[] | null;
  /** For role 'custom': the business units the role is limited to (empty: every unit), read as its privileges are. */
  business_unit_ids?: number[] | null;
  name: string;
  email: string;
  token_hash: string;
  expires_at: string;
}

/** A user as read from the users table, whose `kind` holds the stored login type (StoredLoginType). */
export type StoredUser = Omit<AuthUser, 'loginType' | 'token_hash' | 'expires_at'> & { kind: string };
/** A user row with its stored `kind` read as the login type. */
export const authUserOf = <R extends { kind: string }>({ kind, ...row }: R) => ({
  ...row,
  loginType: loginTypeOfStored(kind) as PanelLoginType,
});

const OF_ROLE = `from agency_roles r where r.id = u.agency_role_id and r.merchant_id = u.merchant_id`;
/** The columns of a user's custom role that every look-up of a user reads (`u` is users), its units beside. */
export const USER_PRIVILEGES = `u.agency_role_id, (select r.privileges ${OF_ROLE}) as privileges,
  (select r.business_unit_ids ${OF_ROLE}) as business_unit_ids`;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Whether a staff record gives its staff member the right to sign in (`sc` is the staff record): not deleted, not
 * rejected, and not deactivated. A pending staff member may sign in (the agency chats with them while they join);
 * an approved one only while activated (the staff list's Inactive tab is approved and not activated).
 * `staffMaySignIn` is the same rule on a record.
 */
const STAFF_MAY_SIGN_IN = `sc.deleted_at is null and sc.status <> 'rejected' and (sc.activated or sc.status = 'pending')`;
export const staffMaySignIn = (r: { deleted_at?: unknown; status?: unknown; activated?: unknown }) =>
  !r.deleted_at && r.status !== 'rejected' && (r.activated === true || r.status === 'pending');

/**
 * Who may hold a session: an active user and, for a client user, a client that is active and not deleted; for
 * a staff user, a staff record that gives the right to sign in (STAFF_MAY_SIGN_IN).
 * Sign-in and every token look-up apply it (`u` is users, `c` the user's client, left-joined).
 */
export const MAY_SIGN_IN = `u.active and (u.client_id is null or (c.status = 'active' and c.deleted_at is null))
  and (u.candidate_id is null or exists (select 1 from candidates sc where sc.id = u.candidate_id and ${STAFF_MAY_SIGN_IN}))`;

/** Whether an announcement of ended sessions ends this session. */
export function endsSession(
  ended: Topics['sessions'],
  session: Pick<AuthUser, 'token_hash' | 'id' | 'client_id' | 'agency_role_id'>,
): boolean {
  if ('token' in ended) return ended.token === session.token_hash;
  if ('userId' in ended) return ended.userId === session.id;
  if ('roleId' in ended) return ended.roleId === session.agency_role_id;
  return session.client_id !== null && ended.clientId === session.client_id;
}

// Looking a token up costs a query; an in-process cache keeps it off the hot path. Every way a session ends
// (sign-out, a user or client deactivated or deleted) is announced to every process, which drops its entries
// at once; while those announcements may be missed (the bus is down) the cache is not used at all, and while
// one sent from a transaction here is on its way back it is not refilled (see Cluster).
const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

/**
 * Live sessions one user may hold (issue 30.10): a person's devices and browsers, with room to spare. A new sign-in
 * beyond it ends the user's oldest session, as signing out there would: someone signing in over and over holds no
 * more than this, while the person at a new device is never refused. The value in force (a test lowers it).
 */
export const SESSIONS_PER_USER = 20;
export const sessionLimits = { perUser: SESSIONS_PER_USER };

export class SessionStore {
  private cache = new Map<string, { user: AuthUser | null; until: number }>();
  /** Counts invalidations: a look-up that raced one is not cached, since it may have read the old rows. */
  private invalidations = 0;

  constructor(
    private db: Db,
    private lifetimeSeconds: number,
    private cluster: Cluster,
  ) {
    cluster.on('sessions', (ended) => this.drop(ended));
    cluster.onReset(() => this.drop(null));
  }

  async create(userId: number): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.lifetimeSeconds * 1000).toISOString();
    await this.db.query('insert into sessions (token_hash, user_id, expires_at) values ($1, $2, $3)', [
      sha256(token),
      userId,
      expiresAt,
    ]);
    // The user's oldest sessions past the bound end, in every process (their cached look-ups and open streams).
    const ended = await this.db.query<{ token_hash: string }>(
      `delete from sessions where token_hash in (
         select token_hash from sessions where user_id = $1 order by created_at desc, token_hash offset $2)
       returning token_hash`,
      [userId, sessionLimits.perUser],
    );
    for (const { token_hash } of ended) {
      this.drop({ token: token_hash });
      await this.cluster.publish('sessions', { token: token_hash });
    }
    // Expired rows are useless; sweeping them here keeps the table small without a scheduler.
    if (Math.random() < 0.05) await this.db.query('delete from sessions where expires_at < now()');
    return { token, expiresAt };
  }

  async resolve(token: string): Promise<AuthUser | null> {
    const hash = sha256(token);
    const now = Date.now();
    const hit = this.cluster.healthy ? this.cache.get(hash) : undefined;
    if (hit && hit.until > now) return hit.user && Date.parse(hit.user.expires_at) > now ? hit.user : null;
    const before = this.invalidations;
    const [row] = await this.db.query<StoredUser & Pick<AuthUser, 'token_hash' | 'expires_at'>>(
      `select u.id, u.merchant_id, u.client_id, u.candidate_id, u.kind, u.role, ${USER_PRIVILEGES}, u.name, u.email, s.token_hash, s.expires_at
         from sessions s join users u on u.id = s.user_id left join clients c on c.id = u.client_id
        where s.token_hash = $1 and s.expires_at > now() and ${MAY_SIGN_IN}`,
      [hash],
    );
    const user = row && authUserOf(row);
    if (this.cluster.settled && before === this.invalidations) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(hash, { user: user ?? null, until: now + CACHE_MS });
    }
    return user ?? null;
  }

  /** Sign-out: the token answers 401 in every process once this answers. */
  async revoke(tokenHash: string): Promise<void> {
    await this.db.query('delete from sessions where token_hash = $1', [tokenHash]);
    this.drop({ token: tokenHash });
    await this.cluster.publish('sessions', { token: tokenHash });
  }

  /** Drops cached look-ups of the ended sessions (all of them for null). */
  private drop(ended: Topics['sessions'] | null) {
    this.invalidations++;
    if (!ended) return this.cache.clear();
    if ('token' in ended) return void this.cache.delete(ended.token);
    for (const [hash, { user }] of this.cache) if (user && endsSession(ended, user)) this.cache.delete(hash);
  }
}

/**
 * Ends every session of a user (call it when the user is deactivated or deleted): their tokens answer 401 in
 * every process. Pass the transaction that makes the change: the rows go with it, this process drops its cached
 * sessions of the user at once, and every process does when the transaction commits (PostgreSQL delivers the
 * notification then; never on rollback). To be sure every process has heard before answering, await
 * `cluster.settle()` after the commit.
 */
export async function endSessionsOfUser(tx: Queryable, cluster: Cluster, userId: number): Promise<void> {
  await tx.query('delete from sessions where user_id = $1', [userId]);
  await cluster.publish('sessions', { userId }, tx);
}

/**
 * Ends every session of the users of one client (call it when the client becomes inactive or is deleted; sign-in
 * refuses them from then on). Like `endSessionsOfUser`, it works inside the caller's transaction.
 */
export async function endSessionsOfClient(
  tx: Queryable,
  cluster: Cluster,
  merchantId: number,
  clientId: number,
): Promise<void> {
  await tx.query(
    'delete from sessions s using users u where u.id = s.user_id and u.client_id = $1 and u.merchant_id = $2',
    [clientId, merchantId],
  );
  await cluster.publish('sessions', { clientId }, tx);
}

/**
 * Ends the sessions of a staff member's login, if they have one (call it when their staff record stops giving the
 * right to sign in: deleted, rejected, deactivated). Like `endSessionsOfUser`, it works inside the caller's
 * transaction.
 */
export async function endSessionsOfStaff(
  tx: Queryable,
  cluster: Cluster | undefined,
  merchantId: number,
  candidateId: number,
): Promise<void> {
  const [user] = await tx.query<{ id: number }>(
    `select id from users where merchant_id = $1 and candidate_id = $2 and kind = 'staff'`,
    [merchantId, candidateId],
  );
  if (!user) return;
  // Without a bus (a script outside the server) there is no process to tell: the rows are enough.
  if (cluster) await endSessionsOfUser(tx, cluster, user.id);
  else await tx.query('delete from sessions where user_id = $1', [user.id]);
}
