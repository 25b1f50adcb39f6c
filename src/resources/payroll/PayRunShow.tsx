import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import {
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import PaymentsIcon from '@mui/icons-material/Payments';
import { useCanAccess, useGetList, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import type { Role } from '../../../core/engine/types';
import { EngineShow } from '../../engine/react/show';
import { ChildList } from '../../engine/react/children';
import { payslipLines, payslips } from '../../../core/resources/payroll/resource';
import { RunJobProgress } from '../../engine/react/RunGeneration';
import type { ViewOptions } from '../../engine/react/viewOptions';
import type { ResourceDeclaration } from '../../../core/engine/types';
import { GENERATE_STAFF_PATH, singleStaffPath } from './GeneratePayRun';
import { PayRunFiles } from './PayRunFiles';

/**
 * A pay run's page (/invoice/staff-payroll/run/{id}), generated from its declaration with its payslips, and its job's
 * progress while it is being made: the page can be left and come back to (the progress is the job's, read again);
 * once approved, its files for the bureau and the bank.
 */
export function PayRunShow(options: ViewOptions) {
  return (
    <EngineShow {...options}>
      <RunJobProgress ns="app.payroll_generation" status="progress" />
      <PayRunFiles />
      <RunPayslips />
    </EngineShow>
  );
}

/** Whether the signed-in user's role may read a payslip's figure (`source`), as its declaration says. */
function useReadsPay(source: string) {
  const { permissions } = usePermissions<{ role?: string }>();
  const field = payslips.fields.find((f) => f.source === source);
  return !!permissions?.role && (!field?.readableBy || field.readableBy.includes(permissions.role as Role));
}

/**
 * The run's payslips: each staff member's figures, the VAT paid on top to a VAT-registered company (for whoever may
 * read pay) and, once the run is finalised, where their payslip's e-mail is ("Not sent: no e-mail address" in words
 * for a staff member without one); each opens the payslip.
 */
function RunPayslips() {
  const run = useRecordContext();
  const email = run?.state === 'finalised' ? ['email_status'] : [];
  const vat = useReadsPay('vat') ? ['vat'] : [];
  return (
    <ChildrenSection
      id="run-payslips"
      title="app.payroll_generation.payslips"
      decl={payslips}
      columns={['candidate_id', 'hours', 'gross', 'deductions', 'tax', 'employee_ni', 'net', ...vat, ...email]}
    />
  );
}

/** A record's children under a heading of their own, read on the record's page. */
function ChildrenSection({
  id,
  title,
  decl,
  columns,
}: {
  id: string;
  title: string;
  decl: ResourceDeclaration;
  columns: string[];
}) {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box component="section" aria-labelledby={id} sx={{ my: 2 }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      <ChildList decl={decl} parentId={record.id} rowActions="menu" columns={columns} />
    </Box>
  );
}

/** A payslip's page (/invoice/staff-payroll/StaffPayrollView/{id}): its figures, and its lines beneath. */
export function PayslipShow(options: ViewOptions) {
  return (
    <EngineShow {...options}>
      <PayslipLinesSection />
    </EngineShow>
  );
}

/** The payslip's lines with their hours and rates: what its PDF lists. */
export const PayslipLinesSection = () => (
  <ChildrenSection
    id="payslip-lines"
    title="app.payroll_generation.lines"
    decl={payslipLines}
    columns={['work_date', 'kind', 'description', 'hours', 'rate', 'amount']}
  />
);

/** The pay runs list's way to a new run (admins: consultants read runs but make none). */
export function PayRunListActions() {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'pay_runs', action: 'generate' });
  if (!canAccess) return null;
  return (
    <>
      <Button component={RouterLink} to={GENERATE_STAFF_PATH} startIcon={<PlaylistAddIcon />} size="small">
        {translate('app.payroll_generation.new_run')}
      </Button>
      <PayOneStaff />
    </>
  );
}

/** A staff member's way to a run of their own (a late timesheet, a leaver): on their profile, for admins. */
export function PayStaffButton({ candidateId }: { candidateId: number }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'pay_runs', action: 'generate' });
  if (!canAccess) return null;
  return (
    <Button component={RouterLink} to={singleStaffPath(candidateId)} startIcon={<PaymentsIcon />} size="small">
      {translate('app.payroll_generation.pay_staff')}
    </Button>
  );
}

/** The runs list's way to a run for one staff member: choose them, then their GenerateSingleStaff screen. */
function PayOneStaff() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const { data: staff = [] } = useGetList(
    'candidates',
    { filter: search ? { q: search } : {}, pagination: { page: 1, perPage: 20 }, sort: { field: 'id', order: 'ASC' } },
    { enabled: open },
  );
  const nameOf = (r: { first_name?: string; last_name?: string }) =>
    `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim();
  return (
    <>
      <Button onClick={() => setOpen(true)} startIcon={<PaymentsIcon />} size="small">
        {translate('app.payroll_generation.one_staff')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{translate('app.payroll_generation.one_staff')}</DialogTitle>
        <DialogContent>
          <Autocomplete
            sx={{ mt: 1 }}
            options={staff}
            filterOptions={(o) => o}
            getOptionLabel={(r) => nameOf(r)}
            onInputChange={(_, v) => setSearch(v)}
            onChange={(_, r) => r && navigate(singleStaffPath(r.id))}
            renderInput={(params) => (
              <TextField {...params} autoFocus label={translate('app.payroll_generation.staff')} />
            )}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
