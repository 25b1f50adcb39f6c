// Issue 34: the shift reports' daily summary (docs/decisions.md "Issue 34 — the shift reports' daily summary").
// One row per agency, day (of the shift's start on the agency's clock), client, site, job role, status, who asked
// for a cancellation and whether it was charged: how many live shifts, and the sums of their paid minutes, charge,
// pay, margin and cancellation charge. The report engine reads it instead of shifts when a report's period, filters,
// dimensions, measures and the caller's scope are all columns of it (server/engine/reportSummaries.ts); its
// declaration is core/resources/reports.ts's shiftDays, and a test compares it with a recount of shifts.
//
// Kept by statement triggers on shifts, so every writer keeps it in its own transaction: the engine's requests,
// hooks, jobs, createMany, set-based updates and transitions, deletes, and SQL outside the engine (seeds, migrations,
// the bench's set-based year). Like notification_counts (009), a trigger only appends deltas (+1 for a row that
// arrives in a key, −1 for one that leaves it): no row that concurrent writers queue on, no lock order to deadlock
// on. Readers sum the deltas; the shifts area's job folds them (compactShiftDays), and shift_days_rebuild recounts an
// agency (or every agency) in one statement (one snapshot: a concurrent write's delta is either recounted or kept).
const KEYS = `merchant_id, day, client_id, site_id, job_role_id, status, cancel_requested_by, cancellation_charged`;
const SUMS = ['paid_minutes', 'charge', 'pay', 'margin', 'cancellation_charge'];

/** The deltas of a set of shift rows `rows` (with a `sign` column), grouped by the summary's key. */
const deltas = (rows: string) => `
  select s.merchant_id, (s.start_at at time zone m.time_zone)::date, s.client_id, s.site_id, s.job_role_id, s.status,
         s.cancel_requested_by, coalesce(s.cancellation_charge > 0, false), sum(s.sign),
         ${SUMS.map((c) => `sum(s.sign * coalesce(s.${c}, 0))`).join(', ')}
    from ${rows} s join merchants m on m.id = s.merchant_id
   where s.deleted_at is null
   group by 1, 2, 3, 4, 5, 6, 7, 8
  having sum(s.sign) <> 0 or ${SUMS.map((c) => `sum(s.sign * coalesce(s.${c}, 0)) <> 0`).join(' or ')}`;

const insert = `insert into shift_days (${KEYS}, row_count, ${SUMS.join(', ')})`;

export default /* sql */ `
create table shift_days (
  merchant_id integer not null references merchants(id) on delete cascade,
  day date not null,
  client_id integer not null,
  site_id integer not null,
  job_role_id integer not null,
  status text not null,
  cancel_requested_by text,
  cancellation_charged boolean not null,
  row_count bigint not null,
  ${SUMS.map((c) => `${c} bigint not null`).join(',\n  ')}
);
create index shift_days_day on shift_days (merchant_id, day);

create function shift_days_keep() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${insert} ${deltas('(select n.*, 1 as sign from new_rows n)')};
  elsif tg_op = 'DELETE' then
    ${insert} ${deltas('(select o.*, -1 as sign from old_rows o)')};
  else
    ${insert} ${deltas('(select n.*, 1 as sign from new_rows n union all select o.*, -1 as sign from old_rows o)')};
  end if;
  return null;
end $$;
create trigger shift_days_insert after insert on shifts referencing new table as new_rows
  for each statement execute function shift_days_keep();
create trigger shift_days_update after update on shifts referencing old table as old_rows new table as new_rows
  for each statement execute function shift_days_keep();
create trigger shift_days_delete after delete on shifts referencing old table as old_rows
  for each statement execute function shift_days_keep();

-- A recount of one agency's summary (every agency's with null), in one statement.
create function shift_days_rebuild(agency integer) returns void language sql as $$
  with gone as (delete from shift_days where agency is null or merchant_id = agency returning 1)
  ${insert} ${deltas('(select x.*, 1 as sign from shifts x where agency is null or x.merchant_id = agency)')};
$$;
create function shift_days_truncated() returns trigger language plpgsql as $$
begin
  truncate shift_days;
  return null;
end $$;
create trigger shift_days_truncate after truncate on shifts for each statement execute function shift_days_truncated();

-- An agency that changes its time zone changes every shift's day: its summary is counted again.
create function shift_days_zone() returns trigger language plpgsql as $$
begin
  perform shift_days_rebuild(new.id);
  return null;
end $$;
create trigger shift_days_zone after update of time_zone on merchants for each row
  when (old.time_zone is distinct from new.time_zone) execute function shift_days_zone();

select shift_days_rebuild(null);
-- Its statistics now, not at autovacuum's leisure: without them a year's groups were sorted on disk, not hashed.
analyze shift_days;
`;
