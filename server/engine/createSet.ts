// Creating many records of one resource in one statement (generation runs): the set-based form of a create.
import type { Row } from '../db/index.js';
import { badInput } from '../http.js';
import { validateRecord } from '../../core/engine/validate.js';
import { toFieldErrors } from './messages.js';
import { columnType } from './ddl.js';
import { ident, Params, scopeWhere, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';

const SQL_TYPE: Record<string, string> = { ARRAY: 'integer[]', 'timestamp with time zone': 'timestamptz' };

/**
 * Creates `records` of one resource as the caller, all or nothing, with a fixed number of statements whatever their
 * number: each record validated against the declaration, each reference field checked in the caller's scope with one
 * query, one INSERT … SELECT over the set, one audit insert. Values the server derives are the caller's to give (no
 * per-record hooks run: the caller is the set's hook); numbering and unique fields are left to the database's
 * constraints (a unique violation rolls the whole set back). Answers the stored rows, in the order given.
 *
 * The engine's general `createMany` (issue 16) will take its place; the callers' shape is the same.
 */
export async function createSet(
  ctx: EngineContext,
  c: Compiled,
  records: Record<string, unknown>[],
  options: { reason?: string } = {},
): Promise<Row[]> {
  if (records.length === 0) return [];
  if (c.decl.numbering) throw new Error(`${c.decl.name}: createSet does not number records`);
  const storable = c.stored.filter((f) => f.source !== 'created_at');
  const full = records.map((r) =>
    Object.fromEntries(storable.map((f) => [f.source, r[f.source] ?? f.defaultValue ?? null])),
  );
  full.forEach((r, i) => {
    const problems = validateRecord(c.decl, r, [], ctx.today);
    if (Object.keys(problems).length) throw badInput(toFieldErrors(problems), `Record ${i + 1} is not valid`);
  });
  // References: every id the set names, per field, in one query each.
  const problems: Record<string, { message: string }> = {};
  for (const f of storable) {
    if (f.type !== 'reference' || !f.reference) continue;
    const ids = [...new Set(full.map((r) => r[f.source]).filter((v) => v != null))].map(Number);
    if (ids.length === 0) continue;
    const target = c.lookup(f.reference);
    const p = new Params();
    const where = scopeWhere(target, ctx.principal, p.bind);
    const [{ n }] = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from ${target.table} where ${where} and id = any(${p.bind(ids)})`,
      p.values,
    );
    if (n !== ids.length) problems[f.source] = { message: 'engine.validation.referenceMissing' };
  }
  if (Object.keys(problems).length) throw badInput(toFieldErrors(problems));

  const cols = storable.map((f) => f.source);
  const shape = storable
    .map((f) => `${ident(f.source)} ${f.type === 'choices' ? 'text[]' : (SQL_TYPE[columnType(f)] ?? columnType(f))}`)
    .join(', ');
  const json = full.map((r, i) => ({
    ...Object.fromEntries(
      storable.map((f) => [f.source, f.type === 'boolean' && r[f.source] == null ? false : r[f.source]]),
    ),
    set_ord: i,
  }));
  const rows = await ctx.db.query(
    `insert into ${c.table} (merchant_id, ${cols.map(ident).join(', ')})
     select $1, ${cols.map((col) => `x.${ident(col)}`).join(', ')}
       from jsonb_to_recordset($2::jsonb) as x(${shape}, set_ord int) order by x.set_ord
     returning ${c.storedColumns.map(ident).join(', ')}`,
    [ctx.principal.merchantId, JSON.stringify(json)],
  );
  if (c.decl.audited !== false) {
    const parent = c.decl.parent;
    const who = ctx.principal;
    await ctx.db.query(
      `insert into audit_log (merchant_id, resource, record_id, subject_resource, subject_id, event, action, changes, input, user_id, user_name, login_type)
       select $1, $2, x.id, $3, x.subject, 'create', null, x.changes, $4, $5, $6, $7
         from jsonb_to_recordset($8::jsonb) as x(id int, subject int, changes jsonb)`,
      [
        who.merchantId,
        c.decl.name,
        parent?.resource ?? c.decl.name,
        options.reason ? JSON.stringify({ reason: options.reason }) : null,
        who.userId || null,
        who.name,
        who.loginType,
        JSON.stringify(
          rows.map((r) => ({
            id: r.id,
            subject: parent ? Number(r[parent.field]) : r.id,
            changes: Object.fromEntries(cols.filter((k) => r[k] != null).map((k) => [k, { from: null, to: r[k] }])),
          })),
        ),
      ],
    );
  }
  ctx.touched?.add(c.decl.table);
  return rows;
}
