// Declared constraints across fields and records: uniqueTogether, and references that must lie within another.
import type { Row } from '../db/index.js';
import type { Problems } from '../../core/engine/validate.js';
import { ident, Params, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';

const TEXT = new Set(['text', 'longtext', 'email', 'phone']);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The declaration's constraints on the record as it will be stored, checked when the write touches one of their
 * fields (any create). Fields that already failed validation are not asked about.
 */
export async function checkConstraints(
  ctx: EngineContext,
  c: Compiled,
  record: Record<string, any>,
  stored: Row | undefined,
  known: Problems,
): Promise<Problems> {
  const problems: Problems = {};
  const merchantId = ctx.principal.merchantId;
  const touched = (fields: string[]) => !stored || fields.some((f) => !same(stored[f], record[f]));
  for (const f of c.stored) {
    const w = f.within;
    if (
      !w ||
      !f.reference ||
      known[f.source] ||
      known[w.field] ||
      record[f.source] == null ||
      record[w.field] == null ||
      !touched([f.source, w.field])
    )
      continue;
    const target = c.lookup(f.reference);
    const [row] = await ctx.db.query(
      `select ${ident(w.via)} as via from ${target.table} where merchant_id = $1 and id = $2`,
      [merchantId, record[f.source]],
    );
    if (row && !same(String(row.via), String(record[w.field]))) {
      const owner = c.byField.get(w.field)?.label.toLowerCase() ?? w.field;
      problems[f.source] = {
        message: w.message ?? `Choose one of the ${owner}’s ${target.decl.label.many.toLowerCase()}.`,
      };
    }
  }
  for (const u of c.decl.uniqueTogether ?? []) {
    const at = u.field ?? u.fields[u.fields.length - 1];
    if (u.fields.some((f) => known[f] || problems[f]) || !touched(u.fields)) continue;
    const values = u.fields.map((f) => (record[f] === '' ? null : (record[f] ?? null)));
    // Two writes of the same values wait for each other here (until commit), so both cannot pass the check.
    await ctx.db.query('select pg_advisory_xact_lock(hashtext($1))', [
      `${c.decl.table}:${merchantId}:${JSON.stringify(values)}`,
    ]);
    const p = new Params();
    const where = u.fields.map((f, i) => {
      const text = TEXT.has(c.byField.get(f)?.type ?? '');
      return text
        ? `lower(${ident(f)}) is not distinct from lower(${p.bind(values[i])}::text)`
        : `${ident(f)} is not distinct from ${p.bind(values[i])}`;
    });
    // Soft-deleted rows never collide, even where they stay listed (a deleted shift).
    const live = c.soft ? ' and deleted_at is null' : '';
    const [dup] = await ctx.db.query(
      `select ${c.storedColumns.map(ident).join(', ')} from ${c.table} where merchant_id = ${p.bind(merchantId)}${live} and id <> ${p.bind(stored?.id ?? 0)} and ${where.join(' and ')} limit 1`,
      p.values,
    );
    if (dup) problems[at] = { message: typeof u.message === 'function' ? u.message(record, dup) : u.message };
  }
  return problems;
}
