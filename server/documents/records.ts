// A record's documents (issue 31.5): declared on the resource (`documents`), drawn by a template of
// documents/templates through a reader that reads only what the reader's role may read, and kept as issued.
import { createHash } from 'node:crypto';
import type { Db, Queryable, Row } from '../db/index.js';
import { HttpError, notFound } from '../http.js';
import type { DocumentDeclaration, Role } from '../../core/engine/types.js';
import { ROLE_LOGIN } from '../../core/engine/types.js';
import { permits } from '../../core/resources/access.js';
import { ident, Params, readable, scopeWhere, selectList, writeColumns, type Compiled } from '../engine/compile.js';
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { nameOf } from '../engine/query.js';
import type { PrintedLetterhead } from './pdf/render.js';
import { printedLetterhead } from './letterhead.js';
import { RECORD_TEMPLATES } from './templates/index.js';

/**
 * What a template reads a record with: the record and its children as one reader may read them (the fields their
 * role may read, nothing else), and the names of the records it refers to.
 */
export interface RecordReader {
  /** The record: only the fields the reader may read. */
  record: Row;
  /**
   * The record's children of `resource` (declared `parent` of this resource), as the reader may read them, in the
   * order of `orderBy` (stored fields) then id; none when the reader may not list them. `fields` narrows them to
   * what the template draws (of those the reader may read): a line's other computed fields cost a subquery a row.
   */
  children(resource: string, options?: { orderBy?: string[]; fields?: string[] }): Promise<Row[]>;
  /** The names (recordRepresentation) of what a reference field of `rows` points at, when the reader reads it. */
  names(resource: string, field: string, rows: Row[]): Promise<Map<number, string>>;
  /**
   * The records a reference field of `rows` points at, by id, with those of `fields` the reader may read (an
   * invoice's client's address): none when the reader may not read the reference itself.
   */
  referenced(resource: string, field: string, rows: Row[], fields: string[]): Promise<Map<number, Row>>;
  /** Whether the reader reads this field of this resource (a column's presence: pay for the agency alone). */
  reads(resource: string, field: string): boolean;
  timeZone: string;
}

/** A record's template: what it reads (the resource's children it draws) and how it draws them. */
export interface RecordTemplate {
  /** The children it reads: a role's reading of them is part of which kept copy is theirs. */
  reads: string[];
  render(reader: RecordReader, letterhead: PrintedLetterhead): Promise<Buffer>;
}

/**
 * A reader of record `id` for `who`. `scoped`: within `who`'s row scope (a request: a row outside it is not found);
 * otherwise within the agency (the copies kept at issue, which every role's reader of the record will be served).
 */
async function readerOf(
  db: Queryable,
  c: Compiled,
  id: number,
  who: EnginePrincipal,
  { scoped, today, timeZone }: { scoped: boolean; today: string; timeZone: string },
): Promise<RecordReader> {
  const within = (r: Compiled, bind: (v: unknown) => string) =>
    scoped ? scopeWhere(r, who, bind) : `merchant_id = ${bind(who.merchantId)}${r.live}`;
  const p = new Params();
  const [record] = await db.query(
    `select ${selectList(c, who, 'record', p.bind, today)} from ${c.table} where id = ${p.bind(id)} and ${within(c, p.bind)}`,
    p.values,
  );
  if (!record) throw notFound(c.decl.label.one);
  const compiledOf = (resource: string) => (resource === c.decl.name ? c : c.lookup(resource));
  return {
    record,
    timeZone,
    reads: (resource, field) => {
      const f = compiledOf(resource).byField.get(field);
      return !!f && readable(who, f);
    },
    async children(resource, { orderBy = [], fields } = {}) {
      const child = c.lookup(resource);
      const parent = child.decl.parent;
      if (parent?.resource !== c.decl.name) throw new Error(`${resource} is no child of ${c.decl.name}`);
      if (!permits(who, child.decl, 'list')) return [];
      const q = new Params();
      const order = [...orderBy.map(ident), 'id'].join(', ');
      return db.query(
        `select ${selectList(child, who, 'record', q.bind, today, '', fields && new Set(fields))} from ${child.table}
          where ${ident(parent.field)} = ${q.bind(record.id)} and ${within(child, q.bind)} order by ${order}`,
        q.values,
      );
    },
    async names(resource, field, rows) {
      const f = compiledOf(resource).byField.get(field);
      if (!f?.reference || !readable(who, f)) return new Map();
      const target = c.lookup(f.reference);
      const ids = [...new Set(rows.map((r) => r[field]).filter((v) => v != null))];
      if (ids.length === 0) return new Map();
      const q = new Params();
      const found = await db.query(
        `select ${writeColumns(target, q.bind, today)} from ${target.table}
          where merchant_id = ${q.bind(who.merchantId)} and id = any(${q.bind(ids)}::int[])`,
        q.values,
      );
      return new Map(found.map((r) => [Number(r.id), nameOf(target, r)]));
    },
    async referenced(resource, field, rows, fields) {
      const f = compiledOf(resource).byField.get(field);
      if (!f?.reference || !readable(who, f)) return new Map();
      const target = c.lookup(f.reference);
      const ids = [...new Set(rows.map((r) => r[field]).filter((v) => v != null))];
      if (ids.length === 0) return new Map();
      const q = new Params();
      const found = await db.query(
        `select ${selectList(target, who, 'record', q.bind, today, '', new Set(fields))} from ${target.table}
          where merchant_id = ${q.bind(who.merchantId)} and id = any(${q.bind(ids)}::int[])`,
        q.values,
      );
      return new Map(found.map((r) => [Number(r.id), r]));
    },
  };
}

