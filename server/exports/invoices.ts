// Accounting exports of issued invoices and credit notes (issue 32, exports): GET /api/invoices/export/xero and
// /quickbooks. The rows are the domain's (core/domain/invoicing/exports.ts); the files are written by the list
// exports' own CSV writer (csvStream: CSV_OPTIONS, formulas neutralised) and take their turn with them
// (exportSlots: two per user, three per process). Each export is a recorded batch (invoice_export_batches, written
// through the engine in the export's transaction), and an export leaves out what an earlier batch for the same
// package holds unless asked to include it. docs/decisions.md, "Issue 32.6 — accounting exports".
import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';
import Type from 'typebox';
import { HttpError } from '../http.js';
import { route } from '../routes/route.js';
import type { EngineContext } from '../engine/context.js';
import { unitClients, unitsOf } from '../engine/compile.js';
import { csvBuffer, EXPORT_FORMATS, exportTurn, sendDownload } from './routes.js';
import { fileAnswer } from '../../core/contracts/documents.js';
import { parseStrictDate } from '../../core/engine/dates.js';
import {
  quickbooksRows,
  xeroCreditNoteRows,
  xeroRows,
  type Cell,
  type ExportDocument,
  type ExportLine,
} from '../../core/domain/invoicing/exports.js';
import { ISSUED_STATES } from '../../core/resources/invoices/resource.js';

export const ZIP_TYPE = 'application/zip';

/** The account code Xero posts sales to: its UK chart's "Sales" (200) until the invoice settings name another. */
export const XERO_SALES_ACCOUNT = '200';
/** The QuickBooks product/service the lines are sold as, until the invoice settings name another. */
export const QUICKBOOKS_ITEM = 'Services';

type Package = 'xero' | 'quickbooks';

export const InvoiceExportQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 20, description: 'issued on or after (yyyy-MM-dd)' })),
    to: Type.Optional(Type.String({ maxLength: 20, description: 'issued on or before (yyyy-MM-dd)' })),
    client_id: Type.Optional(Type.String({ maxLength: 12, description: "one client's documents" })),
    include_exported: Type.Optional(
      Type.String({ maxLength: 5, description: 'true: also documents an earlier export of this package holds' }),
    ),
    batch: Type.Optional(Type.String({ maxLength: 12, description: "an earlier export's documents again" })),
  },
  { additionalProperties: false },
);

interface Filters {
  from: string | null;
  to: string | null;
  clientId: number | null;
  includeExported: boolean;
  batch: number | null;
}

const idOf = (v: string | undefined) => (v && /^[1-9][0-9]{0,9}$/.test(v) && Number(v) <= 2147483647 ? Number(v) : NaN);

/** The query in the caller's words: a date that is no date, or an id that is none, answers 422 on its parameter. */
function filtersOf(q: Record<string, string | undefined>): Filters {
  const errors: Record<string, string> = {};
  const date = (k: 'from' | 'to') => {
    const v = q[k]?.trim();
    if (!v) return null;
    if (!parseStrictDate(v)) errors[k] = 'Enter a date as yyyy-MM-dd.';
    return v;
  };
  const from = date('from');
  const to = date('to');
  if (from && to && !errors.from && !errors.to && to < from) errors.to = 'Ends before From.';
  const clientId = q.client_id ? idOf(q.client_id) : null;
  if (Number.isNaN(clientId)) errors.client_id = 'Choose a client.';
  const batch = q.batch ? idOf(q.batch) : null;
  if (Number.isNaN(batch)) errors.batch = 'Choose one of the earlier exports.';
  if (q.include_exported !== undefined && !['true', 'false', ''].includes(q.include_exported))
    errors.include_exported = 'Must be true or false.';
  if (Object.keys(errors).length) throw new HttpError(422, 'Check the export’s filters.', errors);
  return { from, to, clientId, includeExported: q.include_exported === 'true', batch };
}

interface Found {
  docs: (ExportDocument & { id: number })[];
  /** Documents of the filters left out because an earlier batch of this package holds them. */
  excluded: number;
}

type Address = { line1?: string; line2?: string; city?: string; postcode?: string; country?: string } | null;
const category = (treatment: string) => (treatment === 'exempt' ? 'E' : 'S');
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * The issued invoices and the credit notes the filters name, oldest first, each with its lines and its client as
 * the export writes them; with `ids`, exactly those (an earlier batch again). Amounts are the stored pence.
 */
