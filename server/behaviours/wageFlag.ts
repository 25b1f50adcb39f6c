import { BANDS } from '../../core/domain/pricing/types.js';
import { DEFAULT_WAGE_FLOORS } from '../../core/domain/pricing/oncosts.js';

// The flag both rate cards and a staff member's own rates compute, in SQL.

/**
 * The adult minimum wage (the floor of the highest age band, 21 and over) in force on the later of a rate's first
 * day and today, in SQL: the agency's wage floors, or the domain's defaults when it has none. A card pays anyone,
 * so it is held to the adult rate; the booking check holds each staff member to their own age band.
 */
function adultFloorSql(table: string, today: string, bind: (v: unknown) => string, dated: boolean): string {
  const on = dated ? `greatest(${table}.effective_from, ${bind(today)}::date)` : `${bind(today)}::date`;
  const defaults = DEFAULT_WAGE_FLOORS.map(
    (f) => `('${f.effective_from}'::date, ${f.min_age}, ${f.hourly_pence}::bigint)`,
  ).join(', ');
  return `coalesce(
      (select w.hourly from wage_floors w where w.merchant_id = ${table}.merchant_id and w.effective_from <= ${on}
          and w.min_age = (select max(x.min_age) from wage_floors x where x.merchant_id = ${table}.merchant_id and x.min_age <= 21)
        order by w.effective_from desc limit 1),
      (select v.hourly from (values ${defaults}) as v(effective_from, min_age, hourly)
        where not exists (select 1 from wage_floors x where x.merchant_id = ${table}.merchant_id) and v.min_age = 21 and v.effective_from <= ${on}
        order by v.effective_from desc limit 1))`;
}

/**
 * 'Pay below the minimum wage of £12.71 an hour: PAYE staff cannot be booked at it' when a pay rate (any set) is under
 * the adult floor; null otherwise. The columns are a rate card's or own rates' bands (dated by effective_from), or a
 * job role's default pay (dated today). The booking refuses a PAYE worker below their floor (issue 30.6).
 */
export function wageFlagSql(
  table: string,
  today: string,
  bind: (v: unknown) => string,
  columns: string[] = BANDS.map((b) => `pay_${b}`),
  dated = true,
): string {
  const floor = adultFloorSql(table, today, bind, dated);
  const lowest = `least(${columns.map((c) => `${table}.${c}`).join(', ')})`;
  return `(select case when ${lowest} < f.floor then 'Pay below the minimum wage of £' || to_char(f.floor / 100.0, 'FM9990.00') || ' an hour: PAYE staff cannot be booked at it' end from (select ${floor} as floor) f)`;
}
