import { Fragment } from 'react';
import { Route } from 'react-router';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import type { FieldOverride } from '../../engine/react/viewOptions';
import { SettingsLayout } from '../../layout/SettingsLayout';
import { BANDS } from '../../../core/domain/pricing/types';
import {
  candidateRates,
  clientRules,
  holidayOverrides,
  onCostRates,
  rateCards,
  shiftTemplates,
  wageFloors,
} from '../../../core/resources/rates/resource';
import { BandRateRow, OwnPayInput, SiteOfClientInput } from './RateInputs';
import { BreakRulesField, BreakRulesInput } from './BreakRules';
import { AppliesToField, RatesAndRules } from './RatesAndRules';
import { pathsOf } from '../../engine/react/paths';
import { HolidayCalendar } from './HolidayCalendar';

const inSettings = { wrapper: SettingsLayout };

// A card's form shows each band as one row: pay, charge and the margin between them, worked out as typed.
const bandRows: Record<string, FieldOverride> = Object.fromEntries(
  BANDS.flatMap((b) => [
    [`pay_${b}`, { input: <BandRateRow key={b} decl={rateCards} band={b} /> }],
    [`charge_${b}`, { input: <Fragment key={`charge_${b}`} /> }],
  ]),
);

/** The rate cards: /report/RateCards (every card with its margins, CSV export) and /rates_and_rules. */
const cards = buildResource(rateCards, {
  fields: { ...bandRows, site_id: { input: <SiteOfClientInput decl={rateCards} /> } },
  extraRoutes: (options) => [<Route key="rates" path="/rates_and_rules" element={<RatesAndRules {...options} />} />],
});

const rulesPaths = pathsOf(clientRules);
const rules = buildResource(clientRules, {
  fields: {
    // The agency's default has no client: it says so instead of an empty name.
    applies_to: {
      column: <AppliesToField to={rulesPaths.show} />,
      field: <AppliesToField key="applies_to" label="resources.client_rules.fields.applies_to" />,
    },
    break_rules: { input: <BreakRulesInput />, field: <BreakRulesField key="break_rules" /> },
  },
});

// The staff member's own rates are edited on their profile's Rate card tab (src/resources/candidates).
const ownRates = buildResource(candidateRates, {
  fields: Object.fromEntries(
    BANDS.map((b) => [`pay_${b}`, { input: <OwnPayInput key={b} decl={candidateRates} band={b} /> }]),
  ),
});

const holidays = buildResource(holidayOverrides, { ...inSettings, list: HolidayCalendar });
const templates = buildResource(shiftTemplates, inSettings);
const onCosts = buildResource(onCostRates, inSettings);
const floors = buildResource(wageFloors, inSettings);

const area: Area = { resources: [cards, rules, ownRates, holidays, templates, onCosts, floors] };
export default area;