async function documentsOf(
  ctx: EngineContext,
  pkg: Package,
  f: Filters,
  ids?: { invoices: number[]; creditNotes: number[] },
): Promise<Found> {
  const m = ctx.principal.merchantId;
  // Which documents an earlier batch for this package holds (the batches' GIN indexes answer it).
  const inBatch = (column: string, alias: string) =>
    `exists (select 1 from invoice_export_batches b where b.merchant_id = ${alias}.merchant_id and b.package = $2 and b.${column} @> array[${alias}.id])`;
  // A custom role limited to business units exports only its units' clients' documents (issue 35); the units are
  // the session's integers, written into the statement as a literal so the numbered parameters stay as they are.
  const units = unitsOf(ctx.principal);
  const inUnits = (alias: string) =>
    units
      ? ` and ${alias}.client_id in (${unitClients(units, (v) => `'{${(v as number[]).map(Number).join(',')}}'`)})`
      : '';
  const where = (alias: string, idsParam: number[] | undefined) =>
    (idsParam
      ? `${alias}.merchant_id = $1 and ${alias}.id = any($3::int[])`
      : `${alias}.merchant_id = $1 and ($3::date is null or ${alias}.issue_date >= $3::date)
         and ($4::date is null or ${alias}.issue_date <= $4::date) and ($5::int is null or ${alias}.client_id = $5::int)`) +
    inUnits(alias);
  const params = (idsParam: number[] | undefined) =>
    idsParam ? [m, pkg, idsParam] : [m, pkg, f.from, f.to, f.clientId];
  const invoices = await ctx.db.query<{
    id: number;
    number: string;
    issue_date: string;
    due_date: string | null;
    po_number: string | null;
    client_id: number;
    exported: boolean;
  }>(
    `select i.id, i.number, to_char(i.issue_date, 'YYYY-MM-DD') as issue_date, to_char(i.due_date, 'YYYY-MM-DD') as due_date,
            i.po_number, i.client_id, ${inBatch('invoice_ids', 'i')} as exported
       from invoices i
      where ${where('i', ids?.invoices)} and i.state = any($${ids ? 4 : 6}::text[])
      order by i.issue_date, i.number`,
    [...params(ids?.invoices), ISSUED_STATES],
  );
  const notes = await ctx.db.query<{
    id: number;
    number: string;
    issue_date: string;
    client_id: number;
    invoice_number: string | null;
    exported: boolean;
  }>(
    `select c.id, c.number, to_char(c.issue_date, 'YYYY-MM-DD') as issue_date, c.client_id, i.number as invoice_number,
            ${inBatch('credit_note_ids', 'c')} as exported
       from credit_notes c join invoices i on i.merchant_id = c.merchant_id and i.id = c.invoice_id
      where ${where('c', ids?.creditNotes)}
      order by c.issue_date, c.number`,
    params(ids?.creditNotes),
  );
  const keep = <T extends { exported: boolean }>(rows: T[]) =>
    ids || f.includeExported ? rows : rows.filter((r) => !r.exported);
  const keptInvoices = keep(invoices);
  const keptNotes = keep(notes);
  const excluded = invoices.length + notes.length - keptInvoices.length - keptNotes.length;
  const invoiceIds = keptInvoices.map((i) => i.id);
  const noteIds = keptNotes.map((c) => c.id);
  const lines = invoiceIds.length
    ? await ctx.db.query<{
        invoice_id: number;
        description: string;
        quantity: string | number;
        unit_price: number;
        net: number;
        vat: number;
        vat_treatment: string;
        vat_rate: number | null;
        work_date: string;
      }>(
        `select invoice_id, description, quantity, unit_price, net, vat, vat_treatment, vat_rate,
                to_char(work_date, 'YYYY-MM-DD') as work_date
           from invoice_lines where merchant_id = $1 and invoice_id = any($2::int[]) order by invoice_id, work_date, id`,
        [m, invoiceIds],
      )
    : [];
  const noteLines = noteIds.length
    ? await ctx.db.query<{
        credit_note_id: number;
        description: string;
        net: number;
        vat: number;
        vat_treatment: string;
        vat_rate: number;
        work_date: string | null;
      }>(
        `select n.credit_note_id, n.description, n.net, n.vat, n.vat_treatment, n.vat_rate,
                to_char(l.work_date, 'YYYY-MM-DD') as work_date
           from credit_note_lines n left join invoice_lines l on l.merchant_id = n.merchant_id and l.id = n.invoice_line_id
          where n.merchant_id = $1 and n.credit_note_id = any($2::int[]) order by n.credit_note_id, n.id`,
        [m, noteIds],
      )
    : [];
  const clientIds = [...new Set([...keptInvoices, ...keptNotes].map((d) => d.client_id))];
  const clients = clientIds.length
    ? await ctx.db.query<{ id: number; name: string; email: string | null; address: Address }>(
        `select id, name, coalesce(nullif(billing_email, ''), email) as email, address from clients
          where merchant_id = $1 and id = any($2::int[])`,
        [m, clientIds],
      )
    : [];
  const contactOf = (id: number) => {
    const c = clients.find((x) => x.id === id);
    return { name: text(c?.name), email: c?.email ?? null, address: c?.address ?? null };
  };
  const group = <T, K extends keyof T>(rows: T[], key: K) => {
    const out = new Map<unknown, T[]>();
    for (const r of rows) out.set(r[key], [...(out.get(r[key]) ?? []), r]);
    return out;
  };
  const linesBy = group(lines, 'invoice_id');
  const noteLinesBy = group(noteLines, 'credit_note_id');
  const docs: (ExportDocument & { id: number })[] = [
    ...keptInvoices.map((i) => ({
      id: i.id,
      kind: 'invoice' as const,
      number: i.number,
      issuedOn: i.issue_date,
      dueOn: i.due_date,
      contact: contactOf(i.client_id),
      reference: i.po_number,
      lines: (linesBy.get(i.id) ?? []).map((l): ExportLine => ({
        description: l.description,
        minutes: Math.round(Number(l.quantity) * 60),
        unitPrice: Number(l.unit_price),
        net: Number(l.net),
        vat: Number(l.vat),
        category: category(l.vat_treatment),
        rate: Number(l.vat_rate ?? 0),
        serviceDate: l.work_date,
      })),
    })),
    ...keptNotes.map((c) => ({
      id: c.id,
      kind: 'credit_note' as const,
      number: c.number,
      issuedOn: c.issue_date,
      dueOn: null,
      contact: contactOf(c.client_id),
      reference: null,
      creditsInvoice: c.invoice_number,
      lines: (noteLinesBy.get(c.id) ?? []).map((l): ExportLine => ({
        description: l.description,
        minutes: null,
        unitPrice: null,
        net: Number(l.net),
        vat: Number(l.vat),
        category: category(l.vat_treatment),
        rate: Number(l.vat_rate),
        serviceDate: l.work_date,
      })),
    })),
  ];
  // One list by issue date, so that a file of 500 holds the oldest first whatever their kind.
  docs.sort((a, b) => a.issuedOn.localeCompare(b.issuedOn) || a.number.localeCompare(b.number));
  return { docs, excluded };
}

