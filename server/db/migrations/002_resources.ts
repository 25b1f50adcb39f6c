// The staff settings, the candidate fields that refer to them, and the indexes that serve every declared
// sort, filter and search (tests/api/schema.test.ts fails when a declaration and this schema drift apart).
export default /* sql */ `
create table staff_statuses (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  description text,
  bookable boolean not null default true,
  colour text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search_text text generated always as (lower(name)) stored
);
create unique index staff_statuses_name on staff_statuses (merchant_id, lower(name));
create index staff_statuses_bookable on staff_statuses (merchant_id, bookable);
create index staff_statuses_search on staff_statuses using gin (search_text gin_trgm_ops);

create table employment_types (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  description text,
  paye boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search_text text generated always as (lower(name)) stored
);
create unique index employment_types_name on employment_types (merchant_id, lower(name));
create index employment_types_paye on employment_types (merchant_id, paye);
create index employment_types_search on employment_types using gin (search_text gin_trgm_ops);

create table document_categories (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  description text,
  mandatory boolean not null default false,
  validity_months integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search_text text generated always as (lower(name)) stored
);
create unique index document_categories_name on document_categories (merchant_id, lower(name));
create index document_categories_mandatory on document_categories (merchant_id, mandatory);
create index document_categories_validity on document_categories (merchant_id, validity_months);
create index document_categories_search on document_categories using gin (search_text gin_trgm_ops);

create table staff_profiles (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  description text,
  job_role_id integer references job_roles(id),
  document_category_ids integer[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search_text text generated always as (lower(name)) stored
);
create unique index staff_profiles_name on staff_profiles (merchant_id, lower(name));
create index staff_profiles_job_role on staff_profiles (merchant_id, job_role_id);
create index staff_profiles_search on staff_profiles using gin (search_text gin_trgm_ops);

create table staff_detail_fields (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  label text not null,
  key text not null,
  field_type text not null check (field_type in ('text', 'number', 'date', 'boolean', 'choice')),
  options text,
  required boolean not null default false,
  show_in_list boolean not null default false,
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search_text text generated always as (lower(label || ' ' || key)) stored
);
create unique index staff_detail_fields_key on staff_detail_fields (merchant_id, lower(key));
create index staff_detail_fields_label on staff_detail_fields (merchant_id, lower(label));
create index staff_detail_fields_type on staff_detail_fields (merchant_id, field_type);
create index staff_detail_fields_position on staff_detail_fields (merchant_id, position);
create index staff_detail_fields_search on staff_detail_fields using gin (search_text gin_trgm_ops);

create index job_roles_code on job_roles (merchant_id, lower(code));
create index job_roles_active on job_roles (merchant_id, active);
create index job_roles_pay on job_roles (merchant_id, default_pay_rate);
create index job_roles_charge on job_roles (merchant_id, default_charge_rate);
alter table job_roles add column search_text text generated always as (lower(name || ' ' || coalesce(code, ''))) stored;
create index job_roles_search on job_roles using gin (search_text gin_trgm_ops);

alter table clients add column search_text text generated always as (
  lower(name || ' ' || coalesce(code, '') || ' ' || coalesce(contact_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(billing_email, ''))
) stored;
create index clients_search on clients using gin (search_text gin_trgm_ops);
create index clients_status_name on clients (merchant_id, status, lower(name)) where deleted_at is null;
create index clients_type on clients (merchant_id, client_type) where deleted_at is null;
create index clients_created on clients (merchant_id, created_at) where deleted_at is null;
create index clients_code_sort on clients (merchant_id, lower(code)) where deleted_at is null;
create index clients_contact on clients (merchant_id, lower(contact_name)) where deleted_at is null;

alter table sites add column search_text text generated always as (
  lower(name || ' ' || coalesce(business_unit, '') || ' ' || coalesce(contact_name, '') || ' ' || coalesce(address->>'postcode', ''))
) stored;
create index sites_search on sites using gin (search_text gin_trgm_ops);
create index sites_status_name on sites (merchant_id, status, lower(name)) where deleted_at is null;
create index sites_client_name on sites (merchant_id, client_id, lower(name)) where deleted_at is null;
create index sites_business_unit on sites (merchant_id, lower(business_unit)) where deleted_at is null;
create index sites_contact on sites (merchant_id, lower(contact_name)) where deleted_at is null;

alter table candidates add column employment_type_id integer references employment_types(id);
alter table candidates add column staff_status_id integer references staff_statuses(id);
alter table candidates add column staff_profile_ids integer[] not null default '{}';
alter table candidates add column ni_number text;
alter table candidates add column start_date date;
alter table candidates add column notes text;
create index candidates_tab_name on candidates (merchant_id, status, activated, lower(last_name), id) where deleted_at is null;
create index candidates_first_name on candidates (merchant_id, lower(first_name)) where deleted_at is null;
create index candidates_email_sort on candidates (merchant_id, lower(email)) where deleted_at is null;
create index candidates_job_role on candidates (merchant_id, job_role_id) where deleted_at is null;
create index candidates_employment_type on candidates (merchant_id, employment_type_id) where deleted_at is null;
create index candidates_staff_status on candidates (merchant_id, staff_status_id) where deleted_at is null;
create index candidates_created on candidates (merchant_id, created_at) where deleted_at is null;
create index candidates_activated on candidates (merchant_id, activated) where deleted_at is null;
`;
