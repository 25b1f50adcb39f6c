// Issue 35: the agency's settings (/appsetting/agencysetting), one row per agency keyed by it as invoice_settings is,
// and its business units. The trading name, time zone and logo stay in merchants as well, where the whole product
// reads them; the engine's write of this row copies them there (server/behaviours/agencySettings.ts). The address
// and VAT number move here from invoice_settings (issue 32.8): one place for what identifies the agency, which the
// invoices, credit notes and e-invoices read. The favicon moves here from the spec's agency_logos list. Files that
// belonged to the agency itself (owner 'merchants': its logo) now belong to this row, which owns the logo.
export default /* sql */ `
create table agency_settings (
  merchant_id integer primary key references merchants(id) on delete cascade,
  id integer generated always as (merchant_id) stored,
  company_name text not null,
  legal_name text,
  address jsonb,
  company_number text,
  vat_number text,
  -- No list here: the IANA zones the runtime knows change with its ICU data; the declaration checks the choice.
  time_zone text not null default 'Europe/London',
  default_region text not null default 'england_wales'
    check (default_region in ('england_wales', 'scotland', 'northern_ireland')),
  profile_photo text,
  favicon text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (merchant_id, id)
);
create index agency_settings_created on agency_settings (merchant_id, created_at);

insert into agency_settings (merchant_id, company_name, time_zone, profile_photo, address, vat_number, favicon)
select m.id, m.company_name, m.time_zone,
       coalesce(m.profile_photo, (select l.logo_url from agency_logos l
                                   where l.merchant_id = m.id and l.logo_type = 'agency_logo' order by l.id desc limit 1)),
       s.address, s.vat_number,
       (select l.logo_url from agency_logos l where l.merchant_id = m.id and l.logo_type = 'favicon'
         order by l.id desc limit 1)
  from merchants m left join invoice_settings s on s.merchant_id = m.id;
update merchants m set profile_photo = a.profile_photo from agency_settings a where a.merchant_id = m.id;
delete from agency_logos where logo_type in ('agency_logo', 'favicon');
alter table invoice_settings drop column address, drop column vat_number;
update files set owner_resource = 'agency_settings' where owner_resource = 'merchants';

create table business_units (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  name text not null,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  search_text text generated always as (lower(name)) stored,
  unique (merchant_id, id)
);
create unique index business_units_name_unique on business_units (merchant_id, lower(name));
create index business_units_name on business_units (merchant_id, name);
create index business_units_active on business_units (merchant_id, active);
create index business_units_created on business_units (merchant_id, created_at);
create index business_units_search on business_units using gin (search_text gin_trgm_ops);
`;
