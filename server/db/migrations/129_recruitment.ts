// Issue 35, recruitment's first slice: the agency's vacancies (Recruitment → Jobs; not `jobs`, the background jobs'
// table) and their applicants' pipeline (job_applications), as npm run engine:sql writes them from
// core/resources/recruitment/resource.ts. An application hires at most one staff member, and a staff member comes from
// at most one application: kept by the database as well as by the lifecycle.
export default /* sql */ `
create table vacancies (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  title text not null,
  job_role_id integer,
  location text not null,
  pay_min bigint,
  pay_max bigint,
  hours text,
  description text,
  closing_date date,
  status text not null check (status in ('draft', 'open', 'closed')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  search_text text generated always as (lower(title || ' ' || location || ' ' || coalesce(description, ''))) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, job_role_id) references job_roles (merchant_id, id)
);
create index vacancies_title on vacancies (merchant_id, lower(title)) where deleted_at is null;
create index vacancies_job_role_id on vacancies (merchant_id, job_role_id) where deleted_at is null;
create index vacancies_location on vacancies (merchant_id, lower(location)) where deleted_at is null;
create index vacancies_pay_min on vacancies (merchant_id, pay_min) where deleted_at is null;
create index vacancies_closing_date on vacancies (merchant_id, closing_date) where deleted_at is null;
create index vacancies_status on vacancies (merchant_id, lower(status)) where deleted_at is null;
create index vacancies_created_at on vacancies (merchant_id, created_at) where deleted_at is null;
create index vacancies_search on vacancies using gin (search_text gin_trgm_ops);
create table job_applications (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  job_id integer not null,
  first_name text not null,
  last_name text not null,
  email text not null,
  phone text,
  right_to_work text not null check (right_to_work in ('yes', 'share_code', 'no')),
  consent boolean not null default false,
  stage text not null check (stage in ('applied', 'screening', 'interview', 'offer', 'hired', 'rejected')),
  stage_note text,
  candidate_id integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  search_text text generated always as (lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(phone, ''))) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, job_id) references vacancies (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id)
);
create index job_applications_job_id on job_applications (merchant_id, job_id) where deleted_at is null;
create index job_applications_first_name on job_applications (merchant_id, lower(first_name)) where deleted_at is null;
create index job_applications_last_name on job_applications (merchant_id, lower(last_name)) where deleted_at is null;
create index job_applications_email on job_applications (merchant_id, lower(email)) where deleted_at is null;
create index job_applications_right_to_work on job_applications (merchant_id, lower(right_to_work)) where deleted_at is null;
create index job_applications_stage on job_applications (merchant_id, lower(stage)) where deleted_at is null;
create index job_applications_created_at on job_applications (merchant_id, created_at) where deleted_at is null;
create index job_applications_search on job_applications using gin (search_text gin_trgm_ops);
create unique index job_applications_candidate_id on job_applications (merchant_id, candidate_id)
  where candidate_id is not null;
`;
