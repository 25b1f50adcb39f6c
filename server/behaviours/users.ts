import type { Problems } from '../../core/engine/validate.js';
import type { RecordValues, Role } from '../../core/engine/types.js';
import { AGENCY_ROLES } from '../../core/resources/users/resource.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import { endSessionsOfUser } from '../auth/sessions.js';
import { hashPassword } from '../auth/passwords.js';
import { inviteUser, USER_INVITATION, USER_INVITE_INVALID, withdrawInvites } from '../auth/userInvites.js';

const isAgencyRole = (role: unknown) => AGENCY_ROLES.includes(role as Role);

/** A consultant manages consultants and client users; an admin's account is an admin's business. */
function mayManage(ctx: EngineContext, user: Row) {
  if (ctx.principal.role !== 'admin' && user.role === 'admin')
    throw new HttpError(403, "Only an admin can change an admin's account.");
}

/**
 * Agency and client users (issue 14). Creating one invites them (the link is e-mailed in the same transaction);
 * resend replaces the link; deactivate ends their sessions at once on every process and withdraws their link.
 * Staff sign-ins live on the same table but belong to the staff profile: they are outside this resource's scope.
 */
export const usersBehaviour: ResourceBehaviour = {
  scope: () => `kind <> 'staff'`,
  computed: {
    status: () => `case when not active then 'inactive' when password_hash is null then 'invited' else 'active' end`,
    invited_until: () =>
      `(select max(l.expires_at) from capability_links l where l.merchant_id = users.merchant_id and l.resource = '${USER_INVITATION.resource}' and l.record_id = users.id and l.action = '${USER_INVITATION.action}' and l.used_at is null and l.revoked_at is null and l.expires_at > now())`,
  },
  async beforeSave(ctx, { stored, changes, record }) {
    const me = ctx.principal;
    const problems: Problems = {};
    const say = (field: string, message: string) => (problems[field] ??= { message });
    if (!stored) {
      record.email = String(record.email).toLowerCase();
      record.kind = isAgencyRole(record.role) ? 'admin' : 'client';
      record.active = true;
      if (record.role === 'admin' && me.role !== 'admin') say('role', 'Only an admin can invite an admin.');
      if (record.kind === 'admin' && record.client_id != null)
        say('client_id', 'An agency user belongs to no client: leave Client empty, or choose a client role.');
      if (record.kind === 'client' && record.client_id == null)
        say('client_id', 'Choose the client whose panel they sign in to.');
      const [taken] = await ctx.db.query('select 1 from users where kind = $1 and lower(email) = $2', [
        record.kind,
        record.email,
      ]);
      if (taken) say('email', 'Someone already signs in with this e-mail address.');
    } else if ('role' in changes && changes.role !== stored.role) {
      if (me.role !== 'admin') say('role', 'Only an admin can change a role.');
      else if (stored.id === me.userId) say('role', 'You cannot change your own role.');
      else if (isAgencyRole(changes.role) !== isAgencyRole(stored.role)) {
        say(
          'role',
          stored.kind === 'client'
            ? 'A client user keeps a client role: choose Client manager or Client viewer.'
            : 'An agency user keeps an agency role: choose Admin or Consultant.',
        );
      }
    }
    return Object.keys(problems).length ? problems : undefined;
  },
  async afterSave(ctx, { stored, row }) {
    if (!stored) {
      await inviteUser(ctx, row);
      return;
    }
    // The role is read with the session: every process forgets its cached look-ups of this user's sessions.
    if (row.role !== stored.role) await ctx.cluster?.publish('sessions', { userId: Number(row.id) }, ctx.db);
  },
  actions: {
    async resend(ctx, user) {
      mayManage(ctx, user);
      await inviteUser(ctx, user);
    },
    async deactivate(ctx, user) {
      mayManage(ctx, user);
      if (user.id === ctx.principal.userId)
        throw new HttpError(409, 'You cannot deactivate yourself. Ask another admin.');
      await withdrawInvites(ctx, Number(user.id));
      await endSessionsOfUser(ctx.db, ctx.cluster!, Number(user.id));
    },
    async reactivate(ctx, user) {
      mayManage(ctx, user);
    },
    // The invitation's link holder chooses their password: their other sessions end (the password changed).
    async accept_invitation(ctx, user, input) {
      if (user.client_id != null) {
        const [client] = await ctx.db.query(
          `select 1 from clients where id = $1 and status = 'active' and deleted_at is null`,
          [user.client_id],
        );
        if (!client) throw new HttpError(404, USER_INVITE_INVALID);
      }
      await endSessionsOfUser(ctx.db, ctx.cluster!, Number(user.id));
      return { password_hash: input.password_hash };
    },
  },
  prepare: { accept_invitation: hashed },
};

/** A new password's hash, made before the transaction (about 0.1 s of a core). */
async function hashed(input: RecordValues) {
  return { password_hash: await hashPassword(String(input.password)) };
}
