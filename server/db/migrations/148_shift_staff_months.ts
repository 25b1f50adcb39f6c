// Issue 34: the staff report's monthly summary (docs/decisions.md "Issue 34 — the staff report's monthly summary").
// Booked live shifts per agency, calendar month of their start on the agency's clock (`day`, the month's first),
// staff member, status, who asked for a cancellation and whether it was charged: how many, and the sums of their paid
// minutes, charge, pay, margin and cancellation charge. The staff report over a year reads its period's whole months
// from here and its ragged ends from shifts themselves. Neither a day nor the client or job role is a key: a staff
// member works about one shift a day, often for several clients in a month, so with any of them it is nearly a row
// per shift (957,632 rows for the bench's 1,119,077 shifts with client and job role; 118,984 without). Declared as
// shiftStaffMonths (core/resources/reports.ts); a test compares it with a recount of shifts.
//
// Kept by the same statement triggers (shift_days_keep now appends to the three summaries), folded by the same job,
// recounted by shift_staff_months_rebuild, and with the others when an agency changes its zone.
const DAY_KEYS = `merchant_id, day, client_id, site_id, job_role_id, status, cancel_requested_by, cancellation_charged`;
const STAFF_KEYS = `merchant_id, day, candidate_id, status, cancel_requested_by, cancellation_charged`;
const SUMS = ['paid_minutes', 'charge', 'pay', 'margin', 'cancellation_charge'];
const sums = (prefix = '') => SUMS.map((c) => `sum(s.sign * coalesce(s.${c}, 0)) ${prefix}${c}`).join(', ');
const changed = `sum(s.sign) <> 0 or ${SUMS.map((c) => `sum(s.sign * coalesce(s.${c}, 0)) <> 0`).join(' or ')}`;

/** The deltas of shift rows `rows` (with a `sign` column) by the day summary's key (as migration 147). */
const dayDeltas = (rows: string) => `
  select s.merchant_id, (s.start_at at time zone m.time_zone)::date as day, s.client_id, s.site_id, s.job_role_id,
         s.status, s.cancel_requested_by, coalesce(s.cancellation_charge > 0, false) as cancellation_charged,
         sum(s.sign) as row_count, ${sums('as ')}
    from ${rows} s join merchants m on m.id = s.merchant_id
   where s.deleted_at is null
   group by 1, 2, 3, 4, 5, 6, 7, 8
  having ${changed}`;

/** The deltas of shift rows `rows` booked to a staff member, by the staff summary's key. */
const staffDeltas = (rows: string) => `
  select s.merchant_id, date_trunc('month', (s.start_at at time zone m.time_zone))::date, s.candidate_id, s.status,
         s.cancel_requested_by, coalesce(s.cancellation_charge > 0, false), sum(s.sign), ${sums()}
    from ${rows} s join merchants m on m.id = s.merchant_id
   where s.deleted_at is null and s.candidate_id is not null
   group by 1, 2, 3, 4, 5, 6
  having ${changed}`;

const byMonth = (d: string) => `
  select merchant_id, date_trunc('month', day)::date, client_id, site_id, job_role_id, status, cancel_requested_by,
         cancellation_charged, sum(row_count), ${SUMS.map((c) => `sum(${c})`).join(', ')}
    from ${d} group by 1, 2, 3, 4, 5, 6, 7, 8`;

/** The three summaries' deltas of shift rows `rows`. */
const keep = (rows: string) => `
  with d as (${dayDeltas(rows)}),
       days as (insert into shift_days (${DAY_KEYS}, row_count, ${SUMS.join(', ')}) select * from d),
       months as (insert into shift_months (${DAY_KEYS}, row_count, ${SUMS.join(', ')}) ${byMonth('d')})
  insert into shift_staff_months (${STAFF_KEYS}, row_count, ${SUMS.join(', ')}) ${staffDeltas(rows)}`;

export default /* sql */ `
create table shift_staff_months (
  merchant_id integer not null references merchants(id) on delete cascade,
  day date not null,
  candidate_id integer not null,
  status text not null,
  cancel_requested_by text,
  cancellation_charged boolean not null,
  row_count bigint not null,
  ${SUMS.map((c) => `${c} bigint not null`).join(',\n  ')},
  check (day = date_trunc('month', day)::date)
);
create index shift_staff_months_day on shift_staff_months (merchant_id, day);

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

-- A recount of one agency's staff summary (every agency's with null), in one statement.
create function shift_staff_months_rebuild(agency integer) returns void language sql as $$
  with gone as (delete from shift_staff_months where agency is null or merchant_id = agency returning 1)
  insert into shift_staff_months (${STAFF_KEYS}, row_count, ${SUMS.join(', ')})
  ${staffDeltas('(select x.*, 1 as sign from shifts x where agency is null or x.merchant_id = agency)')};
$$;

create or replace function shift_days_truncated() returns trigger language plpgsql as $$
begin
  truncate shift_days;
  truncate shift_months;
  truncate shift_staff_months;
  return null;
end $$;

create or replace function shift_days_zone() returns trigger language plpgsql as $$
begin
  perform shift_days_rebuild(new.id);
  perform shift_months_rebuild(new.id);
  perform shift_staff_months_rebuild(new.id);
  return null;
end $$;

select shift_staff_months_rebuild(null);
analyze shift_staff_months;
`;
