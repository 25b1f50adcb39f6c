// Holiday pay for irregular-hours and part-year workers in Great Britain (/work/shared/spec/domain-rules.md; gov.uk
// "Holiday entitlement and pay for irregular hours and part-year workers"), for leave years from 1 April 2024, which
// the product takes as the leave year's start each year. Each employment type chooses one of the two ways the
// guidance allows (docs/decisions.md, "Issue 33 — pay lines"):
// - rolled up: 12.07% of the pay for the hours worked in the pay period, paid with the wages as its own line;
// - accrued: 12.07% of the hours worked in the pay period accrue as holiday, paid when it is taken at the average
//   hourly pay of the 52 weeks before it (the reference period for a week's pay of irregular-hours workers).
// The share is the year's row (12.07%, PayrollYear.rolledUpHolidayPay).
import { basisPointsOf, dividePence } from '../../engine/money';
import type { PayrollYear } from './rates';

/** How an employment type pays holiday. */
export type HolidayMethod = 'rolled_up' | 'accrued';

/** The first day of the leave years the 12.07% rules apply to (Employment Rights Regulations 2023). */
export const HOLIDAY_RULES_FROM = '2024-04-01';

/** Rolled-up holiday pay on `pay` pence of pay for hours worked: the year's 12.07%, to the nearest penny. */
export const rolledUpHolidayPay = (pay: number, year: PayrollYear) => basisPointsOf(pay, year.rolledUpHolidayPay);

/**
 * Holiday accrued by `minutes` worked: the year's 12.07% of the hours, in hundredths of an hour (the nearest, a
 * half rounded up), as a payslip and the staff member's balance show it: 60 hours accrue 7.24 hours.
 */
export function accruedHolidayHundredths(minutes: number, year: PayrollYear): number {
  if (!Number.isSafeInteger(minutes) || minutes < 0) throw new RangeError(`Not minutes worked: ${minutes}`);
  // hundredths = minutes / 60 × 100 × bp / 10,000 = minutes × bp / 6,000, to the nearest (a half up)
  const shareBasisPoints = year.rolledUpHolidayPay;
  return Math.floor((minutes * shareBasisPoints * 2 + 6_000) / 12_000);
}

/**
 * The pay for `hundredths` of an hour of holiday taken, at the average hourly pay of the reference period (`pay`
 * pence for `minutes` worked), to the nearest penny; null when nothing was worked in it (no average to pay at).
 */
export function holidayTakenPay(hundredths: number, reference: { pay: number; minutes: number }): number | null {
  if (reference.minutes <= 0) return null;
  // hundredths/100 hours × pay / (minutes/60) = hundredths × pay × 60 / (minutes × 100)
  return dividePence(hundredths * reference.pay * 60, reference.minutes * 100, 'nearest');
}

/** Whether pay for work on `date` carries holiday under these rules (leave years from 1 April 2024). */
export const underHolidayRules = (date: string) => date >= HOLIDAY_RULES_FROM;
