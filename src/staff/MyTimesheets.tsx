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
  MenuItem,
  Stack,
  TextField,
  Typography,
  type ChipProps,
} from '@mui/material';
import { ApiFailure, request } from '../providers/request';
import { fill, staffTexts as say } from './messages';
import { shiftTimes, type MyShift } from './MyShifts';
import { SignaturePad } from '../resources/timesheets/SignaturePad';
import { instantToZoned, startOfWeekMonday } from '../../core/domain/time/agencyTime';
import { shiftInstants } from '../../core/domain/shifts/times';
import type { GenerateAnswer } from '../../core/contracts/timesheets';
import { bookedBreak, differences, durationWords, phoneSignRefusal } from '../../core/domain/timesheets/tolerance';

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
  /** Issue 29.1: how the times go beyond the client's tolerance (then not signed on the phone), who signed it, the
   * state of its timesheet, and the client's approvers who may sign it on the phone. */
  outside_tolerance?: string | null;
  signed_by?: string | null;
  timesheet_status: string;
  approvers?: { id: number; name: string; job_title: string | null }[];
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

/** "10 min earlier than booked", "1 h 5 min later than booked", or nothing when as booked. */
function differenceWords(minutes: number, later: string, earlier: string) {
  if (minutes === 0) return '';
  return fill(minutes > 0 ? later : earlier, { minutes: durationWords(minutes) });
}

/**
 * Exactly what the approver signs (issue 29.3): the start, finish, break and paid hours the staff member entered,
 * each beside the booking, a difference marked.
 */
