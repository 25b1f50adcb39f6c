// Issue 16, item 8: capability links. A single-use, expiring link bound to one record and one of its actions (a
// client's approver signs a timesheet without an account). Only the token's hash is kept; the raw token is answered
// once, when the link is minted. content_hash binds the link to the record as it read when the link was sent.
export default /* sql */ `
create table capability_links (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  resource text not null,
  record_id integer not null,
  action text not null,
  token_hash text not null unique,
  purpose text not null,
  recipient text not null,
  delivered_via text not null,
  content_hash text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index capability_links_record on capability_links (merchant_id, resource, record_id);
`;
