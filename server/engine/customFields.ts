// The agency's custom field definitions of a resource, as writes validate them.
import type { Row } from '../db/index.js';
import type { CustomFieldDefinition } from '../../core/engine/validate.js';
import { ident, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';

/**
 * The agency's custom field definitions, kept until a write to their table (by any process: the same signal
 * that drops cached list totals) or for at most the totals' lifetime; every staff write needs them.
 */
const definitions = new Map<string, { version: number; until: number; defs: CustomFieldDefinition[] }>();
/** Every cached definition forgotten: for test files that share one process but each have their own database. */
export const forgetCustomFieldDefinitions = () => definitions.clear();
export async function customFieldsOf(
  ctx: Pick<EngineContext, 'db' | 'principal'>,
  c: Compiled,
): Promise<CustomFieldDefinition[]> {
  if (!c.decl.customFields) return [];
  const defs = c.lookup(c.decl.customFields);
  const merchantId = ctx.principal.merchantId;
  const asked = c.decl.customFieldsAsked;
  const key = `${defs.decl.table}|${asked ?? ''}|${merchantId}`;
  const version = c.totals.versionOf(defs.decl.table, merchantId);
  const hit = definitions.get(key);
  if (hit && hit.version === version && hit.until > Date.now()) return hit.defs;
  const rows = await ctx.db.query<CustomFieldDefinition & Row>(
    `select key, label, field_type, required, options from ${defs.table}
      where merchant_id = $1${asked ? ` and ${ident(asked)}` : ''} order by position, id`,
    [merchantId],
  );
  if (definitions.size > 1000) definitions.clear();
  definitions.set(key, { version, until: Date.now() + 10_000, defs: rows });
  return rows;
}