function WhatIsSigned({ line, shift, timeZone }: { line: MyLine; shift: MyShift; timeZone: string }) {
  const booked = bookedBreak({
    start: shift.start_at,
    end: shift.end_at,
    break_minutes: shift.break_minutes ?? null,
    paid_minutes: shift.hours == null ? null : Math.round(shift.hours * 60),
    sleep_in: shift.sleep_in,
  });
  const d = differences({
    scheduled_start: shift.start_at,
    scheduled_end: shift.end_at,
    booked_break: booked,
    actual_start: line.actual_start!,
    actual_end: line.actual_end!,
    break_minutes: line.break_minutes,
  });
  const clock = (v: string) => instantToZoned(new Date(v), timeZone).time;
  const paidNow = Number(line.hours ?? 0);
  const paidBooked = Number(shift.hours ?? 0);
  const rows: { label: string; value: string; booked: string; diff: string }[] = [
    {
      label: say.started_label,
      value: clock(line.actual_start!),
      booked: clock(shift.start_at),
      diff: differenceWords(d.start, say.later_than_booked, say.earlier_than_booked),
    },
    {
      label: say.finished_label,
      value: clock(line.actual_end!),
      booked: clock(shift.end_at),
      diff: differenceWords(d.end, say.later_than_booked, say.earlier_than_booked),
    },
    {
      label: say.break_label,
      value: fill(say.minutes, { minutes: line.break_minutes ?? booked }),
      booked: fill(say.minutes, { minutes: booked }),
      diff: differenceWords(d.break, say.longer_than_booked, say.shorter_than_booked),
    },
    {
      label: say.paid_hours_label,
      value: hoursText(paidNow),
      booked: hoursText(paidBooked),
      diff:
        Math.round(paidNow * 60) === Math.round(paidBooked * 60)
          ? ''
          : fill(paidNow > paidBooked ? say.more_than_booked : say.fewer_than_booked, {
              minutes: durationWords(Math.round((paidNow - paidBooked) * 60)),
            }),
    },
  ];
  return (
    <Box
      component="section"
      aria-labelledby="what-is-signed"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Typography id="what-is-signed" component="h3" variant="subtitle2" sx={{ px: 1.5, pt: 1 }}>
        {say.what_is_signed}
      </Typography>
      <Box component="dl" sx={{ m: 0, px: 1.5, pb: 1 }}>
        {rows.map((r) => (
          <Box
            key={r.label}
            sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, py: 0.5, borderTop: 1, borderColor: 'divider' }}
          >
            <Typography component="dt" variant="body2" sx={{ flex: '0 0 7.5rem' }}>
              {r.label}
            </Typography>
            <Typography component="dd" variant="body1" sx={{ m: 0, fontWeight: 'bold', flex: 1, minWidth: '8rem' }}>
              <span>{r.value}</span>{' '}
              <Typography component="span" variant="body2" color="text.secondary" sx={{ fontWeight: 'normal' }}>
                {fill(say.booked_as, { value: r.booked })}
              </Typography>
              {r.diff && (
                <Typography
                  component="span"
                  variant="body2"
                  sx={{ display: 'block', color: 'warning.dark', fontWeight: 'bold' }}
                >
                  {r.diff}
                </Typography>
              )}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * The end of a shift on the staff member's phone: they enter when they started and finished and their break (the
 * booking's to start with), then hand the phone to one of the client's approvers, who sees exactly what they sign and
 * signs with their own PIN (issue 29.1–29.3). Times beyond the client's tolerance, or a line the client disputed, are
 * not signed here: they go to the client. The line is made on the timesheet of the shift's week first if the agency
 * has not generated it yet (the same generation, for their own shift).
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
  const [line, setLine] = useState<MyLine | null>(item.line);
  const [step, setStep] = useState<'times' | 'sign'>(item.line?.times_recorded_at ? 'sign' : 'times');
  const [started, setStarted] = useState(start.time);
  const [finished, setFinished] = useState(end.time);
  // The break as entered, else as booked (issue 29.2): the shift's own, or the one its price took off by the client's
  // break rules, never 0 for a booking that had one.
  const [breakMinutes, setBreakMinutes] = useState(
    String(
      item.line?.times_recorded_at && item.line.break_minutes != null
        ? item.line.break_minutes
        : bookedBreak({
            start: shift.start_at,
            end: shift.end_at,
            break_minutes: shift.break_minutes ?? null,
            paid_minutes: shift.hours == null ? null : Math.round(shift.hours * 60),
            sleep_in: shift.sleep_in,
          }),
    ),
  );
  const [approverId, setApproverId] = useState('');
  const [pin, setPin] = useState('');
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
    const day = instantToZoned(new Date(shift.start_at), timeZone).date;
    const { start: from, end: to } = shiftInstants(day, started, finished, timeZone);
    setBusy(true);
    try {
      let id = line?.id;
      if (!id) {
        const made = await request<GenerateAnswer>('/timesheets/actions/generate', {
          method: 'POST',
          json: { shift_ids: [shift.id] },
        });
        id = made.data.line_ids[0];
      }
      await request(`/timesheet_lines/${id}/actions/record_times`, {
        method: 'POST',
        json: { actual_start: from, actual_end: to, break_minutes: minutes },
      });
      // The line as the server priced and judged it: its paid hours, and whether the phone may sign it.
      const saved = await request<{ data: MyLine }>(`/timesheet_lines/${id}`);
      setLine(saved.data);
      setErrors({});
      setStep('sign');
      setBusy(false);
    } catch (err) {
      failed(err);
    }
  };

  const approvers = line?.approvers ?? [];
  const approver = approvers.find((a) => String(a.id) === approverId);
  const refusal = line ? phoneSignRefusal(line) : null;

  const sign = async (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!approver) problems.approver_id = say.approver_missing;
    if (!/^\d{6,8}$/.test(pin)) problems.pin = say.pin_missing;
    if (!signature) problems.signature = say.signature_missing;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await request(`/timesheet_lines/${line!.id}/actions/sign`, {
        method: 'POST',
        json: { approver_id: approver!.id, pin, signature },
      });
      onDone();
    } catch (err) {
      setPin('');
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
      {step === 'times' || !line ? (
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
              helperText={errors.break_minutes ?? say.break_from_booking}
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
            <WhatIsSigned line={line} shift={shift} timeZone={timeZone} />
            {refusal ? (
              <Alert severity="info">
                {say[`not_on_phone_${refusal}`]}
                {refusal === 'outside_tolerance' && line.outside_tolerance && (
                  <Typography variant="body2" sx={{ mt: 0.5 }}>
                    {line.outside_tolerance}
                  </Typography>
                )}
              </Alert>
            ) : approvers.length === 0 ? (
              <Alert severity="info">{say.no_approvers}</Alert>
            ) : (
              <>
                <Alert severity="info">{say.hand_over}</Alert>
                {errors._ && <Alert severity="error">{errors._}</Alert>}
                <TextField
                  select
                  label={say.approver}
                  value={approverId}
                  onChange={(e) => setApproverId(e.target.value)}
                  error={!!errors.approver_id}
                  helperText={errors.approver_id}
                  required
                >
                  {approvers.map((a) => (
                    <MenuItem key={a.id} value={String(a.id)}>
                      {a.job_title ? `${a.name}, ${a.job_title}` : a.name}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  label={say.pin}
                  type="password"
                  value={pin}
                  onChange={(e) => setPin(e.target.value)}
                  error={!!errors.pin}
                  helperText={errors.pin ?? say.pin_help}
                  required
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8, autoComplete: 'off' } }}
                />
                <SignaturePad onChange={setSignature} typedName={approver?.name ?? ''} error={errors.signature} />
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setStep('times')} disabled={!!refusal && refusal !== 'outside_tolerance'}>
              {say.back}
            </Button>
            {refusal || approvers.length === 0 ? (
              <Button variant="contained" onClick={onClose}>
                {say.done}
              </Button>
            ) : (
              <Button type="submit" variant="contained" disabled={busy}>
                {say.sign}
              </Button>
            )}
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
            // Not yet on the phone's side of the client's line: unsigned, not sent, never disputed (times beyond
            // the client's tolerance stay, so a mistyped time can be put right while the timesheet is a draft).
            .filter(({ line }) => !line || [null, 'outside_tolerance'].includes(phoneSignRefusal(line)));
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
    // A list of many weeks scrolls: the keyboard reaches it too (it may hold nothing else to focus).
    <Box sx={{ overflowY: 'auto' }} tabIndex={0} role="region" aria-label={say.timesheets_title}>
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
                    {l.signed_by && (
                      <Typography variant="body2" color="text.secondary">
                        {fill(say.signed_by, { name: l.signed_by })}
                      </Typography>
                    )}
                    {l.status === 'pending' && l.outside_tolerance && (
                      <Typography variant="body2" color="warning.dark">
                        {l.outside_tolerance}
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
