import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button, Card, LinearProgress, Link, Typography } from '@mui/material';
import { useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { DatePickerProvider } from './DatePickerInput';
import { JobProgress } from './JobProgress';
import { PlainDatePicker } from './PlainDatePicker';
import { ApiFailure, request } from '../../providers/request';
import { startOfWeekMonday } from '../../../core/domain/time/agencyTime';

/**
 * A run's generation screen (invoices, pay runs): a period chosen with the product's date picker (a week's from its
 * Monday), a preview asked of the run's collection action, then the run made as a job whose progress shows here and
 * on the run's own page. `ns` is the screen's texts (`${ns}.from`, `.to`, `.preview`, `.running`…), `action` the
 * collection action's path, `body` what the run is asked besides its period, `periodEnd` the end a chosen start
 * brings (null: the end stays as it is).
 */
export interface RunGenerationOptions {
  ns: string;
  action: string;
  weekly: boolean;
  body: Record<string, unknown>;
  periodEnd: (first: string) => string | null;
}

export type RunGeneration<P> = ReturnType<typeof useRunGeneration<P>>;

export function useRunGeneration<P>({ ns, action, weekly, body, periodEnd }: RunGenerationOptions) {
  const translate = useTranslate();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [preview, setPreview] = useState<P | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [run, setRun] = useState<{ run_id: number; job_id: number } | null>(null);
  const [finished, setFinished] = useState(false);

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
    const end = first ? periodEnd(first) : null;
    if (first && end && (!to || to < first)) setTo(end);
    changed();
  };
  const chooseTo = (date: string | null) => {
    setTo(date);
    changed();
  };
  const checked = () => {
    const wrong: Record<string, string> = {};
    if (!from) wrong.from = translate(`${ns}.from_missing`);
    if (!to) wrong.to = translate(`${ns}.to_missing`);
    if (start && to && to < start) wrong.to = translate(`${ns}.to_before_from`);
    setErrors(wrong);
    return Object.keys(wrong).length === 0;
  };
  const ask = async <T,>(extra: Record<string, unknown>): Promise<T | null> => {
    if (!checked()) return null;
    setBusy(true);
    setProblem('');
    try {
      const json = { ...body, from: start, to, ...extra };
      return (await request<{ data: T }>(action, { method: 'POST', json })).data;
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
    const answer = await ask<P>({ preview: true });
    if (answer) setPreview(answer);
  };
  const create = async () => {
    const answer = await ask<{ run_id: number | null; job_id?: number }>({ background: true });
    if (answer?.run_id && answer.job_id) setRun({ run_id: answer.run_id, job_id: answer.job_id });
    else if (answer) setProblem(translate(`${ns}.nothing`));
  };
  return {
    ns,
    weekly,
    from,
    to,
    setTo,
    start,
    preview,
    errors,
    problem,
    busy,
    run,
    finished,
    setFinished,
    changed,
    chooseFrom,
    chooseTo,
    showPreview,
    create,
  };
}

/** The run's From and To with the product's date picker; a week's From says its Monday. */
export function RunPeriod<P>({ g, toHelp }: { g: RunGeneration<P>; toHelp?: string }) {
  const translate = useTranslate();
  return (
    <DatePickerProvider>
      <PlainDatePicker
        label={translate(`${g.ns}.from`)}
        value={g.from}
        onChange={g.chooseFrom}
        helperText={
          g.errors.from ??
          (g.weekly
            ? g.start
              ? translate(`${g.ns}.from_monday`, { date: g.start })
              : translate(`${g.ns}.monday`)
            : undefined)
        }
      />
      <PlainDatePicker
        label={translate(`${g.ns}.to`)}
        value={g.to}
        onChange={g.chooseTo}
        helperText={g.errors.to ?? toHelp}
      />
    </DatePickerProvider>
  );
}

/** Preview, then make the run (`create`: its button's text key), once a preview has something to make. */
export function RunButtons<P>({ g, create, empty }: { g: RunGeneration<P>; create: string; empty: boolean }) {
  const translate = useTranslate();
  return (
    <>
      <Button variant="outlined" onClick={() => void g.showPreview()} disabled={g.busy}>
        {translate(`${g.ns}.preview`)}
      </Button>
      <Button variant="contained" onClick={() => void g.create()} disabled={g.busy || !g.preview || !!g.run || empty}>
        {translate(`${g.ns}.${create}`)}
      </Button>
    </>
  );
}

/** What the screen is doing, said to screen readers (working, a refusal), and the run's job with its progress. */
export function RunStatus<P>({ g, runPath }: { g: RunGeneration<P>; runPath: (id: number) => string }) {
  const translate = useTranslate();
  return (
    <>
      <Box aria-live="polite" sx={{ mb: 1 }}>
        {g.busy && <LinearProgress aria-label={translate(`${g.ns}.working`)} />}
        {g.problem && <Alert severity="error">{g.problem}</Alert>}
      </Box>
      {g.run && (
        <Card variant="outlined" sx={{ p: 1.5, mb: 1 }}>
          <Typography variant="subtitle2" component="h2">
            {translate(g.finished ? `${g.ns}.done` : `${g.ns}.running`)}
          </Typography>
          <JobProgress id={g.run.job_id} label={translate(`${g.ns}.progress`)} onDone={() => g.setFinished(true)} />
          <Link component={RouterLink} to={runPath(g.run.run_id)}>
            {translate(`${g.ns}.open_run`, { id: g.run.run_id })}
          </Link>
        </Card>
      )}
    </>
  );
}

/**
 * A run's job on the run's own page while it is being made (the page can be left and come back to: the progress is
 * the job's, read again), the page read again once it is done. `status` is the run's field that says 'done' or
 * 'failed'.
 */
export function RunJobProgress({ ns, status }: { ns: string; status: string }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const run = useRecordContext();
  if (!run || run[status] === 'done' || !run.job_id) return null;
  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="subtitle2" component="h2">
        {translate(`${ns}.running`)}
      </Typography>
      {run[status] === 'failed' && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {translate(`${ns}.failed`)}
        </Alert>
      )}
      <JobProgress id={Number(run.job_id)} label={translate(`${ns}.progress`)} onDone={refresh} />
    </Box>
  );
}
