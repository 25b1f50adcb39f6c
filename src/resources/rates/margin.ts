import { onCosts, wageWarning, type OnCostRate, type WageFloor } from '../../../server/domain/pricing/oncosts';

/** Pence as pounds for people: 1234 → '£12.34', −50 → '−£0.50'. */
export const pounds = (pence: number) => `${pence < 0 ? '−' : ''}£${(Math.abs(pence) / 100).toFixed(2)}`;

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
export function bandMargin(pay: unknown, charge: unknown, date: string, table: readonly OnCostRate[]): BandMargin | null {
  if (typeof pay !== 'number' || typeof charge !== 'number' || !Number.isFinite(pay) || !Number.isFinite(charge)) return null;
  const costs = onCosts(pay, date, true, table);
  const margin = charge - pay - costs;
  return { onCosts: costs, margin, percent: charge > 0 ? Math.round((margin / charge) * 1000) / 10 : null };
}

/** The wage-floor warning of an hourly pay rate on `date` (the card's first day), or null. */
export function payWarning(pay: unknown, date: string | null | undefined, floors: readonly WageFloor[]): string | null {
  if (typeof pay !== 'number' || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  return wageWarning(pay, date, floors);
}

/** Stored on-cost rows (the API's) as the domain reads them; the domain's defaults when the agency has none. */
export function onCostTable(rows: any[] | undefined, defaults: readonly OnCostRate[]): OnCostRate[] {
  if (!rows?.length) return [...defaults];
  return rows.map((r) => ({ effective_from: r.effective_from, employer_ni_percent: Number(r.employer_ni_percent), holiday_pay_percent: Number(r.holiday_pay_percent), ni_threshold_weekly_pence: r.ni_threshold_weekly ?? undefined }));
}

export function wageFloorTable(rows: any[] | undefined, defaults: readonly WageFloor[]): WageFloor[] {
  if (!rows?.length) return [...defaults];
  return rows.map((r) => ({ effective_from: r.effective_from, min_age: Number(r.min_age), hourly_pence: Number(r.hourly) }));
}