/**
 * The document the caller asked for (`?template=`); when none, the one the record chose (`documentChosenBy`), else the
 * first declared. One asked that is not declared is refused in words.
 */
export function documentOf(c: Compiled, asked: string | undefined, chosen?: unknown): DocumentDeclaration {
  const documents = c.decl.documents ?? [];
  const doc =
    asked === undefined || asked === ''
      ? (documents.find((d) => d.template === chosen) ?? documents[0])
      : documents.find((d) => d.template === asked);
  if (!doc)
    throw new HttpError(
      400,
      `${c.decl.label.many} have no document called "${String(asked).slice(0, 60)}". Ask for one of: ${documents.map((d) => d.template).join(', ')}.`,
      { template: 'Unknown document' },
    );
  return doc;
}

/** The file a record's document is downloaded as ('timesheet-TS-00042.pdf'). */
export const documentFileName = (c: Compiled, doc: DocumentDeclaration, record: Row) =>
  `${doc.template}-${nameOf(c, record)}`.replace(/[^\w.-]+/g, '_') + '.pdf';

/**
 * The roles that are served a kept copy, grouped by what they read of the record and of the children its template
 * reads: one copy for each group (the agency's roles read pay, the client's do not). Link holders are not among them,
 * nor staff members unless the document says so (`keptForStaff`: a payslip, its staff member's alone with every line
 * of it): what they read is their own rows, so theirs is otherwise drawn for each of them when asked.
 */
const readingsCache = new WeakMap<Compiled, Map<string, Role[][]>>();
export function readingsOf(c: Compiled, template: RecordTemplate, doc: DocumentDeclaration): Role[][] {
  const name = doc.template;
  const cached = readingsCache.get(c)?.get(name);
  if (cached) return cached;
  const groups = new Map<string, Role[]>();
  for (const [role, actions] of Object.entries(c.decl.access) as [Role, string[]][]) {
    const loginType = ROLE_LOGIN[role];
    const kept = loginType === 'agency' || loginType === 'client' || (loginType === 'staff' && doc.keptForStaff);
    if (!kept || !actions?.includes('show')) continue;
    const who = { loginType, role } as EnginePrincipal;
    const reading = [c, ...template.reads.map((r) => c.lookup(r))]
      .map((r) =>
        r === c || permits(who, r.decl, 'list')
          ? r.decl.fields.filter((f) => readable(who, f)).map((f) => f.source)
          : [],
      )
      .join('|');
    groups.set(reading, [...(groups.get(reading) ?? []), role]);
  }
  const readings = [...groups.values()];
  readingsCache.set(c, (readingsCache.get(c) ?? new Map()).set(name, readings));
  return readings;
}

/** A principal of the agency in `role`, for reading a kept copy as that role reads it (not for its row scope). */
const reading = (ctx: EngineContext, role: Role): EnginePrincipal => ({
  userId: ctx.principal.userId,
  name: ctx.principal.name,
  loginType: ROLE_LOGIN[role],
  role,
  merchantId: ctx.principal.merchantId,
  clientId: null,
});

/**
 * Renders and stores the kept copies of record `id`'s document: one for each reading (readingsOf), each in the file
 * store with its SHA-256, a row of issued_documents for each role naming its copy. In the caller's transaction: a
 * transition rolled back keeps nothing. `missing`: only the readings none of whose roles has a copy yet (a record
 * issued before its copies, or a reading's copy, were kept).
 */
