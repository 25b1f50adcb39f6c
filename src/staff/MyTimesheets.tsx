import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  Stack,
  TextField,
  Typography,
  type ChipProps,
} from '@mui/material';
import { ApiFailure, request } from '../providers/request';
import { fill, staffTexts as say } from './messages';
import { shiftTimes, type MyShift } from './MyShifts';
import { SignaturePad } from '../resources/timesheets/SignaturePad';
import {
  addDaysToDate,
  instantToZoned,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';
import type { GenerateAnswer } from '../../core/contracts/timesheets';

/** A timesheet line as the engine answers it to its staff member (their pay, never the charge). */
export interface MyLine {
  id: number;
  shift_id: number | null;
  work_date: string;
  site_name: string | null;
  job_role_name: string | null;
  scheduled_start: string;
  scheduled_end: string;
  scheduled_break: number | null;
  actual_start: string | null;
  actual_end: string | null;
  break_minutes: number | null;
  hours: number | null;
  status: 'pending' | 'signed' | 'disputed' | 'verified';
  dispute_reason: string | null;
  signed_at: string | null;
  times_recorded_at: string | null;
}

export const LINES_PATH = '/timesheet_lines?sort=work_date&order=desc&per_page=100';
/** Shifts worked in the last fortnight: those whose times may still be entered and signed on the phone. */
export const RECENT_PATH = '/shifts?state=assigned,closed&start_at_gte=-14d&sort=start_at&order=desc&per_page=50';

const STATE_COLOUR: Record<MyLine['status'], ChipProps['color']> = {
  pending: 'default',
  signed: 'success',
  disputed: 'warning',
  verified: 'info',
};
const stateLabel = (s: MyLine['status']) => say[`line_state_${s}`];

/** Hours shown as the agency's sheets show them: at most two decimals. */
const hoursText = (h: number) => String(Number(h.toFixed(2)));

/** What the staff member needs to sign: a shift they worked, and its line if it is on a timesheet already. */
interface ToSign {
  shift: MyShift;
  line: MyLine | null;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The end of a shift on the staff member's phone: they enter when they started and finished and their break, then
 * hand the phone to the ward or unit manager, who types their name and signs. The line is made on the timesheet of
 * the shift's week first if the agency has not generated it yet (the same generation, for their own shift).
 */
function EndOfShift({
  item,
  timeZone,
  onClose,
  onDone,
}: {
  item: ToSign;
  timeZone: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { shift } = item;
  const start = instantToZoned(new Date(item.line?.actual_start ?? shift.start_at), timeZone);
  const end = instantToZoned(new Date(item.line?.actual_end ?? shift.end_at), timeZone);
  const [lineId, setLineId] = useState<number | null>(item.line?.id ?? null);
  const [step, setStep] = useState<'times' | 'sign'>(item.line?.times_recorded_at ? 'sign' : 'times');
  const [started, setStarted] = useState(start.time);
  const [finished, setFinished] = useState(end.time);
  const [breakMinutes, setBreakMinutes] = useState(String(item.line?.break_minutes ?? item.line?.scheduled_break ?? 0));
  const [signer, setSigner] = useState('');
  const [signature, setSignature] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const failed = (e: unknown) => {
    const fields = e instanceof ApiFailure ? (e.body?.errors ?? {}) : {};
    setErrors({
      ...fields,
      _: e instanceof ApiFailure ? e.message : say.network,
    });
    setBusy(false);
  };

  const saveTimes = async (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!HHMM.test(started)) problems.actual_start = say.time_invalid;
    if (!HHMM.test(finished)) problems.actual_end = say.time_invalid;
    const minutes = Number(breakMinutes);
    if (!/^\d+$/.test(breakMinutes) || minutes > 240) problems.break_minutes = say.break_invalid;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    // The shift's own day on the agency's clock; a finish at or before the start is the next morning.
    const day = start.date;
    const from = zonedDateTimeToInstant(day, started, timeZone);
    let to = zonedDateTimeToInstant(day, finished, timeZone);
    if (to <= from) to = zonedDateTimeToInstant(addDaysToDate(day, 1), finished, timeZone);
    setBusy(true);
    try {
      let id = lineId;
      if (!id) {
        const made = await request<GenerateAnswer>('/timesheets/actions/generate', {
          method: 'POST',
          json: { shift_ids: [shift.id] },
        });
        id = made.data.line_ids[0];
        setLineId(id);
      }
      await request(`/timesheet_lines/${id}/actions/record_times`, {
        method: 'POST',
        json: { actual_start: from.toISOString(), actual_end: to.toISOString(), break_minutes: minutes },
      });
      setErrors({});
      setStep('sign');
      setBusy(false);
    } catch (err) {
      failed(err);
    }
  };

  const sign = async (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!signer.trim()) problems.signer_name = say.manager_name_missing;
    if (!signature) problems.signature = say.signature_missing;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await request(`/timesheet_lines/${lineId}/actions/sign`, {
        method: 'POST',
        json: { signer_name: signer.trim(), signature },
      });
      onDone();
    } catch (err) {
      failed(err);
    }
  };

  return (
    <Dialog open onClose={onClose} fullScreen aria-labelledby="end-of-shift-title">
      <DialogTitle id="end-of-shift-title">
        {say.sign_title}
        <Typography variant="body2" color="text.secondary">
          {`${shiftTimes(shift, timeZone)} · ${[shift.job_role_name, shift.site_name].filter(Boolean).join(' at ')}`}
        </Typography>
      </DialogTitle>
      {step === 'times' ? (
        <Box component="form" onSubmit={saveTimes} noValidate sx={{ display: 'contents' }}>
          <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <Typography component="h2" variant="subtitle1">
              {say.sign_step_times}
            </Typography>
            {errors._ && <Alert severity="error">{errors._}</Alert>}
            <TextField
              label={say.started}
              value={started}
              onChange={(e) => setStarted(e.target.value)}
              error={!!errors.actual_start}
              helperText={errors.actual_start}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5, autoComplete: 'off' } }}
              required
            />
            <TextField
              label={say.finished}
              value={finished}
              onChange={(e) => setFinished(e.target.value)}
              error={!!errors.actual_end}
              helperText={errors.actual_end ?? say.finished_next_day}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5, autoComplete: 'off' } }}
              required
            />
            <TextField
              label={say.break_minutes}
              value={breakMinutes}
              onChange={(e) => setBreakMinutes(e.target.value)}
              error={!!errors.break_minutes}
              helperText={errors.break_minutes}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{say.cancel}</Button>
            <Button type="submit" variant="contained" disabled={busy}>
              {say.save_times}
            </Button>
          </DialogActions>
        </Box>
      ) : (
        <Box component="form" onSubmit={sign} noValidate sx={{ display: 'contents' }}>
          <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <Typography component="h2" variant="subtitle1">
              {say.sign_step_sign}
            </Typography>
            <Alert severity="info">{say.hand_over}</Alert>
            {errors._ && <Alert severity="error">{errors._}</Alert>}
            <TextField
              label={say.manager_name}
              value={signer}
              onChange={(e) => setSigner(e.target.value)}
              error={!!errors.signer_name}
              helperText={errors.signer_name}
              autoComplete="off"
              required
              slotProps={{ htmlInput: { maxLength: 150 } }}
            />
            <SignaturePad onChange={setSignature} typedName={signer} error={errors.signature} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setStep('times')}>{say.back}</Button>
            <Button type="submit" variant="contained" disabled={busy}>
              {say.sign}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}

