import type { Problems } from '../../core/engine/validate.js';
import type { RecordValues, Role } from '../../core/engine/types.js';
import { AGENCY_ROLES, CLIENT_ROLES } from '../../core/resources/users/resource.js';
import type { EngineContext, ResourceBehaviour } from '../engine/context.js';
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import { endSessionsOfUser } from '../auth/sessions.js';
import { hashPassword } from '../auth/passwords.js';
import { inviteUser, USER_INVITATION, USER_INVITE_INVALID, withdrawInvites } from '../auth/userInvites.js';
import { refuseOverLimit } from '../subscription/usage.js';

const isAgencyRole = (role: unknown) => AGENCY_ROLES.includes(role as Role);
const isClientRole = (role: unknown) => CLIENT_ROLES.includes(role as Role);

/** The refusal that keeps an agency signing in to its settings: someone must stay admin. */
export const LAST_ADMIN = "The agency's last admin keeps the Admin role: make another user an admin first.";

/** Whether any other active agency user of this agency is an admin. */
async function anotherAdmin(ctx: EngineContext, userId: unknown): Promise<boolean> {
  const [row] = await ctx.db.query(
    `select 1 from users where merchant_id = $1 and kind = 'admin' and role = 'admin' and active and id <> $2 limit 1`,
    [ctx.principal.merchantId, Number(userId)],
  );
  return !!row;
}

/**
 * A consultant manages consultants and client users; an admin's account is an admin's business. A client's manager
 * reaches only their own client's users (the client scope).
 */
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
    phone_approver: () =>
      `(select case when a.pin_hash is null then 'no_pin' else 'pin' end from timesheet_approvers a where a.merchant_id = users.merchant_id and a.user_id = users.id and a.deleted_at is null)`,
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
      // A client's manager invites colleagues of their own client, to its panel (issue 35).
      if (me.loginType === 'client') {
        record.client_id ??= me.clientId;
        if (!isClientRole(record.role)) return { role: { message: 'Choose Client manager or Client viewer.' } };
      }
      record.kind = isAgencyRole(record.role) ? 'admin' : 'client';
      record.active = true;
      if (record.role === 'admin' && me.role !== 'admin') say('role', 'Only an admin can invite an admin.');
      if (record.role === 'custom' && me.role !== 'admin') say('role', 'Only an admin can give a custom role.');
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
      // Said before "your own role": an admin giving up the last admin role learns why it is refused.
      if (stored.role === 'admin' && me.role === 'admin' && !(await anotherAdmin(ctx, stored.id)))
        say('role', LAST_ADMIN);
      else if (me.role !== 'admin') say('role', 'Only an admin can change a role.');
      else if (stored.id === me.userId) say('role', 'You cannot change your own role.');
      else if (isAgencyRole(changes.role) !== isAgencyRole(stored.role)) {
        say(
          'role',
          stored.kind === 'client'
            ? 'A client user keeps a client role: choose Client manager or Client viewer.'
            : 'An agency user keeps an agency role: choose Admin, Consultant or Custom role.',
        );
      }
    } else if ('agency_role_id' in changes && changes.agency_role_id !== stored.agency_role_id && me.role !== 'admin')
      say('agency_role_id', 'Only an admin can change a role.');
    // A custom role names which of the agency's roles; no other role holds one (the table checks it too).
    if (record.role === 'custom') {
      if (record.agency_role_id == null) say('agency_role_id', 'Choose which of the agency’s roles they hold.');
    } else record.agency_role_id = null;
    return Object.keys(problems).length ? problems : undefined;
  },
  async afterSave(ctx, { stored, row }) {
    // Invited or reactivated beyond the plan's agency users: refused before any invitation goes out (issue 35).
    await refuseOverLimit(ctx, 'users', stored, row);
    if (!stored) {
      await inviteUser(ctx, row);
      return;
    }
    // The role is read with the session: every process forgets its cached look-ups of this user's sessions.
    if (row.role !== stored.role || row.agency_role_id !== stored.agency_role_id)
      await ctx.cluster?.publish('sessions', { userId: Number(row.id) }, ctx.db);
  },
  actions: {
    async resend(ctx, user) {
      mayManage(ctx, user);
      await inviteUser(ctx, user);
    },
    async deactivate(ctx, user) {
      mayManage(ctx, user);
      if (user.id === ctx.principal.userId)
        throw new HttpError(
          409,
          ctx.principal.loginType === 'client'
            ? 'You cannot deactivate yourself. Ask another manager, or the agency.'
            : 'You cannot deactivate yourself. Ask another admin.',
        );
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
