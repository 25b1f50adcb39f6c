// Issue 33, output: a staff member's bank details, sealed (AES-256-GCM, server/secrets/sealing.ts) with what the
// profile shows of them beside; and the fingerprint of the key every server process on this database must share.
export default /* sql */ `
alter table candidates
  add column bank_details_sealed text,
  add column bank_details_masked text;
create table sealing_key (
  id boolean primary key default true check (id),
  fingerprint text not null,
  created_at timestamptz not null default now()
);
`;
