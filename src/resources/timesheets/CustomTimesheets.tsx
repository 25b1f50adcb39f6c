import { useState } from 'react';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { Title, useNotify, useRefresh, useTranslate } from 'react-admin';
import { DatePickerProvider } from '../../engine/react/DatePickerInput';
import { EngineList } from '../../engine/react/list';
import { JobProgress } from '../../engine/react/JobProgress';
import type { ViewOptions } from '../../engine/react/viewOptions';
import { request } from '../../providers/request';
import type { GenerateAnswer } from '../../../core/contracts/timesheets';
import { PlainDatePicker } from './AgencyTimesheets';

/**
 * /timesheet/custom: a timesheet over a chosen date range (a fortnight, a month) for clients who sign off on other
 * cycles: the worked shifts of the range not yet on a timesheet go on one per client (or site); then the custom
 * timesheets, generated as a list (open one to review, amend and submit it).
 */
export function CustomTimesheets(options: ViewOptions) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<number | null>(null);
  const generate = async () => {
    if (!from || !to) return setProblem(translate('app.timesheets.agency.range_missing'));
    if (to < from) return setProblem(translate('app.timesheets.agency.range_backwards'));
    setProblem('');
    setBusy(true);
    try {
      const r = await request<GenerateAnswer>('/timesheets/actions/generate', { method: 'POST', json: { from, to } });
      if (r.data.job_id) setJob(r.data.job_id);
      notify(
        translate('app.timesheets.agency.generated', {
          smart_count: r.data.lines,
          timesheets: r.data.timesheets.length,
        }),
        { type: 'info' },
      );
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
      <Box aria-live="polite" sx={{ mb: 1 }}>
        {problem && <Alert severity="error">{problem}</Alert>}
        {busy && <LinearProgress aria-label={translate('app.timesheets.agency.generating')} />}
        {job && <JobProgress id={job} label={translate('app.timesheets.agency.generating')} />}
      </Box>
      <EngineList {...options} tabId="custom" title={false} />
    </Box>
  );
}
