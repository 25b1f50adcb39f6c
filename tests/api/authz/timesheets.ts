import type { AuthzArea, AuthzContext } from './area';
import { A, F, N, ownedByStaff, row, type Outcome } from '../authz-matrix';
import { DEMO, fixtureWrite } from '../helpers';
import { addDaysToDate, zonedDateTimeToInstant } from '../../../core/domain/time/agencyTime';
import { hashPassword } from '../../../server/auth/passwords';

/*
 * Timesheets (issue 17): agency users generate, submit, amend and export; agency admins verify and lock; client
 * users (managers) approve and dispute their own client's timesheets and read charge only; a staff member reaches
 * only their own lines (and generates for their own shifts); the other client and agency find nothing (404).
 */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
let slot = 0;
/** Client A's phone approver, and their PIN. */
let approverId = 0;
const APPROVER_PIN = '135790';
/** The day of the staff principal's own worked shift. */
let ownDay = '2020-01-06';
const instant = (date: string, time: string) => zonedDateTimeToInstant(date, time, 'Europe/London').toISOString();

/** A worked shift of client A (written directly: booking is not what this tests), on a day of its own long past. */
async function workedShift(
  ctx: AuthzContext,
  candidate = ctx.shared.ts_candidate,
): Promise<{ id: number; date: string }> {
  const date = addDaysToDate(ctx.today, -200 - ++slot);
  const [s] = await fixtureWrite<{ id: number }>(
    ctx.t.db,
    `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, status, candidate_id, charge, pay, paid_minutes)
     values ($1, $2, $3, $4, $5, $6, 'assigned', $7, 16000, 11000, 480) returning id`,
    [
      ctx.ids.merchantA,
      ctx.ids.clientA,
      ctx.shared.sites,
      ctx.shared.job_roles,
      instant(date, '08:00'),
      instant(date, '16:00'),
      candidate,
    ],
  );
  return { id: s.id, date };
}

