// Issue 34: the shift reports' monthly summary (docs/decisions.md "Issue 34 — the shift reports' monthly summary").
// shift_days (143) by calendar month: the same keys and sums, `day` the month's first day on the agency's clock. A
// report over a year reads the period's whole months from here and only its ragged ends from shift_days: twelve rows
// per key instead of 365. Its declaration is shiftDays's `months` (core/resources/reports.ts), and a test compares it
// with a recount of shifts.
//
// Kept by the same statement triggers in the same transaction: shift_days_keep now appends each statement's deltas to
// both tables, from one reading of its transition tables (the month's deltas are the day's summed by month). Folded
// by the same periodic job; recounted by shift_months_rebuild, and with shift_days when an agency changes its zone.
const KEYS = `merchant_id, day, client_id, site_id, job_role_id, status, cancel_requested_by, cancellation_charged`;
const SUMS = ['paid_minutes', 'charge', 'pay', 'margin', 'cancellation_charge'];
const COLUMNS = `${KEYS}, row_count, ${SUMS.join(', ')}`;

/** The deltas of a set of shift rows `rows` (with a `sign` column), grouped by the day summary's key. */
const deltas = (rows: string) => `
  select s.merchant_id, (s.start_at at time zone m.time_zone)::date as day, s.client_id, s.site_id, s.job_role_id,
         s.status, s.cancel_requested_by, coalesce(s.cancellation_charge > 0, false) as cancellation_charged,
         sum(s.sign) as row_count, ${SUMS.map((c) => `sum(s.sign * coalesce(s.${c}, 0)) as ${c}`).join(', ')}
    from ${rows} s join merchants m on m.id = s.merchant_id
   where s.deleted_at is null
   group by 1, 2, 3, 4, 5, 6, 7, 8
  having sum(s.sign) <> 0 or ${SUMS.map((c) => `sum(s.sign * coalesce(s.${c}, 0)) <> 0`).join(' or ')}`;

/** Day rows `d` summed by month. */
const byMonth = (d: string) => `
  select merchant_id, date_trunc('month', day)::date, client_id, site_id, job_role_id, status, cancel_requested_by,
         cancellation_charged, sum(row_count), ${SUMS.map((c) => `sum(${c})`).join(', ')}
    from ${d} group by 1, 2, 3, 4, 5, 6, 7, 8`;

/** Both summaries' deltas of shift rows `rows`, from one reading of them. */
const keep = (rows: string) => `
  with d as (${deltas(rows)}),
       days as (insert into shift_days (${COLUMNS}) select * from d)
  insert into shift_months (${COLUMNS}) ${byMonth('d')}`;

export default /* sql */ `
create table shift_months (
  merchant_id integer not null references merchants(id) on delete cascade,
  day date not null,
  client_id integer not null,
  site_id integer not null,
  job_role_id integer not null,
  status text not null,
  cancel_requested_by text,
  cancellation_charged boolean not null,
  row_count bigint not null,
  ${SUMS.map((c) => `${c} bigint not null`).join(',\n  ')},
  check (day = date_trunc('month', day)::date)
);
create index shift_months_day on shift_months (merchant_id, day);

create or replace function shift_days_keep() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${keep('(select n.*, 1 as sign from new_rows n)')};
  elsif tg_op = 'DELETE' then
    ${keep('(select o.*, -1 as sign from old_rows o)')};
  else
    ${keep('(select n.*, 1 as sign from new_rows n union all select o.*, -1 as sign from old_rows o)')};
  end if;
  return null;
end $$;

-- A recount of one agency's monthly summary (every agency's with null), in one statement.
create function shift_months_rebuild(agency integer) returns void language sql as $$
  with gone as (delete from shift_months where agency is null or merchant_id = agency returning 1)
  insert into shift_months (${COLUMNS})
  ${byMonth(`(${deltas('(select x.*, 1 as sign from shifts x where agency is null or x.merchant_id = agency)')}) d`)};
$$;

create or replace function shift_days_truncated() returns trigger language plpgsql as $$
begin
  truncate shift_days;
  truncate shift_months;
  return null;
end $$;

create or replace function shift_days_zone() returns trigger language plpgsql as $$
begin
  perform shift_days_rebuild(new.id);
  perform shift_months_rebuild(new.id);
  return null;
end $$;

select shift_months_rebuild(null);
analyze shift_months;
`;
