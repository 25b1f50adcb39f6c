// Issue 31.4 (issues 31, 32, 33): records written together (a set-based update or transition) get one row of the
// trail for the whole set instead of one a record: the action, who, when, the input, the records' ids and the ids
// they are filed under (`int[]`, a GIN index each), and each distinct change once (`changes[which[i]]` is the i-th
// record's). Each record's entry keeps an id of its own, drawn from the trail's sequence when the set is written
// (`ids`), so ids and order are as they were. The single-record rows stay in their table, renamed `audit_rows`;
// `audit_log` becomes the view every reader reads: both, each set expanded into one entry a record. `set_id` (0 for
// a single-record row) lets a reader's record or subject filter find the sets by their arrays (`@>`) before any set
// is expanded (server/behaviours/auditEntries.ts). docs/decisions.md, "Issue 31.4 — the audit cost of a set-based
// transition".
export default /* sql */ `
alter table audit_log rename to audit_rows;

create table audit_sets (
  id bigserial primary key,
  merchant_id integer not null references merchants(id),
  resource text not null,
  subject_resource text not null,
  event text not null check (event in ('create', 'update', 'delete', 'action')),
  action text,
  input jsonb,
  user_id integer,
  user_name text not null,
  login_type text,
  created_at timestamptz not null default now(),
  ids bigint[] not null,
  record_ids integer[] not null,
  subject_ids integer[] not null,
  changes jsonb[] not null,
  which integer[] not null,
  check (cardinality(ids) = cardinality(record_ids) and cardinality(ids) = cardinality(subject_ids)
         and cardinality(ids) = cardinality(which))
);
create index audit_sets_record on audit_sets using gin (record_ids);
create index audit_sets_subject on audit_sets using gin (subject_ids);
create index audit_sets_created on audit_sets (merchant_id, created_at desc);
create trigger audit_sets_append_only before update or delete on audit_sets for each row execute function audit_log_is_append_only();

create view audit_log as
  select id, merchant_id, resource, record_id, subject_resource, subject_id, event, action, changes, input, user_id,
         user_name, login_type, created_at, updated_at, version, 0::bigint as set_id
    from audit_rows
  union all
  select u.id, s.merchant_id, s.resource, u.record_id, s.subject_resource, u.subject_id, s.event, s.action,
         s.changes[u.k], s.input, s.user_id, s.user_name, s.login_type, s.created_at, s.created_at, 1, s.id
    from audit_sets s cross join lateral unnest(s.ids, s.record_ids, s.subject_ids, s.which) as u(id, record_id, subject_id, k);

-- The view is read-only as the tables are: a statement that would change it is refused in the same words.
create trigger audit_log_append_only instead of update or delete on audit_log for each row execute function audit_log_is_append_only();
`;
