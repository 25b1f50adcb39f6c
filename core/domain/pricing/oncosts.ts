// Margin after on-costs, and the minimum-wage warning. The rates are dated tables held in the database (these
// defaults seed it), so a change of rate on a date never rewrites what was quoted before it.
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { formatPounds, percentOf } from '../../engine/money';

/** Employer costs on top of pay, in force from a date ('yyyy-MM-dd'). Percentages as numbers: 15 is 15%. */
export interface OnCostRate {
  effective_from: string;
  employer_ni_percent: number;
  /** The employer's NI secondary threshold per week; payroll applies it per pay period (see onCosts). */
  ni_threshold_weekly_pence?: number;
  holiday_pay_percent: number;
}

/** The lowest lawful hourly pay for workers of at least `min_age`, from a date. */
export interface WageFloor {
  effective_from: string;
  min_age: number;
  hourly_pence: number;
}

export const DEFAULT_ON_COST_RATES: readonly OnCostRate[] = [
  // Employer NI 13.8% above £175 a week (from 6 November 2022, when the 1.25-point levy was reversed).
  {
    effective_from: '2022-11-06',
    employer_ni_percent: 13.8,
    ni_threshold_weekly_pence: 17_500,
    holiday_pay_percent: 12.07,
  },
  // 15% above £96 a week from 6 April 2025. Holiday pay rolled up at 12.07% for irregular-hours workers.
  {
    effective_from: '2025-04-06',
    employer_ni_percent: 15,
    ni_threshold_weekly_pence: 9_600,
    holiday_pay_percent: 12.07,
  },
];

/**
 * The legal minimum hourly pay by age band (min_age 21: the National Living Wage; 18 and 16: the National Minimum
 * Wage for 18–20 and 16–17, the 16 band also the apprentice rate, which is not modelled apart). Source: gov.uk,
 * "National Minimum Wage and National Living Wage rates" (www.gov.uk/national-minimum-wage-rates): from 1 April 2025
 * £12.21 / £10.00 / £7.55 (the National Minimum Wage (Amendment) Regulations 2025); from 1 April 2026 £12.71 / £10.85
 * / £8.00 (announced at the Autumn Budget 2025; the project's domain rules). The agency's own dated table
 * (wage_floors, Settings) starts from these and takes later rises without a release.
 */
export const DEFAULT_WAGE_FLOORS: readonly WageFloor[] = [
  { effective_from: '2025-04-01', min_age: 21, hourly_pence: 1221 },
  { effective_from: '2026-04-01', min_age: 21, hourly_pence: 1271 },
  { effective_from: '2025-04-01', min_age: 18, hourly_pence: 1000 },
  { effective_from: '2026-04-01', min_age: 18, hourly_pence: 1085 },
  { effective_from: '2025-04-01', min_age: 16, hourly_pence: 755 },
  { effective_from: '2026-04-01', min_age: 16, hourly_pence: 800 },
];

/** The entry in force on `date`: the latest whose effective_from is on or before it; null before the first. */
export function rateOn<T extends { effective_from: string }>(table: readonly T[], date: string): T | null {
  let found: T | null = null;
  for (const row of table) {
    if (row.effective_from <= date && (!found || row.effective_from > found.effective_from)) found = row;
  }
  return found;
}

/**
 * The employer's costs on `pay` (pence) earned on `date`, for a PAYE worker: rolled-up holiday pay, plus employer
 * NI on the pay and the holiday pay. Workers paid through their own company or an umbrella cost nothing on top.
 *
 * A quote is one shift, but the NI threshold is per pay period and only payroll (a later issue) knows the period's
 * other pay, so a quote charges NI on every penny: it may understate the margin a little, never overstate it.
 * Holiday pay counts in Northern Ireland too, where it is paid when taken rather than rolled up: the cost is the
 * same. A date before the table's first row takes the first row's rates.
 */
export function onCosts(pay: number, date: string, paye: boolean, table: readonly OnCostRate[]): number {
  if (!paye || pay <= 0) return 0;
  const rate = rateOn(table, date) ?? earliest(table);
  if (!rate) return 0;
  const holidayPay = percentOf(pay, rate.holiday_pay_percent);
  const employerNi = percentOf(pay + holidayPay, rate.employer_ni_percent);
  return holidayPay + employerNi;
}

/** What the agency keeps of pay and charge (a priced shift's totals, or an hour of a band): charge − pay − on-costs. */
export function marginOf(
  amounts: { pay: number; charge: number },
  date: string,
  paye: boolean,
  table: readonly OnCostRate[],
): { onCosts: number; margin: number } {
  const costs = onCosts(amounts.pay, date, paye, table);
  return { onCosts: costs, margin: amounts.charge - amounts.pay - costs };
}

/** Stored on_cost_rates rows (API or database) as the domain reads them; the defaults when the agency has none. */
export function onCostTable(rows: readonly Record<string, unknown>[] | undefined): OnCostRate[] {
  if (!rows?.length) return [...DEFAULT_ON_COST_RATES];
  return rows.map((r) => ({
    effective_from: String(r.effective_from),
    employer_ni_percent: Number(r.employer_ni_percent),
    holiday_pay_percent: Number(r.holiday_pay_percent),
    ni_threshold_weekly_pence: r.ni_threshold_weekly == null ? undefined : Number(r.ni_threshold_weekly),
  }));
}

/** Stored wage_floors rows as the domain reads them; the defaults when the agency has none. */
export function wageFloorTable(rows: readonly Record<string, unknown>[] | undefined): WageFloor[] {
  if (!rows?.length) return [...DEFAULT_WAGE_FLOORS];
  return rows.map((r) => ({
    effective_from: String(r.effective_from),
    min_age: Number(r.min_age),
    hourly_pence: Number(r.hourly),
  }));
}

/**
 * A warning when an hourly pay rate is below the legal minimum for a worker of `age` on `date`, such as
 * "Below the National Living Wage of £12.71 an hour from 1 April 2026"; null when it is not (or no floor is known).
 */
export function wageWarning(payRatePence: number, date: string, floors: readonly WageFloor[], age = 21): string | null {
  const ageBand = floors.reduce<number | null>(
    (best, f) => (f.min_age <= age && (best === null || f.min_age > best) ? f.min_age : best),
    null,
  );
  if (ageBand === null) return null;
  const floor = rateOn(
    floors.filter((f) => f.min_age === ageBand),
    date,
  );
  if (!floor || payRatePence >= floor.hourly_pence) return null;
  const maxAge = floors.filter((f) => f.min_age > ageBand).reduce((m, f) => Math.min(m, f.min_age - 1), Infinity);
  const name =
    ageBand >= 21
      ? 'the National Living Wage'
      : `the National Minimum Wage for ages ${ageBand}${Number.isFinite(maxAge) ? ` to ${maxAge}` : ' and over'}`;
  return `Below ${name} of ${formatPounds(floor.hourly_pence)} an hour from ${format(parseISO(floor.effective_from), 'd MMMM yyyy')}`;
}

/**
 * Whole years of age on `date` ('yyyy-MM-dd') of someone born on `dateOfBirth`; a 29 February birthday counts on 1
 * March.
 */
export function ageOn(dateOfBirth: string, date: string): number {
  const [by, bm, bd] = dateOfBirth.slice(0, 10).split('-').map(Number);
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

function earliest(table: readonly OnCostRate[]): OnCostRate | null {
  return table.reduce<OnCostRate | null>(
    (first, row) => (!first || row.effective_from < first.effective_from ? row : first),
    null,
  );
}
