import type { Row } from '../db/index.js';
import type { Compiled } from './compile.js';
import type { EngineContext } from './context.js';

export type AuditEvent = 'create' | 'update' | 'delete' | 'action';
export type Changes = Record<string, { from: unknown; to: unknown }>;

/** Each changed field's old and new value; custom fields by key. Unchanged fields are left out. */
export function diff(c: Compiled, before: Row | undefined, after: Row): Changes {
  const out: Changes = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const f of c.stored) {
    if (f.source === 'created_at') continue;
    if (!same(before?.[f.source], after[f.source])) out[f.source] = { from: before?.[f.source] ?? null, to: after[f.source] ?? null };
  }
  if (c.decl.customFields) {
    const a = before?.custom_fields ?? {};
    const b = after.custom_fields ?? {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!same(a[k], b[k])) out[`custom_fields.${k}`] = { from: a[k] ?? null, to: b[k] ?? null };
  }
  return out;
}

/**
 * Writes one entry of the audit trail in the caller's transaction: who, when, what. A child record's entry is
 * also filed under its parent (the staff member whose document changed), so the parent's history shows it.
 * The table refuses updates and deletes (a trigger), so the history cannot be edited.
 */
export async function audit(ctx: EngineContext, c: Compiled, recordId: number, event: AuditEvent, e: { record?: Row; changes?: Changes; action?: string; input?: unknown }) {
  if (c.decl.audited === false) return;
  const parent = c.decl.parent;
  const subjectId = parent ? Number(e.record?.[parent.field]) || recordId : recordId;
  const p = ctx.principal;
  await ctx.db.query(
    `insert into audit_log (merchant_id, resource, record_id, subject_resource, subject_id, event, action, changes, input, user_id, user_name, login_type)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [p.merchantId, c.decl.name, recordId, parent?.resource ?? c.decl.name, subjectId, event, e.action ?? null, JSON.stringify(e.changes ?? {}), e.input === undefined ? null : JSON.stringify(e.input), p.userId, p.name, p.loginType],
  );
}
