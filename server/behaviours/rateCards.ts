import { HttpError } from '../http.js';
import type { ResourceBehaviour } from '../engine/context.js';
import { BANDS, type Band } from '../../core/domain/pricing/types.js';
import { DEFAULT_ON_COST_RATES } from '../../core/domain/pricing/oncosts.js';
import { wageFlagSql } from './wageFlag.js';

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
  const defaults = DEFAULT_ON_COST_RATES.map(
    (r) =>
      `('${r.effective_from}'::date, ${Number(r.employer_ni_percent)}::numeric, ${Number(r.holiday_pay_percent)}::numeric)`,
  ).join(', ');
  return `(rate_cards.charge_${band} - ${pay} - coalesce(
      (select ${costs} from on_cost_rates oc where oc.merchant_id = rate_cards.merchant_id ${inForce}),
      (select ${costs} from (values ${defaults}) as oc(effective_from, employer_ni_percent, holiday_pay_percent) ${inForce})))::bigint`;
}

export const rateCardsBehaviour: ResourceBehaviour = {
  computed: {
    ...Object.fromEntries(BANDS.map((b) => [`margin_${b}`, () => marginSql(b)])),
    wage_flag: (bind, { today }) => wageFlagSql('rate_cards', today, bind),
    // Only a filter: "in force on" a date.
    in_force_on: () => 'null::date',
  },
  computedFilters: {
    in_force_on: (value, bind, { today }) => {
      const date = value === 'today' ? today : value;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)))
        throw new HttpError(400, 'Filter in_force_on must be a date.', { in_force_on: 'Must be a date' });
      return `(effective_from <= ${bind(date)}::date and (effective_to is null or effective_to > ${bind(date)}::date))`;
    },
  },
  // Its period (no overlap, the card before following it) is declared: effectiveDated (server/engine/periods.ts).
};
