import type { FastifyInstance } from 'fastify';
import type { Row } from '../db/index.js';
import { badInput, HttpError } from '../http.js';
import { RowsRefused, saveMany } from '../engine/createMany.js';
import { getRecord } from '../engine/query.js';
import { route } from './route.js';
import { rolesOf } from '../../core/resources/access.js';
import { Params, readable, scopeWhere, type Compiled } from '../engine/compile.js';
import type { EngineContext } from '../engine/context.js';
import {
  availabilityFit,
  assessBooking,
  blockingChecks,
  overridableChecks,
  hoursStartingBetween,
  localDates,
  rankSuggestions,
  weekStartInstant,
} from '../../core/domain/booking/checks.js';
import { bulkRequestErrors, MAX_BULK_SHIFTS, shiftInstants } from '../../core/domain/shifts/times.js';
import {
  addDaysToDate,
  formatDisplayDate,
  isPlainDate,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime.js';
import { assessShift, cancellationCharge, loadBookingFacts, requestedByOf, shiftTimesOf } from '../services/booking.js';
import { isStrictInstant } from '../engine/input.js';
import {
  BulkCreated,
  bulkShiftsBody,
  Cancellation,
  CancellationQuery,
  CheckQuery,
  Checks,
  Schedule,
  ScheduleQuery,
  Suggestions,
  SuggestionsQuery,
  type BulkShifts,
  type ScheduleQuery as ScheduleFilters,
} from '../../core/contracts/shifts.js';
import { IdParams } from '../../core/contracts/common.js';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Longest window the schedule answers in one call: a month view with its overflow weeks. */
const MAX_WINDOW_DAYS = 62;
/** Most shifts one schedule answer carries. */
const MAX_SCHEDULE_ROWS = 5000;

/**
 * The shift routes beyond the engine's: bulk create, what a booking would say (checks, suggestions), what a
 * cancellation would charge, and the schedule's window of shifts with every name in one query.
 */
export async function shiftsRoutes(app: FastifyInstance) {
  const shifts = (): Compiled => app.engine.get('shifts')!;

  route(app, {
    method: 'POST',
    url: '/api/shifts/bulk',
    may: { shifts: 'create' },
    schema: {
      tags: ['Shifts'],
      summary: 'Create open shifts for several dates at once (dates × staff needed), all or nothing',
      description: `Times are the agency's wall clock: a template's, or start_time and end_time ('HH:mm'); a shift ending at or before its start ends the next day. At most ${MAX_BULK_SHIFTS} shifts per call. Each shift follows the rules of POST /api/shifts (a client user's must start in the future); a refusal names the request's field when every shift has the problem, otherwise each refused date as dates[k], its place in the list.`,
      body: bulkShiftsBody(MAX_BULK_SHIFTS),
      response: { 201: BulkCreated },
    },
    handler: async ({ req, reply, transaction }) => {
      const data = await transaction((ctx) => createBulk(ctx, shifts(), req.body));
      return reply.status(201).send({ data, count: data.length });
    },
  });

  // A route about one shift: the caller's permission, then the shift in their scope (404).
  route(app, {
    method: 'GET',
    url: '/api/shifts/:id/cancellation',
    may: { shifts: 'cancel' },
    record: 'shifts',
    schema: {
      tags: ['Shifts'],
      summary:
        'What cancelling this shift now would charge the client (late cancellation), or why it cannot be cancelled',
      description:
        'requested_by: who asks (client, agency, worker); a client user always asks for the client. Only the client’s own late cancellation of a booked shift is charged. allowed false with a message when it cannot be cancelled (ended, or started for a client user).',
      params: IdParams,
      querystring: CancellationQuery,
      response: { 200: Cancellation },
    },
    handler: async ({ req, ctx }) => {
      // Every stored column, as the rules read it (the caller's answer says only what they may read).
      const shift = await getRecord(ctx, shifts(), req.params.id, { all: true });
      const at = ctx.now.toISOString();
      const requestedBy = requestedByOf(ctx, { requested_by: req.query.requested_by ?? null });
      const { allowed, reason, late } = await cancellationCharge(
        app.db,
        ctx.principal.merchantId,
        shift,
        at,
        requestedBy,
        ctx.principal.loginType === 'client',
      );
      return {
        data: {
          allowed,
          requested_by: requestedBy,
          late: !!late,
          hours: late?.hours ?? 0,
          charge: late?.charge ?? 0,
          at,
          ...(reason ? { message: reason } : {}),
        },
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/shifts/:id/check',
    may: { shifts: 'assign' },
    record: 'shifts',
    schema: {
      tags: ['Shifts'],
      summary:
        'The booking checks of a staff member on this shift (hard, soft, information, AWR count), before assigning',
      params: IdParams,
      querystring: CheckQuery,
      response: { 200: Checks },
    },
    handler: async ({ req, ctx }) => {
      const shift = await getRecord(ctx, shifts(), req.params.id, { all: true });
      const { hard, soft, info, awr, name } = await assessShift(
        app.db,
        ctx.principal.merchantId,
        ctx.timeZone,
        shiftTimesOf(shift),
        req.query.candidate_id,
        ctx.today,
      );
      return {
        data: {
          candidate_id: req.query.candidate_id,
          name,
          passes: blockingChecks({ hard }).length === 0,
          hard,
          soft,
          info,
          awr,
        },
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/shifts/:id/suggestions',
    may: { shifts: 'assign' },
    record: 'shifts',
    schema: {
      tags: ['Shifts'],
      summary:
        'Staff who pass the hard checks for this shift, best first: available, preferred, fewest hours this week',
      params: IdParams,
      querystring: SuggestionsQuery,
      response: { 200: Suggestions },
    },
    handler: async ({ req, ctx }) => {
      const shift = await getRecord(ctx, shifts(), req.params.id, { all: true });
      return { data: await suggestions(ctx, shift, req.query.limit ?? 20) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/schedule',
    may: { shifts: 'list' },
    // The agency's and its clients' schedule: a staff member's shifts are on their own page.
    roles: rolesOf('agency', 'client'),
    schema: {
      tags: ['Shifts'],
      summary: 'The shifts in a window (the schedule), with client, site, job role and staff names',
      description: `from and to: dates (yyyy-MM-dd, the agency's midnight; to is exclusive) or instants; default this week; at most ${MAX_WINDOW_DAYS} days. Filters: client_id, site_id, job_role_id, candidate_id, status. Deleted shifts are left out. Client users see their own client's shifts, without pay or margin.`,
      querystring: ScheduleQuery,
      // The database writes this answer's JSON and the route sends it as it is (never re-serialised): this
      // documents it, and types the screens that read it.
      response: { 200: Schedule },
    },
    handler: async ({ req, reply, ctx }) => {
      // The JSON the database wrote, typed by the schema it was written to; a JSON string is sent as it is.
      const json = (await schedule(ctx, shifts(), req.query)) as unknown as Schedule;
      return reply.type('application/json; charset=utf-8').send(json);
    },
  });
}

/** A bulk request's fields that every shift it makes takes as they are (the rest make each shift's times). */
const SHARED = new Set(['client_id', 'site_id', 'job_role_id', 'template_id', 'break_minutes', 'sleep_in', 'notes']);

/**
 * Creates dates × staff needed open shifts through the engine's createMany: the rules of a single create
 * (validation, the caller's scope and references, the site within the client, a client user's requests in the
 * future and within their daily quota, pricing, the audit trail), all or nothing. A refusal names the request's
 * field when every shift has the same problem, and otherwise each date refused as `dates[k]` (its place in the
 * request's list).
 */
async function createBulk(ctx: EngineContext, c: Compiled, body: BulkShifts): Promise<Row[]> {
  const errors: Record<string, string> = {};
  // Each date once, by its first place in the request; created in date order.
  const place = new Map<string, number>();
  body.dates.forEach((d, k) => place.has(d) || place.set(d, k));
  const dates = [...place.keys()].sort();
  for (const d of dates)
    if (!isPlainDate(d)) errors[`dates[${place.get(d)}]`] = `Dates are written yyyy-MM-dd; ${d} is not one.`;
  const staffNeeded = body.staff_needed ?? 1;
  if (dates.length * staffNeeded > MAX_BULK_SHIFTS)
    errors.staff_needed = `At most ${MAX_BULK_SHIFTS} shifts at once (${dates.length} dates × ${staffNeeded} staff is ${dates.length * staffNeeded}).`;
  if (body.template_id == null) {
    if (!body.start_time || !HHMM.test(body.start_time))
      errors.start_time = 'Give the start time as HH:mm, or choose a template.';
    if (!body.end_time || !HHMM.test(body.end_time))
      errors.end_time = 'Give the end time as HH:mm, or choose a template.';
  }
  let template: Row | undefined;
  if (body.template_id != null) {
    // Read as the caller reads templates: one they cannot see is not there.
    const templates = c.lookup('shift_templates');
    const q = new Params();
    [template] = await ctx.db.query(
      `select start_time, end_time, break_minutes, sleep_in from ${templates.table} where ${scopeWhere(templates, ctx.principal, q.bind)} and id = ${q.bind(body.template_id)}`,
      q.values,
    );
    if (!template) errors.template_id = 'Choose a shift template.';
  }
  throwWithDates(errors);

  const startTime = body.start_time ?? template!.start_time;
  const endTime = body.end_time ?? template!.end_time;
  const rows: Record<string, unknown>[] = [];
  const dateOf: string[] = [];
  for (const date of dates) {
    const { start, end } = shiftInstants(date, startTime, endTime, ctx.timeZone);
    for (let i = 0; i < staffNeeded; i++) {
      dateOf.push(date);
      rows.push({
        client_id: body.client_id,
        site_id: body.site_id,
        job_role_id: body.job_role_id,
        template_id: body.template_id ?? null,
        start_at: start,
        end_at: end,
        break_minutes: body.break_minutes !== undefined ? body.break_minutes : (template?.break_minutes ?? null),
        sleep_in: body.sleep_in ?? !!template?.sleep_in,
        notes: body.notes ?? null,
      });
    }
  }
  let created: Row[];
  try {
    created = await saveMany(ctx, c, rows, { input: { bulk: { dates, staff_needed: staffNeeded } } });
  } catch (e) {
    if (!(e instanceof RowsRefused)) throw e;
    const shifts = dateOf.map((date) => ({ date, place: place.get(date)! }));
    Object.assign(errors, bulkRequestErrors(e.rows, shifts, SHARED, formatDisplayDate));
    throwWithDates(errors, e.status);
    throw e;
  }
  return created.sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at) || a.id - b.id);
}

/**
 * Refuses a bulk request with its field errors; the dates' own (`dates[k]`) are also summed up on `dates`, where
 * the form shows its list of dates.
 */
function throwWithDates(errors: Record<string, string>, status = 422) {
  const entries = Object.entries(errors);
  if (entries.length === 0) return;
  const first = entries.find(([k]) => k.startsWith('dates['));
  if (first) errors.dates ??= first[1];
  const [, message] = first ?? entries[0];
  throw new HttpError(
    status,
    `Nothing was created: ${message}${entries.length > 1 ? ' (and more: see each field)' : ''}`,
    errors,
  );
}

/**
 * Suggested staff for a shift: the pool in one set-based query (active approved staff with the shift's job role,
 * compliant on its last date, not restricted at the client or site, not booked at the time), ranked by the
 * domain (available, preferred, fewest hours this week), and the soft checks of those listed.
 */
async function suggestions(ctx: EngineContext, shiftRow: Row, limit: number) {
  const merchantId = ctx.principal.merchantId;
  const shift = shiftTimesOf(shiftRow);
  const dates = localDates(shift, ctx.timeZone);
  const monday = startOfWeekMonday(dates[0]);
  const weekFrom = weekStartInstant(monday, ctx.timeZone);
  const weekTo = weekStartInstant(addDaysToDate(monday, 7), ctx.timeZone);
  const pool = await ctx.db.query(
    `select c.id, c.first_name || ' ' || c.last_name as name, jr.name as job_role,
            coalesce($4 = any(p.preferred_client_ids) or $5 = any(p.preferred_site_ids), false) as preferred,
            coalesce($4 = any(p.avoided_client_ids) or $5 = any(p.avoided_site_ids), false) as avoided,
            (select coalesce(json_agg(json_build_object('date', a.date, 'status', a.status)), '[]'::json)
               from availability a where a.merchant_id = $1 and a.candidate_id = c.id and a.date = any($6::date[])) as availability,
            (select coalesce(json_agg(json_build_object('start', o.start_at, 'end', o.end_at, 'paid_minutes', o.paid_minutes)), '[]'::json)
               from shifts o where o.merchant_id = $1 and o.candidate_id = c.id and o.status in ('assigned', 'closed') and o.deleted_at is null
                and o.start_at >= $9 and o.start_at < $10) as week_shifts
       from candidates c
       join job_roles jr on jr.merchant_id = c.merchant_id and jr.id = c.job_role_id
       left join candidate_preferences p on p.merchant_id = c.merchant_id and p.candidate_id = c.id
      where c.merchant_id = $1 and c.job_role_id = $2 and c.status = 'approved' and c.activated and c.deleted_at is null
        and c.compliance_complete and (c.compliance_valid_until is null or c.compliance_valid_until >= $3::date)
        and not exists (select 1 from candidate_restrictions r where r.merchant_id = $1 and r.candidate_id = c.id and r.client_id = $4 and (r.site_id is null or r.site_id = $5))
        and not exists (select 1 from shifts o where o.merchant_id = $1 and o.candidate_id = c.id and o.status in ('assigned', 'closed') and o.deleted_at is null
                          and o.start_at < $8 and o.start_at > $7::timestamptz - interval '24 hours' and o.end_at > $7 and o.id <> $11)`,
    [
      merchantId,
      shift.job_role_id,
      dates[dates.length - 1],
      shift.client_id,
      shift.site_id,
      dates,
      shift.start,
      shift.end,
      new Date(weekFrom).toISOString(),
      new Date(weekTo).toISOString(),
      shift.id,
    ],
  );
  const fits = new Map(pool.map((r) => [Number(r.id), availabilityFit(shift, r.availability, ctx.timeZone)]));
  const ranked = rankSuggestions(
    pool.map((r) => ({
      id: Number(r.id),
      name: r.name as string,
      job_role: r.job_role as string,
      passesHard: true,
      available: fits.get(Number(r.id)) === 'fits',
      preferred: !!r.preferred,
      avoided: !!r.avoided,
      hoursThisWeek: hoursStartingBetween(r.week_shifts, weekFrom, weekTo),
    })),
  ).slice(0, limit);
  // The listed few are assessed in full (one statement for all of them): their soft checks, and a last word on the hard
  // ones.
  const facts = await loadBookingFacts(
    ctx.db,
    merchantId,
    ctx.timeZone,
    shift,
    ranked.map((r) => r.id),
    ctx.today,
  );
  return ranked.flatMap((r) => {
    const f = facts.get(r.id);
    const a = f ? assessBooking(f) : null;
    if (!a || blockingChecks(a).length) return [];
    // `availability` says why someone is not available: nothing entered ('not_set'), 'unavailable', or other hours
    // ('mismatch').
    return [
      {
        candidate_id: r.id,
        name: r.name,
        job_role: r.job_role,
        available: r.available,
        availability: fits.get(r.id)!,
        preferred: r.preferred,
        avoided: r.avoided,
        hours_this_week: Math.round(r.hoursThisWeek * 100) / 100,
        soft: overridableChecks(a).map(({ code, message }) => ({ code, message })),
        awr: a.awr,
      },
    ];
  });
}

/** A window bound: a date is the agency's midnight; an instant is taken as it is. */
function bound(value: string | undefined, fallback: string, field: string, timeZone: string): number {
  const v = value ?? fallback;
  if (isPlainDate(v)) return zonedDateTimeToInstant(v, '00:00', timeZone).getTime();
  const t = isStrictInstant(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw badInput({ [field]: 'Give a date (yyyy-MM-dd) or a date and time.' });
  return t;
}

async function schedule(ctx: EngineContext, c: Compiled, query: ScheduleFilters) {
  const p = ctx.principal;
  const monday = startOfWeekMonday(ctx.today);
  const from = bound(query.from, monday, 'from', ctx.timeZone);
  const to = bound(query.to, addDaysToDate(monday, 7), 'to', ctx.timeZone);
  if (to <= from) throw badInput({ to: 'The window must end after it starts.' });
  if (to - from > MAX_WINDOW_DAYS * 24 * 3600_000 + 3600_000)
    throw badInput({ to: `Ask for at most ${MAX_WINDOW_DAYS} days at once.` });
  const q = new Params();
  // The rows a list of shifts would show this principal (the engine's row scope), less the deleted ones.
  const where = [scopeWhere(c, p, q.bind), 'deleted_at is null'];
  // Shifts last at most 24 hours: one starting a day before the window is the earliest that can reach into it.
  where.push(
    `start_at < ${q.bind(new Date(to).toISOString())}`,
    `start_at > ${q.bind(new Date(from - 24 * 3600_000).toISOString())}`,
    `end_at > ${q.bind(new Date(from).toISOString())}`,
  );
  for (const k of ['client_id', 'site_id', 'job_role_id', 'candidate_id'] as const)
    if (query[k] !== undefined) where.push(`${k} = ${q.bind(Number(query[k]))}`);
  if (query.status) where.push(`status = ${q.bind(query.status)}`);
  // The shift's money as the read policy gives it to this principal: a client user never gets pay or margin.
  const money = ['charge', 'pay', 'margin'].filter((f) => readable(p, c.byField.get(f)!));
  const utc = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  // The window's shifts first (the start_at index), then their names; the answer's JSON is written by the
  // database in the same statement (two thousand rows are not parsed into objects only to be written out again).
  const [{ data, n }] = await ctx.db.query<{ data: string; n: number }>(
    `with s as materialized (
       select id, merchant_id, start_at, end_at, status, client_id, site_id, job_role_id, candidate_id, sleep_in, requested_by_client, charge, pay, margin, version
         from shifts where ${where.join(' and ')} order by start_at, id limit ${MAX_SCHEDULE_ROWS + 1}),
     r as (
       select s.id, ${utc('s.start_at')} as start_at, ${utc('s.end_at')} as end_at, s.status, s.client_id, cl.name as client_name, s.site_id, si.name as site_name,
              s.job_role_id, jr.name as job_role_name, s.candidate_id, c.first_name || ' ' || c.last_name as candidate_name,
              s.sleep_in, s.requested_by_client, ${money.map((f) => `s.${f}, `).join('')}s.version
         -- By primary key: the shift's composite foreign keys already hold each of these to its agency.
         from s
         join clients cl on cl.id = s.client_id
         join sites si on si.id = s.site_id
         join job_roles jr on jr.id = s.job_role_id
         left join candidates c on c.id = s.candidate_id)
     select coalesce(json_agg(r order by r.start_at, r.id), '[]')::text as data, count(*)::int as n from r`,
    q.values,
  );
  if (n > MAX_SCHEDULE_ROWS)
    throw new HttpError(400, `More than ${MAX_SCHEDULE_ROWS} shifts in this window: narrow it or filter it.`, {
      to: 'Narrow the window',
    });
  return `{"data":${data},"from":${JSON.stringify(new Date(from).toISOString())},"to":${JSON.stringify(new Date(to).toISOString())}}`;
}
