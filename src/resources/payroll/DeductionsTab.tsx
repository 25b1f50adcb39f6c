import { Typography } from '@mui/material';
import type { Identifier } from 'react-admin';
import { useTranslate } from 'react-admin';
import { ChildList } from '../../engine/react/children';
import { payrollAdjustments, staffDeductions } from '../../../core/resources/payroll/deductions';

/**
 * The staff profile's Deductions tab (issue 33): their deductions, each with what it has taken so far, and their pay
 * adjustments (a correction waiting for their next pay run has no payslip yet).
 */
export function DeductionsTab({ candidateId }: { candidateId: Identifier }) {
  const translate = useTranslate();
  return (
    <>
      <ChildList
        decl={staffDeductions}
        parentId={candidateId}
        columns={[
          'description',
          'method',
          'amount',
          'before_tax',
          'recurring',
          'start_date',
          'end_date',
          'cap',
          'taken',
        ]}
      />
      <Typography component="h2" variant="h6" sx={{ mt: 3 }}>
        {translate('app.payroll.adjustments')}
      </Typography>
      <ChildList
        decl={payrollAdjustments}
        parentId={candidateId}
        columns={['kind', 'amount', 'reason', 'payslip_id', 'created_at']}
      />
    </>
  );
}
