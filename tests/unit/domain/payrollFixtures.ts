import type { StaffPayroll } from '../../../core/domain/payroll/payslip';

/** A PAYE staff member on the standard code, cumulative, category A, at the start of the tax year. */
export const payeStaff: StaffPayroll = {
  paye: true,
  taxCode: '1257L',
  week1: false,
  niCategory: 'A',
  studentLoanPlans: [],
  ytdGross: 0,
  ytdTax: 0,
  ytdEmployeeNi: 0,
};
