import { withEngine } from '../../server/engine/handle';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';
import {
  LINK_CHANGED,
  LINK_EXPIRED,
  LINK_INVALID,
  LINK_USED,
  linkPrincipal,
  mintLink,
  type MintOptions,
} from '../../server/engine/capability';
import { agencyZone, principalFromUser } from '../../server/engine/routes';
import { getRecord } from '../../server/engine/query';
import { runAction } from '../../server/engine/actions';
import type { EngineContext } from '../../server/engine/context';
import { matrix } from './authz-matrix';

// Issue 16 item 8: a capability link is a single-use, expiring, hashed token bound to one record and one action.
// Its holder (no account) reads the record through the engine's read policy for role 'link' and runs exactly that
// action through the engine's action path; the link is used up in the same transaction, and the audit names who
// acted by the link and how it reached them. Shifts declare it for 'close' (the approver confirms a shift worked).
let t: TestApp;
let admin: string;
let merchantId: number;
let adminCtx: () => Promise<EngineContext>;
let slot = 0;

const APPROVER = 'approver@client.example';

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  admin = await loginAs(t.app, 'admin');
  const [u] = await t.db.query<any>(
    `select id, name, merchant_id, kind, client_id, role from users where email = 'admin@demo.test'`,
  );
  merchantId = u.merchant_id;
  adminCtx = async () => {
    const timeZone = await agencyZone(t.db, merchantId);
    const now = t.app.clock();
    return withEngine(
      { db: t.db, principal: principalFromUser(u), now, timeZone, today: agencyToday(timeZone, now) },
      t.app.engine,
    );
  };
});
afterAll(async () => {
  await t?.close();
});

