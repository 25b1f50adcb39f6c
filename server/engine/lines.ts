// Documents with lines (ParentDeclaration.lines): lines locked with their document, the document's rollups and its
// derived state kept by the write path itself, in the transaction of every write of a line or of the document.
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import type { LinesDeclaration, RecordValues, ResourceDeclaration, Rollup } from '../../core/engine/types.js';
import { linesRefusal } from '../../core/engine/lifecycle.js';
import { ident, Params, type Compiled } from './compile.js';
import { columnType } from './ddl.js';
import { auditMany, diff } from './audit.js';
import type { EngineContext } from './context.js';

/** A line resource's declaration of its document (its parent field and its `lines`). */
const linesOf = (c: Compiled) => {
  const parent = c.decl.parent;
  return parent?.lines ? { ...parent, lines: parent.lines } : undefined;
};

/** The declarations' `lines` checked at start-up: a mistake fails there, never on a request. */
export function linesProblems(registry: Map<string, Compiled>): string[] {
  const out: string[] = [];
  for (const c of registry.values()) {
    const p = linesOf(c);
    if (!p) continue;
    const parent = registry.get(p.resource)?.decl;
    const where = `${c.decl.name}.parent.lines`;
    if (!parent?.lifecycle) {
      out.push(`${where}: ${p.resource} needs a lifecycle`);
      continue;
    }
    const states = new Set(parent.fields.find((f) => f.source === parent.lifecycle!.field)?.choices?.map((x) => x.id));
    for (const s of [...p.lines.editableIn, ...Object.values(p.lines.actionsIn ?? {}).flat()])
      if (!states.has(s)) out.push(`${where} names unknown state '${s}' of ${parent.name}`);
    for (const a of Object.keys(p.lines.actionsIn ?? {}))
      if (!c.actions.has(a)) out.push(`${where}.actionsIn names ${a}, which is no action of ${c.decl.name}`);
    const lineField = (f: string) => c.stored.some((x) => x.source === f);
    for (const [field, r] of Object.entries(p.lines.rollups ?? {})) {
      const target = parent.fields.find((f) => f.source === field);
      if (!target || target.computed || !target.readOnly)
        out.push(`${where}.rollups: ${parent.name}.${field} must be a stored readOnly field`);
      const read = 'sum' in r ? [r.sum, ...Object.keys(r.where ?? {})] : r.count === 'all' ? [] : Object.keys(r.count);
      for (const f of read) if (!lineField(f)) out.push(`${where}.rollups.${field} reads ${f}, no stored field`);
    }
    for (const f of p.lines.derive?.reads ?? []) if (!lineField(f)) out.push(`${where}.derive reads ${f}, no field`);
  }
  return out;
}

const key = (resource: string, id: unknown) => `${resource}:${Number(id)}`;

/**
 * Runs a write of a document, or of several at once (its own action, its delete, a set-based transition), during
 * which its lines may change: their writes leave the document to it (its own write recomputes its rollups and state
 * from the lines once, with one version and one audit entry, instead of one per line).
 */
export async function writingDocument<T>(
  ctx: EngineContext,
  c: Compiled,
  ids: number | number[],
  run: () => Promise<T>,
) {
  if (c.lineResources.length === 0 || !ctx.documents) return run();
  // Several at once for a set-based write of documents; each left to the write that marked it first.
  const keys = (Array.isArray(ids) ? ids : [ids])
    .map((id) => key(c.decl.name, id))
    .filter((k) => !ctx.documents!.has(k));
  for (const k of keys) ctx.documents.add(k);
  try {
    return await run();
  } finally {
    for (const k of keys) ctx.documents.delete(k);
  }
}

/**
 * Refuses (409, in the declaration's words) writes of lines whose document's state locks them, for every writer: a
 * create, edit or delete (no action) or a line action. `records` are the lines as they will be stored; one read of
 * their documents, locked (a document changes state only after its lines' writes wait for it).
 */
