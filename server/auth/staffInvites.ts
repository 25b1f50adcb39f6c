import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index.js';
import type { Cluster } from '../cluster.js';
import { badInput, HttpError, notFound } from '../http.js';
import { hashPassword, PASSWORD_MIN } from './passwords.js';
import { endSessionsOfUser, staffMaySignIn } from './sessions.js';
import { letterheadOf } from '../notifications/notify.js';
import { queueEmails, registerSecretLink, renderEmail, SECRET_PLACEHOLDER } from '../notifications/outbox.js';
import { writeAudit } from '../engine/audit.js';
import type { EnginePrincipal } from '../engine/context.js';

/** An invitation link works for this long, once. */
export const INVITE_LIFETIME_DAYS = 7;
export const INVITE_INVALID = 'This invitation link is not valid any more. Ask your agency for a new one.';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The page where a staff member sets their password. */
export const invitePath = (token: string) => `/staff-app/invite/${token}`;

/** The outbox's kind of secret link for staff invitations (see SECRET_PLACEHOLDER). */
export const STAFF_INVITE_LINK = 'staff.invite';

// The link's token is made when the e-mail is sent, and only its hash is kept: no stored copy of the e-mail, no
// screen and no row holds a working link. Sending it again (a retry) makes a new token; the earlier one stops.
registerSecretLink(STAFF_INVITE_LINK, {
  path: invitePath,
  async mint(db, ref) {
    const token = randomBytes(32).toString('base64url');
    const open = await db.query(
      'update staff_invites set token_hash = $2 where id = $1 and used_at is null and expires_at > now() returning id',
      [ref, sha256(token)],
    );
    return open.length ? token : null;
  },
});

export interface Invitation {
  email: string;
  expiresAt: string;
}

/**
 * Invites a staff member of the caller's agency to sign in: a single-use link that expires, e-mailed to the staff
 * member's address through the outbox in the same transaction (the link itself is made when the e-mail is sent).
 * A new invitation makes the earlier ones of that staff member useless. Audited on the staff member.
 */
export async function inviteStaff(db: Db, who: EnginePrincipal, candidateId: number): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const [c] = await tx.query<{
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
    const [taken] = await tx.query(
      `select 1 from users where merchant_id = $1 and kind = 'staff' and lower(email) = $2 and candidate_id <> $3`,
      [who.merchantId, email, candidateId],
    );
    if (taken)
      throw badInput(
        { email: 'Another staff member already signs in with this e-mail address.' },
        'Another staff member already signs in with this e-mail address.',
      );
    await tx.query(
      'update staff_invites set used_at = now() where merchant_id = $1 and candidate_id = $2 and used_at is null',
      [who.merchantId, candidateId],
    );
    const [row] = await tx.query<{ id: number; expires_at: string }>(
      `insert into staff_invites (merchant_id, candidate_id, email, expires_at, invited_by)
       values ($1, $2, $3, now() + make_interval(days => $4), $5) returning id, expires_at`,
      [who.merchantId, candidateId, email, INVITE_LIFETIME_DAYS, who.userId],
    );
    const letterhead = await letterheadOf(tx, who.merchantId);
    const mail = renderEmail(
      letterhead,
      `${letterhead.name} invites you to sign in`,
      `Hello ${c.name},\n\n${letterhead.name} invites you to read and answer your messages online. Follow the link to choose your password; it works once, within ${INVITE_LIFETIME_DAYS} days.\n\n${letterhead.name}`,
      invitePath(SECRET_PLACEHOLDER),
    );
    await queueEmails(tx, [
      {
        merchantId: who.merchantId,
        recipient: email,
        recipientName: c.name,
        event: 'staff.invite',
        ...mail,
        secret: { kind: STAFF_INVITE_LINK, ref: row.id },
      },
    ]);
    await writeAudit(tx, who, {
      resource: 'candidates',
      recordId: candidateId,
      event: 'action',
      action: 'staff_invite',
      input: { email, expires_at: row.expires_at },
    });
    return { email, expiresAt: row.expires_at };
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
  const [invite] = await db.query<OpenInvite & { status: string; activated: boolean }>(
    `select i.id, i.merchant_id, i.candidate_id, i.email, c.first_name || ' ' || c.last_name as name, m.company_name as agency, c.status, c.activated
       from staff_invites i
       join candidates c on c.merchant_id = i.merchant_id and c.id = i.candidate_id and c.deleted_at is null
       join merchants m on m.id = i.merchant_id
      where i.token_hash = $1 and i.used_at is null and i.expires_at > now()
      ${lock ? 'for update of i' : ''}`,
    [sha256(token)],
  );
  // A staff member rejected or deactivated since the invitation has lost the right to sign in.
  if (!invite || !staffMaySignIn(invite)) throw new HttpError(404, INVITE_INVALID);
  return invite;
}

/** Whom an invitation is for (the page greets them); 404 once used, expired or replaced. */
export async function readInvite(db: Queryable, token: string) {
  const i = await openInvite(db, token);
  return { name: i.name, email: i.email, agency: i.agency };
}

/**
 * Sets the staff member's password through their invitation and uses it up. Makes their staff sign-in on first
 * use; later invitations (a forgotten password) change its password and end its other sessions. Audited on the
 * staff member, as done by them.
 */
export async function acceptInvite(db: Db, cluster: Cluster, token: string, password: unknown): Promise<number> {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN)
    throw badInput({ password: `Use at least ${PASSWORD_MIN} characters.` });
  const hash = await hashPassword(password);
  const userId = await db.transaction(async (tx) => {
    const invite = await openInvite(tx, token, true);
    await tx.query('update staff_invites set used_at = now() where id = $1', [invite.id]);
    const [existing] = await tx.query<{ id: number }>('select id from users where candidate_id = $1', [
      invite.candidate_id,
    ]);
    // The address may have become another staff member's login of this agency since the invitation.
    const [taken] = await tx.query(
      `select 1 from users where merchant_id = $1 and kind = 'staff' and lower(email) = $2 and candidate_id <> $3`,
      [invite.merchant_id, invite.email, invite.candidate_id],
    );
    if (taken)
      throw new HttpError(
        409,
        'Another staff member of this agency already signs in with this e-mail address. Ask your agency for a new invitation.',
      );
    let id: number;
    if (existing) {
      await endSessionsOfUser(tx, cluster, existing.id);
      await tx.query('update users set password_hash = $2, email = $3, name = $4, active = true where id = $1', [
        existing.id,
        hash,
        invite.email,
        invite.name,
      ]);
      id = existing.id;
    } else {
      const [user] = await tx.query<{ id: number }>(
        `insert into users (merchant_id, candidate_id, kind, name, email, password_hash, role) values ($1, $2, 'staff', $3, $4, $5, 'staff') returning id`,
        [invite.merchant_id, invite.candidate_id, invite.name, invite.email, hash],
      );
      id = user.id;
    }
    const staff: EnginePrincipal = {
      userId: id,
      name: invite.name,
      loginType: 'staff',
      role: 'staff' as EnginePrincipal['role'],
      merchantId: invite.merchant_id,
      clientId: null,
    };
    await writeAudit(tx, staff, {
      resource: 'candidates',
      recordId: invite.candidate_id,
      event: 'action',
      action: 'accept_staff_invite',
      input: { email: invite.email, login: existing ? 'password changed' : 'created' },
    });
    return id;
  });
  await cluster.settle();
  return userId;
}
