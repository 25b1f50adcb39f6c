import { stringify } from 'csv-stringify/browser/esm/sync';
import { downloadCSV, type Exporter, type FetchRelatedRecords, type Identifier, type RaRecord } from 'react-admin';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { hasView, LIST_LIMITS, type FieldDeclaration, type ResourceDeclaration } from '../../../core/engine/types';
import { customFieldAsDeclaration, getPath, type CustomFieldDefinition } from '../../../core/engine/validate';
import { formatAddress } from './fields';
import { penceToPounds } from '../../../core/engine/money';

export interface ExporterOptions {
  /** The declarations of referenced resources: a reference is written as its record's name (recordRepresentation). */
  declarations?: ResourceDeclaration[];
  /** The agency's custom fields of this resource, exported after the declared fields. */
  customFields?: CustomFieldDefinition[];
  /** Today, for the file name; the browser's clock by default. */
  now?: () => Date;
  /** Hands the file over; react-admin's downloadCSV (the browser's download, `<name>.csv`) by default. */
  download?: (csv: string, baseName: string) => void;
}

type Related = Map<string, Map<string, RaRecord>>;

/** A record's name as the screens show it: the declaration's '%{first_name} %{last_name}'. */
export const representRecord = (decl: ResourceDeclaration | undefined, record: RaRecord): string =>
  decl
    ? decl.recordRepresentation.replace(/%\{(\w+)\}/g, (_, k) => String(record[k] ?? '')).trim()
    : String(record.name ?? record.id);

/**
 * Columns of the file: what a user can see of a record (its show view), except uploads, which are not text.
 * Headers are unique, as a spreadsheet's lookups by header need: a field labelled like an earlier one is the same
 * thing shown another way (the shifts' booked staff member as a reference and as its computed name), so it is
 * left out.
 */
const exportedFields = (decl: ResourceDeclaration, custom: CustomFieldDefinition[]) => {
  const all = [
    ...decl.fields.filter((f) => (hasView(f, 'show') || hasView(f, 'list')) && !['image', 'file', 'json'].includes(f.type)),
    ...custom.map(customFieldAsDeclaration),
  ];
  const seen = new Set<string>(['id']);
  return all.filter((f) => {
    const key = f.label.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** One cell, written the way the screens show the value. */
function cell(f: FieldDeclaration, value: unknown, related: Related, declarations: ResourceDeclaration[]): string | number {
  if (value === undefined || value === null || value === '') return '';
  const name = (id: unknown) => {
    const target = f.reference ? related.get(f.reference)?.get(String(id)) : undefined;
    // A record that no longer answers (deleted since) keeps at least its id.
    return target ? representRecord(declarations.find((d) => d.name === f.reference), target) : String(id);
  };
  switch (f.type) {
    case 'number':
      return typeof value === 'number' ? value : String(value);
    case 'money':
      // Pounds as a number a spreadsheet sums, not "£12.50" text.
      return Number.isFinite(Number(value)) ? penceToPounds(Number(value)) : String(value);
    case 'boolean':
      return value === true ? 'Yes' : value === false ? 'No' : String(value);
    case 'date':
      return format(parseISO(String(value)), 'yyyy-MM-dd');
    case 'datetime':
      return format(parseISO(String(value)), 'yyyy-MM-dd HH:mm');
    case 'choice':
      return f.choices?.find((c) => c.id === value)?.name ?? String(value);
    case 'reference':
      return name(value);
    case 'references':
      return Array.isArray(value) ? value.map(name).join(', ') : '';
    case 'address':
      return formatAddress(value);
    default:
      return String(value);
  }
}

/**
 * Names of the referenced records, one getMany per referenced resource (in pages the API serves: it answers at
 * most LIST_LIMITS.maxPerPage records at once).
 */
async function fetchNames(records: RaRecord[], fields: FieldDeclaration[], fetchRelatedRecords: FetchRelatedRecords): Promise<Related> {
  const ids = new Map<string, Set<Identifier>>();
  for (const f of fields) {
    if ((f.type !== 'reference' && f.type !== 'references') || !f.reference) continue;
    const set = ids.get(f.reference) ?? new Set<Identifier>();
    for (const r of records) {
      const v = getPath(r, f.source);
      for (const id of Array.isArray(v) ? v : [v]) if (id !== null && id !== undefined && id !== '') set.add(id);
    }
    ids.set(f.reference, set);
  }
  const related: Related = new Map();
  for (const [resource, set] of ids) {
    const byId = new Map<string, RaRecord>();
    const all = [...set];
    for (let i = 0; i < all.length; i += LIST_LIMITS.maxPerPage) {
      const page = all.slice(i, i + LIST_LIMITS.maxPerPage).map((id) => ({ id }));
      const found = await fetchRelatedRecords<RaRecord>(page, 'id', resource);
      for (const r of Object.values(found)) byId.set(String(r.id), r);
    }
    related.set(resource, byId);
  }
  return related;
}

/**
 * The list's CSV export: the declaration's labels as unique headers, references by their records' names, dates
 * as yyyy-MM-dd (times yyyy-MM-dd HH:mm) and money as pounds in numbers (12.5), which a spreadsheet reads as
 * dates and numbers; yes/no, addresses on one line; the file is `<entity plural>-<yyyy-MM-dd>.csv`.
 * Values a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) are
 * prefixed with a single quote (csv-stringify's escape_formulas), so an exported name such as
 * '=HYPERLINK(...)' stays text. Every text field is quoted: csv-stringify leaves a bare CR or LF unquoted
 * when the record delimiter is CRLF, and a spreadsheet would start a new row there whose first cell could be
 * '=…'; inside quotes a line break stays in its cell. A byte order mark makes Excel read it as UTF-8.
 */
export function buildExporter(decl: ResourceDeclaration, options: ExporterOptions = {}): Exporter {
  const { declarations = [], customFields = [], now = () => new Date(), download = downloadCSV } = options;
  return async (records, fetchRelatedRecords) => {
    const fields = exportedFields(decl, customFields);
    const related = await fetchNames(records, fields, fetchRelatedRecords);
    const columns = [{ key: 'id', header: 'ID' }, ...fields.map((f, i) => ({ key: `c${i}`, header: f.label }))];
    const rows = records.map((r) => ({
      id: r.id,
      ...Object.fromEntries(fields.map((f, i) => [`c${i}`, cell(f, getPath(r, f.source), related, declarations)])),
    }));
    const csv = stringify(rows, { header: true, columns, escape_formulas: true, quoted_string: true, bom: true, record_delimiter: 'windows' });
    const plural = decl.label.many.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    download(csv, `${plural}-${format(now(), 'yyyy-MM-dd')}`);
  };
}
