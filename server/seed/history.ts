// The demo agency's year behind the current weeks (issue 34): the shifts of the 48 weeks before the demo's own four
// weeks of timesheets, worked, left unfilled or cancelled, and their timesheets, so that every chart and report has a
// shape: winter busier than summer, a client whose first card began four months ago ramping up, one client whose fill
// rate slips over the last six months. Written through the engine as the agency would have, in sets (createMany, the
// set-based transitions), each step at the time it happened. Seeded after the areas (but those whose demo data covers
// it: the invoices bill it month by month, server/seed/invoices.ts) and from a random source of its own, so the demo's
// current weeks are exactly what they were without it. Not paid (the demo's pay runs are of chosen weeks and staff).
import type { Queryable } from '../db/index.js';
import type { SeedContext } from './context.js';
import type { EngineContext, EnginePrincipal } from '../engine/context.js';
import { systemPrincipal } from '../engine/handle.js';
import { runCollectionAction } from '../engine/actions.js';
import { datedStory } from './timesheets.js';
import {
  addDaysToDate,
  agencyToday,
  dayOfWeek,
  daysBetween,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime.js';

/** Weeks of history before the demo's own four weeks of timesheets. */
export const HISTORY_WEEKS = 48;

/** Its own fixed seed: the history never draws from (and so never changes) the demo's random source. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Demand by month of the year (January first): winter's flu and holiday cover, a quieter summer. */
const SEASON = [1.35, 1.25, 1.05, 0.95, 0.85, 0.75, 0.7, 0.75, 0.9, 1.0, 1.15, 1.4];

interface Plan {
  date: string;
  clientId: number;
  siteId: number;
  roleId: number;
  template: { id: number; start_time: string; end_time: string; break_minutes: number };
  fate: 'worked' | 'unfilled' | 'cancelled';
}

/** The history's days as of `now`: the weeks before the demo's own timesheets, which start four Mondays back. */
export function historyPeriod(timeZone: string, now = new Date()) {
  const until = addDaysToDate(startOfWeekMonday(agencyToday(timeZone, now)), -28);
  return { from: addDaysToDate(until, -7 * HISTORY_WEEKS), until };
}

export async function seedHistory(db: Queryable, ctx: SeedContext) {
  const registry = ctx.engine;
  if (!ctx.history || !registry.has('shifts') || !registry.has('timesheets')) return;
  const m = ctx.merchantId;
  const tz = ctx.timeZone;
  const rand = random(20251201);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const { from, until: firstOwn } = ctx.history;
  const admin: EnginePrincipal = { ...systemPrincipal(m), userId: ctx.adminId, name: ctx.adminName };
  const story = await datedStory(db, m, tz, registry);
  /** A step of the story at `when`, as the agency's admin: what it notifies or e-mails is dated then. */
  const step = <T>(when: Date, fn: (c: EngineContext) => Promise<T>) => story.step(admin, when, fn);
  const at = (date: string, time: string) => zonedDateTimeToInstant(date, time, tz);

  // What a shift can be priced by on a day: each client's cards (by role) and when they held.
  const cards = await db.query<{ client_id: number; job_role_id: number; from: string; to: string | null }>(
    `select client_id, job_role_id, effective_from::text as "from", effective_to::text as "to" from rate_cards
      where merchant_id = $1 and site_id is null and client_id = any($2::int[]) and deleted_at is null`,
    [m, ctx.clientIds],
  );
  const sites = await db.query<{ id: number; client_id: number }>(
    `select id, client_id from sites where merchant_id = $1 and client_id = any($2::int[]) and status = 'active'
        and deleted_at is null order by id`,
    [m, ctx.clientIds],
  );
  const templates = await db.query<Plan['template']>(
    `select id, start_time::text as start_time, end_time::text as end_time, break_minutes from shift_templates
      where merchant_id = $1 and not sleep_in order by id`,
    [m],
  );
  // The roles the demo's shifts are for, and the staff who work them.
  const roles = (
    await db.query<{ job_role_id: number }>(
      `select job_role_id from shifts where merchant_id = $1 and deleted_at is null group by job_role_id
        order by count(*) desc, job_role_id limit 4`,
      [m],
    )
  ).map((r) => Number(r.job_role_id));
  const staff = await db.query<{ id: number; job_role_id: number }>(
    `select id, job_role_id from candidates where merchant_id = $1 and status = 'approved' and activated
        and deleted_at is null and job_role_id = any($2::int[]) order by id`,
    [m, roles],
  );
  if (!sites.length || !templates.length || !roles.length || !staff.length) return;
  const active = ctx.clientIds.filter((id) => sites.some((s) => s.client_id === id));
  const priced = (clientId: number, roleId: number, date: string) =>
    cards.some(
      (c) =>
        Number(c.client_id) === clientId &&
        Number(c.job_role_id) === roleId &&
        c.from <= date &&
        (c.to === null || date < c.to),
    );
  // The story's clients: the newest card's client is new (its work ramps up from its first card), the panel's second
  // client's fill rate slips over the last six months.
  const cardFrom = (id: number) =>
    cards
      .filter((c) => Number(c.client_id) === id)
      .map((c) => c.from)
      .sort()[0];
  const longStanding = active.filter((id) => id !== ctx.clientIds[0] && cardFrom(id) <= from);
  const newClient = active.filter((id) => id !== ctx.clientIds[0]).find((id) => cardFrom(id) > from) ?? null;
  const slipping = longStanding[0] ?? null;

  const plans: Plan[] = [];
  for (let date = from; date < firstOwn; date = addDaysToDate(date, 1)) {
    const season = SEASON[Number(date.slice(5, 7)) - 1];
    const weekend = dayOfWeek(date) >= 6 ? 0.8 : 1;
    const perDay = Math.round((2.2 + rand() * 2.6) * season * weekend);
    for (let i = 0; i < perDay; i++) {
      const roleId = pick(roles);
      const open = active.filter((id) => priced(id, roleId, date));
      if (open.length === 0) continue;
      // The new client's share grows week by week from its first card; the panel's client has the day's first
      // shift, the slipping client its second; the others share the rest.
      const sinceNew = newClient !== null && open.includes(newClient) ? daysBetween(cardFrom(newClient), date) : -1;
      const clientId =
        sinceNew >= 0 && rand() < Math.min(0.35, 0.04 + sinceNew / 300)
          ? newClient!
          : i === 0 && open.includes(ctx.clientIds[0])
            ? ctx.clientIds[0]
            : i === 1 && slipping !== null && open.includes(slipping)
              ? slipping
              : pick(open);
      const site = pick(sites.filter((s) => s.client_id === clientId));
      // Filled about 92% of the time; the slipping client from 95% down to about 55% over the last 26 weeks.
      const weeksToEnd = daysBetween(date, firstOwn) / 7;
      const fill = clientId === slipping ? (weeksToEnd > 26 ? 0.95 : 0.55 + (0.4 * weeksToEnd) / 26) : 0.92;
      const roll = rand();
      plans.push({
        date,
        clientId,
        siteId: site.id,
        roleId,
        template: pick(templates),
        fate: roll < 0.04 ? 'cancelled' : roll < 0.04 + fill * 0.96 ? 'worked' : 'unfilled',
      });
    }
  }

  // Staff booked one shift a day at most, a day off after a night, four shifts a week at most, never beside a shift
  // they already have (the demo's nights across the clocks and the demo staff member's own weeks).
  const busy = new Map<number, Set<string>>();
  const mark = (id: number, date: string) => {
    if (!busy.has(id)) busy.set(id, new Set());
    busy.get(id)!.add(date);
  };
  for (const s of await db.query<{ candidate_id: number; d: string }>(
    `select candidate_id, (start_at at time zone $4)::date::text as d from shifts
      where merchant_id = $1 and candidate_id is not null and start_at >= $2::date - 2 and start_at < $3::date + 2`,
    [m, from, firstOwn, tz],
  )) {
    for (const k of [-1, 0, 1]) mark(Number(s.candidate_id), addDaysToDate(s.d, k));
  }
  const weekCount = new Map<string, number>();
  const rows: Record<string, unknown>[] = [];
  const fates: Plan['fate'][] = [];
  for (const p of plans) {
    let candidate: number | null = null;
    if (p.fate !== 'unfilled') {
      const week = startOfWeekMonday(p.date);
      const pool = staff.filter(
        (s) =>
          Number(s.job_role_id) === p.roleId &&
          !busy.get(s.id)?.has(p.date) &&
          (weekCount.get(`${s.id}|${week}`) ?? 0) < 4,
      );
      if (pool.length === 0) continue;
      candidate = pick(pool).id;
      const night = p.template.end_time <= p.template.start_time;
      for (const k of night ? [0, 1] : [0]) mark(candidate, addDaysToDate(p.date, k));
      weekCount.set(`${candidate}|${week}`, (weekCount.get(`${candidate}|${week}`) ?? 0) + 1);
    }
    const start = at(p.date, p.template.start_time.slice(0, 5));
    const endDate = p.template.end_time <= p.template.start_time ? addDaysToDate(p.date, 1) : p.date;
    rows.push({
      client_id: p.clientId,
      site_id: p.siteId,
      job_role_id: p.roleId,
      template_id: p.template.id,
      start_at: start.toISOString(),
      end_at: at(endDate, p.template.end_time.slice(0, 5)).toISOString(),
      break_minutes: p.template.break_minutes,
      sleep_in: false,
      status: candidate === null ? 'open' : 'assigned',
      candidate_id: candidate,
    });
    fates.push(p.fate);
  }

  // Put on the schedule a fortnight ahead, four weeks at a time.
  const ids: number[] = [];
  for (let i = 0; i < rows.length;) {
    const first = String(rows[i].start_at);
    const until = addDaysToDate(agencyToday(tz, new Date(first)), 28);
    let j = i;
    while (j < rows.length && agencyToday(tz, new Date(String(rows[j].start_at))) < until) j++;
    const made = await step(new Date(Date.parse(first) - 14 * 86_400_000), (c) =>
      c.engine.createMany('shifts', rows.slice(i, j), { reason: 'Booked from the home’s monthly rota' }),
    );
    ids.push(...made.map((r) => Number(r.id)));
    i = j;
  }
  const byFate = (fate: Plan['fate']) => ids.filter((_, i) => fates[i] === fate);
  // Cancelled by the client three days before (no late charge), and those not yet cancelled worked and closed.
  for (const id of byFate('cancelled')) {
    const row = rows[ids.indexOf(id)];
    await step(new Date(Date.parse(String(row.start_at)) - 3 * 86_400_000), (c) =>
      c.engine.act('shifts', id, 'cancel', { reason: 'Covered by the home’s own staff.', requested_by: 'client' }),
    );
  }

  // Each week closed and its timesheets generated the Monday after, their lines verified from the signed paper sheets
  // two days later and the timesheets sent. Not locked: locking keeps each timesheet's PDF, too slow for a year of them
  // at every first start (docs/decisions.md); the invoices bill the verified lines all the same.
  // About one booking in seventy the staff member did not turn up: recorded as a no-show two hours into the shift.
  const noShows = new Set(byFate('worked').filter((_, i) => i % 70 === 35));
  for (const id of noShows) {
    const row = rows[ids.indexOf(id)];
    await step(new Date(Date.parse(String(row.start_at)) + 2 * 3_600_000), (c) =>
      c.engine.act('shifts', id, 'cancel', {
        reason: 'Did not arrive and did not answer the phone; the home covered the shift.',
        requested_by: 'no_show',
      }),
    );
  }
  const worked = byFate('worked').filter((id) => !noShows.has(id));
  for (let week = from; week < firstOwn; week = addDaysToDate(week, 7)) {
    const next = addDaysToDate(week, 7);
    const monday = at(next, '09:00');
    const inWeek = worked.filter((id) => {
      const d = agencyToday(tz, new Date(String(rows[ids.indexOf(id)].start_at)));
      return d >= week && d < next;
    });
    if (inWeek.length) await step(monday, (c) => c.engine.act('shifts', inWeek, 'close'));
    const made = (await step(monday, (c) =>
      runCollectionAction(c, registry.get('timesheets')!, registry.get('timesheets')!.actions.get('generate')!, {
        week_start: week,
      }),
    )) as { timesheets: number[]; line_ids: number[] };
    if (!made.line_ids?.length) continue;
    const checked = at(addDaysToDate(next, 2), '11:00');
    await step(checked, (c) =>
      c.engine.act('timesheet_lines', made.line_ids, 'verify_line', {
        reason: 'The home’s signed paper timesheet, checked by the agency.',
      }),
    );
    // Sent with every line verified: the timesheet is verified at once, nothing left to sign or e-mail.
    await step(checked, (c) => c.engine.act('timesheets', made.timesheets, 'submit'));
  }
  // What the year notified and e-mailed, dated when it happened.
  await story.redated([]);
}