/** A new shift of agency A, booked (directly: the booking checks are not what this tests), ready to close. */
async function bookedShift(): Promise<number> {
  const [site] = await t.db.query<any>(
    'select id, client_id from sites where merchant_id = $1 and deleted_at is null order by id limit 1',
    [merchantId],
  );
  const [role] = await t.db.query<any>('select id from job_roles where merchant_id = $1 order by id limit 1', [
    merchantId,
  ]);
  const [staff] = await t.db.query<any>(
    'select id from candidates where merchant_id = $1 and deleted_at is null order by id limit 1',
    [merchantId],
  );
  // A past day of its own on which the staff member has no booking: the demo's bookings (server/seed/shifts.ts,
  // payRuns.ts) are dated from the day it was seeded, so which days they hold depends on that day's weekday.
  let start: string, end: string;
  do {
    const date = addDaysToDate(agencyToday('Europe/London'), -30 - ++slot);
    start = zonedDateTimeToInstant(date, '08:00', 'Europe/London').toISOString();
    end = zonedDateTimeToInstant(date, '16:00', 'Europe/London').toISOString();
  } while (
    (
      await t.db.query(
        `select 1 from shifts where merchant_id = $1 and candidate_id = $2 and status in ('assigned', 'closed')
            and deleted_at is null and tstzrange(start_at, end_at) && tstzrange($3::timestamptz, $4::timestamptz)`,
        [merchantId, staff.id, start, end],
      )
    ).length
  );
  const res = await call(t.app, admin, 'POST', '/api/shifts', {
    client_id: site.client_id,
    site_id: site.id,
    job_role_id: role.id,
    start_at: start,
    end_at: end,
    notes: 'Ward 3',
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as number;
  await fixtureWrite(t.db, `update shifts set candidate_id = $1, status = 'assigned' where id = $2`, [staff.id, id]);
  return id;
}

async function mint(recordId: number, o: Partial<MintOptions> = {}) {
  const ctx = await adminCtx();
  return t.db.transaction((tx) =>
    mintLink({ ...ctx, db: tx }, t.app.engine.get('shifts')!, recordId, {
      action: 'close',
      purpose: 'Confirm the shift was worked',
      recipient: APPROVER,
      deliveredVia: 'email',
      ...o,
    }),
  );
}

const show = (token: string) => t.app.inject({ method: 'GET', url: `/api/capability/${token}` });
const act = (token: string, action = 'close', payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `/api/capability/${token}/actions/${action}`, payload: payload as any });
const statusOf = async (id: number) =>
  (await t.db.query<any>('select status from shifts where id = $1', [id]))[0].status;

describe('a capability link', () => {
  it('shows its holder the bound record through the read policy for links: no pay, no charge, no margin', async () => {
    const id = await bookedShift();
    const { token } = await mint(id);
    const res = await show(token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      resource: 'shifts',
      action: { name: 'close', label: 'Close' },
      purpose: 'Confirm the shift was worked',
      changed: false,
    });
    expect(body.data).toMatchObject({ id, status: 'assigned', notes: 'Ward 3' });
    expect(typeof body.data.site_name).toBe('string');
    expect(typeof body.data.candidate_name).toBe('string');
    for (const hidden of [
      'pay',
      'charge',
      'margin',
      'on_costs',
      'price_lines',
      'cancellation_charge',
      'client_id',
      'override_reason',
    ])
      expect(body.data, hidden).not.toHaveProperty(hidden);
  });

  it('runs exactly its action once, through the engine, and the audit names the holder and how the link reached them', async () => {
    const id = await bookedShift();
    const { id: linkId, token } = await mint(id);
    const res = await act(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id, status: 'closed' });
    expect(res.json().data).not.toHaveProperty('pay');
    expect(await statusOf(id)).toBe('closed');
    const [entry] = await t.db.query<any>(
      `select user_id, user_name, login_type, event, action, changes from audit_log where resource = 'shifts' and record_id = $1 and action = 'close'`,
      [id],
    );
    expect(entry).toMatchObject({
      user_id: null,
      user_name: `via link sent to ${APPROVER} by e-mail`,
      login_type: 'link',
      event: 'action',
      action: 'close',
    });
    expect(entry.changes.status).toEqual({ from: 'assigned', to: 'closed' });
    // The agency reads it in the record's history like any other entry.
    const history = await call(t.app, admin, 'GET', `/api/audit_entries?resource=shifts&record_id=${id}`);
    expect(JSON.stringify(history.json())).toContain(`via link sent to ${APPROVER} by e-mail`);
    const [link] = await t.db.query<any>('select used_at from capability_links where id = $1', [linkId]);
    expect(link.used_at).not.toBeNull();
  });

  it('used twice: the second answers 410 in words and changes nothing', async () => {
    const id = await bookedShift();
    const { token } = await mint(id);
    expect((await act(token)).statusCode).toBe(200);
    await fixtureWrite(t.db, `update shifts set status = 'assigned' where id = $1`, [id]);
    const again = await act(token);
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(LINK_USED);
    expect(await statusOf(id)).toBe('assigned');
    expect((await show(token)).statusCode).toBe(410);
  });

  it('expired: 410 in words, on reading and on acting', async () => {
    const id = await bookedShift();
    const { id: linkId, token } = await mint(id);
    await t.db.query(`update capability_links set expires_at = now() - interval '1 minute' where id = $1`, [linkId]);
    const res = await act(token);
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toBe(LINK_EXPIRED);
    expect((await show(token)).json().message).toBe(LINK_EXPIRED);
    expect(await statusOf(id)).toBe('assigned');
  });

  it('altered or unknown: 404 in words', async () => {
    const id = await bookedShift();
    const { token } = await mint(id);
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const bad of [altered, 'not-a-link', token.slice(0, -1)]) {
      const res = await act(bad);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json().message).toBe(LINK_INVALID);
      expect((await show(bad)).statusCode).toBe(404);
    }
    expect(await statusOf(id)).toBe('assigned');
    // The untouched link still works.
    expect((await act(token)).statusCode).toBe(200);
  });

  it('another action: 403, nothing changes, and the link stays usable for its own action', async () => {
    const id = await bookedShift();
    const { token } = await mint(id);
    for (const other of ['cancel', 'unassign', 'remove', 'no_such_action']) {
      const res = await act(token, other, { reason: 'not allowed' });
      expect(res.statusCode, other).toBe(403);
      expect(res.json().message).toBe('This link lets you do one thing only: Close.');
    }
    expect(await statusOf(id)).toBe('assigned');
    expect((await act(token)).statusCode).toBe(200);
  });

  it('another record: the holder’s scope is the one record, so any other answers 404 through the engine', async () => {
    const [id, other] = [await bookedShift(), await bookedShift()];
    const { id: linkId } = await mint(id);
    const c = t.app.engine.get('shifts')!;
    const holder = linkPrincipal({
      id: linkId,
      merchant_id: merchantId,
      resource: 'shifts',
      record_id: id,
      action: 'close',
      recipient: APPROVER,
      delivered_via: 'email',
    });
    const ctx = { ...(await adminCtx()), principal: holder };
    await expect(getRecord(ctx, c, other)).rejects.toMatchObject({ status: 404 });
    await expect(
      t.db.transaction((tx) => runAction({ ...ctx, db: tx }, c, c.actions.get('close')!, [other], {})),
    ).rejects.toMatchObject({ status: 404 });
    // Nor a record of another resource with the same id.
    await expect(getRecord(ctx, t.app.engine.get('candidates')!, id)).rejects.toMatchObject({ status: 404 });
    expect(await statusOf(other)).toBe('assigned');
  });

  it('bound to the content: a record changed since the link was sent answers 409 in words', async () => {
    const id = await bookedShift();
    const { token } = await mint(id, { bindContent: true });
    const before = await call(t.app, admin, 'GET', `/api/shifts/${id}`);
    const put = await call(t.app, admin, 'PUT', `/api/shifts/${id}`, {
      notes: 'Ward 4 instead',
      version: before.json().data.version,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await show(token)).json().changed).toBe(true);
    const res = await act(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(LINK_CHANGED);
    expect(await statusOf(id)).toBe('assigned');
  });

  it('an unchanged record passes the content binding', async () => {
    const id = await bookedShift();
    const { token } = await mint(id, { bindContent: true });
    expect((await act(token)).statusCode).toBe(200);
  });

  it('stores only the token’s hash, and the token is no bearer session anywhere else', async () => {
    const id = await bookedShift();
    const { id: linkId, token } = await mint(id);
    const [row] = await t.db.query<any>('select token_hash from capability_links where id = $1', [linkId]);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await t.db.query('select * from capability_links where id = $1', [linkId]))).not.toContain(
      token,
    );
    for (const url of ['/api/shifts', `/api/shifts/${id}`])
      expect((await call(t.app, token, 'GET', url)).statusCode, url).toBe(401);
    expect((await call(t.app, token, 'POST', `/api/shifts/${id}/actions/close`, {})).statusCode).toBe(401);
  });

  it('the matrix’s link column: a link’s token is no session on any route whose link column says 401', async () => {
    const { token } = await mint(await bookedShift());
    const rows = matrix.filter((r) => r.expect.link === 401);
    // Exactly the routes an anonymous caller is refused: a link's holder has no session either.
    expect(rows).toEqual(matrix.filter((r) => r.expect.anonymous === 401));
    expect(rows.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const r of rows) {
      const url = r.url.replace(/:id\b/g, '1').replace(/:\w+/g, 'x').replace('*', 'x');
      const res = await t.app.inject({
        method: r.method,
        url,
        headers: { authorization: `Bearer ${token}` },
        payload: r.method === 'GET' ? undefined : {},
      });
      if (res.statusCode !== 401) wrong.push(`${r.method} ${r.url}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('is minted only for a declared action and a record its sender may see', async () => {
    const id = await bookedShift();
    await expect(mint(id, { action: 'cancel' })).rejects.toThrow(/not declared for capability links/);
    await expect(mint(2_000_000_000)).rejects.toMatchObject({ status: 404 });
  });
});