export async function refuseLockedLines(
  ctx: EngineContext,
  c: Compiled,
  records: RecordValues[],
  action?: string,
  /** Names a refused line by its position (createMany) or the line itself. */
  name?: (i: number, why: string) => Error,
): Promise<void> {
  const p = linesOf(c);
  if (!p || records.length === 0) return;
  const parent = c.lookup(p.resource);
  const lc = parent.decl.lifecycle!;
  const ids = [...new Set(records.map((r) => Number(r[p.field])).filter(Number.isFinite))];
  const rows = await ctx.db.query(
    `select id, ${ident(lc.field)} from ${parent.table} where merchant_id = $1 and id = any($2::int[]) order by id for update`,
    [ctx.principal.merchantId, ids],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  for (const [i, r] of records.entries()) {
    const doc = byId.get(Number(r[p.field]));
    // A missing document is the reference check's to refuse, in its words.
    const why = doc && linesRefusal(c.decl, parent.decl, doc, action);
    if (why) throw name ? name(i, why) : new HttpError(409, why);
  }
}

function rollupSql(r: Rollup, bind: (v: unknown) => string): string {
  const only = (fields: Record<string, readonly string[]>) =>
    ` filter (where ${Object.entries(fields)
      .map(([f, values]) => `${ident(f)} = any(${bind(values)}::text[])`)
      .join(' and ')})`;
  if ('sum' in r) return `coalesce(sum(${ident(r.sum)})${r.where ? only(r.where) : ''}, 0)`;
  if (r.count === 'all') return 'count(*)';
  return `count(*)${only(r.count)}`;
}

/**
 * What each document's lines make of it: its rollups (an aggregate statement per line resource, whatever the number
 * of documents) and its derived state (the declared rule, over the lines' fields it reads). `docs` are the documents
 * as they are about to be stored; the answer is the fields that differ, by document id.
 */
export async function fromLines(ctx: EngineContext, c: Compiled, docs: Row[]): Promise<Map<number, Row>> {
  const out = new Map<number, Row>(docs.map((d) => [Number(d.id), {}]));
  if (docs.length === 0) return out;
  const now = ctx.now.toISOString();
  for (const name of c.lineResources) {
    const line = c.lookup(name);
    const { field, lines } = linesOf(line)!;
    const rollups = Object.entries(lines.rollups ?? {});
    const reads = lines.derive?.reads ?? [];
    const p = new Params();
    const cols = rollups.map(([, r], i) => `${rollupSql(r, p.bind)} as "r${i}"`);
    const picked = reads.map((f) => `'${f}', ${ident(f)}`).join(', ');
    if (reads.length) cols.push(`coalesce(json_agg(json_build_object(${picked}) order by id), '[]') as "lines"`);
    // Lines that only lock with their document (a payslip's) make nothing of it.
    if (cols.length === 0) continue;
    const found = await ctx.db.query(
      `select ${ident(field)} as "parent", ${cols.join(', ')} from ${line.table}
        where merchant_id = ${p.bind(ctx.principal.merchantId)}${line.soft ? ' and deleted_at is null' : ''}
          and ${ident(field)} = any(${p.bind(docs.map((d) => Number(d.id)))}::int[])
        group by ${ident(field)}`,
      p.values,
    );
    const byParent = new Map(found.map((r) => [Number(r.parent), r]));
    for (const doc of docs) {
      const agg = byParent.get(Number(doc.id));
      const patch = out.get(Number(doc.id))!;
      rollups.forEach(([f], i) => {
        const v = Number(agg?.[`r${i}`] ?? 0);
        if (Number(doc[f] ?? 0) !== v) patch[f] = v;
      });
      const derived = lines.derive?.rule({ ...doc, ...patch }, agg?.lines ?? [], now) ?? {};
      for (const [f, v] of Object.entries(derived)) if (!sameValue(c, f, doc[f], v)) patch[f] = v;
      checkState(c, lines, patch);
    }
  }
  return out;
}

const asText = (v: unknown) => (v instanceof Date ? v.toISOString() : v == null ? null : String(v));
const sameValue = (c: Compiled, f: string, a: unknown, b: unknown) =>
  c.byField.get(f)?.type === 'datetime' && a != null && b != null
    ? Date.parse(asText(a)!) === Date.parse(asText(b)!)
    : asText(a) === asText(b);

/** A rule that answers a state its parent's lifecycle does not have is a programming mistake. */
function checkState(c: Compiled, lines: LinesDeclaration, patch: Row) {
  const lc = c.decl.lifecycle!;
  if (!(lc.field in patch)) return;
  const field = c.byField.get(lc.field)!;
  if (!field.choices?.some((x) => x.id === patch[lc.field]))
    throw new Error(
      `${lines.derive?.rule.name || 'derive'} made ${c.decl.name} '${patch[lc.field]}', which is no state of its lifecycle`,
    );
}

/**
 * After lines were written: their documents take what the lines now make of them (rollups, derived state) in set
 * form, one UPDATE … FROM and one audit statement for any number of documents, each a new version with its own
 * entry naming the rule. A document whose own write is running (writingDocument) is left to that write.
 */
export async function refreshDocuments(ctx: EngineContext, line: Compiled, parentIds: unknown[]): Promise<boolean> {
  const p = linesOf(line);
  if (!p) return false;
  const c = line.lookup(p.resource);
  const ids = [...new Set(parentIds.map(Number).filter(Number.isFinite))].filter(
    (id) => !ctx.documents?.has(key(c.decl.name, id)),
  );
  if (ids.length === 0) return false;
  const docs = await ctx.db.query(
    `select ${c.storedColumns.map(ident).join(', ')} from ${c.table} where merchant_id = $1 and id = any($2::int[]) order by id for update`,
    [ctx.principal.merchantId, ids],
  );
  if (docs.length === 0) return false;
  const patches = await fromLines(ctx, c, docs);
  const changed = docs.filter((d) => Object.keys(patches.get(Number(d.id))!).length);
  if (changed.length === 0) return false;
  const cols = [...new Set(changed.flatMap((d) => Object.keys(patches.get(Number(d.id))!)))];
  const typeOf = (f: string) => {
    const t = columnType(c.byField.get(f)!);
    return t === 'timestamp with time zone' ? 'timestamptz' : t;
  };
  const values = changed.map((d) => ({
    id: Number(d.id),
    ...Object.fromEntries(cols.map((f) => [f, d[f]])),
    ...patches.get(Number(d.id)),
  }));
  const written = await ctx.db.query(
    `update ${c.table} t set ${cols.map((f) => `${ident(f)} = x.${ident(f)}`).join(', ')}, version = t.version + 1, updated_at = now()
       from jsonb_to_recordset($2::jsonb) as x(id int, ${cols.map((f) => `${ident(f)} ${typeOf(f)}`).join(', ')})
      where t.merchant_id = $1 and t.id = x.id
      returning ${c.storedColumns.map((col) => `t.${ident(col)}`).join(', ')}`,
    [ctx.principal.merchantId, JSON.stringify(values)],
  );
  ctx.touched?.add(c.decl.table);
  await auditDocuments(ctx, c, line.decl, docs, written);
  return true;
}

/** One audit statement for the documents a line write changed: each entry says which lines, and by which rule. */
async function auditDocuments(ctx: EngineContext, c: Compiled, line: ResourceDeclaration, before: Row[], after: Row[]) {
  const was = new Map(before.map((r) => [Number(r.id), r]));
  const rule = line.parent?.lines?.derive?.rule.name;
  await auditMany(
    ctx,
    c,
    after.map((row) => ({ row, changes: diff(c, was.get(Number(row.id)), row) })),
    'update',
    { input: { reason: `Its ${line.label.many.toLowerCase()} changed`, ...(rule ? { rule } : {}) } },
  );
}
