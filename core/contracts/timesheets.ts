// Timesheets' calls beyond the engine's own (issue 17): the spec's sign_timesheets, the generation answer, the
// printed timesheet, and the screen routes the signing link and the e-mails lead to.
import Type, { type Static } from 'typebox';
import { Id, Instant, Nullable, PlainDate, Pence } from './common.js';

/**
 * The page a signing link opens, without signing in: `${SIGNING_PAGE}/<token>` (the e-mail's link). It reads
 * GET /api/capability/<token> (the timesheet, with `review_lines`) and signs or disputes through
 * POST /api/capability/<token>/actions/approve.
 */
export const SIGNING_PAGE = '/sign-timesheet';
/** The client panel's review of one timesheet (the submission's notification links there). */
export const CLIENT_TIMESHEET_PAGE = '/client/signedTimesheet';
/** The client panel's review of one timesheet: what a client user's notification and e-mail open (issue 29.16). */
export const clientTimesheetPage = (id: number) => `${CLIENT_TIMESHEET_PAGE}?id=${id}`;
/** The agency's screen of one timesheet (signature and dispute notifications link there). */
export const agencyTimesheetPage = (id: number) => `/timesheets/${id}/show`;

/** The input of POST /api/timesheets/actions/generate: one of a week, a range, or shifts (a client narrows it). */
export const GenerateInput = Type.Object({
  week_start: Type.Optional(PlainDate),
  from: Type.Optional(PlainDate),
  to: Type.Optional(PlainDate),
  shift_ids: Type.Optional(Type.Array(Id)),
  client_id: Type.Optional(Id),
  client_ids: Type.Optional(Type.Array(Id)),
  preview: Type.Optional(Type.Boolean()),
});
export type GenerateInput = Static<typeof GenerateInput>;

/**
 * What a generation did: the timesheets it created or added to, how many lines (200). A run of more than 500 worked
 * shifts is queued instead (202): `job_id` to follow at GET /api/jobs/:id (done of `shifts`), its timesheets in the
 * job's result, and nothing yet in `timesheets` and `lines`.
 */
export const GenerateAnswer = Type.Object({
  data: Type.Object({
    timesheets: Type.Array(Id),
    lines: Type.Integer(),
    line_ids: Type.Array(Id),
    job_id: Nullable(Id),
    /** A queued run's number of worked shifts (or a preview's). */
    shifts: Type.Optional(Type.Integer()),
    /** A preview's worked shifts per client, nothing generated. */
    preview: Type.Optional(Type.Array(Type.Object({ client_id: Id, name: Type.String(), shifts: Type.Integer() }))),
  }),
});
export type GenerateAnswer = Static<typeof GenerateAnswer>;

/** A queued generation's result, once its job is done (GET /api/jobs/:id). */
export const GenerationResult = Type.Object({ timesheets: Type.Array(Id), lines: Type.Integer() });
export type GenerationResult = Static<typeof GenerationResult>;

/** One signature of a signed timesheet, as the spec's call answers it. */
export const SignTimesheet = Type.Object({
  id: Id,
  timesheet_id: Id,
  number: Type.String(),
  client_id: Id,
  site_id: Nullable(Id),
  period_start: PlainDate,
  period_end: PlainDate,
  status: Type.String(),
  hours: Type.Number(),
  charge: Pence,
  signer_name: Type.String(),
  /** The drawn signature, a PNG data URL. */
  signature: Type.String(),
  signed_at: Instant,
  /** panel | link | phone */
  signed_via: Type.String(),
  /** The address the signature came from. */
  ip_address: Nullable(Type.String()),
  line_count: Type.Integer(),
});
export const SignTimesheetsAnswer = Type.Object({ sign_timesheets: Type.Array(SignTimesheet) });
export type SignTimesheetsAnswer = Static<typeof SignTimesheetsAnswer>;
