// State that every server process on one database must share (the product may run as several processes).
export default /* sql */ `
-- Sign-in attempts, counted when they start. key is 'account:<e-mail>' or 'address:<ip>' (behind a namespace
-- prefix that tests use to keep apart). A window that has passed starts again at the next attempt.
create table login_attempts (
  key text primary key,
  window_start timestamptz not null,
  count integer not null
);
create index login_attempts_window on login_attempts (window_start);

-- Accounts that signed in successfully from an address: the per-address limit does not stop them there.
create table login_known_addresses (
  account text not null,
  address text not null,
  last_success_at timestamptz not null,
  primary key (account, address)
);
create index login_known_addresses_last on login_known_addresses (last_success_at);
`;
