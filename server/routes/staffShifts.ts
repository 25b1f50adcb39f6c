import type { FastifyInstance } from 'fastify';
import type { Row } from '../db/index.js';
import { HttpError } from '../http.js';
import { route } from './route.js';
import type { EngineContext } from '../engine/context.js';
import { assessShift, priceShifts, shiftTimesOf } from '../services/booking.js';
import { IdParams } from '../../core/contracts/common.js';
import { OpenShiftsAnswer, ShiftRequestBody, ShiftRequestMade } from '../../core/contracts/staff.js';

/** How far ahead the staff page offers open shifts, and at most how many it weighs against the booking checks. */
const AHEAD_DAYS = 28;
const MOST = 40;

const OPEN_SHIFT_COLUMNS = `s.id, s.client_id, s.site_id, s.job_role_id, s.start_at, s.end_at, s.break_minutes, s.sleep_in,
  s.paid_minutes, s.price_lines, s.notes, cl.name as client_name, si.name as site_name, si.address as site_address,
  jr.name as job_role_name`;

/**
 * Open shifts ahead that the database already shows could be theirs (their job role, no restriction at the client
 * or site, no shift of theirs at the same time), soonest first; the booking checks then weigh each one.
 */
async function openShiftsFor(ctx: EngineContext, candidateId: number, shiftId?: number): Promise<Row[]> {
  const p = ctx.principal;
  return ctx.db.query(
    `select ${OPEN_SHIFT_COLUMNS},
       (select r.id from shift_requests r where r.merchant_id = s.merchant_id and r.shift_id = s.id and r.candidate_id = $2
           and r.status = 'pending' and r.deleted_at is null) as request_id
       from shifts s
       join clients cl on cl.merchant_id = s.merchant_id and cl.id = s.client_id
       join sites si on si.merchant_id = s.merchant_id and si.id = s.site_id
       join job_roles jr on jr.merchant_id = s.merchant_id and jr.id = s.job_role_id
       join candidates c on c.merchant_id = s.merchant_id and c.id = $2 and c.job_role_id = s.job_role_id
      where s.merchant_id = $1 and s.status = 'open' and s.deleted_at is null
        and s.start_at > $3 and s.start_at < $4 ${shiftId ? 'and s.id = $6' : ''}
        and not exists (select 1 from candidate_restrictions x where x.merchant_id = s.merchant_id and x.candidate_id = $2
                          and x.client_id = s.client_id and (x.site_id is null or x.site_id = s.site_id))
        and not exists (select 1 from shifts o where o.merchant_id = s.merchant_id and o.candidate_id = $2
                          and o.status in ('assigned', 'closed') and o.deleted_at is null
                          and tstzrange(o.start_at, o.end_at) && tstzrange(s.start_at, s.end_at))
      order by s.start_at, s.id
      limit $5`,
    [
      p.merchantId,
      candidateId,
      ctx.now.toISOString(),
      new Date(ctx.now.getTime() + AHEAD_DAYS * 24 * 3600_000).toISOString(),
      MOST,
      ...(shiftId ? [shiftId] : []),
    ],
  );
}

/**
 * Why this staff member is not offered this shift, in words (none: they could be booked): the hard booking checks
 * that refuse them, and a day they marked unavailable (issue 29.17: a soft check for the agency, who may still book
 * them, but the staff member said they cannot work it, so their page does not offer it).
 */
async function refusals(ctx: EngineContext, row: Row, candidateId: number): Promise<string[]> {
  const a = await assessShift(
    ctx.db,
    ctx.principal.merchantId,
    ctx.timeZone,
    shiftTimesOf(row),
    candidateId,
    ctx.today,
  );
  return [...a.hard, ...a.soft.filter((c) => c.code === 'unavailable')].map((c) => c.message);
}

const own = (ctx: EngineContext) => {
  const id = ctx.principal.candidateId;
  if (!id) throw new HttpError(403, 'Only a staff member can ask for shifts.');
  return id;
};

const answerOf = (r: Row, pay: number | null) => ({
  id: r.id,
  start_at: new Date(r.start_at).toISOString(),
  end_at: new Date(r.end_at).toISOString(),
  break_minutes: r.break_minutes,
  client_name: r.client_name,
  site_name: r.site_name,
  site_address: typeof r.site_address === 'string' ? JSON.parse(r.site_address) : (r.site_address ?? null),
  job_role_name: r.job_role_name,
  notes: r.notes,
  hours: r.paid_minutes == null ? null : Number(r.paid_minutes) / 60,
  pay,
  request_id: r.request_id ?? null,
});

/** The staff member's open shifts and their requests for them (issue 17), on their phone page. */
export async function staffShiftRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/api/staff_open_shifts',
    roles: ['staff'],
    schema: {
      tags: ['Staff'],
      summary: `Open shifts in the next ${AHEAD_DAYS} days that pass every hard booking check for the signed-in staff member`,
      description:
        'Soonest first, at most 40 weighed. request_id is their pending request for the shift, if they have asked.',
      response: { 200: OpenShiftsAnswer },
    },
    handler: async ({ ctx }) => {
      const me = own(ctx);
      const rows = await openShiftsFor(ctx, me);
      const offered = [];
      for (const r of rows) if ((await refusals(ctx, r, me)).length === 0) offered.push(r);
      // Their own pay for each (their own rates where they have them), from one read of the rate cards.
      const prices = await priceShifts(ctx.db, ctx.principal.merchantId, offered.map(shiftTimesOf), me);
      const data = offered.map((r, i) => {
        const p = prices[i];
        return answerOf(r, p instanceof HttpError ? null : p.pay);
      });
      return { data };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/staff_open_shifts/:id/request',
    roles: ['staff'],
    schema: {
      tags: ['Staff'],
      summary: 'Ask the agency to book the signed-in staff member on an open shift',
      description:
        'Refused (409, in words) when the shift is no longer open, is not theirs to take (a hard booking check fails), or they have asked already. The agency is notified and accepts (the shift’s assign) or declines.',
      params: IdParams,
      body: ShiftRequestBody,
      response: { 201: ShiftRequestMade },
    },
    handler: async ({ req, reply, ctx: base, transaction }) => {
      const me = own(base);
      const made = await transaction(async (ctx) => {
        // The shift row is locked, so an assign that books it meanwhile is seen, and requests queue behind it.
        const [locked] = await ctx.db.query(
          'select id from shifts where merchant_id = $1 and id = $2 and deleted_at is null for update',
          [ctx.principal.merchantId, req.params.id],
        );
        const [row] = locked ? await openShiftsFor(ctx, me, req.params.id) : [];
        if (!row)
          throw new HttpError(
            409,
            'This shift is no longer open to you: it may have been booked, cancelled or started. Refresh the list to see the shifts open now.',
          );
        const refused = await refusals(ctx, row, me);
        if (refused.length) throw new HttpError(409, `You cannot be booked on this shift: ${refused.join(' ')}`);
        if (row.request_id)
          throw new HttpError(409, 'You have already asked for this shift. The agency will answer your request.');
        return ctx.engine.create('shift_requests', {
          shift_id: row.id,
          candidate_id: me,
          note: req.body?.note ?? null,
        });
      });
      return reply.status(201).send({
        data: {
          id: made.id,
          shift_id: made.shift_id,
          status: made.status,
          note: made.note ?? null,
          created_at: new Date(made.created_at).toISOString(),
        },
      });
    },
  });
}
