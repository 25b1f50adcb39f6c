/**
 * The shapes of pricing: what a shift is priced with and what pricing answers. Money is integer pence, rates are
 * pence per hour, instants are ISO strings (UTC), wall-clock times are 'HH:mm' in the agency's time zone.
 */
export type Band = 'weekday_day' | 'weekday_night' | 'saturday' | 'sunday' | 'bank_holiday';
export const BANDS: readonly Band[] = ['weekday_day', 'weekday_night', 'saturday', 'sunday', 'bank_holiday'];
export const BAND_LABELS: Record<Band, string> = {
  weekday_day: 'Weekday day',
  weekday_night: 'Weekday night',
  saturday: 'Saturday',
  sunday: 'Sunday',
  bank_holiday: 'Bank holiday',
};

/** Pence per hour for each band. */
export type BandRates = Record<Band, number>;

/** The rates a shift is priced at: the card's charge rates, and its pay rates (or the staff member's own). */
export interface RateCard {
  pay: BandRates;
  charge: BandRates;
}

export type Region = 'england_wales' | 'scotland' | 'northern_ireland';
export const REGIONS: readonly Region[] = ['england_wales', 'scotland', 'northern_ireland'];

/** A point of the week: 0 = Sunday … 6 = Saturday, at a wall-clock time. */
export interface WeekPoint {
  weekday: number;
  time: string;
}

/** A client's rules (or the agency's defaults), as pricing reads them. */
export interface PricingRules {
  timeZone: string;
  /** The night band, e.g. 20:00 → 08:00 (it may cross midnight). */
  nightStart: string;
  nightEnd: string;
  /** The weekend, e.g. Saturday 00:00 → Monday 00:00; Saturday's rates until Sunday 00:00, Sunday's after. */
  weekendStart: WeekPoint;
  weekendEnd: WeekPoint;
  /** Split a shift at each band boundary, or rate all of it by the band it starts in. */
  splitAtBoundaries: boolean;
  /** Unpaid break by shift length: the longest rule whose minHours the shift reaches applies. */
  breakRules: { minHours: number; breakMinutes: number }[];
  /** Charged hours are at least this many (0: none). Pay is for the hours worked. */
  minimumChargeHours: number;
  /**
   * Late cancellation: cancelled less than `withinHours` before the start charges `chargeHours`, and pays the worker
   * `payHours` (none when absent or 0); null when none.
   */
  lateCancellation: { withinHours: number; chargeHours: number; payHours?: number } | null;
}

export interface ShiftToPrice {
  /** ISO instants. */
  start: string;
  end: string;
  /** Overrides the break rules when given. */
  breakMinutes?: number | null;
  /** A flat-rate shift (sleep-in): one line at the flat pay and charge, whatever its hours. */
  flat?: { pay: number; charge: number } | null;
}

export interface PriceLine {
  band: Band | 'flat';
  /** ISO instants of this line's part of the shift. */
  start: string;
  end: string;
  /** Paid hours of the line, to 2 decimal places (for reading; amounts come from `minutes`). */
  hours: number;
  /** Paid minutes of the line: pay = round(minutes × pay_rate / 60), charge likewise. */
  minutes: number;
  pay_rate: number;
  charge_rate: number;
  pay: number;
  charge: number;
  /** Only on the minimum-charge top-up line (hours 0, pay 0): the charged hours it adds to reach the minimum. */
  minimum_charge_hours?: number;
}

export interface Price {
  lines: PriceLine[];
  totals: { hours: number; pay: number; charge: number; margin: number };
}
