import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { hasView, type FieldDeclaration, type RecordValues, type ResourceDeclaration } from './types';
import { penceToPounds } from './money';
import { instantToZoned } from '../domain/time/agencyTime';
import { customFieldAsDeclaration, type CustomFieldDefinition } from './validate';

/**
 * How a list is written out, in one place for every way out (the browser's export of selected rows, the
 * server's CSV, XLSX and PDF): which fields are columns, their headers, and each value as the screens show it.
 * Plain TypeScript, no React: the server imports it too.
 */

/** An address on one line, as lists show it. */
export const formatAddress = (a: unknown) => {
  if (!a || typeof a !== 'object') return '';
  const { line1, line2, city, postcode, country } = a as Partial<RecordValues>;
  return [line1, line2, city, postcode, country].filter(Boolean).join(', ');
};

/** A record's name as the screens show it: the declaration's '%{first_name} %{last_name}'. */
export const representRecord = (decl: ResourceDeclaration | undefined, record: RecordValues): string =>
  decl
    ? decl.recordRepresentation.replace(/%\{(\w+)\}/g, (_, k) => String(record[k] ?? '')).trim()
    : String(record.name ?? record.id);

/**
 * Columns of the file: what a user can see of a record (its show view), except uploads, which are not text.
 * Headers are unique, as a spreadsheet's lookups by header need: a field labelled like an earlier one is the same
 * thing shown another way (the shifts' booked staff member as a reference and as its computed name), so it is
 * left out. `readable` leaves out what the caller may not read (pay for a client user).
 */
export function exportedFields(
  decl: ResourceDeclaration,
  custom: CustomFieldDefinition[] = [],
  readable: (f: FieldDeclaration) => boolean = () => true,
): FieldDeclaration[] {
  const all = [
    ...decl.fields.filter(
      (f) => (hasView(f, 'show') || hasView(f, 'list')) && !['image', 'file', 'json'].includes(f.type) && readable(f),
    ),
    ...custom.map(customFieldAsDeclaration),
  ];
  const seen = new Set<string>(['id']);
  return all.filter((f) => {
    const key = f.label.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The records a file refers to, by resource and id: a reference is written as its record's name. */
export type Related = Map<string, Map<string, RecordValues>>;

/** An instant as yyyy-MM-dd HH:mm on the clock of `timeZone`. */
export function zonedMinute(iso: string, timeZone: string): string {
  const { date, time } = instantToZoned(new Date(iso), timeZone);
  return `${date} ${time}`;
}

/** Each referenced record's name, worked out once: a file names the same site or staff member on many rows. */
const names = new WeakMap<RecordValues, string>();

/** The name of the record a reference field's value `id` points at; a record that no longer answers keeps its id. */
function referenceName(f: FieldDeclaration, id: unknown, related: Related, declarations: ResourceDeclaration[]) {
  const target = f.reference ? related.get(f.reference)?.get(String(id)) : undefined;
  if (!target) return String(id);
  let name = names.get(target);
  if (name === undefined)
    names.set(
      target,
      (name = representRecord(
        declarations.find((d) => d.name === f.reference),
        target,
      )),
    );
  return name;
}

/**
 * One value, written the way the screens show it, in a form a spreadsheet reads: money as pounds in numbers
 * (12.5), dates yyyy-MM-dd (times yyyy-MM-dd HH:mm, on the agency's clock when `timeZone` is given, else the
 * browser's), choices and references by name, yes/no, addresses on one line.
 */
export function exportCell(
  f: FieldDeclaration,
  value: unknown,
  related: Related,
  declarations: ResourceDeclaration[],
  timeZone?: string,
): string | number {
  if (value === undefined || value === null || value === '') return '';
  switch (f.type) {
    case 'number':
      return typeof value === 'number' ? value : String(value);
    case 'money':
      // Pounds as a number a spreadsheet sums, not "£12.50" text.
      return Number.isFinite(Number(value)) ? penceToPounds(Number(value)) : String(value);
    case 'boolean':
      return value === true ? 'Yes' : value === false ? 'No' : String(value);
    case 'date':
      return /^\d{4}-\d\d-\d\d$/.test(String(value)) ? String(value) : format(parseISO(String(value)), 'yyyy-MM-dd');
    case 'datetime':
      return timeZone ? zonedMinute(String(value), timeZone) : format(parseISO(String(value)), 'yyyy-MM-dd HH:mm');
    case 'choice':
      return f.choices?.find((c) => c.id === value)?.name ?? String(value);
    case 'choices':
      return Array.isArray(value)
        ? value.map((v) => f.choices?.find((c) => c.id === v)?.name ?? String(v)).join(', ')
        : '';
    case 'reference':
      return referenceName(f, value, related, declarations);
    case 'references':
      return Array.isArray(value) ? value.map((id) => referenceName(f, id, related, declarations)).join(', ') : '';
    case 'address':
      return formatAddress(value);
    default:
      return String(value);
  }
}

/** The file's name without its extension: `<entity plural>-<yyyy-MM-dd>`. */
export const exportBaseName = (decl: ResourceDeclaration, today: string) =>
  `${decl.label.many
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${today}`;

/**
 * csv-stringify's options for every CSV the product writes. Values a spreadsheet would run as a formula (starting
 * with = + - @, a tab or a carriage return) are prefixed with a single quote (escape_formulas), so an exported
 * name such as '=HYPERLINK(...)' stays text. Every text field is quoted: csv-stringify leaves a bare CR or LF
 * unquoted when the record delimiter is CRLF, and a spreadsheet would start a new row there whose first cell could
 * be '=…'; inside quotes a line break stays in its cell. A byte order mark makes Excel read it as UTF-8.
 */
export const CSV_OPTIONS = {
  header: true,
  escape_formulas: true,
  quoted_string: true,
  bom: true,
  record_delimiter: 'windows',
} as const;

/** The lists the server prints as a PDF (GET /api/{name}/print), with a Print button on their screens. */
export const PRINTABLE_LISTS = ['shifts'];
