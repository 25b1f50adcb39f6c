import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp } from './helpers';
import { DEFAULT_PLANS, installPlans, parsePlans } from '../../server/subscription/plans';

// Issue 35, subscription (/appsetting/SubscriptionSetting): the agency's plan and usage against its limits, the
// refusal of an activation over a limit (in the engine's write path, so a bulk action too), and the change of plan
// through the bundled record-only payment driver.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let staff: string;
let otherAdmin: string;
let merchantId: number;
let otherId: number;
let jobRoleId: number;
let seq = 0;

type Res = { statusCode: number; body: string; json(): any };
const ok = (res: Res, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data;
};
const subscription = async (token = admin) => ok(await call(t.app, token, 'GET', '/api/subscription'));
const changePlan = (plan: string, token = admin) => call(t.app, token, 'POST', '/api/subscription/plan', { plan });

/** The agency's figures, counted here as the issue words them, apart from the product's own statement. */
async function counted(m: number) {
  const one = async (sql: string) => Number((await t.db.query<{ n: string }>(sql, [m]))[0].n);
  return {
    active_staff: await one(
      `select count(*) as n from candidates where merchant_id = $1 and status = 'approved' and activated = true and deleted_at is null`,
    ),
    users: await one(`select count(*) as n from users where merchant_id = $1 and kind = 'admin' and active = true`),
    clients: await one(
      `select count(*) as n from clients where merchant_id = $1 and status = 'active' and deleted_at is null`,
    ),
    storage_bytes: await one(`select coalesce(sum(size), 0) as n from files where merchant_id = $1`),
  };
}

/** A new staff member, approved and not yet active. */
async function approvedStaff(): Promise<number> {
  seq += 1;
  const made = ok(
    await call(t.app, admin, 'POST', '/api/candidates', {
      first_name: 'Plan',
      last_name: `Tester${seq}`,
      email: `plan.tester${seq}@subscription.example`,
      job_role_id: jobRoleId,
    }),
    201,
  );
  ok(await call(t.app, admin, 'POST', `/api/candidates/${made.id}/actions/approve`, {}));
  return made.id;
}
const activate = (id: number) =>
  call(t.app, admin, 'POST', `/api/candidates/${id}/actions/activate`, { override_reason: 'Plan test' });

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, client, staff, otherAdmin] = await Promise.all(
    (['admin', 'consultant', 'client', 'staff', 'otherAdmin'] as const).map((w) => loginAs(t.app, w)),
  );
  [{ merchant_id: merchantId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@demo.test'`,
  );
  [{ merchant_id: otherId }] = await t.db.query<{ merchant_id: number }>(
    `select merchant_id from users where email = 'admin@other.test'`,
  );
  [{ id: jobRoleId }] = await t.db.query<{ id: number }>(
    'select id from job_roles where merchant_id = $1 order by id limit 1',
    [merchantId],
  );
  // The operator's plans, as PLANS would give them: "Tight" allows one more of each than agency A has now.
  const now = await counted(merchantId);
  installPlans(
    parsePlans(
      JSON.stringify({
        default: 'unlimited',
        plans: [
          ...DEFAULT_PLANS.plans,
          {
            id: 'tight',
            name: 'Tight',
            price_pence: 1000,
            limits: {
              active_staff: now.active_staff + 1,
              users: now.users + 1,
              clients: now.clients + 1,
              storage_mb: null,
            },
          },
        ],
      }),
    ),
  );
}, 600_000);
afterAll(async () => {
  installPlans(DEFAULT_PLANS);
  await t?.close();
});

describe('the subscription page’s figures', () => {
  it('are the agency’s usage as counted apart, on the default plan, for admins and consultants', async () => {
    const sub = await subscription();
    expect(sub.plan.id).toBe('unlimited');
    expect(sub.plans.map((p: any) => p.id)).toEqual(['starter', 'growth', 'unlimited', 'tight']);
    expect(sub.usage).toEqual(await counted(merchantId));
    expect(sub.usage.active_staff).toBeGreaterThan(0);
    expect(sub.usage.users).toBeGreaterThan(0);
    expect(sub.usage.clients).toBeGreaterThan(0);
    expect(sub.at_limit).toEqual([]);
    expect(sub.payment).toMatchObject({ driver: 'record-only', charges: false });
    expect(sub.payment.notice).toMatch(/nothing is charged/);
    expect((await subscription(consultant)).usage).toEqual(sub.usage);
    // Another agency's figures are its own.
    expect((await subscription(otherAdmin)).usage).toEqual(await counted(otherId));
  });

  it('are refused to client users, staff and callers without a session; consultants cannot change the plan', async () => {
    for (const token of [client, staff]) {
      expect((await call(t.app, token, 'GET', '/api/subscription')).statusCode).toBe(403);
      expect((await changePlan('starter', token)).statusCode).toBe(403);
    }
    expect((await call(t.app, undefined, 'GET', '/api/subscription')).statusCode).toBe(401);
    expect((await changePlan('starter', consultant)).statusCode).toBe(403);
    expect((await subscription()).plan.id).toBe('unlimited');
  });
});

