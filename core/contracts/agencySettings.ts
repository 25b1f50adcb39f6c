/** The agency's settings (server/routes/agencySettings.ts, /appsetting/agencysetting). */
import Type, { type Static } from 'typebox';
import { Nullable } from './common.js';

export const AgencyAddress = Nullable(
  Type.Object({
    line1: Type.Optional(Nullable(Type.String())),
    line2: Type.Optional(Nullable(Type.String())),
    city: Type.Optional(Nullable(Type.String())),
    postcode: Type.Optional(Nullable(Type.String())),
    country: Type.Optional(Nullable(Type.String())),
  }),
);

export const AgencySettings = Type.Object({
  /** The agency's own id (one row per agency). */
  id: Type.Integer(),
  company_name: Type.String(),
  legal_name: Nullable(Type.String()),
  address: AgencyAddress,
  company_number: Nullable(Type.String()),
  vat_number: Nullable(Type.String()),
  time_zone: Type.String(),
  default_region: Type.String(),
  /** A file id of the store, or a path the product ships. */
  profile_photo: Nullable(Type.String()),
  favicon: Nullable(Type.String()),
  /** The public job board's address, /careers/{slug}; none for an agency made without one. */
  slug: Nullable(Type.String()),
  /** What a save sends back, to be refused if someone saved in between (0: nothing saved yet). */
  version: Type.Integer(),
});
export type AgencySettings = Static<typeof AgencySettings>;
export const AgencySettingsAnswer = Type.Object({ data: AgencySettings, message: Type.Optional(Type.String()) });
