/** Pricing a shift and the holiday calendar (server/routes/rates.ts). */
import Type, { type Static } from 'typebox';
import { Nullable, OneOf, PlainDate } from './common.js';

// Numbers rather than integers: an amount that failed the agency's shape would be sent in the client's (without pay).
const Amount = Type.Number({ description: 'pence' });

/** Checked by the pricing rules, field by field in the user's words (server/resources/rates.ts). */
export const QuoteRequest = Type.Unsafe<{
  client_id: number;
  site_id: number;
  job_role_id: number;
  candidate_id?: number | null;
  start: string;
  end: string;
  break_minutes?: number | null;
  sleep_in?: boolean;
}>({ type: 'object' });

const Band = Type.String({ description: "the line's band (day, night, weekend, bank holiday, …, or flat)" });
const lineBase = {
  band: Band,
  start: Type.String(),
  end: Type.String(),
  hours: Type.Number(),
  minutes: Type.Integer(),
  charge_rate: Amount,
  charge: Amount,
  /** Only on the minimum-charge top-up line: the charged hours it adds to reach the minimum. */
  minimum_charge_hours: Type.Optional(Type.Number()),
};
/** An agency user's quote: pay, charge, on-costs and margin. */
export const AgencyQuote = Type.Object({
  lines: Type.Array(Type.Object({ ...lineBase, pay_rate: Amount, pay: Amount })),
  totals: Type.Object({ hours: Type.Number(), pay: Amount, charge: Amount, margin: Amount }),
  on_costs: Amount,
  warnings: Type.Array(Type.String()),
  rate_card_id: Nullable(Type.Integer()),
});
export type AgencyQuote = Static<typeof AgencyQuote>;
/** A client user's quote: the charge only. Its schema names no pay field, so none can be sent. */
export const ClientQuote = Type.Object({
  lines: Type.Array(Type.Object(lineBase)),
  totals: Type.Object({ hours: Type.Number(), charge: Amount }),
  warnings: Type.Array(Type.String()),
});
export type ClientQuote = Static<typeof ClientQuote>;
// The agency's shape first: the serializer takes the first that fits, and a client's answer lacks its pay fields.
export const Quote = Type.Union([AgencyQuote, ClientQuote]);
export type Quote = Static<typeof Quote>;

export const HolidaysQuery = Type.Object({ year: Type.Optional(Type.String()) });
export const Holidays = Type.Object({
  year: Type.Integer(),
  regions: Type.Array(
    Type.Object({
      region: Type.String(),
      label: Type.String(),
      days: Type.Array(
        Type.Object({
          date: PlainDate,
          name: Type.String(),
          source: OneOf(['library', 'added']),
          override_id: Nullable(Type.Integer()),
        }),
      ),
      removed: Type.Array(Type.Object({ date: PlainDate, name: Type.String(), override_id: Type.Integer() })),
    }),
  ),
});
export type Holidays = Static<typeof Holidays>;
