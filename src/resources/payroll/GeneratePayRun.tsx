import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import {
  Alert,
  Box,
  Link,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Title, useGetOne, useTranslate } from 'react-admin';
import { RunButtons, RunPeriod, RunStatus, useRunGeneration } from '../../engine/react/RunGeneration';
import { formatPounds } from '../../../core/engine/money';
import { addDaysToDate, addMonthsToDate, startOfWeekMonday } from '../../../core/domain/time/agencyTime';
import { PAY_FREQUENCIES } from '../../../core/resources/payroll/resource';

/** The run's answer with `preview: true` (server/services/payroll.ts, generatePayRun). */
interface PreviewPayslip {
  candidate_id: number;
  name: string;
  paye: boolean;
  gross: number;
  net: number;
  lines: { kind: string; hours: number | null }[];
}
interface HeldBack {
  timesheet_line_id: number;
  name: string;
  date: string;
  pay: number;
  reason: 'unsigned' | 'on_run';
  status: string;
  pay_run_id: number | null;
}
interface Preview {
  tax_year: string;
  tax_period: number;
  staff_count: number;
  gross: number;
  net: number;
  employer_costs: number;
  /** VAT paid on top to VAT-registered umbrella and limited companies. */
  vat: number;
  payslips: PreviewPayslip[];
  held_back: HeldBack[];
  /** Companies paid gross with no self-billing agreement in force on the pay day: a warning, never a refusal. */
  without_agreement: { candidate_id: number; name: string; company: string }[];
}
type Frequency = 'weekly' | 'monthly';

export const GENERATE_STAFF_PATH = '/invoice/staff-payroll/GenerateStaff';
export const SINGLE_STAFF_PATH = '/invoice/staff-payroll/GenerateSingleStaff';
export const singleStaffPath = (id: number | string) => `${SINGLE_STAFF_PATH}/${id}`;
export const payRunPath = (id: number) => `/invoice/staff-payroll/run/${id}`;

/** A week's run is a week, a month's a month, unless the user says otherwise. */
const periodEnd = (first: string, f: Frequency) =>
  f === 'weekly' ? addDaysToDate(first, 6) : addDaysToDate(addMonthsToDate(first, 1), -1);

/** Hours of a payslip's pay lines (holiday pay is a percentage, not hours), as the screens print hours. */
const hoursOf = (p: PreviewPayslip) =>
  String(Math.round(p.lines.reduce((n, l) => n + (l.kind === 'holiday' ? 0 : Number(l.hours ?? 0)), 0) * 100) / 100);

/**
 * /invoice/staff-payroll/GenerateStaff (every staff member with payable hours in the period) and
 * /invoice/staff-payroll/GenerateSingleStaff/{id} (one staff member: a late timesheet, a leaver): choose weekly or
 * monthly and the period with the product's date picker (a week from its Monday), preview each payslip (hours,
 * gross, net) and the lines held back with the reason, then create the run: a job whose progress shows here and on
 * the run's own page, which can be left and come back to.
 */
export function GeneratePayRun() {
  const translate = useTranslate();
  const { id } = useParams();
  const single = id != null ? Number(id) : null;
  const { data: staff } = useGetOne('candidates', { id: single ?? 0 }, { enabled: single != null });
  const [frequency, setFrequency] = useState<Frequency>('weekly');
  const g = useRunGeneration<Preview>({
    ns: 'app.payroll_generation',
    action: '/pay_runs/actions/generate',
    weekly: frequency === 'weekly',
    body: { frequency, candidate_ids: single != null ? [single] : null },
    periodEnd: (first) => periodEnd(first, frequency),
  });
  const staffName = staff ? `${String(staff.first_name ?? '')} ${String(staff.last_name ?? '')}`.trim() : '';

  return (
    <Box sx={{ mt: 1, maxWidth: '100%' }}>
      <Title title={single != null ? 'app.screens.generate_single_staff' : 'app.screens.generate_staff'} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {single != null
          ? translate('app.payroll_generation.help_single', { name: staffName || `#${single}` })
          : translate('app.payroll_generation.help_all')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} useFlexGap sx={{ mb: 1, alignItems: 'flex-start' }}>
        <TextField
          select
          size="small"
          sx={{ width: { xs: '100%', md: 160 } }}
          label={translate('app.payroll_generation.frequency')}
          value={frequency}
          onChange={(e) => {
            const f = e.target.value as Frequency;
            setFrequency(f);
            const first = g.from && f === 'weekly' ? startOfWeekMonday(g.from) : g.from;
            g.setTo(first ? periodEnd(first, f) : null);
            g.changed();
          }}
        >
          {PAY_FREQUENCIES.map((f) => (
            <MenuItem key={f.id} value={f.id}>
              {translate(`app.payroll_generation.frequencies.${f.id}`)}
            </MenuItem>
          ))}
        </TextField>
        <RunPeriod g={g} toHelp={translate('app.payroll_generation.pay_day')} />
        <RunButtons g={g} create="create" empty={g.preview?.payslips.length === 0} />
      </Stack>
      <RunStatus g={g} runPath={payRunPath} />
      {g.preview && <PreviewTable preview={g.preview} />}
    </Box>
  );
}

