// Issue 31.5: a record's document kept as it was issued. The PDF is rendered in the transition that issues the
// record (a timesheet's lock), once for each distinct reading of it (the agency's with pay, the client's without),
// stored in the file store, and served as stored from then on. A row for each role that reads a copy, so a reader
// finds theirs by their role; several rows share one file. The file is owned by 'issued_documents', which is no
// resource: GET /api/files/{id} serves it to nobody (the copy with pay must never reach a client by its id).
export default /* sql */ `
create table issued_documents (
  id serial primary key,
  merchant_id integer not null references merchants(id) on delete cascade,
  resource text not null,
  record_id integer not null,
  template text not null,
  role text not null,
  file_id uuid not null references files(id) on delete cascade,
  sha256 text not null,
  issued_at timestamptz not null default now(),
  issued_by integer references users(id) on delete set null,
  unique (merchant_id, resource, record_id, template, role)
);

-- A document as issued is never changed (removed only with its agency).
create function issued_documents_unchanged() returns trigger language plpgsql as $$
begin
  raise exception 'An issued document cannot be changed' using errcode = '42501';
end $$;
create trigger issued_documents_unchanged before update on issued_documents for each row execute function issued_documents_unchanged();
`;
