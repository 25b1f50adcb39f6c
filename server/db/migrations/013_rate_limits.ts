// Rate limits shared by every server process (issue 13): the API's request counts, and how many shifts a
// client may request a day.
export default /* sql */ `
-- Requests per user (or per address without a session) in the current minute. Unlogged: no write-ahead log for
-- a count that matters for a minute; a crash empties it, which only forgives some requests.
create unlogged table api_request_counts (
  key text primary key,
  window_start timestamptz not null,
  count integer not null
);

-- Shifts a client's users may request per day (the agency's day); empty on a client's rules: the agency
-- default's, and empty there too: the product's default (core/domain/shifts/times.ts).
alter table client_rules add column max_shift_requests_per_day integer check (max_shift_requests_per_day between 1 and 10000);
`;
