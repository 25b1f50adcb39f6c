// The workflow engine's schema: a version on every record (stale edits answer 409), the audit trail (which
// cannot be edited), the agency's time zone, and references that cannot point into another agency (composite
// foreign keys on (merchant_id, id); many-references checked by a trigger).
const ENGINE_TABLES = [
  'clients',
  'sites',
  'candidates',
  'job_roles',
  'staff_statuses',
  'employment_types',
  'document_categories',
  'staff_profiles',
  'staff_detail_fields',
];

// [table, column, target, old constraint]
const REFERENCES: [string, string, string, string][] = [
  ['sites', 'client_id', 'clients', 'sites_client_id_fkey'],
  ['candidates', 'job_role_id', 'job_roles', 'candidates_job_role_id_fkey'],
  ['candidates', 'employment_type_id', 'employment_types', 'candidates_employment_type_id_fkey'],
  ['candidates', 'staff_status_id', 'staff_statuses', 'candidates_staff_status_id_fkey'],
  ['staff_profiles', 'job_role_id', 'job_roles', 'staff_profiles_job_role_id_fkey'],
  ['users', 'client_id', 'clients', 'users_client_id_fkey'],
];
const ARRAY_REFERENCES: [string, string, string][] = [
  ['candidates', 'staff_profile_ids', 'staff_profiles'],
  ['staff_profiles', 'document_category_ids', 'document_categories'],
];

export default /* sql */ `
alter table merchants add column time_zone text not null default 'Europe/London';

${ENGINE_TABLES.map((t) => `alter table ${t} add column version integer not null default 1;`).join('\n')}

${[...ENGINE_TABLES, 'users'].map((t) => `alter table ${t} add constraint ${t}_agency_id unique (merchant_id, id);`).join('\n')}

${REFERENCES.map(
  ([t, col, target, old]) => `alter table ${t} drop constraint ${old};
alter table ${t} add constraint ${t}_${col}_agency foreign key (merchant_id, ${col}) references ${target} (merchant_id, id);`,
).join('\n')}

-- Many-references (integer[]) cannot carry a foreign key: a trigger refuses ids of another agency or that do not exist.
create function check_agency_array_refs() returns trigger language plpgsql as $$
declare
  ids integer[];
  missing integer;
begin
  execute format('select ($1).%I', TG_ARGV[0]) using new into ids;
  if ids is null or cardinality(ids) = 0 then
    return new;
  end if;
  execute format('select count(*) from unnest($1) as x(id) where not exists (select 1 from %I t where t.id = x.id and t.merchant_id = $2)', TG_ARGV[1])
    using ids, new.merchant_id into missing;
  if missing > 0 then
    raise exception '% refers to a record outside the agency', TG_ARGV[0] using errcode = '23503';
  end if;
  return new;
end $$;

${ARRAY_REFERENCES.map(([t, col, target]) => `create trigger ${t}_${col}_agency before insert or update of ${col} on ${t} for each row execute function check_agency_array_refs('${col}', '${target}');`).join('\n')}

create table audit_log (
  id bigserial primary key,
  merchant_id integer not null references merchants(id),
  resource text not null,
  record_id integer not null,
  subject_resource text not null,
  subject_id integer not null,
  event text not null check (event in ('create', 'update', 'delete', 'action')),
  action text,
  changes jsonb not null default '{}'::jsonb,
  input jsonb,
  user_id integer,
  user_name text not null,
  login_type text,
  created_at timestamptz not null default now(),
  -- Present on every engine table; here they never change.
  updated_at timestamptz not null default now(),
  version integer not null default 1
);
create index audit_log_subject on audit_log (merchant_id, subject_resource, subject_id, created_at desc, id desc);
create index audit_log_record on audit_log (merchant_id, resource, record_id, created_at desc, id desc);
create index audit_log_user on audit_log (merchant_id, user_id, created_at desc, id desc);
create index audit_log_created on audit_log (merchant_id, created_at desc, id desc);
create index audit_log_event on audit_log (merchant_id, event, created_at desc);

-- The history cannot be edited: not through the API (it has no write routes), nor by a statement.
create function audit_log_is_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'The audit trail cannot be changed' using errcode = '42501';
end $$;
create trigger audit_log_append_only before update or delete on audit_log for each row execute function audit_log_is_append_only();
`;
