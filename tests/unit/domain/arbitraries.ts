// Shared fast-check generators for the domain tests.
import { fc } from '@fast-check/vitest';

/** A plain date 'yyyy-MM-dd' between two dates (inclusive), built independently of the code under test. */
export function plainDate(min = '1900-01-01', max = '2200-12-31') {
  return fc
    .date({ min: new Date(`${min}T00:00:00Z`), max: new Date(`${max}T00:00:00Z`), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
}

/** An instant on a whole minute, as shift times are. */
export function wholeMinuteInstant(min = '1990-01-01', max = '2060-12-31') {
  return fc
    .date({ min: new Date(`${min}T00:00:00Z`), max: new Date(`${max}T00:00:00Z`), noInvalidDate: true })
    .map((d) => new Date(Math.floor(d.getTime() / 60_000) * 60_000));
}

/** Runs a block with the process's own time zone (the "machine's zone") set to `tz`, then restores it. */
export function withMachineZone<T>(tz: string, run: () => T): T {
  const saved = process.env.TZ;
  process.env.TZ = tz;
  try {
    return run();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}
