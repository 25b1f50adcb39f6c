// Issue 35, users and privileges: the agency's own roles (core/resources/roles/resource.ts, as npm run engine:sql
// writes it) and the one an agency user with role 'custom' holds. The session's look-up reads the role's privileges
// with the user (server/auth/sessions.ts): a role in use cannot be deleted, and a user holds one only as 'custom'.
export default /* sql */ `
create table agency_roles (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  description text,
  privileges text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  search_text text generated always as (lower(name)) stored,
  unique (merchant_id, id)
);
create unique index agency_roles_name_unique on agency_roles (merchant_id, lower(name));
create index agency_roles_created_at on agency_roles (merchant_id, created_at);
create index agency_roles_search on agency_roles using gin (search_text gin_trgm_ops);
alter table users add column agency_role_id integer;
alter table users add foreign key (merchant_id, agency_role_id) references agency_roles (merchant_id, id);
alter table users add check ((role = 'custom') = (agency_role_id is not null));
create index users_agency_role_id on users (merchant_id, agency_role_id) where agency_role_id is not null;
`;
