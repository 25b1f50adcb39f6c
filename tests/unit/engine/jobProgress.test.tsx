import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../msw/server';
import { JobProgress, progressLabel, type JobStatus } from '../../../src/engine/react/JobProgress';

// The progress of a job as a screen shows it (issue 16 item 6): a bar and "n of N", polled until the job ends.
const job = (over: Partial<JobStatus>): JobStatus => ({
  id: 7,
  kind: 'test',
  status: 'running',
  done: 0,
  total: 5,
  attempts: 1,
  error: null,
  result: null,
  ...over,
});

function answer(sequence: JobStatus[]) {
  const asked: string[] = [];
  server.use(
    http.get('*/api/jobs/:id', ({ params }) => {
      asked.push(String(params.id));
      return HttpResponse.json({ data: sequence[Math.min(asked.length - 1, sequence.length - 1)] });
    }),
  );
  return asked;
}
const show = (id = 7, onDone?: (result: unknown) => void) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <JobProgress id={id} label="Generating" pollMs={10} onDone={onDone} />
    </QueryClientProvider>,
  );

describe('progressLabel', () => {
  it('says n of N, what is waiting and what is done', () => {
    expect(progressLabel({ status: 'running', done: 2, total: 5 })).toBe('2 of 5');
    expect(progressLabel({ status: 'queued', done: 0, total: null })).toBe('Waiting to start');
    expect(progressLabel({ status: 'running', done: 3, total: null })).toBe('3 done');
    expect(progressLabel({ status: 'done', done: 5, total: 5 })).toBe('5 of 5');
  });
});

describe('<JobProgress>', () => {
  it('follows the job step by step to its end', async () => {
    const asked = answer([job({ done: 1 }), job({ done: 3 }), job({ status: 'done', done: 5, result: { lines: 5 } })]);
    const results: unknown[] = [];
    show(7, (r) => results.push(r));
    expect(await screen.findByText('5 of 5')).toBeInTheDocument();
    // The screen hears of the end once, with the job's result, and not while it ran.
    await waitFor(() => expect(results).toEqual([{ lines: 5 }]));
    expect(screen.getByRole('progressbar', { name: 'Generating' })).toHaveAttribute('aria-valuenow', '100');
    // Each answer was shown in turn: the job was asked for again while it ran.
    expect(asked.length).toBeGreaterThanOrEqual(3);
  });

  it('says a failed step will be tried again, and why a job stopped for good', async () => {
    answer([job({ status: 'queued', done: 2, error: 'The printer is offline.' })]);
    const first = show();
    expect(await screen.findByText('Trying again shortly: The printer is offline.')).toBeInTheDocument();
    expect(screen.getByText('2 of 5')).toBeInTheDocument();
    first.unmount();
    answer([job({ status: 'failed', done: 2, error: 'The printer is offline.' })]);
    show();
    expect(await screen.findByText('It stopped after 2 of 5: The printer is offline.')).toBeInTheDocument();
  });
});
