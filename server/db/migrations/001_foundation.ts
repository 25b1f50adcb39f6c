// Agencies (the spec's merchants) are the tenants: every business row carries merchant_id.
export default /* sql */ `
create extension if not exists pg_trgm;

create table merchants (
  id serial primary key,
  company_name text not null,
  profile_photo text,
  email text,
  phone text,
  created_at timestamptz not null default now()
);

create table job_roles (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  code text,
  description text,
  default_pay_rate bigint,
  default_charge_rate bigint,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index job_roles_name on job_roles (merchant_id, lower(name));

create table clients (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  code text,
  client_type text,
  contact_name text,
  email text,
  billing_email text,
  phone text,
  address jsonb,
  vat_number text,
  payment_terms_days integer,
  status text not null default 'active' check (status in ('active', 'inactive')),
  notes text,
  logo text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index clients_merchant_name on clients (merchant_id, lower(name)) where deleted_at is null;
create unique index clients_code on clients (merchant_id, lower(code)) where deleted_at is null and code is not null;

create table sites (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer not null references clients(id),
  name text not null,
  business_unit text,
  contact_name text,
  contact_phone text,
  contact_email text,
  address jsonb,
  status text not null default 'active' check (status in ('active', 'inactive')),
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index sites_merchant_name on sites (merchant_id, lower(name)) where deleted_at is null;
create index sites_client on sites (client_id) where deleted_at is null;

create table candidates (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  first_name text not null,
  last_name text not null,
  email text,
  phone text,
  date_of_birth date,
  address jsonb,
  job_role_id integer references job_roles(id),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  activated boolean not null default false,
  profile_photo text,
  custom_fields jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  search_text text generated always as (
    lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, ''))
  ) stored
);
create index candidates_merchant_name on candidates (merchant_id, lower(last_name), id) where deleted_at is null;
create index candidates_merchant_status on candidates (merchant_id, status, activated) where deleted_at is null;
create index candidates_search on candidates using gin (search_text gin_trgm_ops);
create unique index candidates_email on candidates (merchant_id, lower(email)) where deleted_at is null and email is not null;

-- Sign-in accounts: agency users (kind admin) and client users (kind client, tied to one client).
create table users (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer references clients(id),
  kind text not null check (kind in ('admin', 'client')),
  name text not null,
  email text not null,
  password_hash text not null,
  role text not null,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  check ((kind = 'client') = (client_id is not null))
);
create unique index users_kind_email on users (kind, lower(email));

-- Only a hash of each bearer token is stored; a leaked table cannot be replayed.
create table sessions (
  token_hash text primary key,
  user_id integer not null references users(id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index sessions_user on sessions (user_id);
create index sessions_expires on sessions (expires_at);

create table agency_logos (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  logo_type text not null,
  logo_url text not null,
  created_at timestamptz not null default now()
);
create index agency_logos_merchant on agency_logos (merchant_id, logo_type);

create table notifications (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  title text not null,
  body text,
  link text,
  read boolean not null default false,
  created_at timestamptz not null default now()
);
create index notifications_merchant on notifications (merchant_id, created_at desc);
create index notifications_unread on notifications (merchant_id) where not read;
`;
