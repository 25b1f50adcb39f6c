// Issue 32 (exports): each accounting export of issued invoices and credit notes is a recorded batch, so that the
// next export leaves out what a batch already holds (the GIN indexes serve "is this document in a batch").
export default /* sql */ `
create table invoice_export_batches (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  package text not null check (package in ('xero', 'quickbooks')),
  period_from date,
  period_to date,
  client_id integer,
  include_exported boolean not null default false,
  invoice_ids integer[] not null default '{}',
  credit_note_ids integer[] not null default '{}',
  document_count integer,
  file_count integer,
  excluded_count integer,
  skipped jsonb,
  exported_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id)
);
create trigger invoice_export_batches_invoice_ids_agency before insert or update of invoice_ids on invoice_export_batches for each row execute function check_agency_array_refs('invoice_ids', 'invoices');
create trigger invoice_export_batches_credit_note_ids_agency before insert or update of credit_note_ids on invoice_export_batches for each row execute function check_agency_array_refs('credit_note_ids', 'credit_notes');
create index invoice_export_batches_package on invoice_export_batches (merchant_id, lower(package));
create index invoice_export_batches_created_at on invoice_export_batches (merchant_id, created_at);
create index invoice_export_batches_invoice_ids on invoice_export_batches using gin (invoice_ids);
create index invoice_export_batches_credit_note_ids on invoice_export_batches using gin (credit_note_ids);
`;
