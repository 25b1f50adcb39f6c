// @vitest-environment node
// Self-billing agreements (issue 33; HMRC VAT Notice 700/62): which of a supplier's agreements is in force on a day
// (both its first and its end or review date included), and how the self-billing export names it.
import { describe, expect, it } from 'vitest';
import { agreementCell, agreementInForce, NO_AGREEMENT } from '../../../core/domain/payroll/selfBilling';

const year = { start_date: '2026-01-01', end_date: '2026-12-31', reference: 'SBA-1' };
const renewed = { start_date: '2026-12-01', end_date: '2027-11-30', reference: 'SBA-2' };
const expired = { start_date: '2024-01-01', end_date: '2024-12-31', reference: null };

describe('agreementInForce', () => {
  it.each([
    ['none recorded', [], '2026-06-30', null],
    ['inside its dates', [year], '2026-06-30', year],
    ['on its first day', [year], '2026-01-01', year],
    ['on its end or review date', [year], '2026-12-31', year],
    ['the day before it starts', [year], '2025-12-31', null],
    ['the day after it ends', [year], '2027-01-01', null],
    ['only an expired one', [expired], '2026-06-30', null],
    ['an expired one and one in force', [expired, year], '2026-06-30', year],
    ['two overlapping: the one that runs longer', [year, renewed], '2026-12-15', renewed],
    ['the renewal after the first ends', [year, renewed], '2027-01-01', renewed],
  ])('%s', (_what, agreements, date, expected) => {
    expect(agreementInForce(agreements, date)).toBe(expected);
  });
});

describe('agreementCell', () => {
  it.each([
    [year, 'SBA-1, 2026-01-01 to 2026-12-31'],
    [{ ...year, reference: '  ' }, '2026-01-01 to 2026-12-31'],
    [expired, '2024-01-01 to 2024-12-31'],
    [null, NO_AGREEMENT],
  ])('%j', (agreement, expected) => {
    expect(agreementCell(agreement)).toBe(expected);
  });
});
