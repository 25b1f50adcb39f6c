import { useCallback, useState, type ReactNode } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import { request } from '../../providers/request';
import { JobProgress } from '../../engine/react/JobProgress';
import type { GenerateAnswer, GenerationResult } from '../../../core/contracts/timesheets';

/**
 * Generating timesheets from a screen (the week, a custom range): a small run answers at once and is said as lines
 * added; a large one runs as a job, is said as started, shows its progress, and is said as lines added when it has
 * finished, when `reread` reads the screen's list again.
 */
export function useGeneration(reread: () => void): {
  generate: (body: Record<string, unknown>) => Promise<void>;
  progress: ReactNode;
} {
  const translate = useTranslate();
  const notify = useNotify();
  const [job, setJob] = useState<number | null>(null);
  const sayAdded = useCallback(
    (lines: number, timesheets: number) =>
      notify(translate('app.timesheets.agency.generated', { smart_count: lines, timesheets }), { type: 'info' }),
    [notify, translate],
  );
  const generate = async (body: Record<string, unknown>) => {
    const r = await request<GenerateAnswer>('/timesheets/actions/generate', { method: 'POST', json: body });
    if (r.data.job_id) {
      setJob(r.data.job_id);
      notify(translate('app.timesheets.agency.generation_queued', { smart_count: r.data.shifts ?? 0 }), {
        type: 'info',
      });
    } else sayAdded(r.data.lines, r.data.timesheets.length);
  };
  const finished = useCallback(
    (result: unknown) => {
      const r = (result ?? {}) as Partial<GenerationResult>;
      sayAdded(r.lines ?? 0, r.timesheets?.length ?? 0);
      reread();
    },
    [sayAdded, reread],
  );
  const progress = job ? (
    <JobProgress id={job} label={translate('app.timesheets.agency.generating')} onDone={finished} />
  ) : null;
  return { generate, progress };
}
