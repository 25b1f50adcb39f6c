import { expect } from 'vitest';
import { call, type TestApp } from './helpers';
import { fixtureWrite } from './auditCheck';
import {
  addDaysToDate,
  agencyToday,
  startOfWeekMonday,
  zonedDateTimeToInstant,
} from '../../core/domain/time/agencyTime';
import { issueLinkToken } from '../../server/engine/capability';

// The fixture helpers every timesheet API test file shares: the demo's ids, worked shifts booked directly in weeks
// long past, and short calls to the timesheet and line actions. One place, so the files differ only in what they test.
const TZ = 'Europe/London';

/** An instant of a wall-clock time in the agency's zone. */
export const at = (date: string, time: string) => zonedDateTimeToInstant(date, time, TZ).toISOString();
/** The Monday `weeksBack` weeks before this week's. */
export const monday = (weeksBack: number) => addDaysToDate(startOfWeekMonday(agencyToday(TZ)), -7 * weeksBack);

/** A 1 × 1 signature, as a pad sends it. */
export const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export interface DemoIds {
  merchantId: number;
  clientId: number;
  client2Id: number;
  staffId: number;
  /** Client A's first site and the job role of its first rate card. */
  siteId: number;
  roleId: number;
}

/** The demo's client A (with its site and job role), client B and staff member. */
export async function demoIds(t: TestApp): Promise<DemoIds> {
  const [u] = await t.db.query<any>(`select merchant_id, client_id from users where email = 'client@demo.test'`);
  const [u2] = await t.db.query<any>(`select client_id from users where email = 'client2@demo.test'`);
  const [s] = await t.db.query<any>(`select candidate_id from users where email = 'staff@demo.test'`);
  const [site] = await t.db.query<any>(
    'select id from sites where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [u.merchant_id, u.client_id],
  );
  const [card] = await t.db.query<any>(
    'select job_role_id from rate_cards where merchant_id = $1 and client_id = $2 and deleted_at is null order by id limit 1',
    [u.merchant_id, u.client_id],
  );
  return {
    merchantId: u.merchant_id,
    clientId: u.client_id,
    client2Id: u2.client_id,
    staffId: s.candidate_id,
    siteId: site.id,
    roleId: card.job_role_id,
  };
}

/**
 * The helpers, reading the app, the admin's token and the demo's ids when called (the test file sets them in its
 * beforeAll). `breakMinutes` is the worked shifts' booked break (none unless given).
 */
export function timesheetKit(
  ctx: () => { t: TestApp; admin: string; ids: DemoIds },
  { breakMinutes }: { breakMinutes?: number } = {},
) {
  const app = () => ctx().t.app;
  const admin = () => ctx().admin;
  return {
    /** A worked shift of client A for a staff member (the demo's own by default), booked directly. */
    async workedShift(start: string, end: string, candidateId = ctx().ids.staffId): Promise<number> {
      const { t, ids } = ctx();
      const res = await call(t.app, admin(), 'POST', '/api/shifts', {
        client_id: ids.clientId,
        site_id: ids.siteId,
        job_role_id: ids.roleId,
        start_at: start,
        end_at: end,
        ...(breakMinutes === undefined ? {} : { break_minutes: breakMinutes }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().data.id as number;
      await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = $2`, [
        candidateId,
        id,
      ]);
      return id;
    },
    generate: (body: unknown, token = admin()) => call(app(), token, 'POST', '/api/timesheets/actions/generate', body),
    act: (id: number, name: string, body: unknown = {}, token = admin()) =>
      call(app(), token, 'POST', `/api/timesheets/${id}/actions/${name}`, body),
    lineAct: (id: number, name: string, body: unknown = {}, token = admin()) =>
      call(app(), token, 'POST', `/api/timesheet_lines/${id}/actions/${name}`, body),
    get: async (id: number, token = admin()) => (await call(app(), token, 'GET', `/api/timesheets/${id}`)).json().data,
    /** The timesheet's lines; `query` narrows them (e.g. '&payable=false'). */
    linesOf: async (id: number, token = admin(), query = '') =>
      (await call(app(), token, 'GET', `/api/timesheet_lines?timesheet_id=${id}&per_page=100${query}`)).json()
        .data as any[],
    /** The newest signing link's token, as the outbox worker would put it in the e-mail. */
    async signingToken(timesheetId: number): Promise<string> {
      const { t } = ctx();
      const [link] = await t.db.query<any>(
        `select id from capability_links where resource = 'timesheets' and record_id = $1 order by id desc limit 1`,
        [timesheetId],
      );
      return (await issueLinkToken(t.db, link.id))!;
    },
    /** Signs through the capability link, as the client does from the e-mail. */
    byLink: (token: string, body: unknown) =>
      app().inject({ method: 'POST', url: `/api/capability/${token}/actions/approve`, payload: body as any }),
  };
}
