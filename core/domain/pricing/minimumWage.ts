// The legal minimum wage at booking (issue 30.6): who is refused, who is warned, in words. A plain function over an
// hourly pay rate, the dated floors by age band (oncosts.ts: DEFAULT_WAGE_FLOORS and the agency's wage_floors), the
// worker's age and their employment type.
import { ageOn, wageWarning, type WageFloor } from './oncosts';

/** How the worker is employed: an employment type marked PAYE (or none at all) is the agency's own payroll. */
export interface Employment {
  paye: boolean;
  /** The employment type's name ("Umbrella company", "Limited company"); null when the staff member has none. */
  name: string | null;
}

export interface MinimumWageVerdict {
  /**
   * True for a PAYE worker: the agency is their employer and must pay at least the minimum, so the booking is refused
   * and nobody may override it. False for anyone else (umbrella, limited company, self-employed): a warning.
   */
  refused: boolean;
  /** 'below the National Living Wage of £12.71 an hour from 1 April 2026 at age 34', for a sentence. */
  below: string;
}

/**
 * Whether an hourly pay rate (pence) on `date` is below the legal minimum for the worker, and what follows: null when
 * it is not (or no floor is known for their age). An unknown date of birth is read as 21 or over (the highest floor).
 */
export function minimumWageVerdict(input: {
  payRate: number;
  date: string;
  floors: readonly WageFloor[];
  dateOfBirth: string | null;
  employment: Employment;
}): MinimumWageVerdict | null {
  const age = input.dateOfBirth ? ageOn(input.dateOfBirth, input.date) : null;
  const warning = wageWarning(input.payRate, input.date, input.floors, age ?? 200);
  if (!warning) return null;
  const below = `${warning[0].toLowerCase()}${warning.slice(1)}${age === null ? '' : ` at age ${age}`}`;
  return { refused: input.employment.paye, below };
}

/**
 * What follows a verdict, in a sentence: why a PAYE worker cannot be booked, or whose duty the minimum is for
 * anyone else, naming their employment type.
 */
export function minimumWageConsequence(verdict: MinimumWageVerdict, employment: Employment): string {
  if (verdict.refused)
    return 'A PAYE worker cannot be paid below the legal minimum, so this booking is refused: raise the pay rate (their own rate or the rate card) first.';
  const how = employment.name ? `through ${employment.name}` : 'outside PAYE';
  return `They are employed ${how}, not on the agency's PAYE payroll: make sure the rate lets their employer pay them at least the minimum.`;
}

/**
 * The warning beside a rate that pays anyone (a rate card, a job role's default pay): it names the floor and says
 * what the booking will do with it. Null when the rate is not below the adult floor on `date`.
 */
export function rateFloorWarning(payRate: number, date: string, floors: readonly WageFloor[]): string | null {
  const warning = wageWarning(payRate, date, floors);
  if (!warning) return null;
  return `${warning}: PAYE staff cannot be booked at it; others are booked with a warning`;
}
