import PaymentsIcon from '@mui/icons-material/Payments';
import { Navigate, Route, useLocation } from 'react-router';
import type { Area } from '../area';
import { buildResource } from '../../engine/react/buildResource';
import { EngineList } from '../../engine/react/list';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { payRuns, payslipLines, payslips } from '../../../core/resources/payroll/resource';
import { payrollAdjustments, staffDeductions } from '../../../core/resources/payroll/deductions';
import { selfBillingAgreements } from '../../../core/resources/payroll/selfBillingAgreements';
import { SettingsLayout } from '../../layout/SettingsLayout';
import { PayslipAdjustments } from './PayslipAdjustments';
import { GENERATE_STAFF_PATH, GeneratePayRun, SINGLE_STAFF_PATH } from './GeneratePayRun';
import { PayRunListActions, PayRunShow, PayslipShow } from './PayRunShow';

/**
 * The payroll report (/report/PayrollReport): the payslips of finalised runs first, each tab its own address. A
 * report only reads (and exports): a payslip is made, approved and finalised with its run.
 */
export function PayrollReport(props: ViewOptions & { tabId?: string }) {
  const { search } = useLocation();
  if (!props.tabId) return <Navigate to={props.paths.tab(props.decl.tabs![0].id) + search} replace />;
  return <EngineList {...props} readOnly />;
}

/**
 * Staff payroll (issue 33), generated from the declarations at the spec's routes: the pay runs with their tabs by
 * state (/invoice/staff-payroll) and the way to a new run, a run with its progress while it is being made and its
 * payslips, and the payslip with its lines (/invoice/staff-payroll/StaffPayrollView/{id}); its adjustments in a draft
 * (/invoice/StaffPayrollViewEdit/{id}); staff deductions among the settings, and the pay adjustments waiting for a
 * run; generating a run for every staff member (/invoice/staff-payroll/GenerateStaff) or one
 * (/invoice/staff-payroll/GenerateSingleStaff/{id}). The payslips' list is the payroll
 * report (/report/PayrollReport).
 */
const area: Area = {
  resources: [
    buildResource(payRuns, { icon: PaymentsIcon, show: PayRunShow, listActions: <PayRunListActions /> }),
    buildResource(payslips, {
      list: PayrollReport,
      show: PayslipShow,
      // Issue 33: the payslip with its Add an adjustment action while its run is a draft.
      extraRoutes: (options) => [
        <Route key="adjust" path="/invoice/StaffPayrollViewEdit/:id" element={<PayslipAdjustments {...options} />} />,
      ],
    }),
    buildResource(payslipLines),
    // Deductions are a staff setting (/appsetting/staff-deduction); pending adjustments wait for the next run.
    buildResource(staffDeductions, { wrapper: SettingsLayout }),
    buildResource(payrollAdjustments),
    // Every company's self-billing agreement by its end or review date: linked beside a run's self-billing export.
    buildResource(selfBillingAgreements),
  ],
  adminRoutes: [
    <Route key="generate-staff" path={GENERATE_STAFF_PATH} element={<GeneratePayRun />} />,
    <Route key="generate-single-staff" path={`${SINGLE_STAFF_PATH}/:id`} element={<GeneratePayRun />} />,
  ],
};

export default area;
