/** The staff member's own phone page beyond the engine's lists (server/routes/staffShifts.ts). */
import Type, { type Static } from 'typebox';
import { Id, Instant, Nullable } from './common.js';

const Address = Nullable(
  Type.Object({
    line1: Type.Optional(Nullable(Type.String())),
    line2: Type.Optional(Nullable(Type.String())),
    city: Type.Optional(Nullable(Type.String())),
    postcode: Type.Optional(Nullable(Type.String())),
    country: Type.Optional(Nullable(Type.String())),
  }),
);

/** An open shift the staff member could be booked on (it passes every hard booking check for them). */
export const OpenShift = Type.Object({
  id: Id,
  start_at: Instant,
  end_at: Instant,
  break_minutes: Nullable(Type.Integer()),
  client_name: Type.String(),
  site_name: Type.String(),
  site_address: Address,
  job_role_name: Type.String(),
  notes: Nullable(Type.String()),
  /** Paid hours as quoted when the shift was made. */
  hours: Nullable(Type.Number()),
  /** The caller's own pay for it in pence (their own rates where they have them); null when it cannot be priced. */
  pay: Nullable(Type.Integer()),
  /** The caller's pending request for it, if they have asked already. */
  request_id: Nullable(Type.Integer()),
});
export type OpenShift = Static<typeof OpenShift>;
export const OpenShiftsAnswer = Type.Object({ data: Type.Array(OpenShift) });
export type OpenShiftsAnswer = Static<typeof OpenShiftsAnswer>;

export const ShiftRequestBody = Type.Object(
  { note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))) },
  { additionalProperties: false },
);
export const ShiftRequestMade = Type.Object({
  data: Type.Object({
    id: Id,
    shift_id: Id,
    status: Type.String(),
    note: Nullable(Type.String()),
    created_at: Instant,
  }),
});
export type ShiftRequestMade = Static<typeof ShiftRequestMade>;
