import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index.js';
import type { Cluster } from '../cluster.js';
import { badInput, HttpError, notFound } from '../http.js';
import { hashPassword } from './passwords.js';
import { endSessionsOfUser } from './sessions.js';
import { letterheadOf } from '../notifications/notify.js';
import { queueEmails, renderEmail } from '../notifications/outbox.js';
import { PASSWORD_MIN } from '../routes/account.js';

/** An invitation link works for this long, once. */
export const INVITE_LIFETIME_DAYS = 7;
export const INVITE_INVALID = 'This invitation link is not valid any more. Ask your agency for a new one.';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The page where a staff member sets their password. */
export const invitePath = (token: string) => `/staff-app/invite/${token}`;

export interface Invitation {
  token: string;
  email: string;
  expiresAt: string;
}

/**
 * Invites a staff member of the caller's agency to sign in: a single-use link (only its hash is stored) that
 * expires, e-mailed to the staff member's address through the outbox in the same transaction. A new invitation
 * makes the earlier ones of that staff member useless.
 */
export async function inviteStaff(db: Db, who: { merchantId: number; userId: number }, candidateId: number): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const [c] = await tx.query<{ id: number; email: string | null; name: string }>(
      `select id, email, first_name || ' ' || last_name as name from candidates where merchant_id = $1 and id = $2 and deleted_at is null`,
      [who.merchantId, candidateId],
    );
    if (!c) throw notFound('Staff member');
    const email = c.email?.trim().toLowerCase();
    if (!email) throw badInput({ email: 'Add an e-mail address to this staff member before inviting them.' }, 'This staff member has no e-mail address.');
    // Staff sign in by e-mail: one address, one staff sign-in.
    const [taken] = await tx.query('select 1 from users where kind = $1 and lower(email) = $2 and candidate_id <> $3', ['staff', email, candidateId]);
    if (taken) throw badInput({ email: 'Another staff member already signs in with this e-mail address.' }, 'Another staff member already signs in with this e-mail address.');
    await tx.query('update staff_invites set used_at = now() where merchant_id = $1 and candidate_id = $2 and used_at is null', [who.merchantId, candidateId]);
    const token = randomBytes(32).toString('base64url');
    const [row] = await tx.query<{ expires_at: string }>(
      `insert into staff_invites (merchant_id, candidate_id, email, token_hash, expires_at, invited_by)
       values ($1, $2, $3, $4, now() + make_interval(days => $5), $6) returning expires_at`,
      [who.merchantId, candidateId, email, sha256(token), INVITE_LIFETIME_DAYS, who.userId],
    );
    const letterhead = await letterheadOf(tx, who.merchantId);
    const mail = renderEmail(
      letterhead,
      `${letterhead.name} invites you to sign in`,
      `Hello ${c.name},\n\n${letterhead.name} invites you to read and answer your messages online. Follow the link to choose your password; it works once, within ${INVITE_LIFETIME_DAYS} days.\n\n${letterhead.name}`,
      invitePath(token),
    );
    await queueEmails(tx, [{ merchantId: who.merchantId, recipient: email, recipientName: c.name, event: 'staff.invite', ...mail }]);
    return { token, email, expiresAt: row.expires_at };
  });
}

interface OpenInvite {
  id: number;
  merchant_id: number;
  candidate_id: number;
  email: string;
  name: string;
  agency: string;
}

async function openInvite(db: Queryable, token: string, lock = false): Promise<OpenInvite> {
  const [invite] = await db.query<OpenInvite>(
    `select i.id, i.merchant_id, i.candidate_id, i.email, c.first_name || ' ' || c.last_name as name, m.company_name as agency
       from staff_invites i
       join candidates c on c.merchant_id = i.merchant_id and c.id = i.candidate_id and c.deleted_at is null
       join merchants m on m.id = i.merchant_id
      where i.token_hash = $1 and i.used_at is null and i.expires_at > now()
      ${lock ? 'for update of i' : ''}`,
    [sha256(token)],
  );
  if (!invite) throw new HttpError(404, INVITE_INVALID);
  return invite;
}

/** Whom an invitation is for (the page greets them); 404 once used, expired or replaced. */
export async function readInvite(db: Queryable, token: string) {
  const i = await openInvite(db, token);
  return { name: i.name, email: i.email, agency: i.agency };
}

/**
 * Sets the staff member's password through their invitation and uses it up. Makes their staff sign-in on first
 * use; later invitations (a forgotten password) change its password and end its other sessions.
 */
export async function acceptInvite(db: Db, cluster: Cluster, token: string, password: unknown): Promise<number> {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN) throw badInput({ password: `Use at least ${PASSWORD_MIN} characters.` });
  const hash = await hashPassword(password);
  const userId = await db.transaction(async (tx) => {
    const invite = await openInvite(tx, token, true);
    await tx.query('update staff_invites set used_at = now() where id = $1', [invite.id]);
    const [existing] = await tx.query<{ id: number }>('select id from users where candidate_id = $1', [invite.candidate_id]);
    if (existing) {
      await endSessionsOfUser(tx, cluster, existing.id);
      await tx.query('update users set password_hash = $2, email = $3, name = $4, active = true where id = $1', [existing.id, hash, invite.email, invite.name]);
      return existing.id;
    }
    const [user] = await tx.query<{ id: number }>(
      `insert into users (merchant_id, candidate_id, kind, name, email, password_hash, role) values ($1, $2, 'staff', $3, $4, $5, 'staff') returning id`,
      [invite.merchant_id, invite.candidate_id, invite.name, invite.email, hash],
    );
    return user.id;
  });
  await cluster.settle();
  return userId;
}
