// Rolled-up holiday pay (/work/shared/spec/domain-rules.md): a share of the pay for hours worked, paid with the
// wages as its own payslip line, for irregular-hours and part-year workers in Great Britain, leave years from
// 1 April 2024. The share is the year's row (12.07%); to the nearest penny.
import { basisPointsOf } from '../../engine/money';
import type { PayrollYear } from './rates';

export const rolledUpHolidayPay = (pay: number, year: PayrollYear) => basisPointsOf(pay, year.rolledUpHolidayPay);
