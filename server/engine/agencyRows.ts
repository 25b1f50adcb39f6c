// An agency's own settings rows: one row per agency (the invoice, client and agency settings, the payment reminders),
// or per agency and a key (an event's notification setting or template, a user's choice for an event). Hand-written
// routes serve them, with no id in their paths: the row is found by the caller's agency and the key, and written by
// saveRecord all the same, so validation, scope, hooks, version and audit stay the engine's.
import type { Row } from '../db/index.js';
import { ident, Params, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { saveRecord, stale } from './write.js';

/** The columns that find a row besides the agency, each with its value: { event }, { user_id, event }. */
export type AgencyRowKey = Record<string, string | number>;

/** The id of the caller's agency's row (with `key`), locked for the write that follows; undefined when none. */
export async function agencyRowId(
  ctx: EngineContext,
  c: Compiled,
  key: AgencyRowKey = {},
): Promise<number | undefined> {
  const p = new Params();
  const where = [
    `merchant_id = ${p.bind(ctx.principal.merchantId)}`,
    ...Object.entries(key).map(([f, v]) => `${ident(f)} = ${p.bind(v)}`),
  ];
  const [row] = await ctx.db.query<{ id: number }>(
    `select id from ${c.table} where ${where.join(' and ')} for update`,
    p.values,
  );
  return row?.id;
}

/**
 * Saves the caller's agency's row (with `key`): the declaration's fields the body has, as sent (the engine validates
 * them; the rest stay), the key's own fields excepted. `body.version` is the one the caller read, 0 (or none) when
 * nothing was saved yet: a stale one is refused with the engine's 409, a row saved meanwhile by someone else included.
 * No row: created with the key; a row: updated under the version check.
 */
export async function saveAgencyRow(
  ctx: EngineContext,
  c: Compiled,
  body: Record<string, unknown>,
  key: AgencyRowKey = {},
): Promise<Row> {
  const id = await agencyRowId(ctx, c, key);
  const version = body.version;
  if (id === undefined && version !== undefined && version !== null && Number(version) !== 0) throw stale(c);
  const values = Object.fromEntries(
    c.decl.fields.filter((f) => f.source in body && !(f.source in key)).map((f) => [f.source, body[f.source]]),
  );
  return id === undefined ? saveRecord(ctx, c, { ...values, ...key }) : saveRecord(ctx, c, { ...values, version }, id);
}
