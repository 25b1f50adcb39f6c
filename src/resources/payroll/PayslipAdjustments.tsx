import { Alert } from '@mui/material';
import { Link } from 'react-router';
import { useTranslate } from 'react-admin';
import { EngineShow } from '../../engine/react/show';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { PayslipLinesSection } from './PayRunShow';

/**
 * /invoice/StaffPayrollViewEdit/{id} (issue 33): a payslip with its lines and its Add an adjustment action, which
 * works while the pay run is a draft; the engine refuses it, in words, once the run is approved. A correction after
 * that is recorded for the staff member's next run.
 */
export function PayslipAdjustments(options: ViewOptions) {
  const translate = useTranslate();
  return (
    <EngineShow {...options}>
      <Alert severity="info" sx={{ mt: 2 }}>
        {translate('app.payroll.adjust_hint')}{' '}
        <Link to="/invoice/staff-payroll/adjustments/create">{translate('app.payroll.next_run_correction')}</Link>
      </Alert>
      <PayslipLinesSection />
    </EngineShow>
  );
}
