// Deleting a record, refused while declared blockers refer to it.
import type { Row } from '../db/index.js';
import { badInput, HttpError } from '../http.js';
import { ident, Params, selectList, writeColumns, type Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { audit, auditMany, diff } from './audit.js';
import { getRecord, nameOf } from './query.js';
import { deleteRefusal, lockedReason, notEditableReason } from '../../core/engine/lifecycle.js';
import type { FieldDeclaration } from '../../core/engine/types.js';
import { reopenPredecessor } from './periods.js';
import { store } from './write.js';
import { checkField } from '../../core/engine/validate.js';
import { normaliseText } from '../../core/engine/text.js';
import { toFieldErrors } from './messages.js';
import { refreshDocuments, refuseLockedLines, writingDocument } from './lines.js';
import { lockRecords } from './locks.js';
import { recordsRefused } from './updateMany.js';
import { eraseFromTrail } from './erasure.js';

/**
 * The server's own delete past the lifecycle's lock (a final record erased when its agency's retention ends): the
 * reason, kept in the audit entry's input. Every other refusal (a numbered record, a blocker, references) still holds.
 */
export interface PastLock {
  overrideLock?: string;
}

/** The reason a delete declared with `reason` asks for: checked like a long text field. */
const REASON = { source: 'reason', type: 'longtext', label: 'Reason', required: true, maxLength: 1000 } as const;

/**
 * Deletes (or, for soft resources, hides) a record, keeping the database whole: live rows that depend on it
 * refuse the delete in words (a staff member's future shifts), children follow the parent's rule (refuse while
 * they exist, or hidden with it), and references to it are refused, removed or kept as each referring field
 * declares. Every row this changes besides the record itself takes a new version and its own audit entry; the
 * record's entry keeps what it held.
 */
export async function deleteRecord(
  ctx: EngineContext,
  c: Compiled,
  id: number,
  registry: Map<string, Compiled>,
  given?: unknown,
  past: PastLock = {},
): Promise<Row> {
  const row = await getRecord(ctx, c, id, { lock: true, all: true });
  const refused = deleteRefusal(c.decl, row, { pastLock: !!past.overrideLock });
  if (refused) throw new HttpError(409, refused);
  // A line goes only while its document's state lets its lines change.
  await refuseLockedLines(ctx, c, [row]);
  // The lines it takes with it leave it to this delete (no new version of a record being deleted).
  return writingDocument(ctx, c, id, () => deleteChecked(ctx, c, row, registry, given, past));
}

/**
 * Deletes (or hides) many records of one resource at once, all or nothing, with a single delete's checks in set form
 * (docs/decisions.md, "deleteMany: a set-based delete"): the records found in the principal's row scope (404 for one
 * missing) and locked after their parents; each record's own lifecycle (deleteRefusal) and, for lines, their
 * document's (one read), a refusal naming the records as a set-based update does; the reason a delete declares,
 * checked once; the declared blockers and the rows that refuse the delete, one count a referring field; then one
 * DELETE (or one UPDATE hiding them), one row of the audit trail for the set (each record's entry keeps what it
 * held), afterDelete for each record if the behaviour declares it, and the lines' documents refreshed once. The
 * statements are as many for 2 records as for 2,000. A record that takes other rows with it (children hidden, or
 * references cleared, with it) or reopens a period (effective dating) is deleted as a single delete would, one after
 * the other, once the checks above have passed. Answers the records as they were.
 */
export async function deleteMany(
  ctx: EngineContext,
  c: Compiled,
  ids: number[],
  registry: Map<string, Compiled>,
  given?: unknown,
  past: PastLock = {},
): Promise<Row[]> {
  if (ids.length === 0) return [];
  const rows = await lockRecords(ctx, c, ids, registry);
  if (rows.length === 0) return [];
  if (rows.length === 1) return [await deleteRecord(ctx, c, Number(rows[0].id), registry, given, past)];
  const refused = rows.flatMap((row) => {
    const why = deleteRefusal(c.decl, row, { pastLock: !!past.overrideLock });
    return why ? [{ row, why, status: 409 }] : [];
  });
  if (refused.length) throw await recordsRefused(ctx, c, rows.length, refused, 'deleted');
  // Lines go only while their document's state lets its lines change (one read of the documents, locked).
  await refuseLockedLines(ctx, c, rows, undefined, (i, why) => new HttpError(409, `${nameOf(c, rows[i])}: ${why}`));
  const merchantId = ctx.principal.merchantId;
  const idList = rows.map((r) => Number(r.id));
  let reason: string | undefined = typeof given === 'string' && given.trim() ? given : undefined;
  if (c.deletion.reason) {
    const text = typeof given === 'string' ? normaliseText(given) : given;
    const problem = checkField(REASON, text === '' ? null : text, ctx.today);
    if (problem) throw badInput(toFieldErrors({ reason: problem }));
    reason = text as string;
  }
  // The declared blockers: one count each for the whole set.
  await refuseWhileBlocked(ctx, c, idList, registry);
  let cascades = !!c.decl.effectiveDated;
  for (const other of registry.values()) {
    // The rows that refer to the records: counted where they refuse the delete, found where they go with it.
    for (const f of other.stored) {
      if ((f.type !== 'reference' && f.type !== 'references') || f.reference !== c.decl.name) continue;
      const mode = referrerOnDelete(c, other, f);
      if (mode === 'keep') continue;
      const match =
        f.type === 'references' ? `${ident(f.source)} && $2::integer[]` : `${ident(f.source)} = any($2::int[])`;
      const [{ n }] = await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from ${other.table} where merchant_id = $1${other.live} and ${match}`,
        [merchantId, idList],
      );
      if (n === 0) continue;
      if (mode !== 'refuse') {
        cascades = true;
        continue;
      }
      const what = n === 1 ? other.decl.label.one.toLowerCase() : `${n} ${other.decl.label.many.toLowerCase()}`;
      throw new HttpError(
        409,
        `These ${c.decl.label.many.toLowerCase()} are in use by ${what}. Remove ${n === 1 ? 'it' : 'them'} first.`,
      );
    }
  }
  // Rows going with the records, or a period reopened: each record as a single delete takes it, in turn.
  if (cascades) {
    const out: Row[] = [];
    for (const row of rows)
      out.push(await writingDocument(ctx, c, Number(row.id), () => deleteChecked(ctx, c, row, registry, given, past)));
    return out;
  }
  if (c.soft) {
    const p = new Params();
    const stamps = [
      c.deletion.by && `${ident(c.deletion.by)} = ${p.bind(ctx.principal.name)}`,
      typeof c.deletion.reason === 'string' && `${ident(c.deletion.reason)} = ${p.bind(reason)}`,
    ].filter(Boolean);
    await ctx.db.query(
      `update ${c.table} set ${['deleted_at = now()', 'version = version + 1', 'updated_at = now()', ...stamps].join(', ')} where merchant_id = ${p.bind(merchantId)} and id = any(${p.bind(idList)}::int[])`,
      p.values,
    );
  } else
    await ctx.db.query(`delete from ${c.table} where merchant_id = $1 and id = any($2::int[])`, [merchantId, idList]);
  await auditMany(
    ctx,
    c,
    rows.map((row) => ({ row, changes: diff(c, row, {}) })),
    'delete',
    {
      input:
        reason !== undefined || past.overrideLock
          ? {
              ...(reason !== undefined ? { reason } : {}),
              ...(past.overrideLock ? { overrideLock: past.overrideLock } : {}),
            }
          : undefined,
    },
  );
  // A record removed for good takes its personal data out of the trail with it (issue 35).
  if (!c.soft) await eraseFromTrail(ctx, c, rows, reason);
  if (c.behaviour.afterDelete) for (const row of rows) await c.behaviour.afterDelete(ctx, row);
  if (c.decl.parent?.lines)
    await refreshDocuments(
      ctx,
      c,
      rows.map((r) => r[c.decl.parent!.field]),
    );
  return rows;
}

async function deleteChecked(
  ctx: EngineContext,
  c: Compiled,
  row: Row,
  registry: Map<string, Compiled>,
  given?: unknown,
  past: PastLock = {},
): Promise<Row> {
  const id = Number(row.id);
  const merchantId = ctx.principal.merchantId;
  // The server's own deletes (a child hidden with its parent, ctx.engine.remove) give their reason as text.
  let reason: string | undefined = typeof given === 'string' && given.trim() ? given : undefined;
  if (c.deletion.reason) {
    const text = typeof given === 'string' ? normaliseText(given) : given;
    const problem = checkField(REASON, text === '' ? null : text, ctx.today);
    if (problem) throw badInput(toFieldErrors({ reason: problem }));
    reason = text as string;
  }
  await refuseWhileBlocked(ctx, c, [id], registry);
  const hidden: Record<string, number> = {};
  // Why a row that refers to the record changed, in its own history.
  const deletedWith = `${nameOf(c, row)} (${c.decl.label.one.toLowerCase()} ${id}) was deleted`;
  for (const other of registry.values()) {
    for (const f of other.stored) {
      if ((f.type !== 'reference' && f.type !== 'references') || f.reference !== c.decl.name) continue;
      const match = f.type === 'references' ? `${ident(f.source)} @> array[$2]::integer[]` : `${ident(f.source)} = $2`;
      const mode = referrerOnDelete(c, other, f);
      if (mode === 'keep') continue;
      if (mode === 'refuse') {
        const [{ n }] = await ctx.db.query<{ n: number }>(
          `select count(*)::int as n from ${other.table} where merchant_id = $1${other.live} and ${match}`,
          [merchantId, id],
        );
        if (n > 0) {
          const what = n === 1 ? other.decl.label.one.toLowerCase() : `${n} ${other.decl.label.many.toLowerCase()}`;
          throw new HttpError(
            409,
            `This ${c.decl.label.one.toLowerCase()} is in use by ${what}. Remove ${n === 1 ? 'it' : 'them'} first.`,
          );
        }
        continue;
      }
      const q = new Params();
      const [m, target] = [q.bind(merchantId), q.bind(id)];
      // Each touched row is read (and locked) first: its audit entry says what it held, its lifecycle whether it may
      // still change.
      const rows = await ctx.db.query(
        `select ${writeColumns(other, q.bind, ctx.today)} from ${other.table} where merchant_id = ${m}${other.live} and ${match.replace('$2', target)} order by id for update`,
        q.values,
      );
      if (rows.length === 0) continue;
      if (mode === 'remove') refuseLockedReferrers(c, other, f, rows);
      const ids = rows.map((r) => r.id);
      ctx.touched?.add(other.decl.table);
      if (mode === 'hide') {
        // Each child is deleted as itself: its own blockers, children, references, hooks, version and audit entry.
        for (const r of rows) await deleteRecord(ctx, other, r.id, registry, deletedWith);
        hidden[other.decl.name] = rows.length;
        continue;
      }
      // Each value is bound only where the statement uses it: PostgreSQL refuses a parameter it was not asked for.
      const p = new Params();
      const set = f.type === 'references' ? `array_remove(${ident(f.source)}, ${p.bind(id)})` : 'null';
      const after = await ctx.db.query(
        `update ${other.table} set ${ident(f.source)} = ${set}, version = version + 1, updated_at = now() where merchant_id = ${p.bind(merchantId)} and id = any(${p.bind(ids)}) returning id, ${ident(f.source)}`,
        p.values,
      );
      const now = new Map(after.map((r) => [r.id, r[f.source]]));
      for (const r of rows)
        await audit(ctx, other, r.id, 'update', {
          record: r,
          changes: { [f.source]: { from: r[f.source], to: now.get(r.id) ?? null } },
          input: { reason: deletedWith },
        });
    }
  }
  if (c.soft) {
    // Who deleted it and why stay on the row when the declaration names fields for them (a deleted shift's tab).
    const p = new Params();
    const stamps = [
      c.deletion.by && `${ident(c.deletion.by)} = ${p.bind(ctx.principal.name)}`,
      typeof c.deletion.reason === 'string' && `${ident(c.deletion.reason)} = ${p.bind(reason)}`,
    ].filter(Boolean);
    await ctx.db.query(
      `update ${c.table} set ${['deleted_at = now()', 'version = version + 1', 'updated_at = now()', ...stamps].join(', ')} where merchant_id = ${p.bind(merchantId)} and id = ${p.bind(id)}`,
      p.values,
    );
  } else await ctx.db.query(`delete from ${c.table} where merchant_id = $1 and id = $2`, [merchantId, id]);
  const input = {
    ...(reason !== undefined ? { reason } : {}),
    ...(Object.keys(hidden).length ? { hidden } : {}),
    ...(past.overrideLock ? { overrideLock: past.overrideLock } : {}),
  };
  await audit(ctx, c, id, 'delete', {
    record: row,
    changes: diff(c, row, {}),
    input: Object.keys(input).length ? input : undefined,
  });
  if (!c.soft) await eraseFromTrail(ctx, c, [row], reason);
  // The row before a deleted effective-dated one covers its period again.
  if (c.decl.effectiveDated) await reopenPredecessor(ctx, c, row, store);
  await c.behaviour.afterDelete?.(ctx, row);
  // A line's document follows: its rollups and state without the line.
  if (c.decl.parent?.lines) await refreshDocuments(ctx, c, [row[c.decl.parent.field]]);
  return row;
}

/**
 * A delete that would rewrite a row whose lifecycle forbids the change (a reference cleared on a locked record, or on
 * one whose field is not editable in its state) is refused in words, naming the row: the lock holds for cascades.
 */
/**
 * What a row of `other` that refers to a record of `c` through `f` does when that record is deleted: a child follows
 * its parent's declared rule (hidden with it, or refusing it); any other reference its own `onDelete`, by default kept
 * where the record is only soft-deleted and refusing a hard delete.
 */
function referrerOnDelete(c: Compiled, other: Compiled, f: FieldDeclaration) {
  const isParent = other.decl.parent?.resource === c.decl.name && other.decl.parent.field === f.source;
  if (isParent) return other.decl.parent!.onDelete === 'hide' ? 'hide' : 'refuse';
  return f.onDelete ?? (c.soft ? 'keep' : 'refuse');
}

function refuseLockedReferrers(c: Compiled, other: Compiled, f: FieldDeclaration, rows: Row[]) {
  for (const r of rows) {
    const why = lockedReason(other.decl, r) ?? notEditableReason(other.decl, f, r);
    if (!why) continue;
    throw new HttpError(
      409,
      `This ${c.decl.label.one.toLowerCase()} cannot be deleted: ${other.decl.label.one.toLowerCase()} ${nameOf(other, r)} refers to it and cannot change. ${why}`,
    );
  }
}

/** How many blocking rows a refusal names; the rest are counted. */
const BLOCKERS_LISTED = 3;

/**
 * Refuses (409) the delete while live rows declared as blockers (a staff member's future shifts) refer to the records:
 * one count a blocker, whether one record goes or a set.
 */
async function refuseWhileBlocked(ctx: EngineContext, c: Compiled, ids: number[], registry: Map<string, Compiled>) {
  const reasons: string[] = [];
  const errors: Record<string, string> = {};
  for (const other of registry.values()) {
    for (const [field, blocker] of Object.entries(other.behaviour.deleteBlockers ?? {})) {
      const f = other.byField.get(field);
      if (!f || f.reference !== c.decl.name) continue;
      const p = new Params();
      const match =
        f.type === 'references'
          ? `${ident(field)} && ${p.bind(ids)}::integer[]`
          : `${ident(field)} = any(${p.bind(ids)}::int[])`;
      const where = `merchant_id = ${p.bind(ctx.principal.merchantId)}${other.live} and ${match} and (${blocker.where})`;
      const [{ n }] = await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from ${other.table} where ${where}`,
        p.values,
      );
      if (n === 0) continue;
      const sortBy = other.byField.get(other.decl.defaultSort.field)?.computed
        ? 'id'
        : ident(other.decl.defaultSort.field);
      const first = await ctx.db.query(
        `select ${selectList(other, ctx.principal, 'record', p.bind, ctx.today)} from ${other.table} where ${where} order by ${sortBy} ${other.decl.defaultSort.order}, id limit ${BLOCKERS_LISTED}`,
        p.values,
      );
      const list =
        first.map((r) => nameOf(other, r)).join('; ') + (n > first.length ? `; and ${n - first.length} more` : '');
      reasons.push(`${blocker.describe(n)} (${list}). ${blocker.advice}`);
      errors[other.decl.name] = list;
    }
  }
  if (reasons.length)
    throw new HttpError(
      409,
      `${ids.length === 1 ? `This ${c.decl.label.one.toLowerCase()}` : `These ${c.decl.label.many.toLowerCase()}`} cannot be deleted yet: ${reasons.join(' ')}`,
      errors,
    );
}
