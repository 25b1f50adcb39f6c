import { describe, expect, it } from 'vitest';
import { wholeMonths } from '../../../server/engine/reportSummaries';

// The whole calendar months of a report's period (read from the monthly summary; the ragged ends from the days).
describe('wholeMonths', () => {
  it.each([
    // A UK tax year: 25 days of April, eleven whole months, 5 days of April.
    ['2026-04-06', '2027-04-05', { from: '2026-05-01', to: '2027-04-01' }],
    // A calendar month, exactly.
    ['2026-11-01', '2026-11-30', { from: '2026-11-01', to: '2026-12-01' }],
    ['2026-02-01', '2026-02-28', { from: '2026-02-01', to: '2026-03-01' }],
    // A leap February ends on the 29th: to the 28th is not the whole month.
    ['2028-02-01', '2028-02-28', undefined],
    ['2028-02-01', '2028-02-29', { from: '2028-02-01', to: '2028-03-01' }],
    // Ragged both ends around one whole month; across a new year.
    ['2026-01-15', '2026-03-14', { from: '2026-02-01', to: '2026-03-01' }],
    ['2025-12-01', '2026-01-31', { from: '2025-12-01', to: '2026-02-01' }],
    // No whole month: within one month, or two ragged halves.
    ['2026-11-02', '2026-11-30', undefined],
    ['2026-11-15', '2026-12-14', undefined],
    ['2026-11-01', '2026-11-01', undefined],
  ])('%s to %s', (from, to, expected) => {
    expect(wholeMonths({ from, to })).toEqual(expected);
  });
});