async function keepCopies(
  ctx: EngineContext,
  c: Compiled,
  doc: DocumentDeclaration,
  template: RecordTemplate,
  id: number,
  { missing = false } = {},
): Promise<void> {
  const letterhead = await printedLetterhead(ctx.db, ctx.principal.merchantId);
  const held = missing
    ? new Set(
        (
          await ctx.db.query<{ role: string }>(
            'select role from issued_documents where merchant_id = $1 and resource = $2 and record_id = $3 and template = $4',
            [ctx.principal.merchantId, c.decl.name, id, doc.template],
          )
        ).map((r) => r.role),
      )
    : new Set<string>();
  for (const roles of readingsOf(c, template, doc)) {
    if (roles.some((r) => held.has(r))) continue;
    const reader = await readerOf(ctx.db, c, id, reading(ctx, roles[0]), {
      scoped: false,
      today: ctx.today,
      timeZone: ctx.timeZone,
    });
    const pdf = await template.render(reader, letterhead);
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    // The file is owned by 'issued_documents', no resource: GET /api/files/{id} serves it to nobody.
    await ctx.db.query(
      `with f as (
         insert into files (merchant_id, name, mime, size, sha256, data, owner_resource, owner_id, owner_field)
         values ($1, $2, 'application/pdf', $3, $4, $5, 'issued_documents', $6, $7) returning id)
       insert into issued_documents (merchant_id, resource, record_id, template, role, file_id, sha256, issued_by)
       select $1, $8, $6, $9, role, f.id, $4, $10 from f, unnest($11::text[]) as role`,
      [
        ctx.principal.merchantId,
        documentFileName(c, doc, reader.record),
        pdf.length,
        sha256,
        pdf,
        id,
        `${c.decl.name}:${doc.template}`,
        c.decl.name,
        doc.template,
        ctx.principal.userId || null,
        roles,
      ],
    );
  }
}

/** The server's template of a declared document (documentRoutes checks every declared one at start). */
export const templateOf = (name: string): RecordTemplate => {
  const t = RECORD_TEMPLATES[name];
  if (!t) throw new Error(`No record template ${name}`);
  return t;
};

/**
 * The write path's part (runAction, after the transition's writes): the documents `action` issues are rendered
 * and kept for each record it moved, in its transaction.
 */
export async function keepIssuedDocuments(ctx: EngineContext, c: Compiled, action: string, ids: number[]) {
  for (const doc of c.decl.documents ?? [])
    if (doc.keptFrom === action) for (const id of ids) await keepCopies(ctx, c, doc, templateOf(doc.template), id);
}

/**
 * The engine's create's part: documents kept from creation (`keptFrom: 'create'`) of records just created, kept at
 * the end of the action that runs the create (a credit note's lines are written after it, by the same action) or,
 * when no action runs, now. Always in the create's transaction.
 */
export async function keepCreatedDocuments(ctx: EngineContext, c: Compiled, ids: number[]) {
  const docs = (c.decl.documents ?? []).filter((d) => d.keptFrom === 'create');
  if (docs.length === 0 || ids.length === 0) return;
  const keep = async () => {
    for (const doc of docs) for (const id of ids) await keepCopies(ctx, c, doc, templateOf(doc.template), id);
  };
  if (ctx.keeping) ctx.keeping.push(keep);
  else await keep();
}

/**
 * The copies of record `id`'s kept documents that no role has yet (a record issued before its copies, or a reading's
 * copy, were kept), rendered and kept now, in the caller's transaction (which holds the record's row lock).
 */
export async function keepMissingCopies(ctx: EngineContext, c: Compiled, id: number) {
  for (const doc of c.decl.documents ?? [])
    if (doc.keptFrom) await keepCopies(ctx, c, doc, templateOf(doc.template), id, { missing: true });
}

interface KeptCopy {
  pdf: Buffer;
  sha256: string;
  name: string;
}

/**
 * The kept copies served lately, in this process, up to SERVED_BYTES (the least recently served go first). A kept
 * copy never changes (its row refuses updates) and the caller's row scope is checked before one is looked up, so
 * memory answers as the database would, without reading the file's bytes again (a 500-line timesheet is 70 KB).
 */
const SERVED_BYTES = 32 * 2 ** 20;
const served = new Map<string, KeptCopy>();
let servedBytes = 0;

/** Forgets the kept copies served: for tests, whose files each have a database in which the same ids mean others. */
export function forgetServedCopies() {
  served.clear();
  servedBytes = 0;
}

