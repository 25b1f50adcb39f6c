import { HttpError } from '../http.js';
import type { Problems } from '../../core/engine/validate.js';
import type { ResourceBehaviour } from '../engine/context.js';
import { holidaySet } from '../../core/domain/pricing/holidays.js';
import { BANDS, type Band } from '../../core/domain/pricing/types.js';
import { DEFAULT_ON_COST_RATES, DEFAULT_WAGE_FLOORS } from '../../core/domain/pricing/oncosts.js';

const problem = (message: string) => ({ message });

/**
 * A band's margin per hour in SQL, as the domain's onCosts works it out for a PAYE worker (holiday pay on pay,
 * employer NI on pay and holiday pay, each rounded to the penny) at the on-cost rates in force on the card's
 * first day (the earliest rates before the table starts; none when the agency has none).
 */
function marginSql(band: Band): string {
  const pay = `rate_cards.pay_${band}`;
  const holiday = `round(${pay} * oc.holiday_pay_percent / 100)`;
  const costs = `${holiday} + round((${pay} + ${holiday}) * oc.employer_ni_percent / 100)`;
  const inForce = `order by oc.effective_from <= rate_cards.effective_from desc, case when oc.effective_from <= rate_cards.effective_from then oc.effective_from end desc nulls last, oc.effective_from limit 1`;
  // An agency that never stored its own rates is costed at the domain's defaults, as quotes are.
  const defaults = DEFAULT_ON_COST_RATES.map((r) => `('${r.effective_from}'::date, ${Number(r.employer_ni_percent)}::numeric, ${Number(r.holiday_pay_percent)}::numeric)`).join(', ');
  return `(rate_cards.charge_${band} - ${pay} - coalesce(
      (select ${costs} from on_cost_rates oc where oc.merchant_id = rate_cards.merchant_id ${inForce}),
      (select ${costs} from (values ${defaults}) as oc(effective_from, employer_ni_percent, holiday_pay_percent) ${inForce})))::bigint`;
}

/**
 * The adult minimum wage (the floor of the highest age band, 21 and over) in force on the later of a rate's first
 * day and today, in SQL: the agency's wage floors, or the domain's defaults when it has none. A card pays anyone,
 * so it is held to the adult rate; the booking check holds each staff member to their own age band.
 */
function adultFloorSql(table: string, today: string, bind: (v: unknown) => string): string {
  const on = `greatest(${table}.effective_from, ${bind(today)}::date)`;
  const defaults = DEFAULT_WAGE_FLOORS.map((f) => `('${f.effective_from}'::date, ${f.min_age}, ${f.hourly_pence}::bigint)`).join(', ');
  return `coalesce(
      (select w.hourly from wage_floors w where w.merchant_id = ${table}.merchant_id and w.effective_from <= ${on}
          and w.min_age = (select max(x.min_age) from wage_floors x where x.merchant_id = ${table}.merchant_id and x.min_age <= 21)
        order by w.effective_from desc limit 1),
      (select v.hourly from (values ${defaults}) as v(effective_from, min_age, hourly)
        where not exists (select 1 from wage_floors x where x.merchant_id = ${table}.merchant_id) and v.min_age = 21 and v.effective_from <= ${on}
        order by v.effective_from desc limit 1))`;
}

/** 'Pay below the minimum wage of £12.71 an hour' when a band's pay (any set) is under the adult floor; null otherwise. */
function wageFlagSql(table: string, today: string, bind: (v: unknown) => string): string {
  const floor = adultFloorSql(table, today, bind);
  const lowest = `least(${BANDS.map((b) => `${table}.pay_${b}`).join(', ')})`;
  return `(select case when ${lowest} < f.floor then 'Pay below the minimum wage of £' || to_char(f.floor / 100.0, 'FM9990.00') || ' an hour' end from (select ${floor} as floor) f)`;
}

const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

function checkBreakRules(value: unknown): string | null {
  if (!Array.isArray(value)) return 'Give the breaks as a list of shift lengths and minutes.';
  if (value.length > 10) return 'Give at most 10 break rules.';
  for (const r of value) {
    if (!r || typeof r !== 'object') return 'Give each break as a shift length in hours and the minutes of break.';
    const hours = Number((r as any).min_hours);
    const minutes = Number((r as any).break_minutes);
    if (!Number.isFinite(hours) || hours <= 0 || hours > 24) return 'A break applies from a shift length of more than 0 and at most 24 hours.';
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 240) return 'A break is a whole number of minutes from 0 to 240.';
    if (minutes >= hours * 60) return 'A break must be shorter than the shift it applies to.';
  }
  return null;
}

export const rateBehaviours: Record<string, ResourceBehaviour> = {
  rate_cards: {
    computed: {
      ...Object.fromEntries(BANDS.map((b) => [`margin_${b}`, () => marginSql(b)])),
      wage_flag: (bind, { today }) => wageFlagSql('rate_cards', today, bind),
      // Only a filter: "in force on" a date.
      in_force_on: () => 'null::date',
    },
    computedFilters: {
      in_force_on: (value, bind, { today }) => {
        const date = value === 'today' ? today : value;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) throw new HttpError(400, 'Filter in_force_on must be a date.', { in_force_on: 'Must be a date' });
        return `(effective_from <= ${bind(date)}::date and (effective_to is null or effective_to > ${bind(date)}::date))`;
      },
    },
    // Its period (no overlap, the card before following it) is declared: effectiveDated (server/engine/periods.ts).
  },
  candidate_rates: {
    computed: {
      wage_flag: (bind, { today }) => wageFlagSql('candidate_rates', today, bind),
    },
    async beforeSave(_ctx, { record }) {
      if (BANDS.every((b) => record[`pay_${b}`] == null)) return { [`pay_${BANDS[0]}`]: problem('Give at least one pay rate.') };
    },
  },
  client_rules: {
    computed: {
      applies_to: () => `coalesce((select c.name from clients c where c.merchant_id = client_rules.merchant_id and c.id = client_rules.client_id), '')`,
    },
    async beforeSave(_ctx, { record }): Promise<Problems | void> {
      const breaks = checkBreakRules(record.break_rules);
      if (breaks) return { break_rules: problem(breaks) };
      for (const f of ['night_start', 'night_end', 'weekend_start_time', 'weekend_end_time']) if (!HHMM.test(String(record[f] ?? ''))) return { [f]: problem('Give a time as HH:mm, for example 20:00.') };
      if (record.night_start === record.night_end) return { night_end: problem('The night must end at another time than it starts.') };
      if (record.weekend_start_day === record.weekend_end_day && record.weekend_start_time === record.weekend_end_time) return { weekend_end_time: problem('The weekend must end at another time than it starts.') };
      record.break_rules = [...record.break_rules].map((r: any) => ({ min_hours: Number(r.min_hours), break_minutes: Number(r.break_minutes) })).sort((a, b) => a.min_hours - b.min_hours);
    },
  },
  holiday_overrides: {
    async beforeSave(_ctx, { stored, record }) {
      if (stored) return;
      const isHoliday = holidaySet(record.region, record.date, record.date, []).has(record.date);
      if (record.kind === 'add' && isHoliday) return { date: problem('This day is already a bank holiday in this region.') };
      if (record.kind === 'remove' && !isHoliday) return { date: problem('This day is not a bank holiday in this region.') };
    },
  },
};

