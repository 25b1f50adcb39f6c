// Issue 32: credit notes, numbered CN- in their own series, made only by an invoice's Credit action; amounts negative.
export default /* sql */ `
create table credit_notes (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  number text,
  invoice_id integer not null,
  client_id integer not null,
  kind text not null check (kind in ('full', 'lines', 'amount')),
  reason text not null,
  rebill boolean not null default false,
  issue_date date not null,
  net bigint not null,
  vat bigint not null,
  total bigint not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  search_text text generated always as (lower(coalesce(number, ''))) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, invoice_id) references invoices (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id)
);
create index credit_notes_number on credit_notes (merchant_id, lower(number));
create index credit_notes_invoice_id on credit_notes (merchant_id, invoice_id);
create index credit_notes_client_id on credit_notes (merchant_id, client_id);
create index credit_notes_issue_date on credit_notes (merchant_id, issue_date);
create unique index credit_notes_number_numbered on credit_notes (merchant_id, number);
create index credit_notes_created on credit_notes (merchant_id, created_at);
create index credit_notes_search on credit_notes using gin (search_text gin_trgm_ops);
create table credit_note_lines (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  credit_note_id integer not null,
  invoice_line_id integer,
  description text not null,
  vat_treatment text not null check (vat_treatment in ('standard', 'exempt')),
  vat_rate integer not null,
  net bigint not null,
  vat bigint not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, credit_note_id) references credit_notes (merchant_id, id),
  foreign key (merchant_id, invoice_line_id) references invoice_lines (merchant_id, id)
);
create index credit_note_lines_credit_note_id on credit_note_lines (merchant_id, credit_note_id);
create index credit_note_lines_created on credit_note_lines (merchant_id, created_at);
`;
