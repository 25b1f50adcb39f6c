import type { FastifyInstance } from 'fastify';
import { badInput, HttpError, notFound } from '../http.js';
import { PASSWORD_MIN } from './passwords.js';
import { staffMaySignIn } from './sessions.js';
import { asInvitation } from './userInvites.js';
import { letterheadOf } from '../notifications/notify.js';
import { queueEmails, renderEmail, SECRET_PLACEHOLDER, type SecretLink } from '../notifications/outbox.js';
import { writeAudit } from '../engine/audit.js';
import type { EngineContext } from '../engine/context.js';
import { createLink, issueLinkToken, openLink, revokeLinks, useLink } from '../engine/capability.js';

/** An invitation link works for this long, once. */
export const INVITE_LIFETIME_DAYS = 7;
export const INVITE_INVALID = 'This invitation link is not valid any more. Ask your agency for a new one.';

/** The page where a staff member sets their password. */
export const invitePath = (token: string) => `/staff-app/invite/${token}`;

/** The outbox's kind of secret link for staff invitations (see SECRET_PLACEHOLDER): its reference is the link's id. */
export const STAFF_INVITE_LINK = 'staff.invite';
/**
 * What a staff invitation's link is: a capability link (server/engine/capability.ts) to the staff member's sign-in,
 * whose one action chooses its password (server/behaviours/staffLogins.ts).
 */
export const STAFF_INVITATION = { resource: 'staff_logins', action: 'accept_invitation' } as const;

/**
 * The staff invitation's link, listed by the staff area (STAFF_INVITE_LINK). Its token is made when the e-mail is
 * sent, and only its hash is kept: no stored copy of the e-mail, no screen and no row holds a working link. Sending it
 * again (a retry) makes a new token; the earlier one stops.
 */
export const staffInviteLink: SecretLink = { path: invitePath, mint: issueLinkToken };

export interface Invitation {
  email: string;
  expiresAt: string;
}

/**
 * Invites a staff member of the caller's agency to sign in: a single-use link that expires, e-mailed to the staff
 * member's address through the outbox in the caller's transaction (the link's token is made when the e-mail is
 * sent). Their sign-in is made now, through the engine, without a password; the link's action gives it one. A new
 * invitation withdraws the earlier links. Audited on the staff member.
 */
export async function inviteStaff(ctx: EngineContext, candidateId: number): Promise<Invitation> {
  const who = ctx.principal;
  const [c] = await ctx.db.query<{
    id: number;
    email: string | null;
    name: string;
    status: string;
    activated: boolean;
    deleted_at: null;
  }>(
    `select id, email, first_name || ' ' || last_name as name, status, activated, deleted_at from candidates where merchant_id = $1 and id = $2 and deleted_at is null for update`,
    [who.merchantId, candidateId],
  );
  if (!c) throw notFound('Staff member');
  if (!staffMaySignIn(c)) {
    throw new HttpError(
      409,
      c.status === 'rejected'
        ? `${c.name} is rejected: rejected staff cannot sign in.`
        : `${c.name} is inactive: activate them before inviting them to sign in.`,
    );
  }
  const email = c.email?.trim().toLowerCase();
  if (!email)
    throw badInput(
      { email: 'Add an e-mail address to this staff member before inviting them.' },
      'This staff member has no e-mail address.',
    );
  // Staff sign in by e-mail: one address, one staff sign-in per agency (another agency's logins are its own).
  const [taken] = await ctx.db.query(
    `select 1 from users where merchant_id = $1 and kind = 'staff' and lower(email) = $2 and candidate_id <> $3`,
    [who.merchantId, email, candidateId],
  );
  if (taken)
    throw badInput(
      { email: 'Another staff member already signs in with this e-mail address.' },
      'Another staff member already signs in with this e-mail address.',
    );
  const logins = ctx.engine.compiled(STAFF_INVITATION.resource);
  const [existing] = await ctx.db.query<{ id: number }>(
    `select id from users where merchant_id = $1 and kind = 'staff' and candidate_id = $2`,
    [who.merchantId, candidateId],
  );
  const loginId =
    existing?.id ??
    ((await ctx.engine.create(STAFF_INVITATION.resource, { candidate_id: candidateId, name: c.name, email }))
      .id as number);
  await revokeLinks(ctx, logins, loginId, STAFF_INVITATION.action);
  const link = await createLink(ctx, logins, loginId, {
    action: STAFF_INVITATION.action,
    purpose: 'Choose your password for your staff page',
    recipient: email,
    deliveredVia: 'email',
    lifetimeHours: INVITE_LIFETIME_DAYS * 24,
  });
  const letterhead = await letterheadOf(ctx.db, who.merchantId);
  const mail = renderEmail(
    letterhead,
    `${letterhead.name} invites you to sign in`,
    `Hello ${c.name},\n\n${letterhead.name} invites you to read and answer your messages online. Follow the link to choose your password; it works once, within ${INVITE_LIFETIME_DAYS} days.\n\n${letterhead.name}`,
    invitePath(SECRET_PLACEHOLDER),
  );
  await queueEmails(ctx.db, [
    {
      merchantId: who.merchantId,
      recipient: email,
      recipientName: c.name,
      event: 'staff.invite',
      ...mail,
      secret: { kind: STAFF_INVITE_LINK, ref: link.id },
    },
  ]);
  await writeAudit(ctx.db, who, {
    resource: 'candidates',
    recordId: candidateId,
    event: 'action',
    action: 'staff_invite',
    input: { email, expires_at: link.expiresAt },
  });
  return { email, expiresAt: link.expiresAt };
}

/** Whom an invitation is for (the page greets them); 404 once used, expired or replaced. */
export async function readInvite(app: FastifyInstance, token: string) {
  return asInvitation(INVITE_INVALID, async () => {
    const link = await openLink(app.db, token, STAFF_INVITATION, { now: app.clock() });
    if (link.action !== STAFF_INVITATION.action) throw new HttpError(404, INVITE_INVALID);
    const [i] = await app.db.query<{
      name: string;
      agency: string;
      status: string;
      activated: boolean;
      deleted_at: string | null;
    }>(
      `select c.first_name || ' ' || c.last_name as name, m.company_name as agency, c.status, c.activated, c.deleted_at
         from users u
         join candidates c on c.merchant_id = u.merchant_id and c.id = u.candidate_id
         join merchants m on m.id = u.merchant_id
        where u.merchant_id = $1 and u.id = $2 and u.kind = 'staff'`,
      [link.merchant_id, link.record_id],
    );
    // A staff member rejected, deactivated or deleted since the invitation has lost the right to sign in.
    if (!i || !staffMaySignIn(i)) throw new HttpError(404, INVITE_INVALID);
    return { name: i.name, email: link.recipient, agency: i.agency };
  });
}

/**
 * Sets the staff member's password through their invitation and uses it up: the link's action, run by the engine
 * as the link's holder. Later invitations (a forgotten password) change the password and end the sign-in's other
 * sessions. Answers the sign-in's id.
 */
export async function acceptInvite(app: FastifyInstance, token: string, password: unknown): Promise<number> {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN)
    throw badInput({ password: `Use at least ${PASSWORD_MIN} characters.` });
  const { data } = await asInvitation(INVITE_INVALID, () => useLink(app, token, { password }, STAFF_INVITATION));
  return data.id as number;
}
