import type { FieldDeclaration, ResourceDeclaration } from './types';
import { deletionOf } from './lifecycle';

/*
 * The record types of the declared resources (core/resources/records.ts), written from the declarations by
 * `npm run engine:records`: one type per resource with each stored field's value as the drivers read it back
 * (server/db: dates as 'yyyy-MM-dd', instants as ISO strings, money as integer pence), null where the column may be
 * empty. A unit test fails when the file and the declarations disagree (docs/decisions.md, Issue 31.7).
 */

/** A stored value of the field, as read back from its column (server/engine/ddl.ts columnType). */
function valueType(f: FieldDeclaration): string {
  switch (f.type) {
    case 'number':
      // A numeric column is read as text by both drivers (exact decimals); an integer one as a number.
      return f.integer ? 'number' : 'number | string';
    case 'money':
    case 'reference':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'references':
      return 'number[]';
    case 'choices':
      return 'string[]';
    case 'choice':
      return f.choices?.length ? f.choices.map((c) => `'${c.id.replace(/'/g, "\\'")}'`).join(' | ') : 'string';
    case 'address':
    case 'json':
      return 'unknown';
    default:
      return 'string';
  }
}

/** Columns that are never empty: the required ones, and the booleans and lists the DDL defaults (false, '{}'). */
const neverEmpty = (f: FieldDeclaration) =>
  !!f.required || f.type === 'boolean' || f.type === 'references' || f.type === 'choices';

/** 'timesheet_lines' → 'TimesheetLineRecord', from the declaration's name for one record. */
export const recordTypeName = (decl: ResourceDeclaration) =>
  decl.label.one
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('') + 'Record';

/** The columns every table has (server/engine/ddl.ts systemColumns), typed once above the declared fields. */
const SYSTEM = new Set(['id', 'merchant_id', 'version', 'created_at', 'updated_at']);

/** One member, a long union one alternative a line, as Prettier writes it (the file is kept formatted). */
const member = (key: string, type: string) =>
  `  ${key}: ${type};`.length <= 120
    ? `  ${key}: ${type};`
    : `  ${key}:\n${type.replace(/^| \| /g, '\n    | ').slice(1)};`;

function recordType(decl: ResourceDeclaration): string {
  const lines = [
    '  id: number;',
    '  merchant_id: number;',
    '  version: number;',
    '  created_at: string;',
    '  updated_at: string;',
  ];
  const declared = new Set(decl.fields.map((f) => f.source));
  if (deletionOf(decl).mode === 'soft' && !declared.has('deleted_at')) lines.push('  deleted_at: string | null;');
  if (decl.customFields) lines.push('  custom_fields: Record<string, unknown>;');
  for (const f of decl.fields) {
    if (SYSTEM.has(f.source)) continue;
    const value = valueType(f);
    const orNull = value === 'unknown' ? value : `${value} | null`;
    // A computed field is selected by the engine's reads only (a plain `select *` has none).
    lines.push(member(f.computed ? `${f.source}?` : f.source, f.computed || !neverEmpty(f) ? orNull : value));
  }
  return `/** ${decl.label.one} (${decl.name}), as stored. */\nexport type ${recordTypeName(decl)} = {\n${lines.join('\n')}\n};\n`;
}

/** The source of core/resources/records.ts for these declarations. */
export function recordTypesSource(declarations: readonly ResourceDeclaration[]): string {
  const sorted = [...declarations].sort((a, b) => a.name.localeCompare(b.name));
  return [
    '// Written by `npm run engine:records` from the declarations (core/engine/recordTypes.ts): do not edit by hand.\n',
    ...sorted.map(recordType),
    "/** Every declared resource's record type, by resource name. */",
    'export interface Records {',
    ...sorted.map((d) => `  ${d.name}: ${recordTypeName(d)};`),
    '}\n',
  ].join('\n');
}
