import type { Problems } from '../../core/engine/validate.js';
import type { ResourceBehaviour } from '../engine/context.js';
import { HttpError } from '../http.js';
import { hashPassword } from '../auth/passwords.js';
import { endSessionsOfUser, staffMaySignIn } from '../auth/sessions.js';
import { INVITE_INVALID } from '../auth/staffInvites.js';

const TAKEN = 'Another staff member already signs in with this e-mail address.';

/**
 * Staff members' own sign-ins (core/resources/users/resource.ts staffLogins): rows of the users table of kind
 * 'staff', one per staff member. Made by an invitation, given their password by the invitation's link.
 */
export const staffLoginsBehaviour: ResourceBehaviour = {
  scope: () => `kind = 'staff'`,
  async beforeSave(ctx, { stored, changes, record }) {
    const problems: Problems = {};
    if (!stored) Object.assign(record, { kind: 'staff', role: 'staff', active: true });
    if (!stored || 'email' in changes) {
      record.email = String(record.email).toLowerCase();
      // One address, one staff sign-in per agency (another agency's staff sign-ins are its own).
      const [taken] = await ctx.db.query(
        `select 1 from users where merchant_id = $1 and kind = 'staff' and lower(email) = $2 and candidate_id <> $3`,
        [ctx.principal.merchantId, record.email, record.candidate_id],
      );
      if (taken) problems.email = { message: TAKEN };
    }
    return Object.keys(problems).length ? problems : undefined;
  },
  actions: {
    /**
     * The invitation's holder chooses the password: the sign-in takes the address the invitation went to and the
     * staff member's name as it is now, can sign in, and its other sessions end (a forgotten password).
     */
    async accept_invitation(ctx, login, input) {
      const [staff] = await ctx.db.query<{ name: string; status: string; activated: boolean; deleted_at: null }>(
        `select first_name || ' ' || last_name as name, status, activated, deleted_at from candidates where merchant_id = $1 and id = $2`,
        [ctx.principal.merchantId, login.candidate_id],
      );
      // Rejected, deactivated or deleted since the invitation: the right to sign in is gone.
      if (!staff || !staffMaySignIn(staff)) throw new HttpError(404, INVITE_INVALID);
      const email = ctx.principal.link?.recipient ?? login.email;
      // The address may have become another staff member's sign-in of this agency since the invitation.
      const [taken] = await ctx.db.query(
        `select 1 from users where merchant_id = $1 and kind = 'staff' and lower(email) = $2 and id <> $3`,
        [ctx.principal.merchantId, email, login.id],
      );
      if (taken)
        throw new HttpError(
          409,
          'Another staff member of this agency already signs in with this e-mail address. Ask your agency for a new invitation.',
        );
      await endSessionsOfUser(ctx.db, ctx.cluster!, Number(login.id));
      return { password_hash: input.password_hash, email, name: staff.name, active: true };
    },
  },
  // A new password's hash, made before the transaction (about 0.1 s of a core).
  prepare: { accept_invitation: async (input) => ({ password_hash: await hashPassword(String(input.password)) }) },
};
