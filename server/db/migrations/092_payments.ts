// Issue 32: payments, put against a client's issued invoices (payment_allocations), reversed with a reason,
// never deleted; an invoice's sent_at, so a reversed payment takes it back to sent rather than issued.
export default /* sql */ `
alter table invoices add column sent_at timestamptz;
create table payments (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  client_id integer not null,
  paid_on date not null,
  amount bigint not null,
  reference text,
  method text not null check (method in ('bank_transfer', 'card', 'cheque', 'other')),
  split jsonb,
  state text not null check (state in ('recorded', 'reversed')),
  reversed_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  search_text text generated always as (lower(coalesce(reference, ''))) stored,
  unique (merchant_id, id),
  foreign key (merchant_id, client_id) references clients (merchant_id, id)
);
create index payments_client_id on payments (merchant_id, client_id);
create index payments_paid_on on payments (merchant_id, paid_on);
create index payments_state on payments (merchant_id, lower(state));
create index payments_search on payments using gin (search_text gin_trgm_ops);
create table payment_allocations (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  payment_id integer not null,
  invoice_id integer not null,
  amount bigint not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (merchant_id, id),
  foreign key (merchant_id, payment_id) references payments (merchant_id, id),
  foreign key (merchant_id, invoice_id) references invoices (merchant_id, id)
);
create index payment_allocations_payment_id on payment_allocations (merchant_id, payment_id);
create index payment_allocations_invoice_id on payment_allocations (merchant_id, invoice_id);
create index payment_allocations_created on payment_allocations (merchant_id, created_at);
`;
