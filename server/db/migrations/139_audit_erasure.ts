// Issue 35: an erased applicant leaves the audit trail. The right to erasure (UK GDPR art. 17) overrides the trail's
// append-only rule for personal data only, through one sanctioned path: the engine's erase (server/engine/erasure.ts)
// sets `app.erasure` for its own statements (set_config(…, true): this transaction only, cleared again at once) and
// replaces the personal values of the erased records' entries with "erased". The trigger lets such an UPDATE through
// when it changes only what an entry recorded (changes, which, input): who, when, the action, the fields' names and
// the entries' ids stay. Any other update, or any delete, or any update without the setting, is refused as before.
// docs/decisions.md, "Issue 35 — an erased applicant leaves the audit trail".
export default /* sql */ `
create or replace function audit_log_is_append_only() returns trigger language plpgsql as $$
declare
  -- What an erasure may rewrite; a generated column reads as null in NEW before the row is stored, so it is left out
  -- too (it follows ids, which is compared).
  rewritable text[] := array['changes', 'which', 'input', 'entries', 'id_range'];
begin
  if tg_op = 'UPDATE' and tg_table_name in ('audit_rows', 'audit_sets')
     and coalesce(current_setting('app.erasure', true), '') <> ''
     and (to_jsonb(new) - rewritable) = (to_jsonb(old) - rewritable) then
    return new;
  end if;
  raise exception 'The audit trail cannot be changed' using errcode = '42501';
end $$;

-- A recorded value with its personal fields' values replaced by "erased" (a change's "from" and "to" each, an empty
-- one left empty); the other keys as they were. Anything but an object is returned as it is.
create function audit_redact(value jsonb, personal text[]) returns jsonb language sql immutable parallel safe as $$
  select case when jsonb_typeof(value) <> 'object' then value else (
    select coalesce(jsonb_object_agg(k, case
             when not (k = any(personal)) or v = 'null'::jsonb then v
             when jsonb_typeof(v) = 'object' and v ? 'from' and v ? 'to' then jsonb_build_object(
               'from', case when v->'from' = 'null'::jsonb then v->'from' else '"erased"'::jsonb end,
               'to', case when v->'to' = 'null'::jsonb then v->'to' else '"erased"'::jsonb end)
             else '"erased"'::jsonb end), '{}'::jsonb)
      from jsonb_each(value) as e(k, v)) end
$$;
`;