describe('a change of plan', () => {
  it('is refused in words for a plan the installation does not offer', async () => {
    const res = await changePlan('platinum');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.plan).toBe('Choose one of the plans offered.');
  });

  it('is recorded by the bundled driver without charging, in the audit trail, and changes no other agency', async () => {
    const sub = ok(await changePlan('tight'));
    expect(sub.plan).toMatchObject({ id: 'tight', name: 'Tight' });
    const [entry] = await t.db.query<any>(
      `select event, action, changes, input, user_name from audit_log
        where resource = 'agency_settings' and record_id = $1 and action = 'change_plan' order by id desc limit 1`,
      [merchantId],
    );
    expect(entry).toMatchObject({
      event: 'action',
      action: 'change_plan',
      changes: { plan: { from: null, to: 'tight' } },
      input: { plan: 'tight', reason: 'Payment driver: record-only (nothing charged)' },
      user_name: expect.any(String),
    });
    expect((await subscription(otherAdmin)).plan.id).toBe('unlimited');
    // The agency's other settings are untouched.
    expect(ok(await call(t.app, admin, 'GET', '/api/agency_settings')).company_name).toBe('Brightway Staffing');
  });
});

describe('the plan’s limits', () => {
  it('let the agency reach a limit exactly, then refuse the next activation in words, whoever writes', async () => {
    const before = (await subscription()).usage.active_staff;
    const [a, b, c] = [await approvedStaff(), await approvedStaff(), await approvedStaff()];
    // One place left: a bulk activation of two is refused as a whole, naming the plan and its limit.
    const bulk = await call(t.app, admin, 'POST', '/api/candidates/actions/activate', {
      ids: [a, b],
      override_reason: 'Plan test',
    });
    expect(bulk.statusCode).toBe(422);
    expect(bulk.json().message).toContain(
      `Your plan (Tight) allows ${before + 1} active staff: upgrade the plan or deactivate someone first.`,
    );
    expect((await subscription()).usage.active_staff).toBe(before);
    // The last place is taken: at the limit, and the page warns.
    ok(await activate(a));
    const at = await subscription();
    expect(at.usage.active_staff).toBe(before + 1);
    expect(at.at_limit).toContain('active_staff');
    const refused = await activate(b);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      `Your plan (Tight) allows ${before + 1} active staff: upgrade the plan or deactivate someone first.`,
    );
    const [row] = await t.db.query<{ activated: boolean }>('select activated from candidates where id = $1', [b]);
    expect(row.activated).toBe(false);
    // Deactivating someone frees the place; a write that makes no one more active is never refused.
    ok(await call(t.app, admin, 'POST', `/api/candidates/${a}/actions/deactivate`, {}));
    ok(await activate(c));
    ok(await call(t.app, admin, 'PUT', `/api/candidates/${c}`, { last_name: 'Renamed' }));
  });

  it('refuse an agency user invited over the limit, and a client created over it', async () => {
    const users = (await subscription()).usage.users;
    ok(
      await call(t.app, admin, 'POST', '/api/users', {
        name: 'Seat Taker',
        email: 'seat.taker@subscription.example',
        role: 'consultant',
      }),
      201,
    );
    const over = await call(t.app, admin, 'POST', '/api/users', {
      name: 'One Too Many',
      email: 'one.too.many@subscription.example',
      role: 'consultant',
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe(
      `Your plan (Tight) allows ${users + 1} agency users: upgrade the plan or deactivate a user first.`,
    );
    expect(await t.db.query(`select 1 from users where email = 'one.too.many@subscription.example'`)).toHaveLength(0);

    const clients = (await subscription()).usage.clients;
    ok(
      await call(t.app, admin, 'POST', '/api/clients', { name: 'Last Place Ltd', billing_email: 'a@last.example' }),
      201,
    );
    const refused = await call(t.app, admin, 'POST', '/api/clients', {
      name: 'No Room Ltd',
      billing_email: 'a@noroom.example',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      `Your plan (Tight) allows ${clients + 1} active clients: upgrade the plan or make a client inactive first.`,
    );
    // The other agency, on its default plan, is not held by agency A's limits.
    ok(
      await call(t.app, otherAdmin, 'POST', '/api/clients', { name: 'No Room Ltd', billing_email: 'a@b.example' }),
      201,
    );
    // Upgrading lifts the limit at once.
    ok(await changePlan('growth'));
    ok(
      await call(t.app, admin, 'POST', '/api/clients', { name: 'No Room Ltd', billing_email: 'a@noroom.example' }),
      201,
    );
  });
});
