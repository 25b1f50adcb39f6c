// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { repricingNote, type PricedBand } from '../../../core/domain/pricing/repricing';

// Issue 30.6: a shift booked at £11.50 an hour kept pay £92.00 while its timesheet line paid £104.00 (£13.00 an hour,
// the card in force when the line was made), with nothing saying why.
const day = (pay_rate: number): PricedBand => ({ band: 'weekday_day', pay_rate });
const night = (pay_rate: number): PricedBand => ({ band: 'weekday_night', pay_rate });
const TAIL =
  ". A line is priced with the rate card, the staff member's own rates and their employment as they stand when it is made; they changed after the shift was booked.";

describe('repricingNote', () => {
  it.each([
    ['the same rates', [day(1150)], [day(1150)], null],
    ['no booking to compare with', null, [day(1300)], null],
    ['nothing priced', [day(1150)], [], null],
    ['a band the booking did not have (other times)', [day(1300)], [day(1300), night(1400)], null],
    [
      'the card changed after booking',
      [day(1150)],
      [day(1300)],
      'Repriced from the booking: Weekday day £13.00 an hour, booked at £11.50 an hour' + TAIL,
    ],
    [
      'two bands, one changed',
      [day(1150), night(1300)],
      [day(1150), night(1350)],
      'Repriced from the booking: Weekday night £13.50 an hour, booked at £13.00 an hour' + TAIL,
    ],
    [
      'a sleep-in allowance',
      [{ band: 'flat', pay_rate: 6000 }],
      [{ band: 'flat', pay_rate: 6500 }],
      'Repriced from the booking: Sleep-in £65.00, booked at £60.00' + TAIL,
    ],
  ] as const)('%s', (_what, booked, paid, note) => {
    expect(repricingNote(booked as readonly PricedBand[] | null, paid as readonly PricedBand[])).toBe(note);
  });
});
