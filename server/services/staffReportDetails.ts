// The staff report's columns about each staff member (issue 34; core/resources/reports.ts staffReport.details):
// compliance on the period's last day (today's for a period not yet over), the highest AWR count among their client
// and job-role assignments with the date equal treatment applies from, the average weekly hours over the 17 weeks to
// the period's end, and the 48-hour opt-out. The SQL loads facts; the rules are the booking check's own functions
// (core/domain/booking/checks.ts) and complianceOn (core/domain/compliance/compliance.ts), not a copy.
import type { EngineContext } from '../engine/context.js';
import { Params, fieldExpression, type Compiled } from '../engine/compile.js';
import type { ReportRow } from '../../core/contracts/reports.js';
import {
  averageWeeklyHours,
  awrQualifyingDate,
  awrWeeks,
  referencePeriod,
  type Interval,
} from '../../core/domain/booking/checks.js';
import { addDaysToDate } from '../../core/domain/time/agencyTime.js';
import { localInstant } from '../../core/domain/time/zoneClock.js';
import { complianceOnDay } from './compliance.js';

/** The shifts a staff member works: booked or worked (what the booking check counts for both rules). */
const WORKED = ['assigned', 'closed'];

interface Assignment {
  client: string;
  jobRole: string;
  weeks: Interval[];
}

/** The detail columns of the staff members `ids` of the caller's agency, as of `asOf` (the period's last day). */
export async function staffReportDetails(
  ctx: EngineContext,
  shifts: Compiled,
  ids: number[],
  asOf: string,
): Promise<Map<number, ReportRow>> {
  const merchantId = ctx.principal.merchantId;
  const tz = ctx.timeZone;
  const candidates = shifts.lookup('candidates');
  const p = new Params();
  const compliance = fieldExpression(candidates, candidates.byField.get('compliance')!, p.bind, ctx.today);
  const people = await ctx.db.query<{ id: number; compliance: string; opted_out: boolean; job_role_id: number | null }>(
    `select id, job_role_id, ${compliance} as compliance,
       exists (select 1 from candidate_preferences p
                where p.merchant_id = candidates.merchant_id and p.candidate_id = candidates.id and p.opted_out_48h) as opted_out
       from candidates where merchant_id = ${p.bind(merchantId)} and id = any(${p.bind(ids)}::int[])`,
    p.values,
  );
  // A period that ended before today: compliance as it stood on its last day, from the documents valid then
  // (docs/decisions.md "Issue 34 — compliance as of a past period"); otherwise today's, the staff list's own.
  const past =
    asOf < ctx.today
      ? await complianceOnDay(
          ctx.db,
          merchantId,
          people.map((x) => ({ id: Number(x.id), job_role_id: x.job_role_id === null ? null : Number(x.job_role_id) })),
          asOf,
          tz,
        )
      : null;
  // The AWR count needs every week worked at a client in a role up to the period's end (a break resets it), and a
  // week's first shift is enough to count it: one row per staff member, client, role and local week.
  const endOfAsOf = new Date(localInstant(addDaysToDate(asOf, 1), '00:00', tz)).toISOString();
  const weeks = await ctx.db.query<{
    candidate_id: number;
    client_id: number;
    job_role_id: number;
    first: string | Date;
    client: string | null;
    job_role: string | null;
  }>(
    `select w.candidate_id, w.client_id, w.job_role_id, w.first, cl.name as client, jr.name as job_role
       from (select s.candidate_id, s.client_id, s.job_role_id, min(s.start_at) as first from shifts s
              where s.merchant_id = $1 and s.candidate_id = any($2::int[]) and s.status = any($3::text[])
                and s.deleted_at is null and s.start_at < $4
              group by s.candidate_id, s.client_id, s.job_role_id, date_trunc('week', s.start_at at time zone $5)) w
       left join clients cl on cl.merchant_id = $1 and cl.id = w.client_id
       left join job_roles jr on jr.merchant_id = $1 and jr.id = w.job_role_id`,
    [merchantId, ids, WORKED, endOfAsOf, tz],
  );
  const { from, to } = referencePeriod(asOf, tz);
  const worked = await ctx.db.query<{ candidate_id: number; start_at: string | Date; end_at: string | Date }>(
    `select candidate_id, start_at, end_at from shifts
      where merchant_id = $1 and candidate_id = any($2::int[]) and status = any($3::text[]) and deleted_at is null
        and start_at >= $4 and start_at < $5`,
    [merchantId, ids, WORKED, new Date(from).toISOString(), new Date(to).toISOString()],
  );

  const assignments = new Map<number, Map<string, Assignment>>();
  for (const w of weeks) {
    const byPair = assignments.get(Number(w.candidate_id)) ?? new Map<string, Assignment>();
    assignments.set(Number(w.candidate_id), byPair);
    const key = `${w.client_id}:${w.job_role_id}`;
    const a = byPair.get(key) ?? {
      client: w.client ?? `Client ${w.client_id}`,
      jobRole: w.job_role ?? `Job role ${w.job_role_id}`,
      weeks: [],
    };
    byPair.set(key, a);
    a.weeks.push({ start: w.first, end: w.first });
  }
  const shiftsOf = new Map<number, Interval[]>();
  for (const s of worked) {
    const list = shiftsOf.get(Number(s.candidate_id)) ?? [];
    shiftsOf.set(Number(s.candidate_id), list);
    list.push({ start: s.start_at, end: s.end_at });
  }

  const out = new Map<number, ReportRow>();
  for (const person of people) {
    const id = Number(person.id);
    const awr = highestAwr([...(assignments.get(id)?.values() ?? [])], asOf, tz);
    out.set(id, {
      compliance: past?.get(id) ?? person.compliance,
      awr_weeks: awr?.weeks ?? 0,
      awr_at: awr ? `${awr.client}, ${awr.jobRole}` : null,
      awr_qualifies_on: awr?.qualifiesOn ?? null,
      // Hours to two decimals, as the report's other hours.
      average_weekly_hours: Math.round(averageWeeklyHours(shiftsOf.get(id) ?? [], asOf, tz) * 100) / 100,
      opted_out_48h: person.opted_out ? 'yes' : 'no',
    });
  }
  return out;
}

/**
 * The assignment (client and job role) with the highest AWR count as of the date; of equal counts, the one whose
 * equal treatment starts (or started) first, then by name. None when no count is above 0 (never worked, or every
 * count reset by a long break).
 */
function highestAwr(assignments: Assignment[], asOf: string, tz: string) {
  return assignments
    .map((a) => ({ ...a, weeks: awrWeeks(a.weeks, asOf, tz).weeks, qualifiesOn: awrQualifyingDate(a.weeks, asOf, tz) }))
    .filter((a) => a.weeks > 0)
    .sort(
      (x, y) =>
        y.weeks - x.weeks ||
        (x.qualifiesOn ?? '').localeCompare(y.qualifiesOn ?? '') ||
        `${x.client}, ${x.jobRole}`.localeCompare(`${y.client}, ${y.jobRole}`),
    )[0];
}
