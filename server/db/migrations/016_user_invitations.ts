// Issue 14, item 3: agency and client users become a declared resource (versioned, audited, invited by e-mail).
export default /* sql */ `
alter table users add column updated_at timestamptz not null default now();
alter table users add column version integer not null default 1;
-- An invited user has no password until they follow their link.
alter table users alter column password_hash drop not null;
create index users_merchant_name on users (merchant_id, lower(name));
create index users_merchant_email on users (merchant_id, lower(email));
create index users_merchant_role on users (merchant_id, role);
create index users_merchant_kind on users (merchant_id, kind);
create index users_merchant_client on users (merchant_id, client_id);
create index users_merchant_active on users (merchant_id, active);
create index users_merchant_created on users (merchant_id, created_at);

-- Invitations of agency and client users to set their password: single use, expiring; only the token's hash is
-- kept for checking it. The token itself waits in send_token only until the worker has e-mailed the link (the
-- stored copy of the e-mail carries a placeholder), then it is forgotten.
create table user_invites (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  user_id integer not null,
  email text not null,
  token_hash text not null unique,
  send_token text,
  outbox_id integer references email_outbox(id) on delete set null,
  expires_at timestamptz not null,
  used_at timestamptz,
  invited_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  foreign key (merchant_id, user_id) references users (merchant_id, id) on delete cascade
);
create index user_invites_user on user_invites (merchant_id, user_id);
create index user_invites_outbox on user_invites (outbox_id) where send_token is not null;
`;