/** An export's files, each named for what it holds, and what the package cannot import. */
interface PackageFiles {
  files: { name: 'invoices' | 'credit-notes'; header: string[]; rows: Cell[][] }[];
  skipped: { number: string; message: string }[];
}

/** Xero: invoices for its invoice import, credit notes for its credit-note import; QuickBooks: invoices only. */
function rowsFor(pkg: Package, docs: ExportDocument[]): PackageFiles {
  try {
    if (pkg === 'quickbooks') {
      const q = quickbooksRows(docs, { item: QUICKBOOKS_ITEM });
      return { files: q.files.map((rows) => ({ name: 'invoices', header: q.header, rows })), skipped: q.skipped };
    }
    const settings = { accountCode: XERO_SALES_ACCOUNT };
    const invoices = xeroRows(docs, settings);
    const notes = xeroCreditNoteRows(docs, settings);
    return {
      files: [
        ...invoices.files.map((rows) => ({ name: 'invoices' as const, header: invoices.header, rows })),
        ...notes.files.map((rows) => ({ name: 'credit-notes' as const, header: notes.header, rows })),
      ],
      skipped: [],
    };
  } catch (e) {
    // A VAT rate the package has no name for: the domain's words.
    throw new HttpError(409, (e as Error).message);
  }
}

/** An agency's accounting exports take turns (advisory lock key; invoice runs use 32032 and 32033, pay runs 33033). */
const EXPORT_LOCK = 32034;
const PACKAGE_NAMES: Record<Package, string> = { xero: 'Xero', quickbooks: 'QuickBooks Online' };

