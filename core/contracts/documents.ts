// Answers of the engine-wide calls beyond records: files (exports, printed lists), job progress, number series and
// capability links. Plain TypeBox, shared by both sides.
import Type, { type Static, type TSchema } from 'typebox';
import { AnyRecord, Id, Instant, Nullable } from './common.js';

/** A file download: its bytes under each content type the call may send (for the description; streams are sent
 * as they are). */
export const fileAnswer = (types: string[], description: string) => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema: Type.String({ format: 'binary' }) as TSchema }])),
});

export const Job = Type.Object({
  id: Id,
  kind: Type.String(),
  status: Type.String(),
  done: Type.Integer(),
  total: Nullable(Type.Integer()),
  attempts: Type.Integer(),
  error: Nullable(Type.String()),
  result: Type.Unknown(),
  created_at: Instant,
  updated_at: Instant,
  finished_at: Nullable(Instant),
});
export const JobAnswer = Type.Object({ data: Job });
export type JobAnswer = Static<typeof JobAnswer>;

export const NumberSeries = Type.Object({ series: Type.String(), prefix: Type.String(), next_number: Type.Integer() });
export const NumberSeriesList = Type.Object({ data: Type.Array(NumberSeries) });
export const NumberSeriesAnswer = Type.Object({ data: NumberSeries });

/** What a capability link's holder sees: the one record (fields readable by a link only) and its one action. */
export const LinkView = Type.Object({
  data: AnyRecord,
  resource: Type.String(),
  action: Type.Object({ name: Type.String(), label: Type.String() }),
  purpose: Type.String(),
  expires_at: Instant,
  changed: Type.Boolean(),
});
/** The record after the link's action ran. */
export const LinkActed = Type.Object({ data: AnyRecord });
