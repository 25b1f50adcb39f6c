import PaymentsIcon from '@mui/icons-material/Payments';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import { payRuns, payslipLines, payslips } from '../../../core/resources/payroll/resource';

/**
 * Staff payroll (issue 33.2), generated from the declarations at the spec's routes: the pay runs with their tabs by
 * state (/invoice/staff-payroll), a run with its payslips, and the payslip with its lines
 * (/invoice/staff-payroll/StaffPayrollView/{id}).
 */
const area: Area = {
  resources: [buildResource(payRuns, { icon: PaymentsIcon }), buildResource(payslips), buildResource(payslipLines)],
};

export default area;
