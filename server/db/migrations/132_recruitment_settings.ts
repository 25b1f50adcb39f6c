// Issue 35, recruitment settings and retention: the agency's one row of recruitment settings (keyed by it, as its
// client settings are) with how many months an application that did not end in a hire is kept. Applications become
// hard-deleted (personal data is erased, not hidden): any hidden until now go for good with their CVs, and the table
// loses deleted_at, its indexes made again without it (as npm run engine:sql prints them). The last index serves the
// nightly retention job's search by agency and last change.
export default /* sql */ `
create table recruitment_settings (
  merchant_id integer primary key references merchants(id) on delete cascade,
  id integer generated always as (merchant_id) stored,
  retention_months integer not null default 6 check (retention_months between 1 and 84),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
delete from files f using job_applications a
 where f.merchant_id = a.merchant_id and f.owner_resource = 'job_applications' and f.owner_id = a.id
   and a.deleted_at is not null;
delete from job_applications where deleted_at is not null;
drop index job_applications_job_id;
drop index job_applications_first_name;
drop index job_applications_last_name;
drop index job_applications_email;
drop index job_applications_right_to_work;
drop index job_applications_stage;
drop index job_applications_created_at;
alter table job_applications drop column deleted_at;
create index job_applications_job_id on job_applications (merchant_id, job_id);
create index job_applications_first_name on job_applications (merchant_id, lower(first_name));
create index job_applications_last_name on job_applications (merchant_id, lower(last_name));
create index job_applications_email on job_applications (merchant_id, lower(email));
create index job_applications_right_to_work on job_applications (merchant_id, lower(right_to_work));
create index job_applications_stage on job_applications (merchant_id, lower(stage));
create index job_applications_created_at on job_applications (merchant_id, created_at);
create index job_applications_retention on job_applications (merchant_id, updated_at) where stage <> 'hired';
`;
