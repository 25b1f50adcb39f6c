import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  FormControlLabel,
  FormGroup,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { Title, useRefresh, useTranslate } from 'react-admin';
import { DatePickerProvider } from '../../engine/react/DatePickerInput';
import { EngineList } from '../../engine/react/list';
import { useGeneration } from './generation';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { request } from '../../providers/request';
import type { Schedule, ScheduleShift } from '../../../core/contracts/shifts';
import { PlainDatePicker } from '../../engine/react/PlainDatePicker';
import { useZone } from './TimesheetShow';
import { instantText, timeText } from './format';
import { workedInPeriod } from '../../../core/domain/timesheets/rules';
import { addDaysToDate } from '../../../core/domain/time/agencyTime';

/**
 * /timesheet/custom: a timesheet over a chosen date range (a fortnight, a month) or a chosen set of its worked
 * shifts, for clients who sign off on other cycles: those not yet on a timesheet go on one per client (or site);
 * then the custom timesheets, generated as a list (open one to review, amend and submit it).
 */
export function CustomTimesheets(options: ViewOptions) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const generation = useGeneration(refresh);
  const zone = useZone();
  // The worked shifts of the chosen dates, to generate for some of them only.
  const [worked, setWorked] = useState<ScheduleShift[]>([]);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  useEffect(() => {
    setChosen(new Set());
    if (!from || !to || to < from) return setWorked([]);
    let current = true;
    // The schedule's `to` is exclusive: the day after the last, so the last day's shifts are offered too.
    request<Schedule>(`/schedule?from=${from}&to=${addDaysToDate(to, 1)}`)
      .then((r) => {
        const now = Date.now();
        if (current) setWorked(r.data.filter((s) => workedInPeriod(s, from, to, zone, now)));
      })
      .catch(() => current && setWorked([]));
    return () => {
      current = false;
    };
  }, [from, to, zone]);
  const toggle = (id: number) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const generate = async (only?: number[]) => {
    if (!from || !to) return setProblem(translate('app.timesheets.agency.range_missing'));
    if (to < from) return setProblem(translate('app.timesheets.agency.range_backwards'));
    setProblem('');
    setBusy(true);
    try {
      await generation.generate(only ? { from, to, shift_ids: only } : { from, to });
      refresh();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="app.screens.timesheet_custom" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('app.timesheets.agency.custom_help')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ mb: 1, alignItems: 'flex-start' }}>
        <DatePickerProvider>
          <PlainDatePicker label={translate('app.timesheets.agency.from')} value={from} onChange={setFrom} />
          <PlainDatePicker label={translate('app.timesheets.agency.to')} value={to} onChange={setTo} />
        </DatePickerProvider>
        <Button variant="contained" onClick={() => void generate()} disabled={busy}>
          {translate('app.timesheets.agency.generate_range')}
        </Button>
      </Stack>
      {worked.length > 0 && (
        <Card variant="outlined" sx={{ p: 1.5, mb: 1 }}>
          <FormGroup aria-labelledby="worked-shifts">
            <Typography id="worked-shifts" variant="subtitle2">
              {translate('app.timesheets.agency.worked_in_range', { smart_count: worked.length })}
            </Typography>
            {worked.map((s) => (
              <FormControlLabel
                key={s.id}
                control={<Checkbox checked={chosen.has(s.id)} onChange={() => toggle(s.id)} />}
                label={`${instantText(s.start_at, zone)}–${timeText(s.end_at, zone)} · ${s.client_name} · ${s.site_name} · ${s.candidate_name ?? ''}`}
              />
            ))}
          </FormGroup>
          <Button variant="outlined" disabled={busy || chosen.size === 0} onClick={() => void generate([...chosen])}>
            {translate('app.timesheets.agency.generate_chosen', { smart_count: chosen.size })}
          </Button>
        </Card>
      )}
      <Box aria-live="polite" sx={{ mb: 1 }}>
        {problem && <Alert severity="error">{problem}</Alert>}
        {busy && <LinearProgress aria-label={translate('app.timesheets.agency.generating')} />}
        {generation.progress}
      </Box>
      <EngineList {...options} tabId="custom" title={false} />
    </Box>
  );
}
