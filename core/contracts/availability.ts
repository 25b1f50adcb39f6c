/** The availability week grid and copying a week (server/routes/availability.ts). */
import Type, { type Static } from 'typebox';
import { Id, ListEnvelope, PlainDate } from './common.js';

const Day = Type.Union([
  Type.Object({ id: Type.Integer(), status: Type.String(), version: Type.Integer() }),
  Type.Null(),
]);
export const StaffWeekRow = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  job_role_id: Type.Union([Type.Integer(), Type.Null()]),
  /** Each of the week's seven dates, with its entry or null. */
  days: Type.Record(Type.String(), Day),
});
/** The staff list's envelope, each row with its week, and the week itself. */
export const Week = ListEnvelope(StaffWeekRow, { week_start: PlainDate, dates: Type.Array(PlainDate) });
export type Week = Static<typeof Week>;

export const CopyWeek = Type.Object(
  {
    week_start: Type.String({ maxLength: 20 }),
    candidate_ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export const Copied = Type.Object({ copied: Type.Integer() });
export type Copied = Static<typeof Copied>;
