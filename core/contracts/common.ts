/**
 * The API's contracts (issue 15): each hand-written route's request and response, declared once as TypeBox
 * schemas. The server registers them (validation, serialisation, /api/docs) and types its handlers from them;
 * the screens and the unit tests' fakes take their types (`import type`) and checks from the same modules.
 * These modules import nothing but typebox, so the browser can import them without pulling in server code.
 *
 * Response objects list every property the route answers: Fastify's serializer drops anything not listed
 * (a client user can never be sent a field the schema of their answer does not name). Request schemas keep
 * the bounds and words the routes had before: Fastify's Ajv still validates them (server/http.ts words its
 * errors), TypeBox only writes them.
 */
import Type, { type TSchema } from 'typebox';

export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
export const IdParams = Type.Object({ id: Id });
/** A value or null, in an answer. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/**
 * A nullable request value with Ajv's single-keyword check (`type: [t, 'null']`), as the routes validated it before.
 */
export const OrNull = <T>(schema: { type: string } & Record<string, unknown>) =>
  Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });
/** One of a few strings, checked as `enum` (Ajv's one message, "must be equal to one of the allowed values"). */
export const OneOf = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
/** An instant as the database driver answers it (a Date) and the wire carries it (an ISO string). */
export const Instant = Type.String({ description: 'an ISO 8601 instant' });
/** A date on the agency's calendar. */
export const PlainDate = Type.String({ description: 'yyyy-MM-dd' });
/** An answer that only says so. */
export const Said = Type.Object({ message: Type.String() });
/** Pence: every amount on the wire. */
export const Pence = Type.Integer({ description: 'pence' });

/** A record of another resource, as its own list answers it to the caller (its fields vary with the caller's role). */
// Typed as a plain record (its fields are the declaration's, per role); every property is sent as it is.
export const AnyRecord = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  properties: { id: { type: 'integer' } },
  required: ['id'],
  additionalProperties: true,
});
/** The engine's list envelope: one page of rows, the totals, and the records the page refers to by resource. */
export const ListEnvelope = <T extends TSchema, E extends Record<string, TSchema> = Record<never, TSchema>>(
  row: T,
  extra?: E,
) =>
  Type.Object({
    ...(extra as E),
    data: Type.Array(row),
    total_count: Type.Integer(),
    total_pages: Type.Integer(),
    current_page: Type.Integer(),
    per_page: Type.Integer(),
    references: Type.Record(Type.String(), Type.Array(AnyRecord)),
    /** The declaration's listTotals summed over every matching row (not the page), in pence for money. */
    totals: Type.Optional(Type.Record(Type.String(), Type.Number())),
  });

/** A query of free string parameters (a list's filters), checked by the handler in the user's words. */
export const StringQuery = Type.Unsafe<Record<string, string>>({
  type: 'object',
  additionalProperties: { type: 'string' },
});
