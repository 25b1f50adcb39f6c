/**
 * The wait before the next attempt after a failure, for every queue of the product (the jobs and the e-mail outbox):
 * 10 s, doubling each time, at most 15 minutes, so an outage of any length is tried again every 15 minutes.
 */
export function retryDelayMs(attempts: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}
