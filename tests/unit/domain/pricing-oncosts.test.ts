// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  DEFAULT_ON_COST_RATES,
  DEFAULT_WAGE_FLOORS,
  marginOf,
  onCosts,
  rateOn,
  wageWarning,
} from '../../../core/domain/pricing/oncosts';
import type { Price } from '../../../core/domain/pricing/types';
import { plainDate } from './arbitraries';

describe('rateOn', () => {
  const table = [
    { effective_from: '2026-04-01', v: 'b' },
    { effective_from: '2025-04-01', v: 'a' },
    { effective_from: '2027-04-01', v: 'c' },
  ];
  it.each([
    ['2025-03-31', null],
    ['2025-04-01', 'a'],
    ['2026-03-31', 'a'],
    ['2026-04-01', 'b'],
    ['2030-01-01', 'c'],
  ])('on %s answers %s, whatever the order of the table', (date, v) => {
    expect(rateOn(table, date)?.v ?? null).toBe(v);
  });
});

describe('on-costs', () => {
  it('the defaults: 13.8% employer NI above £175 a week, then 15% above £96 from 6 April 2025; 12.07% holiday pay', () => {
    expect(rateOn(DEFAULT_ON_COST_RATES, '2025-04-05')).toMatchObject({
      employer_ni_percent: 13.8,
      ni_threshold_weekly_pence: 17_500,
      holiday_pay_percent: 12.07,
    });
    expect(rateOn(DEFAULT_ON_COST_RATES, '2025-04-06')).toMatchObject({
      employer_ni_percent: 15,
      ni_threshold_weekly_pence: 9_600,
      holiday_pay_percent: 12.07,
    });
  });

  it.each([
    // pay £100: holiday pay £12.07; NI on £112.07
    [
      'PAYE from April 2025: 12.07% holiday pay and 15% NI on pay plus holiday pay',
      10_000,
      '2026-01-07',
      true,
      1207 + 1681,
    ],
    ['PAYE before 6 April 2025: 13.8% NI', 10_000, '2025-04-05', true, 1207 + 1547],
    ['before the table starts, its first rates', 10_000, '2020-01-01', true, 1207 + 1547],
    ['not PAYE (own company, umbrella): nothing on top', 10_000, '2026-01-07', false, 0],
    ['no pay, no costs', 0, '2026-01-07', true, 0],
  ])('%s', (_, pay, date, paye, expected) => {
    expect(onCosts(pay, date, paye, DEFAULT_ON_COST_RATES)).toBe(expected);
  });

  it('an empty table costs nothing', () => {
    expect(onCosts(10_000, '2026-01-07', true, [])).toBe(0);
  });

  test.prop([fc.integer({ min: 0, max: 10_000_000 }), plainDate('2020-01-01', '2030-12-31')])(
    'are whole pence, between 0 and 30% of pay',
    (pay, date) => {
      const costs = onCosts(pay, date, true, DEFAULT_ON_COST_RATES);
      expect(Number.isInteger(costs)).toBe(true);
      expect(costs).toBeGreaterThanOrEqual(0);
      expect(costs).toBeLessThanOrEqual(Math.ceil(pay * 0.3));
    },
  );
});

describe('marginOf', () => {
  const price: Price = { lines: [], totals: { hours: 8, pay: 10_000, charge: 16_000, margin: 6_000 } };
  it('is charge − pay − on-costs for PAYE staff', () => {
    expect(marginOf(price.totals, '2026-01-07', true, DEFAULT_ON_COST_RATES)).toEqual({
      onCosts: 2888,
      margin: 16_000 - 10_000 - 2888,
    });
  });
  it('is charge − pay for others', () => {
    expect(marginOf(price.totals, '2026-01-07', false, DEFAULT_ON_COST_RATES)).toEqual({ onCosts: 0, margin: 6_000 });
  });
});

describe('wageWarning', () => {
  it('the defaults are the National Living and Minimum Wage rates of 2025 and 2026', () => {
    expect(DEFAULT_WAGE_FLOORS.map((f) => [f.min_age, f.effective_from, f.hourly_pence]).sort()).toEqual(
      [
        [16, '2025-04-01', 755],
        [16, '2026-04-01', 800],
        [18, '2025-04-01', 1000],
        [18, '2026-04-01', 1085],
        [21, '2025-04-01', 1221],
        [21, '2026-04-01', 1271],
      ].sort(),
    );
  });

  it.each([
    [1250, '2026-04-01', 21, 'Below the National Living Wage of £12.71 an hour from 1 April 2026'],
    [1250, '2026-03-31', 21, null],
    [1271, '2026-04-01', 21, null],
    [1220, '2025-04-01', 21, 'Below the National Living Wage of £12.21 an hour from 1 April 2025'],
    [1220, '2025-04-01', 45, 'Below the National Living Wage of £12.21 an hour from 1 April 2025'],
    [1050, '2026-05-01', 19, 'Below the National Minimum Wage for ages 18 to 20 of £10.85 an hour from 1 April 2026'],
    [1050, '2026-05-01', 21, 'Below the National Living Wage of £12.71 an hour from 1 April 2026'],
    [790, '2026-05-01', 17, 'Below the National Minimum Wage for ages 16 to 17 of £8.00 an hour from 1 April 2026'],
    [500, '2026-05-01', 15, null],
    [500, '2024-01-01', 21, null],
  ])('%i p an hour on %s at age %i: %s', (pay, date, age, expected) => {
    expect(wageWarning(pay, date, DEFAULT_WAGE_FLOORS, age)).toBe(expected);
  });

  it('defaults to age 21 and over', () => {
    expect(wageWarning(1250, '2026-06-01', DEFAULT_WAGE_FLOORS)).toContain('£12.71');
  });
});
