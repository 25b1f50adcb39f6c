// Issue 17: a staff member asks for an open shift from their phone page; the agency accepts (the shift's assign)
// or declines. One pending request per staff member and shift, kept by the database against a double tap.
export default /* sql */ `
create table shift_requests (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  shift_id integer not null,
  candidate_id integer not null,
  note text,
  status text not null default 'pending' check (status in ('pending', 'accepted', 'declined', 'withdrawn')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  deleted_at timestamptz,
  unique (merchant_id, id),
  foreign key (merchant_id, shift_id) references shifts (merchant_id, id),
  foreign key (merchant_id, candidate_id) references candidates (merchant_id, id)
);
create index shift_requests_shift_id on shift_requests (merchant_id, shift_id) where deleted_at is null;
create index shift_requests_candidate_id on shift_requests (merchant_id, candidate_id) where deleted_at is null;
create index shift_requests_status on shift_requests (merchant_id, lower(status)) where deleted_at is null;
create index shift_requests_created_at on shift_requests (merchant_id, created_at) where deleted_at is null;
create unique index shift_requests_one_pending on shift_requests (merchant_id, shift_id, candidate_id)
  where status = 'pending' and deleted_at is null;
`;
