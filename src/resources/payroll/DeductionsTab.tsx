import { Typography } from '@mui/material';
import type { Identifier } from 'react-admin';
import { useGetOne, useTranslate } from 'react-admin';
import { ChildList } from '../../engine/react/children';
import { payrollAdjustments, staffDeductions } from '../../../core/resources/payroll/deductions';
import { selfBillingAgreements } from '../../../core/resources/payroll/selfBillingAgreements';

/** A self-billing agreement's columns, on the profile and beside the pay runs' self-billing export. */
export const AGREEMENT_COLUMNS = ['start_date', 'end_date', 'reference', 'file', 'recorded_by'];

/**
 * The staff profile's Deductions tab (issue 33): their deductions, each with what it has taken so far, and their pay
 * adjustments (a correction waiting for their next pay run has no payslip yet); for an umbrella or limited-company
 * worker (an employment type not paid through PAYE), their company's self-billing agreements too.
 */
export function DeductionsTab({
  candidateId,
  employmentTypeId,
}: {
  candidateId: Identifier;
  employmentTypeId?: Identifier | null;
}) {
  const translate = useTranslate();
  const { data: type } = useGetOne(
    'employment_types',
    { id: employmentTypeId! },
    { enabled: employmentTypeId != null },
  );
  return (
    <>
      {type?.paye === false && (
        <>
          <Typography component="h2" variant="h6">
            {translate('app.pay_run_files.agreements')}
          </Typography>
          <ChildList decl={selfBillingAgreements} parentId={candidateId} columns={AGREEMENT_COLUMNS} />
          <Typography component="h2" variant="h6" sx={{ mt: 3 }}>
            {translate('resources.staff_deductions.name', { smart_count: 2 })}
          </Typography>
        </>
      )}
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
