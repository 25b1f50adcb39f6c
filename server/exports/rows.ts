import type { Row } from '../db/index.js';
import { Params, readable, scopeWhere, selectList, type Compiled } from '../engine/compile.js';
import type { EngineContext } from '../engine/context.js';
import { buildWhere, parsePaging, sortExpression } from '../engine/query.js';
import { customFieldsOf } from '../engine/customFields.js';
import { permits } from '../../core/resources/access.js';
import { exportCell, exportedFields, type Related } from '../../core/engine/exportFormat.js';
import { getPath } from '../../core/engine/validate.js';
import type { FieldDeclaration } from '../../core/engine/types.js';

/** Rows read from the database at a time: a page's rows and their references are all the memory an export holds. */
export const EXPORT_PAGE = 1000;

/**
 * The rows of a list, as the list would answer them (the same filters, search, tab, sort, row scope and read
 * policy: buildWhere, parsePaging and selectList are the list's own), page after page until the last, without
 * OFFSET: each page starts after the last row of the one before (keyset on the sort value and the id, which the
 * list's sort indexes hold), so the 100th page costs what the first does. PostgreSQL puts nulls last going up and
 * first going down; rows with a null sort value are read as a part of their own (by id), so each part's condition
 * is a plain range an index serves. The last sort value is carried as PostgreSQL's own text of it (a timestamp's
 * microseconds included, which a JavaScript date would drop) and read back as the column's type. Rows written
 * meanwhile may or may not be included, as with paging a list.
 */
export async function* listRowPages(
  ctx: EngineContext,
  c: Compiled,
  query: Record<string, string>,
  pageSize = EXPORT_PAGE,
  /** The fields the rows need (and the id); every field of the list when not given. */
  only?: Set<string>,
): AsyncGenerator<Row[]> {
  const { page: _page, per_page: _perPage, ...filters } = query;
  const { sort, order } = parsePaging(c, ctx.principal, filters);
  const dir = order === 'desc' ? 'desc' : 'asc';
  const cmp = order === 'desc' ? '<' : '>';
  const parts: ('values' | 'nulls')[] = order === 'desc' ? ['nulls', 'values'] : ['values', 'nulls'];
  for (const part of parts) {
    let last: { key: unknown; id: number } | null = null;
    for (;;) {
      const p = new Params();
      const built = buildWhere(c, ctx, filters, p);
      const select = selectList(c, ctx.principal, 'list', p.bind, ctx.today, '', only);
      const key = sortExpression(c, sort, p.bind, ctx.today);
      // After the last row: its sort value or beyond (a plain range, which a source that cannot compare the pair
      // before it expands its rows narrows by: the audit trail's sets by their time), then the pair.
      const after = last && part === 'values' ? { key: p.bind(last.key), id: p.bind(last.id) } : undefined;
      const where =
        part === 'values'
          ? `${built.where} and ${key} is not null${after ? ` and ${key} ${cmp}= ${after.key} and (${key}, id) ${cmp} (${after.key}, ${after.id})` : ''}`
          : `${built.where} and ${key} is null${last ? ` and id ${cmp} ${p.bind(last.id)}` : ''}`;
      // What the page reads: the table, or what the behaviour builds for it (SourceBuilders), as a list's page.
      const source = c.behaviour.source?.page?.(
        { where, filtered: built.fields, sort: part === 'values' ? sort : 'id', order, rows: pageSize, after },
        p.bind,
      );
      const from = source ? `${source} as ${c.table}` : c.table;
      const sql: string =
        part === 'values'
          ? `select ${select}, (${key})::text as "__key" from ${from} where ${where} order by ${key} ${dir}, id ${dir} limit ${pageSize}`
          : `select ${select}, null as "__key" from ${from} where ${where} order by id ${dir} limit ${pageSize}`;
      const rows: Row[] = await ctx.db.query(sql, p.values);
      if (rows.length === 0) break;
      const tail: Row = rows[rows.length - 1];
      last = { key: tail.__key, id: Number(tail.id) };
      for (const r of rows) delete r.__key;
      yield rows;
      if (rows.length < pageSize) break;
    }
  }
}

