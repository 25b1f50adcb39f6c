/**
 * The agency's profile and logos, staff search (server/routes/shell.ts), and changing one's account
 * (server/routes/account.ts).
 */
import Type, { type Static } from 'typebox';
import { Id, Nullable, OrNull } from './common.js';

export const AgencyProfile = Type.Object({
  id: Type.Integer(),
  company_name: Type.String(),
  profile_photo: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  /** The agency's IANA time zone: the screens show times on its wall clock. */
  time_zone: Type.String(),
  /** Sent back with a change: a stale one answers 409 (another admin saved meanwhile). */
  version: Type.Integer(),
});
export const AgencyAnswer = Type.Object({ data: AgencyProfile });
export type AgencyAnswer = Static<typeof AgencyAnswer>;

export const AgencyLogo = Type.Object({ id: Type.Integer(), logo_type: Type.String(), logo_url: Type.String() });
export const AgencyLogos = Type.Object({ data: Type.Array(AgencyLogo) });
export type AgencyLogos = Static<typeof AgencyLogos>;

export const MerchantParams = Type.Object({ id: Id });
export const AgencyChange = Type.Object(
  {
    company_name: Type.Optional(Type.String({ maxLength: 1000 })),
    profile_photo: Type.Optional(OrNull<string>({ type: 'string', maxLength: 200 })),
    /** The version the change was made from (GET's); a stale one answers 409 and nothing is stored. */
    version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  },
  { additionalProperties: false },
);
export type AgencyChange = Static<typeof AgencyChange>;

export const StaffSearchQuery = Type.Object({ candidate_query: Type.Optional(Type.String({ maxLength: 200 })) });
export const StaffHit = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  status: Type.String(),
  activated: Type.Boolean(),
  profile_photo: Nullable(Type.String()),
});
/** The spec's answer: candidate[] and a message (also with 400 and 404, an empty list and the spec's words). */
export const StaffSearch = Type.Object({ candidate: Type.Array(StaffHit), message: Type.String() });
export type StaffSearch = Static<typeof StaffSearch>;
/**
 * A 400 or 404 of the search: the spec's empty answer (nothing asked, nothing found), or the app's own error
 * answer with the same status (an over-long query: its message and field errors). Both fit this one schema.
 */
export const StaffSearchMiss = Type.Object({
  candidate: Type.Optional(Type.Array(StaffHit)),
  message: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.String())),
});

export const NameChange = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);
export const NameSaved = Type.Object({
  data: Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String(), role: Type.String() }),
  message: Type.String(),
});
export type NameSaved = Static<typeof NameSaved>;

export const PasswordChange = Type.Object(
  { current_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);
export const PasswordChanged = Type.Object({ message: Type.String(), other_sessions_ended: Type.Integer() });
export type AgencyProfile = Static<typeof AgencyProfile>;
