import type { FastifyInstance } from 'fastify';
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import { listRecords } from '../engine/query.js';
import { saveRecord } from '../engine/write.js';
import type { Compiled } from '../engine/compile.js';
import { copyWeek, type AvailabilityEntry } from '../../core/domain/availability/availability.js';
import {
  addDaysToDate,
  dayOfWeek,
  isPlainDate,
  startOfWeekMonday,
  weekDates,
} from '../../core/domain/time/agencyTime.js';
import { Copied, CopyWeek, Week } from '../../core/contracts/availability.js';
import { StringQuery } from '../../core/contracts/common.js';
import { route } from './route.js';

/** What the week grid may pass on to the staff list: its paging, filters and search, nothing else. */
const STAFF_QUERY_KEYS = ['page', 'per_page', 'job_role_id', 'status', 'activated', 'q', 'sort', 'order'];

/** A week start from the query or body: a real date that is a Monday; 400 naming the field otherwise. */
function weekStartOf(value: unknown, today: string): string {
  if (value === undefined || value === '') return startOfWeekMonday(today);
  if (!isPlainDate(value))
    throw new HttpError(400, 'week_start must be a date (yyyy-MM-dd).', { week_start: 'Must be a date (yyyy-MM-dd)' });
  if (dayOfWeek(value) !== 1)
    throw new HttpError(400, `week_start must be a Monday; ${value} is not one.`, { week_start: 'Must be a Monday' });
  return value;
}

/**
 * The availability week grid (/staff/availability): the staff list as the engine serves it (its filters, row
 * scope and sort), each staff member with their seven days; and copying a week to the next. Single days are
 * written through the engine's own routes (/api/availability), so this adds no second write path for a day.
 */
export async function availabilityRoutes(app: FastifyInstance) {
  const candidates = (): Compiled => app.engine.get('candidates')!;
  const availability = (): Compiled => app.engine.get('availability')!;

  route(app, {
    method: 'GET',
    url: '/api/staff_availability',
    may: { candidates: 'list', availability: 'list' },
    schema: {
      tags: ['Availability'],
      summary: 'A week of availability, one row per staff member (the week grid)',
      description:
        "week_start: a Monday (default: this week in the agency's time zone). Staff filters: job_role_id, status, activated, q; page, per_page (at most 100).",
      querystring: StringQuery,
      response: { 200: Week },
    },
    handler: async ({ req, ctx }) => {
      const query = req.query;
      const weekStart = weekStartOf(query.week_start, ctx.today);
      const dates = weekDates(weekStart);
      const staffQuery = Object.fromEntries(Object.entries(query).filter(([k]) => STAFF_QUERY_KEYS.includes(k)));
      const staff = await listRecords(ctx, candidates(), staffQuery);
      const ids = staff.data.map((s) => Number(s.id));
      // One query for the whole page: the days of every listed staff member in the week.
      const entries = ids.length
        ? await app.db.query<{ id: number; candidate_id: number; date: string; status: string; version: number }>(
            `select id, candidate_id, to_char(date, 'YYYY-MM-DD') as date, status, version from availability
              where merchant_id = $1 and candidate_id = any($2::int[]) and date between $3::date and $4::date`,
            [ctx.principal.merchantId, ids, dates[0], dates[6]],
          )
        : [];
      const byStaff = new Map<number, Record<string, { id: number; status: string; version: number } | null>>(
        ids.map((id) => [id, Object.fromEntries(dates.map((d) => [d, null]))]),
      );
      for (const e of entries)
        byStaff.get(Number(e.candidate_id))![e.date] = { id: e.id, status: e.status, version: e.version };
      return {
        ...staff,
        data: staff.data.map((s: Row) => ({
          id: s.id,
          first_name: s.first_name,
          last_name: s.last_name,
          job_role_id: s.job_role_id,
          days: byStaff.get(Number(s.id))!,
        })),
        week_start: weekStart,
        dates,
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/staff_availability/copy_week',
    may: { candidates: 'list', availability: ['create', 'edit'] },
    schema: {
      tags: ['Availability'],
      summary: 'Copy a week of availability to the next week',
      description:
        'Sets each day of the following week to the state of the same weekday in this one, for the given staff (default: every staff member with entries that week). Days not set in this week are left as they are.',
      body: CopyWeek,
      response: { 200: Copied },
    },
    handler: async ({ req, ctx, transaction }) => {
      const c = availability();
      const from = weekStartOf(req.body.week_start, ctx.today);
      const to = addDaysToDate(from, 7);
      const only = req.body.candidate_ids;
      const copied = await transaction(async (tctx) => {
        const tx = tctx.db;
        // Only the agency's live staff: another agency's ids or a deleted staff member's simply match nothing.
        const rows = await tx.query<AvailabilityEntry & { version: number; id: number }>(
          `select a.id, a.candidate_id, to_char(a.date, 'YYYY-MM-DD') as date, a.status, a.version
             from availability a join candidates k on k.merchant_id = a.merchant_id and k.id = a.candidate_id and k.deleted_at is null
            where a.merchant_id = $1 and a.date between $2::date and $3::date${only ? ' and a.candidate_id = any($4::int[])' : ''}
            order by a.candidate_id, a.date`,
          only
            ? [ctx.principal.merchantId, from, addDaysToDate(to, 6), only]
            : [ctx.principal.merchantId, from, addDaysToDate(to, 6)],
        );
        const source = rows.filter((r) => r.date < to);
        const existing = new Map(rows.filter((r) => r.date >= to).map((r) => [`${r.candidate_id}:${r.date}`, r]));
        const target = copyWeek(
          source.map((r) => ({ candidate_id: r.candidate_id, date: r.date, status: r.status })),
          from,
          to,
        );
        // Through the engine's write path, one by one: validated, hooked and audited like a click on the grid.
        for (const e of target) {
          const stored = existing.get(`${e.candidate_id}:${e.date}`);
          if (stored) await saveRecord(tctx, c, { status: e.status }, stored.id);
          else await saveRecord(tctx, c, { candidate_id: e.candidate_id, date: e.date, status: e.status });
        }
        return target.length;
      });
      return { copied };
    },
  });
}
