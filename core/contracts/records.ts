/**
 * The answers of the engine's routes (GET/POST/PUT/DELETE /api/{resource}, its actions), generated from a
 * resource's declaration: its fields with their types and references, and the list envelope.
 *
 * These schemas document; they never filter. What a record carries depends on who asks (readableBy fields are
 * left out for other roles, a list leaves out images it does not show), and the engine's select list already
 * decides it. So every declared field is optional here, records allow more properties (custom fields), and the
 * engine routes serialise their answers as they are (server/engine/routes.ts), not through these schemas.
 */
import Type, { type TSchema } from 'typebox';
import type { FieldDeclaration, ResourceDeclaration } from '../engine/types.js';
import { AnyRecord, ListEnvelope, Nullable } from './common.js';

function fieldSchema(f: FieldDeclaration): TSchema {
  const readers = f.readableBy ? ` Sent only to: ${f.readableBy.join(', ')}.` : '';
  const description = `${f.label}.${f.computed ? ' Computed by the server.' : ''}${readers}`;
  switch (f.type) {
    case 'number':
      return Nullable(f.integer ? Type.Integer({ description }) : Type.Number({ description }));
    case 'money':
      return Nullable(Type.Integer({ description: `${description} In pence.` }));
    case 'boolean':
      return Nullable(Type.Boolean({ description }));
    case 'date':
      return Nullable(Type.String({ description: `${description} yyyy-MM-dd.` }));
    case 'datetime':
      return Nullable(Type.String({ format: 'date-time', description }));
    case 'choice':
      return Nullable(
        Type.String({ description, ...(f.choices?.length ? { enum: f.choices.map((c) => String(c.id)) } : {}) }),
      );
    case 'choices':
      return Type.Array(Type.String(f.choices?.length ? { enum: f.choices.map((c) => String(c.id)) } : {}), {
        description,
      });
    case 'reference':
      return Nullable(Type.Integer({ description: `${description} The id of one of ${f.reference}.` }));
    case 'references':
      return Type.Array(Type.Integer(), { description: `${description} Ids of ${f.reference}.` });
    case 'image':
    case 'file':
      return Nullable(
        Type.String({
          description: `${description} A stored file's id (GET /api/files/{id}) or a path the product ships.`,
        }),
      );
    case 'address':
    case 'json':
      return Type.Unknown({ description });
    default:
      return Nullable(Type.String({ description }));
  }
}

/** One record of the resource, as the engine answers it to a caller who may read every field. */
export function recordSchema(decl: ResourceDeclaration) {
  const fields = Object.fromEntries(decl.fields.map((f) => [f.source, Type.Optional(fieldSchema(f))]));
  return Type.Object(
    {
      id: Type.Integer(),
      ...fields,
      ...(decl.customFields
        ? {
            custom_fields: Type.Optional(
              Type.Record(Type.String(), Type.Unknown(), { description: "The agency's own fields" }),
            ),
          }
        : {}),
      created_at: Type.Optional(Type.String({ format: 'date-time' })),
      updated_at: Type.Optional(Type.String({ format: 'date-time' })),
      version: Type.Optional(Type.Integer({ description: 'Send it back with an update: a stale one answers 409.' })),
    },
    {
      additionalProperties: true,
      description: `A ${decl.label.one.toLowerCase()}. Fields a role may not read are left out of its answers.`,
    },
  );
}

/** The engine's answers of any resource, as a fake that knows no declaration can check them: records of any fields. */
export const EngineList = ListEnvelope(AnyRecord);
export const EngineOne = Type.Object({ data: AnyRecord });
export const EngineMany = Type.Object({ data: Type.Array(AnyRecord) });

/** The engine's answers for one resource: a list page, one record, and a bulk action's records. */
export function recordAnswers(decl: ResourceDeclaration) {
  const record = recordSchema(decl);
  return {
    list: ListEnvelope(record),
    one: Type.Object({ data: record }),
    many: Type.Object({ data: Type.Array(record) }),
  };
}

/** Query parameters every engine list reads besides its filters. */
export const LIST_CONTROLS = [
  'page',
  'per_page',
  'sort',
  'order',
  'q',
  'ids',
  'id',
  'tab',
  'export',
  'fields',
] as const;

/**
 * The query parameters a resource's list accepts: the controls, its declared filters (and their aliases), and
 * from/to bounds (`_gte`, `_lte`) of its date, number and money filters. Any other answers 400 (Unknown filter),
 * as server/engine/records.ts buildWhere decides from the same declaration (a readableBy filter only for its roles).
 */
export function listParams(decl: ResourceDeclaration): Set<string> {
  const filters = decl.fields.filter((f) => f.filter || f.source === decl.parent?.field);
  const ranges = filters
    .filter((f) => ['date', 'datetime', 'number', 'money'].includes(f.type))
    .flatMap((f) => [`${f.source}_gte`, `${f.source}_lte`]);
  return new Set([
    ...LIST_CONTROLS,
    ...filters.map((f) => f.source),
    ...ranges,
    ...Object.keys(decl.filterAliases ?? {}),
  ]);
}
