// Why a timesheet line pays other rates than its shift was booked at (issue 30.6). A line is priced on its actual
// times with the rate card, the staff member's own rates and their employment as they stand when the line is made;
// a shift keeps the price it was booked at. When the two differ for the same band, the line says so in words.
import { formatPounds } from '../../engine/money';
import { BAND_LABELS, type Band } from './types';

/** One band of a stored price (a shift's or a line's price_lines): its hourly pay in pence. */
export interface PricedBand {
  band: Band | 'flat';
  pay_rate: number;
}

const bandName = (band: Band | 'flat') => (band === 'flat' ? 'Sleep-in' : BAND_LABELS[band]);
const perHour = (band: Band | 'flat') => (band === 'flat' ? '' : ' an hour');

/**
 * A note for a line whose pay rate for a band differs from its booking's ('Repriced from the booking: Weekday day
 * £13.00 an hour, booked at £11.50 an hour. …'); null when every band the two share pays the same, or there is no
 * booking to compare with (a line added without a shift). Bands only one of them has are a matter of times (an
 * amendment, which has its own note), not of rates.
 */
export function repricingNote(
  booked: readonly PricedBand[] | null | undefined,
  paid: readonly PricedBand[] | null | undefined,
): string | null {
  if (!booked?.length || !paid?.length) return null;
  const parts: string[] = [];
  for (const line of paid) {
    const was = booked.find((b) => b.band === line.band);
    if (!was || Number(was.pay_rate) === Number(line.pay_rate)) continue;
    const part = `${bandName(line.band)} ${formatPounds(Number(line.pay_rate))}${perHour(line.band)}, booked at ${formatPounds(Number(was.pay_rate))}${perHour(line.band)}`;
    if (!parts.includes(part)) parts.push(part);
  }
  if (!parts.length) return null;
  return `Repriced from the booking: ${parts.join('; ')}. A line is priced with the rate card, the staff member's own rates and their employment as they stand when it is made; they changed after the shift was booked.`;
}
