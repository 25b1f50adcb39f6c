import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable, Row } from '../db/index.js';
import type { Cluster } from '../cluster.js';
import { badInput, HttpError } from '../http.js';
import { hashPassword, PASSWORD_MIN } from './passwords.js';
import { endSessionsOfUser } from './sessions.js';
import { letterheadOf } from '../notifications/notify.js';
import { queueEmails, registerSecretLink, renderEmail, SECRET_PLACEHOLDER } from '../notifications/outbox.js';
import { writeAudit } from '../engine/audit.js';
import type { EngineContext } from '../engine/context.js';
import { USER_INVITE_DAYS } from '../../core/resources/users/resource.js';

/**
 * Invitations of agency and client users (issue 14): a single-use link that sets the user's password, valid
 * USER_INVITE_DAYS days. As for staff invitations (SECRET_PLACEHOLDER in server/notifications/outbox.ts), the
 * e-mail is queued with a placeholder where the link goes and the token is made by the worker as it sends the
 * e-mail; only its hash is kept. So no row, no stored copy of the e-mail and no screen holds a working link; only
 * the recipient's mailbox does.
 */
export const USER_INVITE_EVENT = 'user.invite';
export const USER_INVITE_INVALID = 'This invitation link is not valid any more. Ask for a new one.';
export const userInvitePath = (token: string) => `/invite/${token}`;
/** The outbox's kind of secret link for user invitations. */
export const USER_INVITE_LINK = 'user.invite';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

// Sending it again (a retry) makes a new token and the earlier one stops; an invitation replaced (resend),
// withdrawn (deactivated), used or expired before its e-mail went out gets no token, so that e-mail is not sent.
registerSecretLink(USER_INVITE_LINK, {
  path: userInvitePath,
  async mint(db, ref) {
    const token = randomBytes(32).toString('base64url');
    const open = await db.query(
      'update user_invites set token_hash = $2 where id = $1 and used_at is null and expires_at > now() returning id',
      [ref, sha256(token)],
    );
    return open.length ? token : null;
  },
});

/**
 * E-mails the user a new link and makes their earlier links useless. Runs inside the engine's write (the
 * create or the resend action), so the invitation, its e-mail and the audit entry commit together.
 */
export async function inviteUser(ctx: EngineContext, user: Row): Promise<{ email: string; expiresAt: string }> {
  const merchantId = ctx.principal.merchantId;
  await withdrawInvites(ctx.db, merchantId, user.id as number);
  const [invite] = await ctx.db.query<{ id: number; expires_at: string }>(
    `insert into user_invites (merchant_id, user_id, email, expires_at, invited_by)
     values ($1, $2, $3, now() + make_interval(days => $4), $5) returning id, expires_at`,
    [merchantId, user.id, user.email, USER_INVITE_DAYS, ctx.principal.userId],
  );
  const letterhead = await letterheadOf(ctx.db, merchantId);
  const [client] = user.client_id
    ? await ctx.db.query<{ name: string }>('select name from clients where merchant_id = $1 and id = $2', [
        merchantId,
        user.client_id,
      ])
    : [];
  const where = client ? `the ${client.name} client panel of ${letterhead.name}` : `the ${letterhead.name} back office`;
  const mail = renderEmail(
    letterhead,
    `${letterhead.name} invites you to sign in`,
    `Hello ${user.name},\n\n${ctx.principal.name || letterhead.name} invites you to ${where}. Follow the link to choose your password; it works once, within ${USER_INVITE_DAYS} days. You then sign in with ${user.email}.\n\n${letterhead.name}`,
    userInvitePath(SECRET_PLACEHOLDER),
  );
  const [outboxId] = await queueEmails(ctx.db, [
    {
      merchantId,
      recipient: user.email,
      recipientName: user.name,
      event: USER_INVITE_EVENT,
      ...mail,
      secret: { kind: USER_INVITE_LINK, ref: invite.id },
    },
  ]);
  await ctx.db.query('update user_invites set outbox_id = $2 where id = $1', [invite.id, outboxId]);
  return { email: user.email, expiresAt: invite.expires_at };
}

/** Ends a user's open invitations (deactivated: their link must not let them back in). */
export async function withdrawInvites(db: Queryable, merchantId: number, userId: number) {
  await db.query(
    'update user_invites set used_at = now() where merchant_id = $1 and user_id = $2 and used_at is null',
    [merchantId, userId],
  );
}

interface OpenInvite {
  id: number;
  merchant_id: number;
  user_id: number;
  email: string;
  name: string;
  kind: 'admin' | 'client';
  role: string;
  client_id: number | null;
  client_name: string | null;
  agency: string;
}

/** An invitation that still works: unused, unexpired, its user active (and their client active). */
async function openInvite(db: Queryable, token: string, lock = false): Promise<OpenInvite> {
  const [invite] = await db.query<OpenInvite>(
    `select i.id, i.merchant_id, i.user_id, u.email, u.name, u.kind, u.role, u.client_id, c.name as client_name, m.company_name as agency
       from user_invites i
       join users u on u.merchant_id = i.merchant_id and u.id = i.user_id and u.active and u.kind in ('admin', 'client')
       left join clients c on c.id = u.client_id
       join merchants m on m.id = i.merchant_id
      where i.token_hash = $1 and i.used_at is null and i.expires_at > now()
        and (u.client_id is null or (c.status = 'active' and c.deleted_at is null))
      ${lock ? 'for update of i' : ''}`,
    [sha256(token)],
  );
  if (!invite) throw new HttpError(404, USER_INVITE_INVALID);
  return invite;
}

/** Whom a link is for (the page greets them and says which panel); 404 once used, expired or replaced. */
export async function readUserInvite(db: Queryable, token: string) {
  const i = await openInvite(db, token);
  return { name: i.name, email: i.email, agency: i.agency, login_type: i.kind, client_name: i.client_name };
}

/**
 * Sets the user's password through their link and uses it up. Their other sessions end (the password changed),
 * and the audit trail records it as the user's own action.
 */
export async function acceptUserInvite(
  db: Db,
  cluster: Cluster,
  token: string,
  password: unknown,
): Promise<{ email: string; login_type: 'admin' | 'client' }> {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN)
    throw badInput({ password: `Use at least ${PASSWORD_MIN} characters.` });
  const hash = await hashPassword(password);
  const invite = await db.transaction(async (tx) => {
    const i = await openInvite(tx, token, true);
    await tx.query('update user_invites set used_at = now() where id = $1', [i.id]);
    await tx.query(
      'update users set password_hash = $3, updated_at = now(), version = version + 1 where merchant_id = $1 and id = $2',
      [i.merchant_id, i.user_id, hash],
    );
    await endSessionsOfUser(tx, cluster, i.user_id);
    await writeAudit(
      tx,
      {
        userId: i.user_id,
        name: i.name,
        loginType: i.kind,
        role: i.role as never,
        merchantId: i.merchant_id,
        clientId: i.client_id,
      },
      {
        resource: 'users',
        recordId: i.user_id,
        event: 'action',
        action: 'accept_invitation',
        changes: { password: { from: null, to: 'set' } },
        input: { invitation: i.id },
      },
    );
    return i;
  });
  await cluster.settle();
  return { email: invite.email, login_type: invite.kind };
}
