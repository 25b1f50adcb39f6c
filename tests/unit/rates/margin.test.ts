// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bandMargin, payWarning } from '../../../src/resources/rates/margin';
import {
  DEFAULT_ON_COST_RATES,
  DEFAULT_WAGE_FLOORS,
  onCostTable,
  wageFloorTable,
} from '../../../core/domain/pricing/oncosts';

// What the rate card form shows beside each band: the margin after a PAYE worker's on-costs, and the wage warning.
describe('bandMargin', () => {
  it.each([
    // pay, charge, date, on-costs, margin, percent
    [1200, 2000, '2026-05-01', 145 + 202, 2000 - 1200 - 347, 22.7],
    [1271, 2000, '2026-05-01', 153 + 214, 362, 18.1],
    // Before April 2025 employer NI was 13.8%.
    [1200, 2000, '2024-05-01', 145 + 186, 2000 - 1200 - 331, 23.5],
    [0, 0, '2026-05-01', 0, 0, null],
    // A charge below pay and on-costs is a loss, shown as such.
    [1500, 1500, '2026-05-01', 181 + 252, -433, -28.9],
  ])('pay %i, charge %i on %s: on-costs %i, margin %i (%s%)', (pay, charge, date, onCosts, margin, percent) => {
    expect(bandMargin(pay, charge, date, DEFAULT_ON_COST_RATES)).toEqual({ onCosts, margin, percent });
  });

  it('waits for both rates', () => {
    expect(bandMargin(null, 2000, '2026-05-01', DEFAULT_ON_COST_RATES)).toBeNull();
    expect(bandMargin(1200, '', '2026-05-01', DEFAULT_ON_COST_RATES)).toBeNull();
  });
});

describe('payWarning', () => {
  it.each([
    [1250, '2026-03-31', null],
    [
      1250,
      '2026-04-01',
      'Below the National Living Wage of £12.71 an hour from 1 April 2026: PAYE staff cannot be booked at it; others are booked with a warning',
    ],
    [1271, '2026-04-01', null],
    [
      1200,
      '2025-06-01',
      'Below the National Living Wage of £12.21 an hour from 1 April 2025: PAYE staff cannot be booked at it; others are booked with a warning',
    ],
    [1200, null, null],
    [undefined, '2026-04-01', null],
  ])('pay %s on %s', (pay, date, warning) => {
    expect(payWarning(pay, date, DEFAULT_WAGE_FLOORS)).toBe(warning);
  });
});

describe('tables', () => {
  it('reads stored rows, or the defaults when the agency has none', () => {
    expect(onCostTable([])).toEqual(DEFAULT_ON_COST_RATES);
    expect(
      onCostTable([
        {
          effective_from: '2027-04-06',
          employer_ni_percent: '16',
          holiday_pay_percent: '12.07',
          ni_threshold_weekly: null,
        },
      ]),
    ).toEqual([
      {
        effective_from: '2027-04-06',
        employer_ni_percent: 16,
        holiday_pay_percent: 12.07,
        ni_threshold_weekly_pence: undefined,
      },
    ]);
    expect(wageFloorTable([{ effective_from: '2027-04-01', min_age: 21, hourly: 1300 }])).toEqual([
      { effective_from: '2027-04-01', min_age: 21, hourly_pence: 1300 },
    ]);
  });
});
