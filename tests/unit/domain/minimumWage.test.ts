// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_WAGE_FLOORS } from '../../../core/domain/pricing/oncosts';
import { minimumWageConsequence, minimumWageVerdict, rateFloorWarning } from '../../../core/domain/pricing/minimumWage';

// Issue 30.6: pay below the legal minimum refuses a PAYE worker's booking (no override) and warns for anyone else.
const PAYE = { paye: true, name: 'PAYE' };
const UMBRELLA = { paye: false, name: 'Umbrella company' };
const LTD = { paye: false, name: 'Limited company' };
const NONE = { paye: false, name: null };
const floors = [...DEFAULT_WAGE_FLOORS];

describe('minimumWageVerdict', () => {
  it.each([
    // pay, date, date of birth, employment, refused (null: not below)
    ['PAYE adult at £11.50', 1150, '2026-06-10', '1990-05-01', PAYE, true],
    ['PAYE adult at the NLW exactly', 1271, '2026-06-10', '1990-05-01', PAYE, null],
    ['PAYE adult at £12.50 before the April 2026 rise', 1250, '2026-03-31', '1990-05-01', PAYE, null],
    ['PAYE adult at £12.50 from the rise', 1250, '2026-04-01', '1990-05-01', PAYE, true],
    ['PAYE aged 19 at £11.50 (18–20: £10.85)', 1150, '2026-06-10', '2007-01-01', PAYE, null],
    ['PAYE aged 19 at £10.00', 1000, '2026-06-10', '2007-01-01', PAYE, true],
    ['PAYE aged 17 at £8.00', 800, '2026-06-10', '2009-01-01', PAYE, null],
    ['PAYE, age unknown (read as adult), £12.30', 1230, '2026-06-10', null, PAYE, true],
    ['umbrella at £11.50', 1150, '2026-06-10', '1990-05-01', UMBRELLA, false],
    ['limited company at £11.50', 1150, '2026-06-10', '1990-05-01', LTD, false],
    ['non-PAYE without a type name', 1150, '2026-06-10', '1990-05-01', NONE, false],
    ['umbrella above the floor', 1300, '2026-06-10', '1990-05-01', UMBRELLA, null],
  ])('%s', (_what, payRate, date, dateOfBirth, employment, refused) => {
    const v = minimumWageVerdict({ payRate, date, floors, dateOfBirth, employment });
    expect(v === null ? null : v.refused).toBe(refused);
  });

  it('names the floor, its date and the age', () => {
    expect(
      minimumWageVerdict({ payRate: 1150, date: '2026-06-10', floors, dateOfBirth: '1990-05-01', employment: PAYE }),
    ).toEqual({ refused: true, below: 'below the National Living Wage of £12.71 an hour from 1 April 2026 at age 36' });
    expect(
      minimumWageVerdict({ payRate: 1000, date: '2026-06-10', floors, dateOfBirth: '2007-01-01', employment: UMBRELLA })
        ?.below,
    ).toBe('below the National Minimum Wage for ages 18 to 20 of £10.85 an hour from 1 April 2026 at age 19');
  });
});

describe('minimumWageConsequence', () => {
  const verdict = (employment: typeof PAYE | typeof NONE) =>
    minimumWageVerdict({ payRate: 1150, date: '2026-06-10', floors, dateOfBirth: null, employment })!;
  it.each([
    [PAYE, /^A PAYE worker cannot be paid below the legal minimum, so this booking is refused/],
    [UMBRELLA, /^They are employed through Umbrella company, not on the agency's PAYE payroll/],
    [LTD, /^They are employed through Limited company, not on the agency's PAYE payroll/],
    [NONE, /^They are employed outside PAYE, not on the agency's PAYE payroll/],
  ])('%j', (employment, words) => {
    expect(minimumWageConsequence(verdict(employment), employment)).toMatch(words);
  });
});

describe('rateFloorWarning', () => {
  it.each([
    [1160, '2026-06-10', 'Below the National Living Wage of £12.71 an hour from 1 April 2026'],
    [1230, '2026-06-10', 'Below the National Living Wage of £12.71 an hour from 1 April 2026'],
    [1250, '2026-03-01', null],
    [1271, '2026-06-10', null],
  ])('£%s on %s', (pay, date, words) => {
    const w = rateFloorWarning(pay, date, floors);
    if (words === null) expect(w).toBeNull();
    else expect(w).toBe(`${words}: PAYE staff cannot be booked at it; others are booked with a warning`);
  });
});
