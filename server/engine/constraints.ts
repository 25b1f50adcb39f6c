// Declared constraints across fields and records: uniqueTogether, references that must lie within another, and
// references to records holding given values (referenceWhere).
import type { Row } from '../db/index.js';
import type { Problems } from '../../core/engine/validate.js';
import { normaliseText } from '../../core/engine/text.js';
import { ident, Params, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import type { RecordValues } from '../../core/engine/types.js';

const TEXT = new Set(['text', 'longtext', 'email', 'phone']);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A record a write is about to store, with its stored version on an update and what already failed. */
export interface Constrained {
  record: RecordValues;
  stored?: Row;
  known: Problems;
}

/**
 * The declaration's constraints on records as they will be stored (one, or many created at once), each checked when
 * the write touches one of its fields (any create). Fields that already failed validation are not asked about. One
 * statement per constraint whatever the number of records; records of one write that collide with each other are
 * refused as if the earlier one were already stored. The problems come back by record.
 */
export async function checkConstraints(ctx: EngineContext, c: Compiled, items: Constrained[]): Promise<Problems[]> {
  const out: Problems[] = items.map(() => ({}));
  const merchantId = ctx.principal.merchantId;
  const touched = (x: Constrained, fields: string[]) =>
    !x.stored || fields.some((f) => !same(x.stored![f], x.record[f]));
  for (const f of c.stored) {
    const w = f.within;
    if (!w || !f.reference) continue;
    const asking = items.flatMap((x, i) =>
      x.known[f.source] ||
      x.known[w.field] ||
      x.record[f.source] == null ||
      x.record[w.field] == null ||
      !touched(x, [f.source, w.field])
        ? []
        : [i],
    );
    if (asking.length === 0) continue;
    const target = c.lookup(f.reference);
    const rows = await ctx.db.query(
      `select id, ${ident(w.via)} as via from ${target.table} where merchant_id = $1 and id = any($2::int[])`,
      [merchantId, [...new Set(asking.map((i) => Number(items[i].record[f.source])))]],
    );
    const via = new Map(rows.map((r) => [Number(r.id), r.via]));
    const owner = c.byField.get(w.field)?.label.toLowerCase() ?? w.field;
    for (const i of asking) {
      const record = items[i].record;
      // A missing target is the reference check's to refuse.
      if (
        !via.has(Number(record[f.source])) ||
        same(String(via.get(Number(record[f.source]))), String(record[w.field]))
      )
        continue;
      out[i][f.source] = {
        message: w.message ?? `Choose one of the ${owner}’s ${target.decl.label.many.toLowerCase()}.`,
      };
    }
  }
  for (const f of c.stored) {
    const rw = f.referenceWhere;
    if (!rw || !f.reference) continue;
    // Only a reference the write sets or changes: a record keeps an archived unit it already had.
    const asking = items.flatMap((x, i) =>
      x.known[f.source] || out[i][f.source] || x.record[f.source] == null || !touched(x, [f.source]) ? [] : [i],
    );
    if (asking.length === 0) continue;
    const target = c.lookup(f.reference);
    const p = new Params();
    const holds = Object.entries(rw.values)
      .map(([col, v]) => `${ident(col)}::text = ${p.bind(v)}`)
      .join(' and ');
    const rows = await ctx.db.query(
      `select id, ${holds} as holds from ${target.table} where merchant_id = ${p.bind(merchantId)} and id = any(${p.bind([...new Set(asking.map((i) => Number(items[i].record[f.source])))])}::int[])`,
      p.values,
    );
    const ok = new Map(rows.map((r) => [Number(r.id), r.holds === true]));
    // A missing target is the reference check's to refuse.
    for (const i of asking)
      if (ok.get(Number(items[i].record[f.source])) === false) out[i][f.source] = { message: rw.message };
  }
  for (const u of c.decl.uniqueTogether ?? []) {
    const at = u.field ?? u.fields[u.fields.length - 1];
    const asking = items.flatMap((x, i) =>
      u.fields.some((f) => x.known[f] || out[i][f]) || !touched(x, u.fields) ? [] : [i],
    );
    if (asking.length === 0) continue;
    const text = u.fields.map((f) => TEXT.has(c.byField.get(f)?.type ?? ''));
    const valuesOf = (record: RecordValues) => u.fields.map((f) => (record[f] === '' ? null : (record[f] ?? null)));
    const messageOf = (record: RecordValues, dup: Row) =>
      typeof u.message === 'function' ? u.message(record, dup) : u.message;
    // Two writes of the same values wait for each other here (until commit), so both cannot pass the check. Taken
    // in one order by every write, so two writes of many records cannot deadlock.
    const locks = [
      ...new Set(asking.map((i) => `${c.decl.table}:${merchantId}:${JSON.stringify(valuesOf(items[i].record))}`)),
    ];
    await ctx.db.query(
      'select count(pg_advisory_xact_lock(hashtext(k))) from (select k from unnest($1::text[]) as k order by k) as l',
      [locks.sort()],
    );
    // The records' values as the table's own row type (json_populate_recordset), matched against the live rows on
    // their values together: an empty value matching an empty one, text without regard to case.
    const p = new Params();
    const wanted = p.bind(
      JSON.stringify(
        asking.map((i) => ({
          ...Object.fromEntries(u.fields.map((f, k) => [f, valuesOf(items[i].record)[k]])),
          id: items[i].stored?.id ?? 0,
        })),
      ),
    );
    const key = (alias: string) =>
      `jsonb_build_array(${u.fields.map((f, k) => (text[k] ? `lower(${alias}.${ident(f)})` : `${alias}.${ident(f)}`)).join(', ')})`;
    // An equality on the first field as well, when no record leaves it empty, so its index can serve the match.
    const first = u.fields[0];
    const narrow = asking.every((i) => valuesOf(items[i].record)[0] != null)
      ? ` and ${text[0] ? `lower(x.${ident(first)}) = lower(v.${ident(first)})` : `x.${ident(first)} = v.${ident(first)}`}`
      : '';
    // Soft-deleted rows never collide, even where they stay listed (a deleted shift).
    const live = c.soft ? ' and x.deleted_at is null' : '';
    const dups = await ctx.db.query(
      `select v.ordinality as i, ${c.storedColumns.map((col) => `x.${ident(col)}`).join(', ')}
         from json_populate_recordset(null::${c.table}, ${wanted}::json) with ordinality as v
         join ${c.table} x on x.merchant_id = ${p.bind(merchantId)}${live} and x.id <> v.id${narrow} and ${key('x')} = ${key('v')}`,
      p.values,
    );
    const taken = new Map<number, Row>();
    for (const { i, ...dup } of dups) taken.set(asking[Number(i) - 1], dup);
    const earlier = new Map<string, RecordValues>();
    for (const i of asking) {
      const record = items[i].record;
      const k = JSON.stringify(
        valuesOf(record).map((v, n) => (text[n] && typeof v === 'string' ? normaliseText(v).toLowerCase() : v)),
      );
      const dup = taken.get(i) ?? earlier.get(k);
      if (dup) out[i][at] = { message: messageOf(record, dup) };
      else earlier.set(k, record);
    }
  }
  return out;
}
