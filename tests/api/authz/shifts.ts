import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, ownedByStaff, row } from '../authz-matrix';
import { addDaysToDate, zonedDateTimeToInstant } from '../../../core/domain/time/agencyTime';
import { refreshCompliance } from '../../../server/services/compliance';
import { DEMO, fixtureWrite } from '../helpers';

/*
 * Shifts: agency users run everything; a DELETE needs a reason (422 without one; the 'remove' action asks for it);
 * client users (managers) list, show, request (create) and cancel their own client's shifts; the other client
 * and the other agency find nothing (404).
 */

/** Each shift of these rows on a day of its own, far ahead (or back, for the ones that must have been worked). */
let slot = 0;
const day = (ctx: AuthzContext, back = false) => addDaysToDate(ctx.today, back ? -20 - ++slot : 400 + ++slot);
const instant = (date: string, time: string) => zonedDateTimeToInstant(date, time, 'Europe/London').toISOString();
const body = (ctx: AuthzContext, date = day(ctx)) => ({
  client_id: ctx.ids.clientA,
  site_id: ctx.shared.sites,
  job_role_id: ctx.shared.job_roles,
  start_at: instant(date, '08:00'),
  end_at: instant(date, '16:00'),
});

/** A staff member of agency A who passes every booking check for the shared job role. */
let bookable = 0;

