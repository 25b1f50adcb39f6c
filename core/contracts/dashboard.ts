/** The agency dashboard's "Needs doing" counts (server/routes/dashboard.ts; items: core/resources/needsDoing.ts). */
import Type, { type Static } from 'typebox';
import { Instant } from './common';

export const NeedsDoingCount = Type.Object({
  /** The item's id in NEEDS_DOING. */
  id: Type.String(),
  count: Type.Integer(),
  /** The declared money sum over the counted rows, in pence (only for a caller who may read the field). */
  sum: Type.Optional(Type.Integer()),
  /** The admin route of the list that shows the counted rows. */
  route: Type.String(),
  /** The list's filters (the item's own, relative instants resolved): open `route?filter=<this as JSON>`. */
  filter: Type.Record(Type.String(), Type.String()),
});
export type NeedsDoingCount = Static<typeof NeedsDoingCount>;

export const NeedsDoingAnswer = Type.Object({
  data: Type.Array(NeedsDoingCount),
  /** The moment counted at: the instants in the filters are relative to it. */
  as_of: Instant,
});
export type NeedsDoingAnswer = Static<typeof NeedsDoingAnswer>;
