/**
 * The shift routes beyond the engine's: bulk create, checks, suggestions, cancellation, the schedule
 * (server/routes/shifts.ts).
 */
import Type, { type Static } from 'typebox';
import { AnyRecord, Id, IdParams, Instant, Nullable, OneOf } from './common.js';
import { CANCEL_PARTIES } from '../domain/pricing/price.js';

/**
 * The bulk create's body; its limit of shifts per call is the domain's (MAX_BULK_SHIFTS,
 * server/domain/shifts/times.ts).
 */
export const bulkShiftsBody = (maxShifts: number) =>
  Type.Object(
    {
      client_id: Id,
      site_id: Id,
      job_role_id: Id,
      template_id: Type.Optional(Type.Union([Id, Type.Null()])),
      start_time: Type.Optional(Type.String({ maxLength: 5 })),
      end_time: Type.Optional(Type.String({ maxLength: 5 })),
      break_minutes: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 240 }), Type.Null()])),
      sleep_in: Type.Optional(Type.Boolean()),
      dates: Type.Array(Type.String({ maxLength: 10 }), { minItems: 1, maxItems: maxShifts }),
      staff_needed: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
      notes: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    },
    { additionalProperties: false },
  );
export type BulkShifts = Static<ReturnType<typeof bulkShiftsBody>>;
/** The shifts made, each as GET /api/shifts/{id} answers it to the caller (a client user's without pay or margin). */
export const BulkCreated = Type.Object({ data: Type.Array(AnyRecord), count: Type.Integer() });
export type BulkCreated = Static<typeof BulkCreated>;

export const CancelParty = OneOf(CANCEL_PARTIES);
export const CancellationQuery = Type.Object(
  { requested_by: Type.Optional(CancelParty) },
  { additionalProperties: false },
);
export const Cancellation = Type.Object({
  data: Type.Object({
    allowed: Type.Boolean(),
    requested_by: CancelParty,
    late: Type.Boolean(),
    hours: Type.Number(),
    charge: Type.Number({ description: 'pence' }),
    at: Instant,
    /** Why it cannot be cancelled, when allowed is false. */
    message: Type.Optional(Type.String()),
  }),
});
export type Cancellation = Static<typeof Cancellation>;

export const CheckResult = Type.Object({
  code: Type.String(),
  severity: OneOf(['hard', 'soft', 'info']),
  /** A hard check an admin may override with a reason. */
  overridable: Type.Optional(Type.Boolean()),
  message: Type.String(),
  /** The booking an overlap clashes with. */
  clash: Type.Optional(
    Type.Object({
      shift_id: Type.Integer(),
      client_id: Type.Integer(),
      site_id: Nullable(Type.Integer()),
      job_role_id: Type.Integer(),
    }),
  ),
});
export type CheckResult = Static<typeof CheckResult>;
export const AwrCount = Type.Object({
  weeks: Type.Integer(),
  qualified: Type.Boolean(),
  paused: Type.Boolean(),
  resetOn: Nullable(Type.String()),
});

export const CheckQuery = Type.Object({ candidate_id: Id }, { additionalProperties: false });
export const Checks = Type.Object({
  data: Type.Object({
    candidate_id: Type.Integer(),
    name: Type.String(),
    passes: Type.Boolean(),
    hard: Type.Array(CheckResult),
    soft: Type.Array(CheckResult),
    info: Type.Array(CheckResult),
    awr: AwrCount,
  }),
});
export type Checks = Static<typeof Checks>;

export const SuggestionsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);
export const Suggestion = Type.Object({
  candidate_id: Type.Integer(),
  name: Type.String(),
  job_role: Type.String(),
  available: Type.Boolean(),
  /**
   * Why someone is not available: nothing entered ('not_set'), 'unavailable', or other hours ('mismatch'); 'fits'
   * otherwise.
   */
  availability: OneOf(['fits', 'not_set', 'unavailable', 'mismatch']),
  preferred: Type.Boolean(),
  avoided: Type.Boolean(),
  hours_this_week: Type.Number(),
  soft: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  awr: AwrCount,
});
export type Suggestion = Static<typeof Suggestion>;
export const Suggestions = Type.Object({ data: Type.Array(Suggestion) });

const ShiftStatus = OneOf(['open', 'assigned', 'closed', 'cancelled']);
export const ScheduleQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 40 })),
    to: Type.Optional(Type.String({ maxLength: 40 })),
    client_id: Type.Optional(Id),
    site_id: Type.Optional(Id),
    job_role_id: Type.Optional(Id),
    candidate_id: Type.Optional(Id),
    status: Type.Optional(ShiftStatus),
  },
  { additionalProperties: false },
);
export type ScheduleQuery = Static<typeof ScheduleQuery>;
export const ScheduleShift = Type.Object({
  id: Type.Integer(),
  start_at: Instant,
  end_at: Instant,
  status: ShiftStatus,
  client_id: Type.Integer(),
  client_name: Type.String(),
  site_id: Type.Integer(),
  site_name: Type.String(),
  job_role_id: Type.Integer(),
  job_role_name: Type.String(),
  candidate_id: Nullable(Type.Integer()),
  candidate_name: Nullable(Type.String()),
  sleep_in: Type.Boolean(),
  requested_by_client: Type.Boolean(),
  charge: Nullable(Type.Number()),
  /** Agency users only. */
  pay: Type.Optional(Nullable(Type.Number())),
  /** Agency users only. */
  margin: Type.Optional(Nullable(Type.Number())),
  version: Type.Integer(),
});
export type ScheduleShift = Static<typeof ScheduleShift>;
/** The window's shifts; written by the database as JSON (the route sends it as it is, this documents it). */
export const Schedule = Type.Object({ data: Type.Array(ScheduleShift), from: Instant, to: Instant });
export type Schedule = Static<typeof Schedule>;

export { IdParams };
