import { payrollRoutes } from '../routes/payroll.js';
import { payRunFileRoutes } from '../exports/payroll.js';
import { seedPayrollDeductions } from '../seed/payrollDeductions.js';
import type { ServerArea } from './area.js';
import { payrollResources } from '../../core/resources/payroll/resource.js';
import { payRunJob } from '../services/payroll.js';
import { resealBankDetailsJob } from '../services/bankDetails.js';
import {
  payRunsBehaviour,
  payslipLinesBehaviour,
  payslipsBehaviour,
  staffDeductionsBehaviour,
  staffHolidaysBehaviour,
  selfBillingAgreementsBehaviour,
} from '../behaviours/payroll.js';

/** Staff payroll (issue 33): gross to net, and the pay runs with their payslips. */
export const payrollArea: ServerArea = {
  name: 'payroll',
  declarations: payrollResources,
  routes: [payrollRoutes, payRunFileRoutes],
  seed: seedPayrollDeductions,
  behaviours: {
    pay_runs: payRunsBehaviour,
    payslips: payslipsBehaviour,
    payslip_lines: payslipLinesBehaviour,
    staff_deductions: staffDeductionsBehaviour,
    staff_holidays: staffHolidaysBehaviour,
    self_billing_agreements: selfBillingAgreementsBehaviour,
  },
  // The bank details key's rotation (the details are payroll's: issue 33).
  jobKinds: [payRunJob, resealBankDetailsJob],
};
