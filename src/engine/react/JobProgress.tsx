import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, LinearProgress, Typography } from '@mui/material';
import { request } from '../../providers/request';

/** A job as GET /api/jobs/:id answers it. */
export interface JobStatus {
  id: number;
  kind: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  done: number;
  total: number | null;
  attempts: number;
  error: string | null;
  result: unknown;
}

/** How often a screen asks for a job's progress while it runs. */
export const JOB_POLL_MS = 1000;

/** A job's progress, asked again every second until it is done or has failed. */
export function useJobProgress(id: number | null | undefined, pollMs = JOB_POLL_MS) {
  return useQuery({
    queryKey: ['jobs', id],
    queryFn: async () => (await request<{ data: JobStatus }>(`/jobs/${id}`)).data,
    enabled: id !== null && id !== undefined,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' ? false : pollMs;
    },
  });
}

/** "n of N" while a job runs ("Waiting to start" before the first step, when it knows no total yet). */
export function progressLabel(job: Pick<JobStatus, 'status' | 'done' | 'total'>): string {
  if (job.status === 'done') return job.total === null ? 'Done' : `${job.total} of ${job.total}`;
  if (job.total === null) return job.status === 'queued' && job.done === 0 ? 'Waiting to start' : `${job.done} done`;
  return `${job.done} of ${job.total}`;
}

/**
 * A job's progress bar with "n of N" under it; a step that failed and waits to be tried again says so, and a job
 * that failed for good says why. `onDone` hears of the job's end.
 */
export function JobProgress({
  id,
  label,
  pollMs,
  onDone,
}: {
  id: number;
  label?: string;
  pollMs?: number;
  /** Called once when the job has finished, with its result: the screen reads again what the job wrote. */
  onDone?: (result: unknown) => void;
}) {
  const { data: job, error } = useJobProgress(id, pollMs);
  const told = useRef<number | null>(null);
  useEffect(() => {
    if (job?.status === 'done' && told.current !== job.id) {
      told.current = job.id;
      onDone?.(job.result);
    }
  }, [job, onDone]);
  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  if (!job) return <LinearProgress aria-label={label ?? 'Progress'} />;
  const percent = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;
  return (
    <Box role="status" aria-live="polite">
      {job.status === 'failed' ? (
        <Alert severity="error">{`It stopped after ${progressLabel(job)}: ${job.error ?? 'an error'}`}</Alert>
      ) : (
        <>
          <LinearProgress
            variant={job.total ? 'determinate' : 'indeterminate'}
            value={percent}
            aria-label={label ?? 'Progress'}
          />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {progressLabel(job)}
          </Typography>
          {job.status === 'queued' && job.error && (
            <Typography variant="body2" color="warning.main">{`Trying again shortly: ${job.error}`}</Typography>
          )}
        </>
      )}
    </Box>
  );
}
