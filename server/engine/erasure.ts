// Issue 35: an erased record leaves the audit trail. The right to erasure (UK GDPR art. 17) overrides the trail's
// append-only rule for personal data only, and only here: docs/decisions.md, "Issue 35 — an erased applicant leaves
// the audit trail"; the trigger's gate is migration 139.
import type { Compiled } from './compile.js';
import type { EngineContext } from './context.js';
import { auditMany } from './audit.js';
import type { Row } from '../db/index.js';

/**
 * The keys an erased record's entries hold its personal data under: its fields and its actions' inputs so marked, and
 * the agency's own fields of a record that holds personal data (they are details of the same person).
 */
export const personalKeys = (c: Compiled): string[] => {
  const fields = c.decl.fields.filter((f) => f.personal).map((f) => f.source);
  return [
    ...new Set([
      ...fields,
      ...(c.decl.actions ?? []).flatMap((a) => (a.input ?? []).filter((f) => f.personal).map((f) => f.source)),
      ...(fields.length && c.decl.customFields ? ['custom_fields'] : []),
    ]),
  ];
};

/**
 * Replaces the personal values (personalKeys, or the `keys` given) in the entries of records just erased (a hard
 * delete, in its transaction) with "erased": who, when, the action and the fields' names stay. One statement for the
 * single-record entries (audit_rows); one for the sets (audit_sets) holding any of them, where only the erased
 * records' own changes are rewritten and each distinct change is stored once again, so the set's other records keep
 * theirs. The
 * trigger lets these two statements through while `app.erasure` is set, for this transaction only, and the setting is
 * cleared again before anything else runs. The redaction is itself an entry (action "erased", one set for the
 * records): by whom, when, and how many entries it redacted, with no personal data. Answers that number.
 */
export async function eraseFromTrail(
  ctx: EngineContext,
  c: Compiled,
  rows: Row[],
  reason?: string,
  keys: string[] = personalKeys(c),
): Promise<number> {
  if (keys.length === 0 || rows.length === 0 || c.decl.audited === false) return 0;
  const ids = rows.map((r) => Number(r.id));
  const args = [ctx.principal.merchantId, c.decl.name, ids, keys];
  await ctx.db.query(`select set_config('app.erasure', $1, true)`, [`${c.decl.name} erased`]);
  const single = await ctx.db.query<{ n: number }>(
    `with done as (
       update audit_rows set changes = audit_redact(changes, $4::text[]), input = audit_redact(input, $4::text[])
        where merchant_id = $1 and resource = $2 and record_id = any($3::int[])
          and (changes ?| $4::text[] or coalesce(input ?| $4::text[], false))
        returning 1)
     select count(*)::int as n from done`,
    args,
  );
  // Each record of a set names its change by position (which); the erased ones' are redacted, then the set's
  // distinct changes are numbered again in order of first use, as auditMany numbers them.
  const sets = await ctx.db.query<{ n: number }>(
    `with hit as (
       select id from audit_sets where merchant_id = $1 and resource = $2 and record_ids && $3::int[]),
     per as (
       select s.id, u.k, u.record_id = any($3::int[]) and s.changes[u.w] ?| $4::text[] as erased,
              case when u.record_id = any($3::int[]) then audit_redact(s.changes[u.w], $4::text[])
                   else s.changes[u.w] end as ch
         from audit_sets s join hit using (id)
         cross join lateral unnest(s.record_ids, s.which) with ordinality as u(record_id, w, k)),
     numbered as (
       select id, ch, row_number() over (partition by id order by min(k))::int as n from per group by id, ch),
     rebuilt as (
       select p.id, array_agg(nb.n order by p.k) as which, count(*) filter (where p.erased)::int as erased
         from per p join numbered nb on nb.id = p.id and nb.ch = p.ch group by p.id),
     done as (
       update audit_sets s
          set changes = (select array_agg(nb.ch order by nb.n) from numbered nb where nb.id = s.id),
              which = r.which, input = audit_redact(s.input, $4::text[])
         from rebuilt r where s.id = r.id
       returning r.erased)
     select coalesce(sum(erased), 0)::int as n from done`,
    args,
  );
  // Cleared at once: the rest of the transaction finds the trail append-only again. (A failed statement aborts the
  // transaction, and the setting goes with it.)
  await ctx.db.query(`select set_config('app.erasure', '', true)`);
  const redacted = single[0].n + sets[0].n;
  await auditMany(
    ctx,
    c,
    rows.map((row) => ({ row, changes: {} })),
    'action',
    { action: 'erased', input: { redactedEntries: redacted, ...(reason ? { reason } : {}) } },
  );
  return redacted;
}