function PreviewTable({ preview }: { preview: Preview }) {
  const translate = useTranslate();
  const money = formatPounds;
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 0.5 }}>
        {preview.payslips.length === 0
          ? translate('app.payroll_generation.none')
          : translate('app.payroll_generation.preview_title', {
              smart_count: preview.payslips.length,
              gross: money(preview.gross),
              net: money(preview.net),
              year: preview.tax_year,
              period: preview.tax_period,
            })}
      </Typography>
      {preview.held_back.length > 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          <Typography variant="body2">
            {translate('app.payroll_generation.held_back', { smart_count: preview.held_back.length })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {preview.held_back.map((h) => (
              <li key={h.timesheet_line_id}>
                {`${h.name}, ${h.date} (${money(h.pay)}): `}
                {h.reason === 'on_run' && h.pay_run_id != null ? (
                  <Link component={RouterLink} to={payRunPath(h.pay_run_id)}>
                    {translate('app.payroll_generation.reason.on_run', { id: h.pay_run_id })}
                  </Link>
                ) : (
                  translate('app.payroll_generation.reason.unsigned', {
                    status: translate(`app.payroll_generation.line_status.${h.status}`, { _: h.status }),
                  })
                )}
              </li>
            ))}
          </Box>
        </Alert>
      )}
      {preview.without_agreement.length > 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          <Typography variant="body2">
            {translate('app.payroll_generation.without_agreement', {
              smart_count: preview.without_agreement.length,
            })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {preview.without_agreement.map((w) => (
              <li key={w.candidate_id}>
                <Link component={RouterLink} to={`/staffs/${w.candidate_id}/deductions`}>
                  {`${w.company} (${w.name})`}
                </Link>
              </li>
            ))}
          </Box>
        </Alert>
      )}
      {preview.payslips.length > 0 && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={translate('app.payroll_generation.preview')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.payroll_generation.staff')}</TableCell>
                <TableCell align="right">{translate('app.payroll_generation.hours')}</TableCell>
                <TableCell align="right">{translate('app.payroll_generation.gross')}</TableCell>
                <TableCell align="right">{translate('app.payroll_generation.net')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {preview.payslips.map((p) => (
                <TableRow key={p.candidate_id}>
                  <TableCell component="th" scope="row">
                    {p.name}
                    {!p.paye && ` (${translate('app.payroll_generation.gross_paid')})`}
                  </TableCell>
                  <TableCell align="right">{hoursOf(p)}</TableCell>
                  <TableCell align="right">{money(p.gross)}</TableCell>
                  <TableCell align="right">{money(p.net)}</TableCell>
                </TableRow>
              ))}
              <TableRow>
                <TableCell component="th" scope="row" colSpan={2}>
                  {translate(preview.vat ? 'app.payroll_generation.totals_vat' : 'app.payroll_generation.totals', {
                    costs: money(preview.employer_costs),
                    vat: money(preview.vat),
                  })}
                </TableCell>
                <TableCell align="right">
                  <strong>{money(preview.gross)}</strong>
                </TableCell>
                <TableCell align="right">
                  <strong>{money(preview.net)}</strong>
                </TableCell>
              </TableRow>
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}
