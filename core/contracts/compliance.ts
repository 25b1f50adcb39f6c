/** A staff member's compliance today (server/routes/compliance.ts). */
import Type, { type Static } from 'typebox';
import { Nullable, PlainDate } from './common.js';

const Note = Type.Object({
  category_id: Type.Integer(),
  name: Type.String(),
  expiry_date: PlainDate,
  days_left: Type.Integer(),
});
export const Compliance = Type.Object({
  compliant: Type.Boolean(),
  summary: Type.String(),
  missing: Type.Array(Type.Object({ category_id: Type.Integer(), name: Type.String() })),
  expired: Type.Array(Note),
  expiring: Type.Array(Note),
  valid_until: Nullable(PlainDate),
  today: PlainDate,
});
export type Compliance = Static<typeof Compliance>;
export const ComplianceAnswer = Type.Object({ data: Compliance });