/**
 * The staff member's hours: the shifts they worked lately whose times still need entering and signing (the end of
 * shift on the phone), then their timesheet lines week by week, each with its state.
 */
export function MyTimesheets({ timeZone, onFailure }: { timeZone: string; onFailure: (e: unknown) => void }) {
  const [data, setData] = useState<{ lines: MyLine[]; toSign: ToSign[] } | null>(null);
  const [signing, setSigning] = useState<ToSign | null>(null);
  const [notice, setNotice] = useState('');
  const load = useCallback(
    () =>
      Promise.all([request<{ data: MyLine[] }>(LINES_PATH), request<{ data: MyShift[] }>(RECENT_PATH)])
        .then(([lines, shifts]) => {
          const byShift = new Map(lines.data.filter((l) => l.shift_id).map((l) => [l.shift_id, l]));
          const now = Date.now();
          const toSign = shifts.data
            .filter((s) => Date.parse(s.end_at) <= now)
            .map((shift) => ({ shift, line: byShift.get(shift.id) ?? null }))
            .filter(({ line }) => !line || (line.status === 'pending' && !line.signed_at));
          setData({ lines: lines.data, toSign });
        })
        .catch(onFailure),
    [onFailure],
  );
  useEffect(() => {
    void load();
  }, [load]);
  if (!data) return <CircularProgress aria-label={say.loading} sx={{ m: 2 }} />;

  const weeks = new Map<string, MyLine[]>();
  for (const l of data.lines) {
    const monday = startOfWeekMonday(l.work_date);
    weeks.set(monday, [...(weeks.get(monday) ?? []), l]);
  }
  const times = (from: string, to: string) => shiftTimes({ start_at: from, end_at: to }, timeZone);
  return (
    <Box sx={{ overflowY: 'auto' }}>
      <Box aria-live="polite">
        {notice && (
          <Alert severity="success" sx={{ m: 2, mb: 0 }} onClose={() => setNotice('')}>
            {notice}
          </Alert>
        )}
      </Box>
      <Box component="section" aria-label={say.to_sign}>
        <Typography component="h2" variant="overline" sx={{ px: 2, pt: 1.5, display: 'block' }}>
          {say.to_sign}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ px: 2 }}>
          {say.to_sign_intro}
        </Typography>
        {data.toSign.length === 0 ? (
          <Typography sx={{ px: 2, py: 1 }} color="text.secondary">
            {say.nothing_to_sign}
          </Typography>
        ) : (
          <List disablePadding>
            {data.toSign.map((item) => (
              <ListItem key={item.shift.id} divider sx={{ display: 'block', py: 1.5 }}>
                <Typography sx={{ fontWeight: 'bold' }}>{shiftTimes(item.shift, timeZone)}</Typography>
                <Typography variant="body2">
                  {[item.shift.job_role_name, item.shift.site_name].filter(Boolean).join(' at ')}
                </Typography>
                <Button variant="contained" size="small" sx={{ mt: 1 }} onClick={() => setSigning(item)}>
                  {say.enter_times}
                </Button>
              </ListItem>
            ))}
          </List>
        )}
      </Box>
      {data.lines.length === 0 ? (
        <Alert severity="info" sx={{ m: 2 }}>
          {say.no_timesheet_lines}
        </Alert>
      ) : (
        [...weeks.entries()].map(([monday, lines]) => {
          const total = lines.reduce((sum, l) => sum + Number(l.hours ?? 0), 0);
          const title = fill(say.week_of, { date: monday });
          return (
            <Box component="section" key={monday} aria-label={title}>
              <Stack direction="row" sx={{ px: 2, pt: 1.5, alignItems: 'baseline', gap: 1 }}>
                <Typography component="h2" variant="overline" sx={{ flex: 1 }}>
                  {title}
                </Typography>
                <Typography variant="body2" sx={{ fontWeight: 'bold' }}>
                  {fill(say.week_hours, { hours: hoursText(total) })}
                </Typography>
              </Stack>
              <List disablePadding>
                {lines.map((l) => (
                  <ListItem key={l.id} divider sx={{ display: 'block', py: 1 }}>
                    <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                      <Typography sx={{ fontWeight: 'bold', flex: 1, minWidth: '10rem' }}>
                        {times(l.scheduled_start, l.scheduled_end)}
                      </Typography>
                      <Chip size="small" color={STATE_COLOUR[l.status]} label={stateLabel(l.status)} />
                    </Stack>
                    <Typography variant="body2">
                      {[l.job_role_name, l.site_name].filter(Boolean).join(' at ')}
                      {l.hours != null && ` · ${fill(say.week_hours, { hours: hoursText(Number(l.hours)) })}`}
                    </Typography>
                    {l.actual_start && l.actual_end && l.times_recorded_at && (
                      <Typography variant="body2" color="text.secondary">
                        {fill(say.worked, {
                          times: times(l.actual_start, l.actual_end),
                          minutes: l.break_minutes ?? 0,
                        })}
                      </Typography>
                    )}
                    {l.status === 'disputed' && l.dispute_reason && (
                      <Typography variant="body2" color="warning.dark">
                        {l.dispute_reason}
                      </Typography>
                    )}
                  </ListItem>
                ))}
              </List>
            </Box>
          );
        })
      )}
      {signing && (
        <EndOfShift
          item={signing}
          timeZone={timeZone}
          onClose={() => {
            setSigning(null);
            void load();
          }}
          onDone={() => {
            setSigning(null);
            setNotice(say.signed_done);
            void load();
          }}
        />
      )}
    </Box>
  );
}
