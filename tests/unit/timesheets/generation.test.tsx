import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, Notification, memoryStore } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../msw/server';
import { answer } from '../msw/contract';
import { dataProvider } from '../../../src/providers/dataProvider';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { useGeneration } from '../../../src/resources/timesheets/generation';
import { GenerateAnswer } from '../../../core/contracts/timesheets';
import type { JobStatus } from '../../../src/engine/react/JobProgress';

// Generating timesheets from the week or custom screen: a small run is said at once; a large one (a job, 202) is said
// as started, shows its progress, and only once done is said as lines added and the screen's list read again.
function Generate({ reread }: { reread: () => void }) {
  const generation = useGeneration(reread);
  return (
    <>
      <button onClick={() => void generation.generate({ week_start: '2026-11-23' })}>Generate</button>
      {generation.progress}
    </>
  );
}
const show = (reread: () => void) =>
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
      <Generate reread={reread} />
      <Notification />
    </AdminContext>,
  );
const job = (over: Partial<JobStatus>): JobStatus => ({
  id: 9,
  kind: 'timesheet-generation',
  status: 'running',
  done: 0,
  total: 1200,
  attempts: 1,
  error: null,
  result: null,
  ...over,
});

describe('useGeneration', () => {
  it('a small run says the lines it added at once', async () => {
    server.use(
      http.post('/api/timesheets/actions/generate', () =>
        answer('POST generate', GenerateAnswer, {
          data: { timesheets: [1, 2], lines: 5, line_ids: [1, 2, 3, 4, 5], job_id: null },
        }),
      ),
    );
    const reread = vi.fn();
    show(reread);
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('5 lines added on 2 timesheet(s)')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('a large run says it started, shows its progress, and says the lines added once the job is done', async () => {
    let asked = 0;
    server.use(
      http.post('/api/timesheets/actions/generate', () =>
        answer(
          'POST generate',
          GenerateAnswer,
          { data: { timesheets: [], lines: 0, line_ids: [], job_id: 9, shifts: 1200 } },
          202,
        ),
      ),
      http.get('/api/jobs/9', () => {
        asked++;
        return HttpResponse.json({
          data:
            asked < 3
              ? job({ done: 600 })
              : job({ status: 'done', done: 1200, result: { timesheets: [4, 5, 6], lines: 1200 } }),
        });
      }),
    );
    const reread = vi.fn();
    show(reread);
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(
      await screen.findByText(
        'Generating from 1200 worked shifts in the background; the list fills in when it is done.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('600 of 1200')).toBeInTheDocument();
    expect(reread).not.toHaveBeenCalled();
    expect(await screen.findByText('1200 lines added on 3 timesheet(s)', {}, { timeout: 15_000 })).toBeInTheDocument();
    await waitFor(() => expect(reread).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/^0 lines added/)).toBeNull();
  });
});
