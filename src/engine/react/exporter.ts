import { stringify } from 'csv-stringify/browser/esm/sync';
import { downloadCSV, type Exporter, type FetchRelatedRecords, type Identifier, type RaRecord } from 'react-admin';
import { format } from 'date-fns/format';
import { LIST_LIMITS, type FieldDeclaration, type ResourceDeclaration } from '../../../core/engine/types';
import { getPath, type CustomFieldDefinition } from '../../../core/engine/validate';
import {
  CSV_OPTIONS,
  exportBaseName,
  exportCell,
  exportedFields,
  representRecord,
  type Related,
} from '../../../core/engine/exportFormat';

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

/** A record's name as the screens show it (kept here for the screens that import it from the exporter). */
export { representRecord };

/**
 * Names of the referenced records, one getMany per referenced resource (in pages the API serves: it answers at
 * most LIST_LIMITS.maxPerPage records at once).
 */
async function fetchNames(
  records: RaRecord[],
  fields: FieldDeclaration[],
  fetchRelatedRecords: FetchRelatedRecords,
): Promise<Related> {
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
 * The CSV of selected rows (the bulk bar's Export; the list's own Export downloads the server's file): the same
 * columns, values and file name as the server's export (../exportFormat).
 */
export function buildExporter(decl: ResourceDeclaration, options: ExporterOptions = {}): Exporter {
  const { declarations = [], customFields = [], now = () => new Date(), download = downloadCSV } = options;
  return async (records, fetchRelatedRecords) => {
    const fields = exportedFields(decl, customFields);
    const related = await fetchNames(records, fields, fetchRelatedRecords);
    const columns = [{ key: 'id', header: 'ID' }, ...fields.map((f, i) => ({ key: `c${i}`, header: f.label }))];
    const rows = records.map((r) => ({
      id: r.id,
      ...Object.fromEntries(
        fields.map((f, i) => [`c${i}`, exportCell(f, getPath(r, f.source), related, declarations)]),
      ),
    }));
    const csv = stringify(rows, { ...CSV_OPTIONS, columns });
    download(csv, exportBaseName(decl, format(now(), 'yyyy-MM-dd')));
  };
}