const post = async (ctx: AuthzContext, url: string, body: unknown) =>
  ctx.must(
    await ctx.t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${ctx.setup}` },
      payload: body as any,
    }),
  );

/** A new timesheet of client A in the state an action needs (its one line's state too). */
async function timesheetIn(ctx: AuthzContext, state: 'draft' | 'submitted' | 'disputed' | 'payable' | 'verified') {
  const shift = await workedShift(ctx);
  const g = await post(ctx, '/api/timesheets/actions/generate', { shift_ids: [shift.id] });
  const id = g.timesheets[0] as number;
  if (state !== 'draft' && state !== 'verified') await post(ctx, `/api/timesheets/${id}/actions/submit`, {});
  // A draft whose line the agency verified: its verification can be withdrawn.
  if (state === 'verified')
    await post(ctx, `/api/timesheets/${id}/actions/verify`, { reason: 'Authz test', all_lines: 1 });
  // A timesheet disputed whose line was put right: ready to be marked amended.
  if (state === 'disputed')
    await fixtureWrite(ctx.t.db, `update timesheets set status = 'disputed' where id = $1`, [id]);
  if (state === 'payable')
    await post(ctx, `/api/timesheets/${id}/actions/verify`, { reason: 'Authz test', all_lines: 1 });
  return { id, line: g.line_ids[0] as number };
}

type Cols = [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome?];
// The staff column refuses (403) unless given; a capability link's token is no session (401).
const outcomes = ([admin, consultant, clientA, clientB, other, staff = F]: Cols) =>
  [A, admin, consultant, clientA, clientB, other, staff, A] as const;
const engineRows = (name: string, cols: Cols, bulk: boolean) => [
  row('POST', `/api/timesheets/:id/actions/${name}`, ...outcomes(cols)),
  ...(bulk ? [row('POST', `/api/timesheets/actions/${name}`, ...outcomes(cols))] : []),
];
/** `own`: what the staff member gets running it on a line of their own (MatrixRow.staffOwn). */
const lineRows = (name: string, cols: Cols, bulk: boolean, own: Outcome = F) => [
  ownedByStaff(row('POST', `/api/timesheet_lines/:id/actions/${name}`, ...outcomes(cols)), own),
  ...(bulk ? [row('POST', `/api/timesheet_lines/actions/${name}`, ...outcomes(cols))] : []),
];

export const timesheets: AuthzArea = {
  get rows() {
    return [
      row('GET', '/api/timesheets', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/timesheets/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      // Timesheets are made by generation only, and never deleted.
      row('POST', '/api/timesheets', A, F, F, F, F, F, F, A),
      row('PUT', '/api/timesheets/:id', A, 'ok', 'ok', F, F, N, F, A),
      row('DELETE', '/api/timesheets/:id', A, F, F, F, F, F, F, A),
      row('GET', '/api/timesheets/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      // A staff member generates only for their own shift: a week is refused in words (422).
      row('POST', '/api/timesheets/actions/generate', A, 'ok', 'ok', F, F, 'ok', 422, A),
      ...engineRows('submit', ['ok', 'ok', F, F, N], true),
      ...engineRows('approve', [F, F, 'ok', N, F], false),
      ...engineRows('dispute', [F, F, 'ok', N, F], false),
      ...engineRows('amend', ['ok', 'ok', F, F, N], true),
      // Issue 29.5: agency users e-mail a new signing link for a timesheet awaiting signature.
      ...engineRows('resend_link', ['ok', 'ok', F, F, N], false),
      ...engineRows('verify', ['ok', F, F, F, N], false),
      ...engineRows('withdraw', ['ok', 'ok', F, F, N], false),
      ...engineRows('lock', ['ok', F, F, F, N], true),
      // The timesheet's declared document (GET /api/{resource}/{id}/pdf): whoever may show it, within their scope.
      row('GET', '/api/timesheets/:id/pdf', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('GET', '/api/sign_timesheets/:id', A, 'ok', 'ok', 'ok', N, N, F, A),

      // Lines: the staff member lists their own (agency A's line here is not theirs: 404).
      row('GET', '/api/timesheet_lines', A, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', A),
      ownedByStaff(row('GET', '/api/timesheet_lines/:id', A, 'ok', 'ok', 'ok', N, N, N, A), 'ok'),
      row('POST', '/api/timesheet_lines', A, 201, 201, F, F, 422, F, A),
      ownedByStaff(row('PUT', '/api/timesheet_lines/:id', A, F, F, F, F, F, F, A), F),
      ownedByStaff(row('DELETE', '/api/timesheet_lines/:id', A, F, F, F, F, F, F, A), F),
      row('GET', '/api/timesheet_lines/export', A, 'ok', 'ok', F, F, 'ok', F, A),
      // On a line of their own a staff member records their times and signs.
      ...lineRows('record_times', [F, F, F, F, F, N], false, 'ok'),
      ...lineRows('sign', [F, F, F, F, F, N], false, 'ok'),
      ...lineRows('amend', ['ok', 'ok', F, F, N], false),
      ...lineRows('verify', ['ok', F, F, F, N], true),
      ...lineRows('withdraw_verification', ['ok', F, F, F, N], false),

      // Signatures are made by the signing actions only; agency and client users read them.
      row('GET', '/api/timesheet_signatures', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/timesheet_signatures/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('POST', '/api/timesheet_signatures', A, F, F, F, F, F, F, A),
      row('PUT', '/api/timesheet_signatures/:id', A, F, F, F, F, F, F, A),
      row('DELETE', '/api/timesheet_signatures/:id', A, F, F, F, F, F, F, A),

      // Phone approvers (issue 29.1): the client's managers keep their own and set their PINs; the agency reads them.
      row('GET', '/api/timesheet_approvers', A, 'ok', 'ok', 'ok', 'ok', 'ok', F, A),
      row('GET', '/api/timesheet_approvers/:id', A, 'ok', 'ok', 'ok', N, N, F, A),
      row('POST', '/api/timesheet_approvers', A, F, F, 201, 422, F, F, A),
      row('PUT', '/api/timesheet_approvers/:id', A, F, F, 'ok', N, F, F, A),
      row('DELETE', '/api/timesheet_approvers/:id', A, F, F, 'ok', N, F, F, A),
      row('POST', '/api/timesheet_approvers/:id/actions/set_pin', A, F, F, 'ok', N, F, F, A),
    ];
  },
  async prepare(ctx) {
    const db = ctx.t.db;
    // Lines of someone other than the signed-in staff member, so the staff column shows their scope (404).
    const [other] = await db.query<{ id: number }>(
      `select id from candidates where merchant_id = $1 and deleted_at is null
          and id not in (select candidate_id from users where candidate_id is not null) order by id limit 1`,
      [ctx.ids.merchantA],
    );
    ctx.shared.ts_candidate = other.id;
    // A line of the staff principal's own (their worked shift), for the staffOwn outcomes.
    const [me] = await db.query<{ candidate_id: number }>('select candidate_id from users where lower(email) = $1', [
      DEMO.staff.email,
    ]);
    const mine = await workedShift(ctx, me.candidate_id);
    ownDay = mine.date;
    const own = await post(ctx, '/api/timesheets/actions/generate', { shift_ids: [mine.id] });
    ctx.ownedByStaff.timesheet_lines = own.line_ids[0] as number;
    const submitted = await timesheetIn(ctx, 'submitted');
    ctx.shared.timesheets = submitted.id;
    ctx.shared.timesheet_lines = submitted.line;
    await post(ctx, `/api/timesheets/${submitted.id}/actions/verify`, { reason: 'Authz test', all_lines: 1 });
    const [sig] = await fixtureWrite<{ id: number }>(
      db,
      `insert into timesheet_signatures (merchant_id, timesheet_id, signer_name, signature, signed_via, signed_at)
       values ($1, $2, 'Authz', $3, 'panel', now()) returning id`,
      [ctx.ids.merchantA, submitted.id, PNG],
    );
    ctx.shared.timesheet_signatures = sig.id;
    // Agency B's: written directly (it has no rate cards to price by).
    const [tb] = await fixtureWrite<{ id: number }>(
      db,
      `insert into timesheets (merchant_id, number, client_id, kind, period_start, period_end, status)
       values ($1, 'TS-B', $2, 'weekly', '2020-01-06', '2020-01-12', 'submitted') returning id`,
      [ctx.ids.merchantB, ctx.sharedB.clients],
    );
    ctx.sharedB.timesheets = tb.id;
    const [cb] = await db.query<{ id: number }>(
      'select id from candidates where merchant_id = $1 order by id limit 1',
      [ctx.ids.merchantB],
    );
    const [lb] = await fixtureWrite<{ id: number }>(
      db,
      `insert into timesheet_lines (merchant_id, timesheet_id, candidate_id, site_id, job_role_id, status)
       values ($1, $2, $3, $4, $5, 'pending') returning id`,
      [ctx.ids.merchantB, tb.id, cb.id, ctx.sharedB.sites, ctx.sharedB.job_roles],
    );
    ctx.sharedB.timesheet_lines = lb.id;
    const [sb] = await fixtureWrite<{ id: number }>(
      db,
      `insert into timesheet_signatures (merchant_id, timesheet_id, signer_name, signature, signed_via, signed_at)
       values ($1, $2, 'Authz', $3, 'panel', now()) returning id`,
      [ctx.ids.merchantB, tb.id, PNG],
    );
    ctx.sharedB.timesheet_signatures = sb.id;
    // Client A's phone approver with a PIN (set by the client's manager), and agency B's.
    const [ap] = await fixtureWrite<{ id: number }>(
      db,
      `insert into timesheet_approvers (merchant_id, client_id, name, pin_hash, pin_set_at) values ($1, $2, 'Authz Approver', $3, now()) returning id`,
      [ctx.ids.merchantA, ctx.ids.clientA, await hashPassword(APPROVER_PIN)],
    );
    approverId = ap.id;
    ctx.shared.timesheet_approvers = ap.id;
    const [apB] = await fixtureWrite<{ id: number }>(
      db,
      `insert into timesheet_approvers (merchant_id, client_id, name) values ($1, $2, 'Authz Approver B') returning id`,
      [ctx.ids.merchantB, ctx.sharedB.clients],
    );
    ctx.sharedB.timesheet_approvers = apB.id;
  },
  createBody: {
    // Nobody may create these (403 before the body is read).
    timesheets: async () => ({}),
    timesheet_signatures: async () => ({}),
    timesheet_approvers: async (ctx) => ({ client_id: ctx.ids.clientA, name: `Approver ${ctx.next()}` }),
    // A worked shift left off a draft timesheet of its day, added by hand (with the note an amendment needs).
    timesheet_lines: async (ctx) => {
      const first = await workedShift(ctx);
      const g = await post(ctx, '/api/timesheets/actions/generate', { shift_ids: [first.id] });
      const [second] = await fixtureWrite<{ id: number }>(
        ctx.t.db,
        `insert into shifts (merchant_id, client_id, site_id, job_role_id, start_at, end_at, status, candidate_id)
         values ($1, $2, $3, $4, $5, $6, 'assigned', $7) returning id`,
        [
          ctx.ids.merchantA,
          ctx.ids.clientA,
          ctx.shared.sites,
          ctx.shared.job_roles,
          instant(first.date, '17:00'),
          instant(first.date, '20:00'),
          ctx.shared.ts_candidate,
        ],
      );
      return {
        timesheet_id: g.timesheets[0],
        shift_id: second.id,
        candidate_id: ctx.shared.ts_candidate,
        site_id: ctx.shared.sites,
        job_role_id: ctx.shared.job_roles,
        actual_start: instant(first.date, '17:00'),
        actual_end: instant(first.date, '20:00'),
        amendment_note: 'Left off the timesheet',
      };
    },
  },
  fresh: {
    timesheets: async (ctx) => (await timesheetIn(ctx, 'draft')).id,
    'timesheets approve': async (ctx) => (await timesheetIn(ctx, 'submitted')).id,
    'timesheets resend_link': async (ctx) => (await timesheetIn(ctx, 'submitted')).id,
    'timesheets amend': async (ctx) => (await timesheetIn(ctx, 'disputed')).id,
    'timesheets lock': async (ctx) => (await timesheetIn(ctx, 'payable')).id,
    'timesheets withdraw': async (ctx) => (await timesheetIn(ctx, 'submitted')).id,
    'timesheet_lines withdraw_verification': async (ctx) => (await timesheetIn(ctx, 'verified')).line,
    timesheet_lines: async (ctx) => (await timesheetIn(ctx, 'draft')).line,
    // Made by a client's manager, so the setup admin cannot: written directly.
    timesheet_approvers: async (ctx) =>
      (
        await fixtureWrite<{ id: number }>(
          ctx.t.db,
          `insert into timesheet_approvers (merchant_id, client_id, name) values ($1, $2, $3) returning id`,
          [ctx.ids.merchantA, ctx.ids.clientA, `Approver ${ctx.next()}`],
        )
      )[0].id,
    // Nobody may delete a signature: the shared one is never touched.
    timesheet_signatures: async (ctx) => Number(ctx.shared.timesheet_signatures),
  },
  actionInput: {
    'timesheets approve': { signer_name: 'Authz Manager', signature: PNG },
    'timesheets amend': { note: 'Authz test' },
    'timesheets verify': { reason: 'Authz test', all_lines: 1 },
    'timesheets withdraw': { reason: 'Authz test' },
    'timesheet_lines withdraw_verification': { reason: 'Authz test' },
    'timesheet_lines verify': { reason: 'Authz test' },
    // Valid input, so a staff member's refusal is the row scope's (the line is not theirs), not validation's.
    // The times of the staff member's own line's day, which their own-line row records.
    get 'timesheet_lines record_times'() {
      return { actual_start: instant(ownDay, '08:00'), actual_end: instant(ownDay, '16:00') };
    },
    // One of client A's approvers, with their PIN (issue 29.1).
    get 'timesheet_lines sign'() {
      return { approver_id: approverId, pin: APPROVER_PIN, signature: PNG };
    },
    'timesheet_approvers set_pin': { pin: '24681357' },
  },
  requests: {
    'POST /api/timesheets/actions/generate': () => ({
      method: 'POST',
      url: '/api/timesheets/actions/generate',
      payload: { week_start: '2020-01-06' },
    }),
    'POST /api/timesheets/:id/actions/dispute': async (ctx, _p, otherAgency) => {
      if (otherAgency)
        return {
          method: 'POST',
          url: `/api/timesheets/${ctx.sharedB.timesheets}/actions/dispute`,
          payload: { line_ids: [ctx.sharedB.timesheet_lines], reason: 'Authz test' },
        };
      const t = await ctx.unused('timesheets dispute', () => timesheetIn(ctx, 'submitted'));
      return {
        method: 'POST',
        url: `/api/timesheets/${t.id}/actions/dispute`,
        payload: { line_ids: [t.line], reason: 'Authz test' },
      };
    },
    'POST /api/timesheet_lines/:id/actions/amend': async (ctx, _p, otherAgency) => {
      const id = otherAgency
        ? ctx.sharedB.timesheet_lines
        : (await ctx.unused('timesheet_lines amend', () => timesheetIn(ctx, 'draft'))).line;
      const [l] = await ctx.t.db.query<any>('select actual_start, actual_end from timesheet_lines where id = $1', [id]);
      const start = l?.actual_start ? new Date(l.actual_start).toISOString() : instant('2020-01-06', '08:00');
      const end = l?.actual_end ? new Date(l.actual_end).toISOString() : instant('2020-01-06', '16:00');
      return {
        method: 'POST',
        url: `/api/timesheet_lines/${id}/actions/amend`,
        payload: { actual_start: start, actual_end: end, break_minutes: 30, note: 'Authz test' },
      };
    },
    'GET /api/timesheets/:id/pdf': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/timesheets/${otherAgency ? ctx.sharedB.timesheets : ctx.shared.timesheets}/pdf`,
    }),
    'GET /api/sign_timesheets/:id': (ctx, _p, otherAgency) => ({
      method: 'GET',
      url: `/api/sign_timesheets/${otherAgency ? ctx.sharedB.clients : ctx.ids.clientA}`,
    }),
  },
};
