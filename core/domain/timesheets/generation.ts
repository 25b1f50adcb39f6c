// How a generation run puts worked shifts on timesheets (issue 17, 29.10), as plain functions: which shifts share a
// timesheet, and which timesheet each group joins (or which it supplements). The server reads and writes; this decides.
import { addDaysToDate } from '../time/agencyTime';
import { AMENDABLE_STATES, weekOf } from './rules';

/** A worked shift as generation reads it: its client (and whether the client has a timesheet per site), where, when. */
export interface ShiftToPlace {
  id: number;
  client_id: number;
  site_id: number;
  /** An ISO instant. */
  start_at: string;
  timesheet_per?: string | null;
}

/** The run's period (a week, or the days chosen), or null: each shift goes on the timesheet of its own week. */
export interface GenerationPeriod {
  kind: 'weekly' | 'custom';
  from: string;
  to: string;
}

/** The shifts of one timesheet: one client (or one site, when the client has a timesheet per site) and period. */
export interface ShiftGroup<S extends ShiftToPlace = ShiftToPlace> {
  key: string;
  client_id: number;
  site_id: number | null;
  from: string;
  to: string;
  kind: 'weekly' | 'custom';
  shifts: S[];
}

const keyOf = (g: { client_id: number; site_id: number | null; from: string; to: string; kind: string }) =>
  `${g.client_id}|${g.site_id ?? ''}|${g.from}|${g.to}|${g.kind}`;

/**
 * The shifts grouped by the timesheet they go on, in the order first met: by client (or site), and by the run's
 * period or, without one, by the week each shift starts in on the agency's calendar (a staff member's own shift).
 */
export function groupShifts<S extends ShiftToPlace>(
  shifts: S[],
  period: GenerationPeriod | null,
  timeZone: string,
): ShiftGroup<S>[] {
  const groups = new Map<string, ShiftGroup<S>>();
  for (const s of shifts) {
    const site_id = s.timesheet_per === 'site' ? Number(s.site_id) : null;
    const from = period?.from ?? weekOf(s.start_at, timeZone);
    const to = period?.to ?? addDaysToDate(from, 6);
    const kind = period?.kind ?? 'weekly';
    const key = keyOf({ client_id: Number(s.client_id), site_id, from, to, kind });
    const g = groups.get(key) ?? { key, client_id: Number(s.client_id), site_id, from, to, kind, shifts: [] };
    g.shifts.push(s);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** A timesheet already there for a group's client (or site) and period, in any state. */
export interface ExistingTimesheet {
  id: number;
  client_id: number;
  site_id: number | null;
  period_start: string;
  period_end: string;
  kind: string;
  status: string;
}

/**
 * Where each group's shifts go (issue 29.10: one timesheet per client-week, and its supplements): onto the group's
 * timesheet that still takes lines (a draft first, else the earliest disputed or amended one, which the agency is
 * correcting), or onto a new draft; a new draft for a week whose timesheets were all sent (awaiting signature, signed
 * or locked) supplements the first of them, so the week is never split into timesheets that say nothing of each other.
 */
export function placeGroups(
  groups: ShiftGroup<ShiftToPlace>[],
  existing: ExistingTimesheet[],
): { timesheet_id: number | null; supplement_of: number | null }[] {
  const byId = [...existing].sort((a, b) => a.id - b.id);
  const keyed = (t: ExistingTimesheet) =>
    keyOf({
      client_id: Number(t.client_id),
      site_id: t.site_id == null ? null : Number(t.site_id),
      from: t.period_start,
      to: t.period_end,
      kind: t.kind,
    });
  return groups.map((g) => {
    const same = byId.filter((t) => keyed(t) === g.key);
    const joins = same.find((t) => t.status === 'draft') ?? same.find((t) => AMENDABLE_STATES.includes(t.status));
    if (joins) return { timesheet_id: Number(joins.id), supplement_of: null };
    return { timesheet_id: null, supplement_of: same.length ? Number(same[0].id) : null };
  });
}