/**
 * The names of the records a page refers to, for its reference columns: each target read as its own list would
 * answer the caller (its row scope and select list), and only targets the caller may list, so a file never names
 * more than a getMany of those ids would. A reference the caller may not follow keeps its id.
 */
export async function referencedNames(
  ctx: EngineContext,
  c: Compiled,
  fields: FieldDeclaration[],
  rows: Row[],
): Promise<Related> {
  const out: Related = new Map();
  const wanted = new Map<string, Set<number>>();
  for (const f of fields) {
    if ((f.type !== 'reference' && f.type !== 'references') || !f.reference) continue;
    if (!permits(ctx.principal, c.lookup(f.reference).decl, 'list')) continue;
    const ids = wanted.get(f.reference) ?? new Set<number>();
    for (const r of rows)
      for (const id of [getPath(r, f.source)].flat())
        if (id !== null && id !== undefined && id !== '') ids.add(Number(id));
    wanted.set(f.reference, ids);
  }
  for (const [name, ids] of wanted) {
    if (ids.size === 0) continue;
    const target = c.lookup(name);
    const p = new Params();
    const where = scopeWhere(target, ctx.principal, p.bind);
    const list = p.bind([...ids]);
    const found = await ctx.db.query(
      `select ${selectList(target, ctx.principal, 'list', p.bind, ctx.today)} from ${target.table} where ${where} and id = any(${list})`,
      p.values,
    );
    out.set(name, new Map(found.map((r) => [String(r.id), r])));
  }
  return out;
}

/** A list written out: its columns (labels) and its rows as cells, page by page. */
export interface ExportTable {
  headers: string[];
  fields: FieldDeclaration[];
  pages: AsyncGenerator<(string | number)[][]>;
}

/**
 * The caller's export of a list: the declaration's columns they may read (never pay for a client user), the
 * agency's custom fields, and each page's rows as cells (exportFormat's rules, shared with the browser; times on
 * the agency's clock, whatever the server's).
 */
export async function exportTable(
  ctx: EngineContext,
  c: Compiled,
  query: Record<string, string>,
  options: { pageSize?: number; fields?: (fields: FieldDeclaration[]) => FieldDeclaration[] } = {},
): Promise<ExportTable> {
  // A reference the caller may not follow (a client user's shift names its staff member, whose records they do
  // not list) is left out, so the column of the same label that they may read (the name) takes its place.
  const followable = (f: FieldDeclaration) =>
    (f.type !== 'reference' && f.type !== 'references') ||
    !f.reference ||
    permits(ctx.principal, c.lookup(f.reference).decl, 'list');
  const all = exportedFields(c.decl, await customFieldsOf(ctx, c), (f) => readable(ctx.principal, f) && followable(f));
  const fields = options.fields ? options.fields(all) : all;
  const declarations = [...new Set(fields.map((f) => f.reference).filter(Boolean))].map((n) => c.lookup(n!).decl);
  // Reading the first page here lets a bad filter answer 400 before any byte of the file is sent.
  // Only the columns the file writes: a list's other columns (a shift's price lines and booking checks, JSON) cost
  // reading and decoding on every row.
  const source = listRowPages(ctx, c, query, options.pageSize, new Set(fields.map((f) => f.source.split('.')[0])));
  const first = await source.next();
  /** A page of rows with the names of what they refer to, or null after the last. */
  const named = async (next: IteratorResult<Row[]>) =>
    next.done ? null : { rows: next.value, related: await referencedNames(ctx, c, fields, next.value) };
  async function* pages() {
    let page = await named(first);
    while (page) {
      // The next page and its names are read while this one is written out, so the database's time and ours
      // overlap. Handled here too: a download left early never awaits it.
      const coming = source.next().then(named);
      coming.catch(() => undefined);
      const { rows, related } = page;
      yield rows.map((r) => {
        const cells: (string | number)[] = [Number(r.id)];
        for (const f of fields) cells.push(exportCell(f, getPath(r, f.source), related, declarations, ctx.timeZone));
        return cells;
      });
      page = await coming;
    }
  }
  return { headers: ['ID', ...fields.map((f) => f.label)], fields, pages: pages() };
}