const as = (ctx: AuthzContext, token: string) => ({
  post: async (url: string, payload: unknown, status = 200) =>
    ctx.must(
      await ctx.t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}` },
        payload: payload as any,
      }),
      status,
    ),
});

/** A new shift of client A (by agency A's admin) in the state an action needs. */
async function shiftIn(ctx: AuthzContext, state: 'open' | 'assigned' | 'worked' | 'cancelled'): Promise<number> {
  const admin = as(ctx, ctx.setup);
  const s = await admin.post('/api/shifts', body(ctx, day(ctx, state === 'worked')), 201);
  if (state === 'assigned' || state === 'worked')
    await admin.post(`/api/shifts/${s.id}/actions/assign`, { candidate_id: bookable });
  if (state === 'cancelled') await admin.post(`/api/shifts/${s.id}/actions/cancel`, { reason: 'Authz test' });
  return s.id;
}

/** The signed-in staff member's own staff record (staff@demo.test). */
let staffMember = 0;

/** A pending request of a staff member for a new open shift of agency A (written directly: the route is not tested). */
async function requestOf(ctx: AuthzContext, candidateId: number): Promise<number> {
  const shiftId = await shiftIn(ctx, 'open');
  const [r] = await fixtureWrite<{ id: number }>(
    ctx.t.db,
    'insert into shift_requests (merchant_id, shift_id, candidate_id) values ($1, $2, $3) returning id',
    [ctx.ids.merchantA, shiftId, candidateId],
  );
  return r.id;
}

const target = (ctx: AuthzContext, otherAgency: boolean) => (otherAgency ? ctx.sharedB.shifts : ctx.shared.shifts);

/** A shift of agency A worked in the past and ready to close: what the link principal's links are bound to. */
export const closableShift = (ctx: AuthzContext) => shiftIn(ctx, 'worked');

export const shifts: AuthzArea = {
  get rows() {
    // A staff member changes nothing, on their own shifts either (staffOwn: 403).
    const action = (name: string, client: [number | 'ok', number | 'ok'], bulk: boolean) => [
      ownedByStaff(row('POST', `/api/shifts/:id/actions/${name}`, A, 'ok', 'ok', client[0], client[1], N, F, A), F),
      ...(bulk ? [row('POST', `/api/shifts/actions/${name}`, A, 'ok', 'ok', client[0], client[1], N, F, A)] : []),
    ];
    return [
      // A staff member lists their own shifts (staffScope) and opens one; agency A's shift here is not theirs: 404.
      row('GET', '/api/shifts', A, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', A),
      ownedByStaff(row('GET', '/api/shifts/:id', A, 'ok', 'ok', 'ok', N, N, N, A), 'ok'),
      // Client A requests a shift at their own site; client B and the other agency name client A's: 422.
      row('POST', '/api/shifts', A, 201, 201, 201, 422, 422, F, A),
      ownedByStaff(row('PUT', '/api/shifts/:id', A, 'ok', 'ok', F, F, N, F, A), F),
      ownedByStaff(row('DELETE', '/api/shifts/:id', A, 422, 422, F, F, N, F, A), F),
      ...action('assign', [F, F], true),
      ...action('unassign', [F, F], true),
      ...action('close', [F, F], true),
      // Client users cancel their own client's shifts (client B does not find client A's).
      ...action('cancel', ['ok', N], true),
      ...action('reopen', [F, F], false),
      // Only the agency waives or changes a cancellation's charge.
      ...action('change_charge', [F, F], false),
      ...action('remove', [F, F], true),
      ...action('move', [F, F], false),
      row('POST', '/api/shifts/bulk', A, 201, 201, 201, 422, 422, F, A),
      ownedByStaff(row('GET', '/api/shifts/:id/cancellation', A, 'ok', 'ok', 'ok', N, N, F, A), F),
      ownedByStaff(row('GET', '/api/shifts/:id/check', A, 'ok', 'ok', F, F, N, F, A), F),
      ownedByStaff(row('GET', '/api/shifts/:id/suggestions', A, 'ok', 'ok', F, F, N, F, A), F),
      row('GET', '/api/schedule', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      // Issue 17: open shifts and requests for them are the staff member's own; the agency answers the requests.
      // The shared shift is a year ahead, past what the staff page offers: the staff member is told it is not open
      // to them (409), after being let in.
      row('GET', '/api/staff_open_shifts', A, F, F, F, F, F, 'ok', A),
      row('POST', '/api/staff_open_shifts/:id/request', A, F, F, F, F, F, 409, A),
      row('GET', '/api/shift_requests', A, 'ok', 'ok', F, F, 'ok', 'ok', A),
      ownedByStaff(row('GET', '/api/shift_requests/:id', A, 'ok', 'ok', F, F, N, N, A), 'ok'),
      // Nobody writes a request but through the staff route and the actions.
      row('POST', '/api/shift_requests', A, F, F, F, F, F, F, A),
      ownedByStaff(row('PUT', '/api/shift_requests/:id', A, F, F, F, F, F, F, A), F),
      ownedByStaff(row('DELETE', '/api/shift_requests/:id', A, F, F, F, F, F, F, A), F),
      ownedByStaff(row('POST', '/api/shift_requests/:id/actions/accept', A, 'ok', 'ok', F, F, N, F, A), F),
      ownedByStaff(row('POST', '/api/shift_requests/:id/actions/decline', A, 'ok', 'ok', F, F, N, F, A), F),
      ownedByStaff(row('POST', '/api/shift_requests/:id/actions/withdraw', A, F, F, F, F, F, 'ok', A), 'ok'),
    ];
  },
  async prepare(ctx) {
    const db = ctx.t.db;
    const [c] = await fixtureWrite(
      db,
      `insert into candidates (merchant_id, first_name, last_name, email, job_role_id, status, activated)
        values ($1, 'Authz', 'Bookable', 'authz.bookable@example.test', $2, 'approved', true)
        returning id`,
      [ctx.ids.merchantA, ctx.shared.job_roles],
    );
    bookable = c.id;
    const categories = await db.query<{ id: number }>(
      'select id from document_categories where merchant_id = $1 and (mandatory or $2 = any(job_role_ids))',
      [ctx.ids.merchantA, ctx.shared.job_roles],
    );
    for (const cat of categories) {
      await fixtureWrite(
        db,
        `insert into candidate_documents (merchant_id, candidate_id, document_category_id, file, status, expiry_date, current) values ($1, $2, $3, 'authz.pdf', 'verified', $4, true)`,
        [ctx.ids.merchantA, bookable, cat.id, addDaysToDate(ctx.today, 1500)],
      );
    }
    await refreshCompliance(db, ctx.ids.merchantA, [bookable]);
    ctx.shared.shifts = await shiftIn(ctx, 'open');
    // The staff principal's own shift, booked directly (their compliance is not what these rows test).
    const own = await shiftIn(ctx, 'open');
    await fixtureWrite(
      db,
      `update shifts set candidate_id = (select candidate_id from users where lower(email) = $1), status = 'assigned' where id = $2`,
      [DEMO.staff.email, own],
    );
    ctx.ownedByStaff.shifts = own;
    // Agency B has no rate cards in the demo: its shift is written directly.
    const [b] = await fixtureWrite(
      db,
      `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, charge, pay) values ($1, $2, $3, $4, $5, $6, 10000, 7000) returning id`,
      [
        ctx.ids.merchantB,
        ctx.sharedB.clients,
        ctx.sharedB.sites,
        ctx.sharedB.job_roles,
        instant(addDaysToDate(ctx.today, 30), '08:00'),
        instant(addDaysToDate(ctx.today, 30), '16:00'),
      ],
    );
    ctx.sharedB.shifts = b.id;
    const [staff] = await db.query<{ candidate_id: number }>(
      `select candidate_id from users where email = 'staff@demo.test'`,
    );
    staffMember = staff.candidate_id;
    ctx.shared.shift_requests = await requestOf(ctx, bookable);
    // A pending request of the signed-in staff member's own, for the staffOwn outcomes (withdraw, last, ends it).
    ctx.ownedByStaff.shift_requests = await requestOf(ctx, staffMember);
    const [candidateB] = await db.query<{ id: number }>(
      'select id from candidates where merchant_id = $1 and deleted_at is null order by id limit 1',
      [ctx.ids.merchantB],
    );
    const [requestB] = await fixtureWrite<{ id: number }>(
      db,
      'insert into shift_requests (merchant_id, shift_id, candidate_id) values ($1, $2, $3) returning id',
      [ctx.ids.merchantB, b.id, candidateB.id],
    );
    ctx.sharedB.shift_requests = requestB.id;
  },
  createBody: {
    shifts: async (ctx) => body(ctx),
    // Refused to everyone before the body is read: what a staff route would store.
    shift_requests: async (ctx) => ({ shift_id: ctx.shared.shifts, candidate_id: staffMember }),
  },
  fresh: {
    shifts: (ctx) => shiftIn(ctx, 'open'),
    'shifts unassign': (ctx) => shiftIn(ctx, 'assigned'),
    'shifts close': (ctx) => shiftIn(ctx, 'worked'),
    'shifts reopen': (ctx) => shiftIn(ctx, 'cancelled'),
    'shifts change_charge': (ctx) => shiftIn(ctx, 'cancelled'),
    // A pending request on a new open shift: the bookable staff member's for the agency to answer, the signed-in
    // staff member's own to withdraw.
    'shift_requests accept': (ctx) => requestOf(ctx, bookable),
    'shift_requests decline': (ctx) => requestOf(ctx, bookable),
    'shift_requests withdraw': (ctx) => requestOf(ctx, staffMember),
    shift_requests: (ctx) => requestOf(ctx, bookable),
  },
  actionInput: {
    get 'shifts assign'() {
      return { candidate_id: bookable };
    },
    'shifts cancel': { reason: 'Authz test' },
    'shifts remove': { reason: 'Authz test' },
    'shifts change_charge': { charge: 0, reason: 'Authz test' },
    // The fresh shift is open, so it may move anywhere: nobody is booked on it to check again.
    get 'shifts move'() {
      const date = addDaysToDate(new Date().toISOString().slice(0, 10), 390);
      return { start: instant(date, '09:00'), end: instant(date, '17:00') };
    },
  },
  requests: {
    'POST /api/shifts/bulk': (ctx) => {
      const date = day(ctx);
      return {
        method: 'POST',
        url: '/api/shifts/bulk',
        payload: {
          client_id: ctx.ids.clientA,
          site_id: ctx.shared.sites,
          job_role_id: ctx.shared.job_roles,
          start_time: '08:00',
          end_time: '16:00',
          dates: [date],
          staff_needed: 1,
        },
      };
    },
    'POST /api/staff_open_shifts/:id/request': (ctx) => ({
      method: 'POST',
      url: `/api/staff_open_shifts/${ctx.shared.shifts}/request`,
      payload: {},
    }),
    'GET /api/shifts/:id/cancellation': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/shifts/${target(ctx, otherAgency)}/cancellation`,
    }),
    'GET /api/shifts/:id/check': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/shifts/${target(ctx, otherAgency)}/check?candidate_id=${bookable}`,
    }),
    'GET /api/shifts/:id/suggestions': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/shifts/${target(ctx, otherAgency)}/suggestions?limit=5`,
    }),
  },
};
