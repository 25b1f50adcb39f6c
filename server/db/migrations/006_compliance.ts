// Staff compliance: documents (with the document report's indexes), restrictions, preferences and availability,
// the compliance each staff member holds (kept by the documents' hooks), and categories tied to job roles.
export default /* sql */ `
alter table candidates add column compliance_complete boolean not null default false;
alter table candidates add column compliance_valid_until date;
create index candidates_compliance on candidates (merchant_id, compliance_complete, compliance_valid_until) where deleted_at is null;

alter table document_categories add column job_role_ids integer[] not null default '{}';
create trigger document_categories_job_role_ids_agency before insert or update of job_role_ids on document_categories for each row execute function check_agency_array_refs('job_role_ids', 'job_roles');

create table candidate_documents (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  document_category_id integer not null,
  number text,
  issue_date date,
  expiry_date date,
  file text not null,
  status text not null check (status in ('awaiting', 'verified', 'rejected')),
  rejection_reason text,
  current boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  foreign key (merchant_id, document_category_id) references document_categories (merchant_id, id)
);
create index candidate_documents_candidate_id on candidate_documents (merchant_id, candidate_id) where deleted_at is null;
create index candidate_documents_document_category_id on candidate_documents (merchant_id, document_category_id) where deleted_at is null;
create index candidate_documents_expiry_date on candidate_documents (merchant_id, expiry_date) where deleted_at is null;
create index candidate_documents_status on candidate_documents (merchant_id, lower(status)) where deleted_at is null;
create index candidate_documents_current on candidate_documents (merchant_id, current) where deleted_at is null;
create index candidate_documents_created_at on candidate_documents (merchant_id, created_at) where deleted_at is null;

create table candidate_restrictions (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  client_id integer not null,
  site_id integer,
  reason text not null,
  restricted_on date not null,
  recorded_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id),
  foreign key (merchant_id, site_id) references sites (merchant_id, id)
);
create index candidate_restrictions_candidate_id on candidate_restrictions (merchant_id, candidate_id);
create index candidate_restrictions_client_id on candidate_restrictions (merchant_id, client_id);
create index candidate_restrictions_site_id on candidate_restrictions (merchant_id, site_id);
create index candidate_restrictions_restricted_on on candidate_restrictions (merchant_id, restricted_on);
create index candidate_restrictions_created on candidate_restrictions (merchant_id, created_at);

create table candidate_preferences (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  preferred_client_ids integer[] not null default '{}',
  avoided_client_ids integer[] not null default '{}',
  preferred_site_ids integer[] not null default '{}',
  avoided_site_ids integer[] not null default '{}',
  job_role_ids integer[] not null default '{}',
  prefers_day boolean not null default true,
  prefers_night boolean not null default false,
  prefers_long_day boolean not null default false,
  prefers_weekend boolean not null default false,
  max_hours_per_week integer,
  travel_radius_miles integer,
  opted_out_48h boolean not null default false,
  opt_out_signed_on date,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id)
);
create trigger candidate_preferences_preferred_client_ids_agency before insert or update of preferred_client_ids on candidate_preferences for each row execute function check_agency_array_refs('preferred_client_ids', 'clients');
create trigger candidate_preferences_avoided_client_ids_agency before insert or update of avoided_client_ids on candidate_preferences for each row execute function check_agency_array_refs('avoided_client_ids', 'clients');
create trigger candidate_preferences_preferred_site_ids_agency before insert or update of preferred_site_ids on candidate_preferences for each row execute function check_agency_array_refs('preferred_site_ids', 'sites');
create trigger candidate_preferences_avoided_site_ids_agency before insert or update of avoided_site_ids on candidate_preferences for each row execute function check_agency_array_refs('avoided_site_ids', 'sites');
create trigger candidate_preferences_job_role_ids_agency before insert or update of job_role_ids on candidate_preferences for each row execute function check_agency_array_refs('job_role_ids', 'job_roles');
create unique index candidate_preferences_candidate_id_unique on candidate_preferences (merchant_id, candidate_id);
create index candidate_preferences_created on candidate_preferences (merchant_id, created_at);

create table availability (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  date date not null,
  status text not null check (status in ('available', 'day', 'night', 'long_day', 'unavailable')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id)
);
create index availability_candidate_id on availability (merchant_id, candidate_id);
create index availability_date on availability (merchant_id, date);
create index availability_status on availability (merchant_id, lower(status));
create index availability_created on availability (merchant_id, created_at);

-- The document report: current documents of an agency by expiry (DueDoc60Days over a million documents).
create index candidate_documents_report on candidate_documents (merchant_id, expiry_date, id) where deleted_at is null and current;
create index candidate_documents_of_candidate on candidate_documents (candidate_id, document_category_id) where deleted_at is null and current;
-- One availability per staff member and day.
create unique index availability_candidate_date on availability (merchant_id, candidate_id, date);
`;