/** A kept copy as a reader of `role` is served it, or null when none was kept. */
async function keptCopy(
  db: Queryable,
  c: Compiled,
  doc: DocumentDeclaration,
  id: number,
  who: EnginePrincipal,
  /** false inside the transaction that keeps it: remembered once committed, at its next serving. */
  remember = true,
): Promise<KeptCopy | null> {
  const key = `${who.merchantId}:${c.decl.name}:${id}:${doc.template}:${who.role}`;
  const known = served.get(key);
  if (known) {
    served.delete(key);
    served.set(key, known);
    return known;
  }
  const [row] = await db.query<{ data: Uint8Array; sha256: string; name: string }>(
    `select f.data, d.sha256, f.name from issued_documents d join files f on f.merchant_id = d.merchant_id and f.id = d.file_id
      where d.merchant_id = $1 and d.resource = $2 and d.record_id = $3 and d.template = $4 and d.role = $5`,
    [who.merchantId, c.decl.name, id, doc.template, who.role],
  );
  if (!row) return null;
  const copy: KeptCopy = {
    pdf: Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength),
    sha256: row.sha256,
    name: row.name,
  };
  if (!remember) return copy;
  served.set(key, copy);
  servedBytes += copy.pdf.length;
  for (const [k, v] of served) {
    if (servedBytes <= SERVED_BYTES) break;
    served.delete(k);
    servedBytes -= v.pdf.length;
  }
  return copy;
}

/**
 * Whether the record is past the transition that issues the document: in a state it leads to, or one reached from
 * there (an invoice issued, then sent, part-paid or paid: its copy was kept at issue and is served as kept).
 */
function isIssued(c: Compiled, doc: DocumentDeclaration, state: unknown): boolean {
  if (doc.keptFrom === 'create') return true;
  const transitions = c.decl.lifecycle?.transitions ?? [];
  const targets = (t: (typeof transitions)[number]) => (t.to === undefined ? [] : Array.isArray(t.to) ? t.to : [t.to]);
  const issued = new Set(transitions.filter((t) => t.action === doc.keptFrom).flatMap(targets));
  for (let grew = true; grew;) {
    grew = false;
    for (const t of transitions)
      if (t.from.some((s) => issued.has(s))) for (const s of targets(t)) if (!issued.has(s)) grew = !!issued.add(s);
  }
  return issued.has(state as string);
}

/**
 * The caller's PDF of record `id` (within their row scope: 404 outside it): the copy kept for their role once the
 * record is issued, otherwise drawn now from the record as they may read it. A record issued before its copies
 * were kept (locked before issue 31.5) has them kept at its first print.
 */
export async function recordDocument(
  ctx: EngineContext,
  db: Db,
  c: Compiled,
  id: number,
  asked: string | undefined,
): Promise<{ pdf: Buffer; name: string; sha256?: string }> {
  const who = ctx.principal;
  const p = new Params();
  const lifecycleField = c.decl.lifecycle?.field;
  const chosenBy = c.decl.documentChosenBy;
  const [row] = await ctx.db.query(
    `select id${lifecycleField ? `, ${ident(lifecycleField)} as state` : ''}${chosenBy ? `, ${ident(chosenBy)} as chosen` : ''} from ${c.table} where id = ${p.bind(id)} and ${scopeWhere(c, who, p.bind)}`,
    p.values,
  );
  if (!row) throw notFound(c.decl.label.one);
  // Asked of a record the caller may see: one outside their scope answers 404 whatever the template.
  const doc = documentOf(c, asked, row.chosen);
  const template = templateOf(doc.template);
  const kept = doc.keptFrom && readingsOf(c, template, doc).some((roles) => roles.includes(who.role));
  if (kept && isIssued(c, doc, row.state)) {
    const copy = await keptCopy(ctx.db, c, doc, id, who);
    if (copy) return copy;
    // Issued before its copies (or this reading's) were kept: kept now, once (the record's row lock orders two first
    // prints).
    return db.transaction(async (tx) => {
      await tx.query(`select id from ${c.table} where id = $1 and merchant_id = $2 for update`, [id, who.merchantId]);
      const again = await keptCopy(tx, c, doc, id, who, false);
      if (again) return again;
      await keepCopies({ ...ctx, db: tx }, c, doc, template, id, { missing: true });
      return (await keptCopy(tx, c, doc, id, who, false))!;
    });
  }
  const reader = await readerOf(ctx.db, c, id, who, { scoped: true, today: ctx.today, timeZone: ctx.timeZone });
  const pdf = await template.render(reader, await printedLetterhead(ctx.db, who.merchantId));
  return { pdf, name: documentFileName(c, doc, reader.record) };
}