function registerPackage(app: FastifyInstance, pkg: Package) {
  route(app, {
    method: 'GET',
    url: `/api/invoices/export/${pkg}`,
    may: { invoices: 'export', credit_notes: 'list' },
    schema: {
      tags: ['Invoices'],
      summary: `Issued invoices and credit notes for ${PACKAGE_NAMES[pkg]}'s import (CSV)`,
      description:
        'from, to: issued between (yyyy-MM-dd); client_id; include_exported=true to include documents an earlier ' +
        `export for ${PACKAGE_NAMES[pkg]} holds (left out by default); batch=<id>: an earlier export's documents again, ` +
        'recording nothing. Each export is recorded (invoice_export_batches; its id in the X-Export-Batch header, ' +
        'with X-Export-Documents, X-Export-Excluded and X-Export-Skipped). Xero imports invoices and credit notes ' +
        'apart, at most 500 a file: more than one file comes as a zip of named, numbered parts. 409 in words when ' +
        'there is nothing to export.',
      querystring: InvoiceExportQuery,
      response: { 200: fileAnswer([EXPORT_FORMATS.csv, ZIP_TYPE], 'The import file, or a zip of its parts') },
    },
    handler: async ({ req, reply, ctx, transaction }) => {
      const f = filtersOf(req.query);
      const release = await exportTurn(req.auth!, reply);
      if (!release) return reply;
      try {
        const { batchId, files, found, skipped } = await transaction(async (tx) => {
          if (f.batch !== null) {
            const [b] = await tx.db.query<{ id: number; invoice_ids: number[]; credit_note_ids: number[] }>(
              'select id, invoice_ids, credit_note_ids from invoice_export_batches where merchant_id = $1 and id = $2 and package = $3',
              [tx.principal.merchantId, f.batch, pkg],
            );
            if (!b)
              throw new HttpError(422, 'Check the export’s filters.', { batch: 'Choose one of the earlier exports.' });
            const found = await documentsOf(tx, pkg, f, {
              invoices: b.invoice_ids.map(Number),
              creditNotes: b.credit_note_ids.map(Number),
            });
            const files = rowsFor(pkg, found.docs);
            return { batchId: b.id, files, found, skipped: files.skipped };
          }
          // One export of an agency at a time: two at once would both find the same documents not yet exported.
          await tx.db.query('select pg_advisory_xact_lock($1, $2)', [EXPORT_LOCK, tx.principal.merchantId]);
          const found = await documentsOf(tx, pkg, f);
          const files = rowsFor(pkg, found.docs);
          const skippedNumbers = new Set(files.skipped.map((s) => s.number));
          const exported = found.docs.filter((d) => !skippedNumbers.has(d.number));
          if (exported.length === 0) {
            const why = [
              found.excluded
                ? `${found.excluded} issued document${found.excluded === 1 ? ' was' : 's were'} exported before (choose “Include documents exported before” to export them again)`
                : '',
              ...files.skipped.map((s) => s.message),
            ].filter(Boolean);
            throw new HttpError(
              409,
              `Nothing to export for ${PACKAGE_NAMES[pkg]}: ${why.length ? why.join('; ') : 'no invoice or credit note was issued with these filters'}.`,
            );
          }
          const batch = await tx.engine.create(
            'invoice_export_batches',
            {
              package: pkg,
              period_from: f.from,
              period_to: f.to,
              client_id: f.clientId,
              include_exported: f.includeExported,
              invoice_ids: exported.filter((d) => d.kind === 'invoice').map((d) => d.id),
              credit_note_ids: exported.filter((d) => d.kind === 'credit_note').map((d) => d.id),
              document_count: exported.length,
              file_count: files.files.length,
              excluded_count: found.excluded,
              skipped: files.skipped,
              exported_by: tx.principal.name,
            },
            { reason: `${PACKAGE_NAMES[pkg]} export` },
          );
          return { batchId: Number(batch.id), files, found, skipped: files.skipped };
        });
        const base = `${pkg}-${ctx.today}-export-${batchId}`;
        const parts = await Promise.all(files.files.map((f) => csvBuffer(f.header, f.rows)));
        reply
          .header('x-export-batch', String(batchId))
          .header('x-export-documents', String(found.docs.length - skipped.length))
          .header('x-export-excluded', String(found.excluded))
          .header('x-export-skipped', String(skipped.length));
        reply.raw.once('close', release);
        if (parts.length === 1)
          return sendDownload(reply, parts[0], EXPORT_FORMATS.csv, `${base}-${files.files[0].name}.csv`);
        // More than one import file (more documents than one import takes, or Xero's invoices and credit notes,
        // which it imports apart): one download of numbered parts, each to be imported in order.
        const named = files.files.map((f, i) => {
          const ofKind = files.files.filter((g) => g.name === f.name);
          const n = ofKind.indexOf(f) + 1;
          const name = ofKind.length > 1 ? `${f.name}-part-${n}-of-${ofKind.length}` : f.name;
          return [`${base}-${name}.csv`, new Uint8Array(parts[i])] as const;
        });
        return sendDownload(reply, Buffer.from(zipSync(Object.fromEntries(named))), ZIP_TYPE, `${base}.zip`);
      } catch (e) {
        release();
        throw e;
      }
    },
  });
}

/** The accounting exports of the invoices area. */
export async function invoiceExportRoutes(app: FastifyInstance) {
  registerPackage(app, 'xero');
  registerPackage(app, 'quickbooks');
}
