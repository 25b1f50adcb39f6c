// Issue 33: a self-billing agreement with an umbrella or limited-company worker's company (HMRC VAT Notice 700/62):
// its dates (from, and the date it ends or is reviewed by), its reference and a signed copy from the file store, and
// who recorded it. Pay runs warn of a self-billed company without one in force on the pay day.
export default /* sql */ `
create table self_billing_agreements (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  candidate_id integer not null,
  start_date date not null,
  end_date date not null,
  reference text,
  file text,
  recorded_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id),
  check (end_date >= start_date)
);
create index self_billing_agreements_candidate_id on self_billing_agreements (merchant_id, candidate_id);
create index self_billing_agreements_start_date on self_billing_agreements (merchant_id, start_date);
create index self_billing_agreements_end_date on self_billing_agreements (merchant_id, end_date);
`;
