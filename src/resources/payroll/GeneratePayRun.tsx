import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  LinearProgress,
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
import { DatePickerProvider } from '../../engine/react/DatePickerInput';
import { JobProgress } from '../../engine/react/JobProgress';
import { PlainDatePicker } from '../../engine/react/PlainDatePicker';
import { ApiFailure, request } from '../../providers/request';
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
  payslips: PreviewPayslip[];
  held_back: HeldBack[];
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
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [run, setRun] = useState<{ run_id: number; job_id: number } | null>(null);
  const [finished, setFinished] = useState(false);
  const weekly = frequency === 'weekly';
  const staffName = staff ? `${String(staff.first_name ?? '')} ${String(staff.last_name ?? '')}`.trim() : '';

  const changed = () => {
    setPreview(null);
    setRun(null);
    setFinished(false);
  };
  // A week's run starts on the Monday of the day chosen. The field keeps what was typed (changing it under the
  // caret would fight the typing); the Monday is said under it and is what the run is asked for.
  const mondayOf = (date: string | null) => (date && weekly ? startOfWeekMonday(date) : date);
  const start = mondayOf(from);
  const chooseFrom = (date: string | null) => {
    setFrom(date);
    const first = mondayOf(date);
    if (first && (!to || to < first)) setTo(periodEnd(first, frequency));
    changed();
  };
  const checked = () => {
    const wrong: Record<string, string> = {};
    if (!from) wrong.from = translate('app.payroll_generation.from_missing');
    if (!to) wrong.to = translate('app.payroll_generation.to_missing');
    if (start && to && to < start) wrong.to = translate('app.payroll_generation.to_before_from');
    setErrors(wrong);
    return Object.keys(wrong).length === 0;
  };
  const ask = async <T,>(extra: Record<string, unknown>): Promise<T | null> => {
    if (!checked()) return null;
    setBusy(true);
    setProblem('');
    try {
      const body = { frequency, from: start, to, candidate_ids: single != null ? [single] : null, ...extra };
      return (await request<{ data: T }>('/pay_runs/actions/generate', { method: 'POST', json: body })).data;
    } catch (e) {
      if (e instanceof ApiFailure && e.body?.errors) setErrors(e.body.errors as Record<string, string>);
      setProblem(e instanceof Error ? e.message : String(e));
      return null;
    } finally {
      setBusy(false);
    }
  };
  const showPreview = async () => {
    changed();
    const answer = await ask<Preview>({ preview: true });
    if (answer) setPreview(answer);
  };
  const create = async () => {
    const answer = await ask<{ run_id: number | null; job_id?: number }>({ background: true });
    if (answer?.run_id && answer.job_id) setRun({ run_id: answer.run_id, job_id: answer.job_id });
    else if (answer) setProblem(translate('app.payroll_generation.nothing'));
  };

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
            const first = from && f === 'weekly' ? startOfWeekMonday(from) : from;
            setTo(first ? periodEnd(first, f) : null);
            changed();
          }}
        >
          {PAY_FREQUENCIES.map((f) => (
            <MenuItem key={f.id} value={f.id}>
              {translate(`app.payroll_generation.frequencies.${f.id}`)}
            </MenuItem>
          ))}
        </TextField>
        <DatePickerProvider>
          <PlainDatePicker
            label={translate('app.payroll_generation.from')}
            value={from}
            onChange={chooseFrom}
            helperText={
              errors.from ??
              (weekly
                ? start
                  ? translate('app.payroll_generation.from_monday', { date: start })
                  : translate('app.payroll_generation.monday')
                : undefined)
            }
          />
          <PlainDatePicker
            label={translate('app.payroll_generation.to')}
            value={to}
            onChange={(d) => {
              setTo(d);
              changed();
            }}
            helperText={errors.to ?? translate('app.payroll_generation.pay_day')}
          />
        </DatePickerProvider>
        <Button variant="outlined" onClick={() => void showPreview()} disabled={busy}>
          {translate('app.payroll_generation.preview')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void create()}
          disabled={busy || !preview || !!run || preview.payslips.length === 0}
        >
          {translate('app.payroll_generation.create')}
        </Button>
      </Stack>
      <Box aria-live="polite" sx={{ mb: 1 }}>
        {busy && <LinearProgress aria-label={translate('app.payroll_generation.working')} />}
        {problem && <Alert severity="error">{problem}</Alert>}
      </Box>
      {run && (
        <Card variant="outlined" sx={{ p: 1.5, mb: 1 }}>
          <Typography variant="subtitle2" component="h2">
            {translate(finished ? 'app.payroll_generation.done' : 'app.payroll_generation.running')}
          </Typography>
          <JobProgress
            id={run.job_id}
            label={translate('app.payroll_generation.progress')}
            onDone={() => setFinished(true)}
          />
          <Link component={RouterLink} to={payRunPath(run.run_id)}>
            {translate('app.payroll_generation.open_run', { id: run.run_id })}
          </Link>
        </Card>
      )}
      {preview && <PreviewTable preview={preview} />}
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
                  {translate('app.payroll_generation.totals', { costs: money(preview.employer_costs) })}
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
