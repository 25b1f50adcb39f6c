import { marginOf, type OnCostRate, type WageFloor } from '../../../core/domain/pricing/oncosts';
import { rateFloorWarning } from '../../../core/domain/pricing/minimumWage';

export interface BandMargin {
  onCosts: number;
  /** Pence per hour: charge − pay − on-costs. */
  margin: number;
  /** Of the charge, to one decimal place; null when nothing is charged. */
  percent: number | null;
}

/**
 * The margin of an hour at these rates on `date`, for a PAYE worker (the costliest case: the margin a rate card
 * promises holds for every worker). Null until both rates are numbers.
 */
export function bandMargin(
  pay: unknown,
  charge: unknown,
  date: string,
  table: readonly OnCostRate[],
): BandMargin | null {
  if (typeof pay !== 'number' || typeof charge !== 'number' || !Number.isFinite(pay) || !Number.isFinite(charge))
    return null;
  const { onCosts, margin } = marginOf({ pay, charge }, date, true, table);
  return { onCosts, margin, percent: charge > 0 ? Math.round((margin / charge) * 1000) / 10 : null };
}

/** The wage-floor warning of an hourly pay rate on `date` (the card’s first day), with what booking does; or null. */
export function payWarning(pay: unknown, date: string | null | undefined, floors: readonly WageFloor[]): string | null {
  if (typeof pay !== 'number' || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  return rateFloorWarning(pay, date, floors);
}
