// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { zonedDateTimeToInstant } from '../../../core/domain/time/agencyTime';
import {
  groupShifts,
  placeGroups,
  type ExistingTimesheet,
  type GenerationPeriod,
  type ShiftToPlace,
} from '../../../core/domain/timesheets/generation';

// Issue 31.3: how a generation run groups worked shifts into timesheets, and which timesheet each group joins, as
// plain functions (the server only reads the shifts and the timesheets, and writes what these decide).
const LONDON = 'Europe/London';
const at = (d: string, t: string) => zonedDateTimeToInstant(d, t, LONDON).toISOString();
const shift = (id: number, client_id: number, site_id: number, start: string, per = 'client'): ShiftToPlace => ({
  id,
  client_id,
  site_id,
  start_at: at(start.slice(0, 10), start.slice(11)),
  timesheet_per: per,
});
const WEEK: GenerationPeriod = { kind: 'weekly', from: '2026-03-02', to: '2026-03-08' };
const CUSTOM: GenerationPeriod = { kind: 'custom', from: '2026-03-01', to: '2026-03-20' };
/** Each group as client/site/from/to/kind: its shifts' ids. */
const summary = (shifts: ShiftToPlace[], period: GenerationPeriod | null) =>
  groupShifts(shifts, period, LONDON).map(
    (g) => `${g.client_id}/${g.site_id ?? '-'}/${g.from}/${g.to}/${g.kind}: ${g.shifts.map((s) => s.id).join(',')}`,
  );

describe('groupShifts', () => {
  it.each<[string, ShiftToPlace[], GenerationPeriod | null, string[]]>([
    ['none', [], WEEK, []],
    [
      'one timesheet per client and week, whatever the site',
      [
        shift(1, 10, 100, '2026-03-02T08:00'),
        shift(2, 10, 101, '2026-03-04T08:00'),
        shift(3, 11, 110, '2026-03-03T08:00'),
      ],
      WEEK,
      ['10/-/2026-03-02/2026-03-08/weekly: 1,2', '11/-/2026-03-02/2026-03-08/weekly: 3'],
    ],
    [
      'one per site for a client that wants a timesheet per site',
      [
        shift(1, 10, 100, '2026-03-02T08:00', 'site'),
        shift(2, 10, 101, '2026-03-03T08:00', 'site'),
        shift(3, 10, 100, '2026-03-05T08:00', 'site'),
      ],
      WEEK,
      ['10/100/2026-03-02/2026-03-08/weekly: 1,3', '10/101/2026-03-02/2026-03-08/weekly: 2'],
    ],
    [
      'a custom period puts the chosen days on one timesheet',
      [shift(1, 10, 100, '2026-03-02T08:00'), shift(2, 10, 100, '2026-03-16T08:00')],
      CUSTOM,
      ['10/-/2026-03-01/2026-03-20/custom: 1,2'],
    ],
    [
      'without a period each shift goes on its own week: a Sunday night is the Sunday’s week',
      [
        shift(1, 10, 100, '2026-03-08T20:00'),
        shift(2, 10, 100, '2026-03-09T00:30'),
        shift(3, 10, 100, '2026-03-02T09:00'),
      ],
      null,
      ['10/-/2026-03-02/2026-03-08/weekly: 1,3', '10/-/2026-03-09/2026-03-15/weekly: 2'],
    ],
  ])('%s', (_name, shifts, period, expected) => {
    expect(summary(shifts, period)).toEqual(expected);
  });
});

describe('placeGroups', () => {
  const [group] = groupShifts([shift(1, 10, 100, '2026-03-03T08:00')], WEEK, LONDON);
  const ts = (id: number, status: string, over: Partial<ExistingTimesheet> = {}): ExistingTimesheet => ({
    id,
    client_id: 10,
    site_id: null,
    period_start: WEEK.from,
    period_end: WEEK.to,
    kind: 'weekly',
    status,
    ...over,
  });
  it.each<[string, ExistingTimesheet[], { timesheet_id: number | null; supplement_of: number | null }]>([
    ['a new draft when the week has none', [], { timesheet_id: null, supplement_of: null }],
    ['the week’s draft', [ts(5, 'draft')], { timesheet_id: 5, supplement_of: null }],
    [
      'a draft before one being corrected',
      [ts(4, 'disputed'), ts(7, 'draft')],
      { timesheet_id: 7, supplement_of: null },
    ],
    [
      'the earliest disputed or amended one',
      [ts(6, 'amended'), ts(4, 'disputed')],
      { timesheet_id: 4, supplement_of: null },
    ],
    [
      'a supplement of the first when all were sent',
      [ts(9, 'signed'), ts(3, 'submitted'), ts(8, 'locked')],
      { timesheet_id: null, supplement_of: 3 },
    ],
    [
      'another client’s, site’s, period’s or kind’s timesheet is not the week’s',
      [
        ts(1, 'draft', { client_id: 11 }),
        ts(2, 'draft', { site_id: 100 }),
        ts(3, 'draft', { period_start: '2026-03-09' }),
        ts(4, 'draft', { kind: 'custom' }),
      ],
      { timesheet_id: null, supplement_of: null },
    ],
  ])('%s', (_name, existing, expected) => {
    expect(placeGroups([group], existing)).toEqual([expected]);
  });
});
