import type { FastifyInstance } from 'fastify';
import type { Row } from '../db/index.js';
import { badInput, HttpError } from '../http.js';
import { PASSWORD_MIN } from './passwords.js';
import { letterheadOf } from '../notifications/notify.js';
import { queueEmails, renderEmail, SECRET_PLACEHOLDER, type SecretLink } from '../notifications/outbox.js';
import type { EngineContext } from '../engine/context.js';
import { createLink, issueLinkToken, openLink, revokeLinks, useLink } from '../engine/capability.js';
import { USER_INVITE_DAYS } from '../../core/resources/users/resource.js';

/**
 * Invitations of agency and client users (issue 14): a capability link (server/engine/capability.ts) to the user's
 * record whose one action, accept_invitation, sets their password; valid USER_INVITE_DAYS days, once. As for staff
 * invitations (SECRET_PLACEHOLDER in server/notifications/outbox.ts), the e-mail is queued with a placeholder where
 * the link goes and the link's token is made by the worker as it sends the e-mail; only its hash is kept. So no row,
 * no stored copy of the e-mail and no screen holds a working link; only the recipient's mailbox does.
 */
export const USER_INVITE_EVENT = 'user.invite';
export const USER_INVITE_INVALID = 'This invitation link is not valid any more. Ask for a new one.';
export const userInvitePath = (token: string) => `/invite/${token}`;
/** The outbox's kind of secret link for user invitations: its reference is the capability link's id. */
export const USER_INVITE_LINK = 'user.invite';
/** What a user invitation's link is, for the routes that open it. */
export const USER_INVITATION = { resource: 'users', action: 'accept_invitation' } as const;

/**
 * The user invitation's link, listed by the users area (USER_INVITE_LINK). Sending it again (a retry) makes a new
 * token and the earlier one stops; an invitation replaced (resend), withdrawn (deactivated), used or expired before
 * its e-mail went out gets no token, so that e-mail is not sent.
 */
export const userInviteLink: SecretLink = { path: userInvitePath, mint: issueLinkToken };

/**
 * E-mails the user a new link and makes their earlier links useless. Runs inside the engine's write (the
 * create or the resend action), so the link, its e-mail and the audit entry commit together.
 */
export async function inviteUser(ctx: EngineContext, user: Row): Promise<{ email: string; expiresAt: string }> {
  const merchantId = ctx.principal.merchantId;
  const users = ctx.engine.compiled(USER_INVITATION.resource);
  await revokeLinks(ctx, users, user.id as number, USER_INVITATION.action);
  const link = await createLink(ctx, users, user.id as number, {
    action: USER_INVITATION.action,
    purpose: 'Choose your password and sign in',
    recipient: user.email as string,
    deliveredVia: 'email',
    lifetimeHours: USER_INVITE_DAYS * 24,
  });
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
  await queueEmails(ctx.db, [
    {
      merchantId,
      recipient: user.email as string,
      recipientName: user.name as string,
      event: USER_INVITE_EVENT,
      ...mail,
      secret: { kind: USER_INVITE_LINK, ref: link.id },
    },
  ]);
  return { email: user.email as string, expiresAt: link.expiresAt };
}

/** Ends a user's open invitations (deactivated: their link must not let them back in). */
export async function withdrawInvites(ctx: EngineContext, userId: number) {
  await revokeLinks(ctx, ctx.engine.compiled(USER_INVITATION.resource), userId, USER_INVITATION.action);
}

/** Every refusal of a link (unknown, used, withdrawn, expired, another kind) as the invitation page says it. */
export async function asInvitation<T>(refusal: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HttpError && [403, 404, 410].includes(e.status)) throw new HttpError(404, refusal);
    throw e;
  }
}

/** Whom a link is for (the page greets them and says which panel); 404 once used, expired or replaced. */
export async function readUserInvite(app: FastifyInstance, token: string) {
  return asInvitation(USER_INVITE_INVALID, async () => {
    const link = await openLink(app.db, token, USER_INVITATION, { now: app.clock() });
    if (link.action !== USER_INVITATION.action) throw new HttpError(404, USER_INVITE_INVALID);
    // The user still active, and their client too: otherwise the link no longer leads anywhere.
    const [i] = await app.db.query<{
      name: string;
      email: string;
      agency: string;
      login_type: 'admin' | 'client';
      client_name: string | null;
    }>(
      `select u.name, u.email, m.company_name as agency, u.kind as login_type, c.name as client_name
         from users u
         left join clients c on c.id = u.client_id
         join merchants m on m.id = u.merchant_id
        where u.merchant_id = $1 and u.id = $2 and u.active and u.kind in ('admin', 'client')
          and (u.client_id is null or (c.status = 'active' and c.deleted_at is null))`,
      [link.merchant_id, link.record_id],
    );
    if (!i) throw new HttpError(404, USER_INVITE_INVALID);
    return i;
  });
}

/**
 * Sets the user's password through their link and uses it up: the link's action, run by the engine as the link's
 * holder (server/behaviours/users.ts: the hash, their other sessions ended, a new version, the audit entry naming
 * the link).
 */
export async function acceptUserInvite(
  app: FastifyInstance,
  token: string,
  password: unknown,
): Promise<{ email: string; login_type: 'admin' | 'client' }> {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN)
    throw badInput({ password: `Use at least ${PASSWORD_MIN} characters.` });
  const { data } = await asInvitation(USER_INVITE_INVALID, () => useLink(app, token, { password }, USER_INVITATION));
  const [user] = await app.db.query<{ email: string; kind: 'admin' | 'client' }>(
    'select email, kind from users where id = $1',
    [data.id],
  );
  return { email: user.email, login_type: user.kind };
}
