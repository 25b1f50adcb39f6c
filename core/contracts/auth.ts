/** Signing in and out, who am I, and staff invitations (server/auth/routes.ts). */
import Type, { type Static } from 'typebox';
import { Id, Instant, Nullable, OneOf } from './common.js';

export const Credentials = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const SessionUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String(),
  /** For role 'custom': its agency role's privileges ('resource.action'), which the screens ask permits() with. */
  privileges: Type.Optional(Type.Array(Type.String())),
  client_id: Type.Optional(Nullable(Type.Integer())),
});

/** Who is signed in (GET /api/{panel}_login): each panel's fields only on its own. */
export const Session = Type.Object({
  login_type: OneOf(['admin', 'client', 'staff']),
  merchant_id: Type.Integer(),
  candidate_id: Type.Optional(Nullable(Type.Integer())),
  client_id: Type.Optional(Nullable(Type.Integer())),
  client_name: Type.Optional(Nullable(Type.String())),
  agency_name: Type.Optional(Nullable(Type.String())),
  /** A staff member's agency's time zone (login type staff): shift times are shown on the agency's clock. */
  agency_time_zone: Type.Optional(Nullable(Type.String())),
  user: SessionUser,
});
export type Session = Static<typeof Session>;
/** Signing in (and setting a staff password through an invitation): the session's token and who it is for. */
export const SignedIn = Type.Object({
  token: Type.String(),
  token_expiration: Type.String({ format: 'date-time' }),
  ...Session.properties,
});
export type SignedIn = Static<typeof SignedIn>;

export const StaffInvite = Type.Object({ message: Type.String(), email: Type.String(), expires_at: Instant });
export const InviteToken = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const NewPassword = Type.Object({ password: Type.String({ maxLength: 1024 }) });
/** Whom a staff invitation link is for. */
export const StaffInviteInfo = Type.Object({ name: Type.String(), email: Type.String(), agency: Type.String() });
export type StaffInviteInfo = Static<typeof StaffInviteInfo>;

export const CandidateIdParams = Type.Object({ id: Id });
