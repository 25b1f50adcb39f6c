// @vitest-environment node
// VAT on self-billed pay (issue 33): a VAT-registered umbrella or limited company is paid VAT on top of the gross, at
// the standard rate's dated row on the pay day, to the nearest penny by the money module's one VAT rule; a company
// without a VAT number is paid none. Each figure worked in the comments.
import { describe, expect, it } from 'vitest';
import { selfBilledVat } from '../../../core/domain/payroll/selfBilling';
import { payslipOf } from '../../../core/domain/payroll/payslip';
import { PAYROLL_YEARS } from '../../../core/domain/payroll/rates';
import { vatRateOn } from '../../../core/domain/pricing/vat';
import { payeStaff } from './payrollFixtures';

const Y2026 = PAYROLL_YEARS['2026-27'];
const standard = vatRateOn('S', '2026-11-08')!.rate;

describe('selfBilledVat: the VAT on a self-billed amount', () => {
  it.each([
    // net, VAT number, time of supply, → VAT number as charged, rate, VAT
    [80_000, 'GB123456789', '2026-11-08', 'GB123456789', 2000, 16_000], // £800 × 20% = £160
    [12_347, 'GB123456789', '2026-11-08', 'GB123456789', 2000, 2_469], // £123.47 × 20% = £24.694 → £24.69
    [12_348, 'GB123456789', '2026-11-08', 'GB123456789', 2000, 2_470], // £123.48 × 20% = £24.696 → £24.70
    [1, 'GB123456789', '2026-11-08', 'GB123456789', 2000, 0], // 1p × 20% = 0.2p → 0p
    [3, 'GB123456789', '2026-11-08', 'GB123456789', 2000, 1], // 3p × 20% = 0.6p → 1p
    [0, 'GB123456789', '2026-11-08', 'GB123456789', 2000, 0],
    [30_001, 'gb 123 4567 89', '2026-11-08', 'GB123456789', 2000, 6_000], // as HMRC prints it; £60.002 → £60.00
    [50_000, 'GB123456789012', '2011-01-04', 'GB123456789012', 2000, 10_000], // a group's branch; the first day at 20%
    [80_000, null, '2026-11-08', null, null, 0], // not registered: no VAT
    [80_000, '', '2026-11-08', null, null, 0],
    [80_000, '   ', '2026-11-08', null, null, 0],
  ])('%i pence to %s on %s: %s at %s, VAT %i', (net, number, date, vatNumber, rate, vat) =>
    expect(selfBilledVat(net, number, date)).toEqual({ vatNumber, rate, vat }),
  );

  it('takes the rate from the dated rows, never one of its own: a day before the table has none, and is refused', () => {
    expect(() => selfBilledVat(10_000, 'GB123456789', '2011-01-03')).toThrow(RangeError);
    // Not registered needs no rate, whatever the day.
    expect(selfBilledVat(10_000, null, '2011-01-03').vat).toBe(0);
  });
});

describe('a payslip of a VAT-registered company', () => {
  const line = (id: number, pay: number) => ({ id, date: '2026-11-04', minutes: 480, pay, description: `Line ${id}` });
  const company = {
    ...payeStaff,
    paye: false,
    companyName: 'Brolly Payroll Services Ltd',
    companyNumber: '09876543',
    companyAddress: '1 High Street, Leeds',
    companyVatNumber: 'GB123456789',
  };
  const period = { start: '2026-11-02', end: '2026-11-08' };

  it('carries VAT on the gross apart from it, and pays net pay + VAT', () => {
    const p = payslipOf([line(1, 40_000), line(2, 12_347)], company, Y2026, 'weekly', 32, { period });
    // Gross £523.47; VAT 20% = £104.694 → £104.69; paid £628.16.
    expect(p).toMatchObject({
      gross: 52_347,
      net: 52_347,
      vat_number: 'GB123456789',
      vat_rate: standard,
      vat: 10_469,
      amount_paid: 62_816,
      paid_to: 'Brolly Payroll Services Ltd',
      company_number: '09876543',
      company_address: '1 High Street, Leeds',
      tax: 0,
      employer_cost: 0,
    });
  });

  it('takes VAT on the supply, not on what a deduction takes off the payment', () => {
    const p = payslipOf([line(1, 50_000)], company, Y2026, 'weekly', 32, {
      period,
      adjustments: [
        { id: 1, kind: 'addition', amount: 1_000, reason: 'Travel' },
        { id: 2, kind: 'deduction', amount: 2_000, reason: 'Uniform' },
      ],
    });
    // Gross £500 + £10 = £510; VAT £102; net £510 − £20 = £490; paid £592.
    expect(p).toMatchObject({ gross: 51_000, vat: 10_200, deductions: 2_000, net: 49_000, amount_paid: 59_200 });
  });

  it('carries none for a company without a VAT number, nor for PAYE staff whatever their record holds', () => {
    const unregistered = payslipOf([line(1, 50_000)], { ...company, companyVatNumber: null }, Y2026, 'weekly', 32, {
      period,
    });
    expect(unregistered).toMatchObject({ vat_number: null, vat_rate: null, vat: 0, amount_paid: 50_000 });
    const paye = payslipOf([line(1, 50_000)], { ...company, paye: true }, Y2026, 'weekly', 32, { period });
    expect(paye).toMatchObject({ vat_number: null, vat: 0, company_number: null, amount_paid: paye.net });
  });
});
