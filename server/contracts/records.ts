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
import type { FieldDeclaration, ResourceDeclaration } from '../../src/engine/types.js';
import { ListEnvelope, Nullable } from './common.js';

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
      return Nullable(Type.String({ description, ...(f.choices?.length ? { enum: f.choices.map((c) => String(c.id)) } : {}) }));
    case 'reference':
      return Nullable(Type.Integer({ description: `${description} The id of one of ${f.reference}.` }));
    case 'references':
      return Type.Array(Type.Integer(), { description: `${description} Ids of ${f.reference}.` });
    case 'image':
    case 'file':
      return Nullable(Type.String({ description: `${description} A stored file's id (GET /api/files/{id}) or a path the product ships.` }));
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
      ...(decl.customFields ? { custom_fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "The agency's own fields" })) } : {}),
      created_at: Type.Optional(Type.String({ format: 'date-time' })),
      updated_at: Type.Optional(Type.String({ format: 'date-time' })),
      version: Type.Optional(Type.Integer({ description: 'Send it back with an update: a stale one answers 409.' })),
    },
    { additionalProperties: true, description: `A ${decl.label.one.toLowerCase()}. Fields a role may not read are left out of its answers.` },
  );
}

/** The engine's answers for one resource: a list page, one record, and a bulk action's records. */
export function recordAnswers(decl: ResourceDeclaration) {
  const record = recordSchema(decl);
  return {
    list: ListEnvelope(record),
    one: Type.Object({ data: record }),
    many: Type.Object({ data: Type.Array(record) }),
  };
}
