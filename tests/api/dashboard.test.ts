// The agency dashboard's "Needs doing" (issue 34): GET /api/dashboard/needs_doing counts each declared item through
// the engine's list path. Every count is checked against a recount in plain SQL here (what the item means) and
// against the list it opens (the same filter, total_count), for both agencies; a consultant counts what their lists
// show, an item over a resource the caller may not list is absent, and another agency's rows are never counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixtureWrite, loginAs, makeTestApp, type TestApp } from './helpers';
import { declarations } from '../../core/resources/declarations';
import { NEEDS_DOING } from '../../core/resources/needsDoing';
import type { NeedsDoingAnswer } from '../../core/contracts/dashboard';
import type { ResourceDeclaration } from '../../core/engine/types';

let t: TestApp;
let admin: string;
let consultant: string;
let otherAdmin: string;
let merchantA: number;
let merchantB: number;

beforeAll(async () => {
  t = await makeTestApp();
  [admin, consultant, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  const merchantOf = async (email: string) =>
    (await t.db.query<{ m: number }>('select merchant_id as m from users where email = $1', [email]))[0].m;
  merchantA = await merchantOf('admin@demo.test');
  merchantB = await merchantOf('admin@other.test');
});
afterAll(async () => {
  await t?.close();
});

async function needsDoing(token: string, app = t.app): Promise<NeedsDoingAnswer> {
  const res = await call(app, token, 'GET', '/api/dashboard/needs_doing');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The agency's today, on its own clock, as SQL: the day the lists' relative dates count from. */
const TODAY = `(select (now() at time zone m.time_zone)::date from merchants m where m.id = $1)`;
const DAY_START = `(select ((now() at time zone m.time_zone)::date::timestamp at time zone m.time_zone) from merchants m where m.id = $1)`;

/**
 * What each item means, recounted without the engine: $1 the agency, $2 the moment counted (as_of). The documents'
 * staff are booked on an assigned, live shift starting within 14 days of now.
 */
const RECOUNT: Record<string, { count: string; sum?: string }> = {
  unfilled_24h: {
    count: `select count(*) from shifts where merchant_id = $1 and status = 'open' and deleted_at is null
      and start_at >= $2::timestamptz and start_at <= $2::timestamptz + interval '24 hours'`,
  },
  unfilled_7d: {
    count: `select count(*) from shifts where merchant_id = $1 and status = 'open' and deleted_at is null
      and start_at >= $2::timestamptz and start_at <= $2::timestamptz + interval '7 days'`,
  },
  client_requests: {
    count: `select count(*) from shifts where merchant_id = $1 and status = 'open' and deleted_at is null
      and requested_by_client and start_at >= $2::timestamptz`,
  },
  staff_requests: {
    count: `select count(*) from shift_requests where merchant_id = $1 and status = 'pending' and deleted_at is null
      and $2::text is not null`,
  },
  timesheets_unsigned: {
    count: `select count(*) from timesheets where merchant_id = $1 and status = 'submitted'
      and submitted_at <= $2::timestamptz - interval '7 days'`,
  },
  staff_pending: {
    count: `select count(*) from candidates where merchant_id = $1 and status = 'pending' and deleted_at is null and $2::text is not null`,
  },
  documents_expired: {
    count: `select count(*) from candidate_documents d where d.merchant_id = $1 and d.deleted_at is null and d.current
      and d.expiry_date < ${TODAY}
      and exists (select 1 from shifts s where s.merchant_id = d.merchant_id and s.candidate_id = d.candidate_id
        and s.status = 'assigned' and s.deleted_at is null and s.start_at >= now() and s.start_at < now() + interval '14 days')
      and $2::text is not null`,
  },
  documents_expiring: {
    count: `select count(*) from candidate_documents d where d.merchant_id = $1 and d.deleted_at is null and d.current
      and d.expiry_date >= ${TODAY} and d.expiry_date <= ${TODAY} + 30
      and exists (select 1 from shifts s where s.merchant_id = d.merchant_id and s.candidate_id = d.candidate_id
        and s.status = 'assigned' and s.deleted_at is null and s.start_at >= now() and s.start_at < now() + interval '14 days')
      and $2::text is not null`,
  },
  disputed_lines: {
    count: `select count(*) from timesheet_lines where merchant_id = $1 and status = 'disputed' and $2::text is not null`,
  },
  invoice_drafts: {
    count: `select count(*) from invoices where merchant_id = $1 and state = 'draft' and $2::text is not null`,
  },
  invoices_overdue: {
    count: `select count(*) from invoices where merchant_id = $1 and state in ('issued', 'sent', 'part_paid')
      and total + credited - paid > 0 and due_date < ${TODAY} and $2::text is not null`,
    sum: `select coalesce(sum(total + credited - paid), 0) from invoices where merchant_id = $1
      and state in ('issued', 'sent', 'part_paid') and total + credited - paid > 0 and due_date < ${TODAY}
      and $2::text is not null`,
  },
  pay_runs_due: {
    count: `select count(*) from pay_runs where merchant_id = $1 and state in ('draft', 'approved') and $2::text is not null`,
  },
  diary_today: {
    count: `select count(*) from diary_notes where merchant_id = $1 and deleted_at is null
      and note_at >= ${DAY_START} and note_at < ${DAY_START} + interval '1 day' and $2::text is not null`,
  },
};

async function recount(merchantId: number, asOf: string, id: string) {
  const q = RECOUNT[id];
  const [{ n }] = await t.db.query<{ n: string }>(`select (${q.count}) as n`, [merchantId, asOf]);
  const sum = q.sum
    ? Number((await t.db.query<{ s: string }>(`select (${q.sum}) as s`, [merchantId, asOf]))[0].s)
    : undefined;
  return { count: Number(n), sum };
}

/** The list the item opens, asked with the same tab and filter: how many rows it has. */
async function listed(token: string, item: NeedsDoingAnswer['data'][number]) {
  const decl = NEEDS_DOING.find((d) => d.id === item.id)!;
  const q = new URLSearchParams({ ...(decl.tab ? { tab: decl.tab } : {}), ...item.filter, per_page: '1' });
  const res = await call(t.app, token, 'GET', `/api/${decl.resource}?${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { total_count: number; totals?: Record<string, number> };
}

describe('GET /api/dashboard/needs_doing', () => {
  it('answers every declared item for an admin, in order, each equal to its recount and to the list it opens', async () => {
    // One timesheet of each agency sent for signature eight days ago (the demo's were sent lately), and a staff
    // member's request for an open shift of agency A: the queue's newer items have something to count.
    await fixtureWrite(
      t.db,
      `update timesheets set submitted_at = now() - interval '8 days' where id in (
        select distinct on (merchant_id) id from timesheets where status = 'submitted' order by merchant_id, id)`,
    );
    const staff = await loginAs(t.app, 'staff');
    const open = (await call(t.app, staff, 'GET', '/api/staff_open_shifts')).json().data as {
      id: number;
      request_id: number | null;
    }[];
    const free = open.find((s) => s.request_id === null);
    if (free)
      expect((await call(t.app, staff, 'POST', `/api/staff_open_shifts/${free.id}/request`, {})).statusCode).toBe(201);
    const answer = await needsDoing(admin);
    expect(answer.data.map((d) => d.id)).toEqual(NEEDS_DOING.map((d) => d.id));
    expect(Object.keys(RECOUNT).sort()).toEqual(NEEDS_DOING.map((d) => d.id).sort());
    for (const item of answer.data) {
      const expected = await recount(merchantA, answer.as_of, item.id);
      expect({ id: item.id, count: item.count, sum: item.sum }).toEqual({ id: item.id, ...expected });
      const list = await listed(admin, item);
      expect({ id: item.id, rows: list.total_count }).toEqual({ id: item.id, rows: item.count });
      if (item.sum !== undefined) expect(list.totals?.balance).toBe(item.sum);
      expect(item.route).toBe(NEEDS_DOING.find((d) => d.id === item.id)!.route);
    }
    const counted = (id: string) => answer.data.find((d) => d.id === id)!.count;
    expect(counted('staff_requests')).toBeGreaterThan(0);
    expect(counted('timesheets_unsigned')).toBeGreaterThan(0);
    // The demo has something in most of the queue: the recount is not a row of zeros agreeing with zeros.
    expect(answer.data.filter((d) => d.count > 0).length).toBeGreaterThanOrEqual(6);
  });

  it('resolves the relative instants to the moment counted', async () => {
    const answer = await needsDoing(admin);
    const asOf = Date.parse(answer.as_of);
    const day = answer.data.find((d) => d.id === 'unfilled_24h')!;
    expect(Date.parse(day.filter.start_at_gte)).toBe(asOf);
    expect(Date.parse(day.filter.start_at_lte)).toBe(asOf + 24 * 3_600_000);
    const week = answer.data.find((d) => d.id === 'unfilled_7d')!;
    expect(Date.parse(week.filter.start_at_lte)).toBe(asOf + 7 * 86_400_000);
  });

  it("gives another agency's admin their own agency's counts only, and a new shift counts for its agency alone", async () => {
    const before = await needsDoing(otherAdmin);
    for (const item of before.data)
      expect({ id: item.id, count: item.count, sum: item.sum }).toEqual({
        id: item.id,
        ...(await recount(merchantB, before.as_of, item.id)),
      });
    const a0 = (await needsDoing(admin)).data.find((d) => d.id === 'unfilled_24h')!.count;
    // An open shift of agency A starting in two hours, like one it already has.
    const [like] = await t.db.query<{ client_id: number; site_id: number; job_role_id: number }>(
      `select client_id, site_id, job_role_id from shifts where merchant_id = $1 and deleted_at is null
        order by id limit 1`,
      [merchantA],
    );
    const start = new Date(Date.now() + 2 * 3_600_000);
    start.setUTCMinutes(0, 0, 0);
    const res = await call(t.app, admin, 'POST', '/api/shifts', {
      ...like,
      start_at: start.toISOString(),
      end_at: new Date(start.getTime() + 8 * 3_600_000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const after = await needsDoing(admin);
    expect(after.data.find((d) => d.id === 'unfilled_24h')!.count).toBe(a0 + 1);
    expect((await needsDoing(otherAdmin)).data.map((d) => [d.id, d.count, d.sum])).toEqual(
      before.data.map((d) => [d.id, d.count, d.sum]),
    );
  });

  it("gives a consultant their own lists' counts: the same rows as the admin's lists in the demo", async () => {
    const [mine, admins] = [await needsDoing(consultant), await needsDoing(admin)];
    expect(mine.data.map((d) => d.id)).toEqual(admins.data.map((d) => d.id));
    for (const item of mine.data) {
      const list = await listed(consultant, item);
      expect({ id: item.id, rows: list.total_count }).toEqual({ id: item.id, rows: item.count });
    }
  });

  it('leaves out an item over a resource the caller may not list, and a sum of a field they may not read', async () => {
    // The same product with consultants refused invoices' list, and pay runs' state hidden from them.
    const changed: ResourceDeclaration[] = declarations.map((d) =>
      d.name === 'invoices'
        ? { ...d, access: { ...d.access, consultant: [] } }
        : d.name === 'pay_runs'
          ? { ...d, fields: d.fields.map((f) => (f.source === 'state' ? { ...f, readableBy: ['admin'] } : f)) }
          : d,
    );
    const app = await t.extraApp({ declarations: changed });
    const token = await loginAs(app, 'consultant');
    const ids = (await needsDoing(token, app)).data.map((d) => d.id);
    expect(ids).not.toContain('invoice_drafts');
    expect(ids).not.toContain('invoices_overdue');
    // Their pay runs list cannot be filtered by a state they may not read: no count of it either.
    expect(ids).not.toContain('pay_runs_due');
    expect(ids).toContain('unfilled_24h');
    // The admin of that product still has every item, with the overdue sum.
    const adminToken = await loginAs(app, 'admin');
    const all = (await needsDoing(adminToken, app)).data;
    expect(all.map((d) => d.id)).toEqual(NEEDS_DOING.map((d) => d.id));
    expect(typeof all.find((d) => d.id === 'invoices_overdue')!.sum).toBe('number');

    const hiddenBalance: ResourceDeclaration[] = declarations.map((d) =>
      d.name === 'invoices'
        ? { ...d, fields: d.fields.map((f) => (f.source === 'balance' ? { ...f, readableBy: ['admin'] } : f)) }
        : d,
    );
    const app2 = await t.extraApp({ declarations: hiddenBalance });
    const overdue = (await needsDoing(await loginAs(app2, 'consultant'), app2)).data.find(
      (d) => d.id === 'invoices_overdue',
    )!;
    expect(overdue.count).toBe((await recount(merchantA, new Date().toISOString(), 'invoices_overdue')).count);
    expect(overdue).not.toHaveProperty('sum');
  });

  it('is refused to client users and staff (the agency dashboard only)', async () => {
    const client = await loginAs(t.app, 'client');
    expect((await call(t.app, client, 'GET', '/api/dashboard/needs_doing')).statusCode).toBe(403);
    const staff = await loginAs(t.app, 'staff');
    expect((await call(t.app, staff, 'GET', '/api/dashboard/needs_doing')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'GET', '/api/dashboard/needs_doing')).statusCode).toBe(401);
  });
});
