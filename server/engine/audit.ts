import type { Queryable, Row } from '../db/index.js';
import type { Compiled } from './compile.js';
import type { EngineContext, EnginePrincipal } from './context.js';

export type AuditEvent = 'create' | 'update' | 'delete' | 'action';
export type Changes = Record<string, { from: unknown; to: unknown }>;

/**
 * A field nobody reads (`readableBy: []`, a password's hash) is in the trail only as having changed: agency users
 * read the trail, and a hash in it could be cracked offline.
 */
const hiddenChange = (from: unknown, to: unknown) => ({
  from: from == null ? null : 'set',
  to: to == null ? null : from == null ? 'set' : 'changed',
});

/** Each changed field's old and new value; custom fields by key. Unchanged fields are left out. */
export function diff(c: Compiled, before: Row | undefined, after: Row): Changes {
  const out: Changes = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const f of c.stored) {
    if (f.source === 'created_at') continue;
    const [from, to] = [before?.[f.source] ?? null, after[f.source] ?? null];
    if (same(from, to)) continue;
    out[f.source] = f.readableBy?.length === 0 ? hiddenChange(from, to) : { from, to };
  }
  if (c.decl.customFields) {
    const a = before?.custom_fields ?? {};
    const b = after.custom_fields ?? {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (!same(a[k], b[k])) out[`custom_fields.${k}`] = { from: a[k] ?? null, to: b[k] ?? null };
  }
  return out;
}

/** The changes between two versions of a row kept outside the engine (a setting), over the named columns. */
export function diffColumns(before: Row | undefined, after: Row | undefined, columns: string[]): Changes {
  const out: Changes = {};
  for (const k of columns) {
    const from = before?.[k] ?? null;
    const to = after?.[k] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[k] = { from, to };
  }
  return out;
}

/** One entry of the audit trail, as stored. `subject` files it under another record (a child's parent). */
export interface AuditEntry {
  resource: string;
  recordId: number;
  subject?: { resource: string; id: number };
  event: AuditEvent;
  action?: string;
  changes?: Changes;
  input?: unknown;
}

/**
 * Writes one entry of the audit trail in the caller's transaction: who, when, what. The table refuses updates
 * and deletes (a trigger), so the history cannot be edited. The engine calls it (`audit` below) for each write of a
 * resource not declared `audited: false`; code that changes a record outside the engine calls it itself, as the
 * account and notification-settings routes, the invitations and the hooks' side writes do. Bulk shift creation
 * writes the same entries in one statement of its own (server/routes/shifts.ts).
 */
// The system principal (a periodic job) has no user: its entries carry no user id, and "system" as the name.
export async function writeAudit(db: Queryable, who: EnginePrincipal, e: AuditEntry) {
  // A link holder has no user (userId 0): the entry names them in user_name ('via link sent to …'), user_id is empty.
  await db.query(
    `insert into audit_log (merchant_id, resource, record_id, subject_resource, subject_id, event, action, changes, input, user_id, user_name, login_type)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      who.merchantId,
      e.resource,
      e.recordId,
      e.subject?.resource ?? e.resource,
      e.subject?.id ?? e.recordId,
      e.event,
      e.action ?? null,
      JSON.stringify(e.changes ?? {}),
      e.input === undefined ? null : JSON.stringify(e.input),
      who.userId || null,
      who.name,
      who.loginType,
    ],
  );
}

/**
 * The engine's entry for a write: a child record's entry is also filed under its parent (the staff member whose
 * document changed).
 */
export async function audit(
  ctx: EngineContext,
  c: Compiled,
  recordId: number,
  event: AuditEvent,
  e: { record?: Row; changes?: Changes; action?: string; input?: unknown },
) {
  if (c.decl.audited === false) return;
  const under = c.decl.parent ?? c.decl.filedUnder;
  const subject = under ? { resource: under.resource, id: Number(e.record?.[under.field]) || recordId } : undefined;
  await writeAudit(ctx.db, ctx.principal, {
    resource: c.decl.name,
    recordId,
    subject,
    event,
    action: e.action,
    changes: e.changes,
    input: e.input,
  });
}
