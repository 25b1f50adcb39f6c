import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO, loginAs, makeTestApp, openTestDb, postLogin, type TestApp } from './helpers';
import { invitationTokenSentTo, userInvitationTokenSentTo } from './invites';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { LINK_REVOKED, mintLink } from '../../server/engine/capability';
import { contextFor } from './capabilityLinks';
import { INVITE_INVALID } from '../../server/auth/staffInvites';
import { USER_INVITE_INVALID } from '../../server/auth/userInvites';
import { addDaysToDate, agencyToday, zonedDateTimeToInstant } from '../../core/domain/time/agencyTime';

// Issue 16 item 8: staff and user invitations are capability links. The e-mail carries the link's token; accepting
// it is the link's one action (accept_invitation on the sign-in), run by the engine as the link's holder. A link
// used twice, expired, altered, withdrawn, or meant for another record is refused in words; the audit entry names
// the link.
let t: TestApp;
let admin: string;
let merchantA: number;
let jobRole: number;
let n = 0;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  admin = await loginAs(t.app, 'admin');
  merchantA = (await t.db.query<any>(`select id from merchants where company_name = 'Brightway Staffing'`))[0].id;
  jobRole = (
    await t.db.query<any>('select id from job_roles where merchant_id = $1 order by id limit 1', [merchantA])
  )[0].id;
});
afterAll(async () => {
  await t?.close();
});
// Passwords are hashed (Argon2id) on every acceptance: on a busy machine that takes longer than the default.
const slow = { timeout: 120_000 };

/** A new staff member of agency A, invited: their id, address and the token the e-mail carried. */
async function invitedStaff() {
  const email = `invited.${++n}.${Date.now()}@links.example`;
  const made = await call(t.app, admin, 'POST', '/api/candidates', {
    first_name: 'Ravi',
    last_name: `Link${n}`,
    email,
    job_role_id: jobRole,
  });
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json().data.id as number;
  expect((await call(t.app, admin, 'POST', `/api/candidates/${id}/staff_invite`, {})).statusCode).toBe(200);
  return { id, email, token: await invitationTokenSentTo(t, email) };
}
/** A new consultant of agency A, invited: their user id, address and the token the e-mail carried. */
async function invitedUser() {
  const email = `colleague.${++n}.${Date.now()}@links.example`;
  const made = await call(t.app, admin, 'POST', '/api/users', { name: `Colleague ${n}`, email, role: 'consultant' });
  expect(made.statusCode, made.body).toBe(201);
  return { id: made.json().data.id as number, email, token: await userInvitationTokenSentTo(t, email) };
}

const staffPage = (token: string) => t.app.inject({ method: 'GET', url: `/api/staff_invites/${token}` });
const acceptStaff = (token: string, password = 'a-staff-password') =>
  t.app.inject({ method: 'POST', url: `/api/staff_invites/${token}`, payload: { password } });
const userPage = (token: string) => t.app.inject({ method: 'GET', url: `/api/user_invites/${token}` });
const acceptUser = (token: string, password = 'a-colleague-password') =>
  t.app.inject({ method: 'POST', url: `/api/user_invites/${token}`, payload: { password } });
const linkAct = (token: string, action: string, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `/api/capability/${token}/actions/${action}`, payload: payload as any });

/** Both routes of an invitation refuse `token` with `words` (404), and nothing is signed in. */
async function refused(kind: 'staff' | 'user', token: string, words: string) {
  for (const res of kind === 'staff'
    ? [await staffPage(token), await acceptStaff(token)]
    : [await userPage(token), await acceptUser(token)]) {
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toBe(words);
  }
}

describe('an invitation link used twice, expired, altered or withdrawn', slow, () => {
  it('used twice: the second use is refused in words and the first password stays', async () => {
    const staff = await invitedStaff();
    expect((await acceptStaff(staff.token, 'the-first-password')).statusCode).toBe(200);
    await refused('staff', staff.token, INVITE_INVALID);
    expect((await postLogin(t.app, 'staff', staff.email, 'a-staff-password')).statusCode).toBe(401);
    expect((await postLogin(t.app, 'staff', staff.email, 'the-first-password')).statusCode).toBe(200);

    const user = await invitedUser();
    expect((await acceptUser(user.token, 'the-first-password')).statusCode).toBe(200);
    await refused('user', user.token, USER_INVITE_INVALID);
    expect((await postLogin(t.app, 'admin', user.email, 'the-first-password')).statusCode).toBe(200);
  });

  it('two acceptances at once: one sets the password, the other finds the link used', async () => {
    const staff = await invitedStaff();
    const both = await Promise.all([
      acceptStaff(staff.token, 'password-one-x'),
      acceptStaff(staff.token, 'password-two-x'),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    const [{ n: uses }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where resource = 'staff_logins' and action = 'accept_invitation'
          and record_id = (select id from users where candidate_id = $1)`,
      [staff.id],
    );
    expect(uses).toBe(1);
  });

  it('expired: refused in words, and the sign-in keeps no password', async () => {
    const staff = await invitedStaff();
    await t.db.query(
      `update capability_links set expires_at = now() - interval '1 minute'
        where resource = 'staff_logins' and record_id = (select id from users where candidate_id = $1)`,
      [staff.id],
    );
    await refused('staff', staff.token, INVITE_INVALID);
    const [login] = await t.db.query<any>('select password_hash from users where candidate_id = $1', [staff.id]);
    expect(login.password_hash).toBeNull();

    const user = await invitedUser();
    await t.db.query(
      `update capability_links set expires_at = now() - interval '1 minute' where resource = 'users' and record_id = $1`,
      [user.id],
    );
    await refused('user', user.token, USER_INVITE_INVALID);
  });

  it('altered or made up: refused in words; the untouched link still works', async () => {
    const staff = await invitedStaff();
    const altered = (staff.token[0] === 'A' ? 'B' : 'A') + staff.token.slice(1);
    for (const bad of [altered, staff.token.slice(0, -1), `${staff.token}x`, 'not-a-real-invitation'])
      await refused('staff', bad, INVITE_INVALID);
    expect((await acceptStaff(staff.token)).statusCode).toBe(200);

    const user = await invitedUser();
    await refused('user', user.token.slice(1), USER_INVITE_INVALID);
    expect((await acceptUser(user.token)).statusCode).toBe(200);
  });

  it('withdrawn by a newer invitation: the invitation page refuses it in words, the link route says why', async () => {
    const staff = await invitedStaff();
    expect((await call(t.app, admin, 'POST', `/api/candidates/${staff.id}/staff_invite`, {})).statusCode).toBe(200);
    const newer = await invitationTokenSentTo(t, staff.email);
    await refused('staff', staff.token, INVITE_INVALID);
    const res = await linkAct(staff.token, 'accept_invitation', { password: 'a-staff-password' });
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toBe(LINK_REVOKED);
    expect((await acceptStaff(newer)).statusCode).toBe(200);
  });
});

describe('an invitation link for another record', slow, () => {
  it('a staff invitation opens no user invitation, a user invitation no staff invitation', async () => {
    const staff = await invitedStaff();
    const user = await invitedUser();
    await refused('user', staff.token, USER_INVITE_INVALID);
    await refused('staff', user.token, INVITE_INVALID);
    // Neither was used up by the attempt.
    expect((await acceptStaff(staff.token)).statusCode).toBe(200);
    expect((await acceptUser(user.token)).statusCode).toBe(200);
  });

  it('a link to a shift opens no invitation; an invitation runs no other action', async () => {
    const shiftLink = await shiftCloseLink();
    await refused('staff', shiftLink, INVITE_INVALID);
    await refused('user', shiftLink, USER_INVITE_INVALID);
    const staff = await invitedStaff();
    for (const other of ['close', 'deactivate', 'resend', 'no_such_action']) {
      const res = await linkAct(staff.token, other, { password: 'a-staff-password' });
      expect(res.statusCode, other).toBe(403);
      expect(res.json().message).toBe('This link lets you do one thing only: Accept the invitation.');
    }
    expect((await acceptStaff(staff.token)).statusCode).toBe(200);
  });

  it('its holder reaches the one sign-in it was sent for, and no other record', async () => {
    const user = await invitedUser();
    const [link] = await t.db.query<any>(
      `select id from capability_links where resource = 'users' and record_id = $1 and used_at is null`,
      [user.id],
    );
    const [other] = await t.db.query<any>(`select id from users where email = $1`, [DEMO.consultant.email]);
    const c = t.app.engine.get('users')!;
    const { getRecord } = await import('../../server/engine/query');
    const { linkPrincipal } = await import('../../server/engine/capability');
    const holder = linkPrincipal({
      id: link.id,
      merchant_id: merchantA,
      resource: 'users',
      record_id: user.id,
      action: 'accept_invitation',
      recipient: user.email,
      delivered_via: 'email',
    });
    const ctx = { ...(await contextFor(t, merchantA)), principal: holder };
    expect((await getRecord(ctx, c, user.id)).id).toBe(user.id);
    await expect(getRecord(ctx, c, other.id)).rejects.toMatchObject({ status: 404 });
    await expect(getRecord(ctx, t.app.engine.get('staff_logins')!, user.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('accepting is the link’s action, through the engine', slow, () => {
  it('the staff sign-in and the user’s password are written with a new version and an audit entry naming the link', async () => {
    const staff = await invitedStaff();
    const [before] = await t.db.query<any>('select id, version from users where candidate_id = $1', [staff.id]);
    expect((await acceptStaff(staff.token, 'my-staff-password')).statusCode).toBe(200);
    const [after] = await t.db.query<any>('select version, password_hash from users where id = $1', [before.id]);
    expect(after.version).toBe(before.version + 1);
    expect(after.password_hash).toMatch(/^\$argon2id\$/);
    const [entry] = await t.db.query<any>(
      `select user_id, user_name, login_type, event, action, input, changes, subject_resource, subject_id
         from audit_log where resource = 'staff_logins' and record_id = $1 and action = 'accept_invitation'`,
      [before.id],
    );
    expect(entry).toEqual({
      user_id: null,
      user_name: `via link sent to ${staff.email} by e-mail`,
      login_type: 'link',
      event: 'action',
      action: 'accept_invitation',
      input: {},
      changes: { password_hash: { from: null, to: 'set' } },
      // Filed under the staff member: their history lists it.
      subject_resource: 'candidates',
      subject_id: staff.id,
    });
    const [link] = await t.db.query<any>(
      `select used_at from capability_links where resource = 'staff_logins' and record_id = $1`,
      [before.id],
    );
    expect(link.used_at).not.toBeNull();

    const user = await invitedUser();
    expect((await acceptUser(user.token, 'my-user-password')).statusCode).toBe(200);
    const history = await call(t.app, admin, 'GET', `/api/audit_entries?resource=users&record_id=${user.id}`);
    expect(history.json().data.map((e: any) => [e.action, e.user_name])).toContainEqual([
      'accept_invitation',
      `via link sent to ${user.email} by e-mail`,
    ]);
    expect(history.body).not.toMatch(/my-user-password|scrypt|argon2/);
  });

  it('the public link route runs the same action with the engine’s own checks', async () => {
    const user = await invitedUser();
    const short = await linkAct(user.token, 'accept_invitation', { password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(Object.keys(short.json().errors)).toEqual(['password']);
    const view = await t.app.inject({ method: 'GET', url: `/api/capability/${user.token}` });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({ resource: 'users', action: { name: 'accept_invitation' } });
    // The holder reads nothing of the user (no field names 'link'), least of all the password's hash.
    expect(Object.keys(view.json().data).sort()).toEqual(['id', 'updated_at', 'version']);
    expect((await linkAct(user.token, 'accept_invitation', { password: 'set-through-link' })).statusCode).toBe(200);
    expect((await postLogin(t.app, 'admin', user.email, 'set-through-link')).statusCode).toBe(200);
  });

  it('nobody signed in runs accept_invitation on a record: only a link’s holder may, and it has no other route', async () => {
    const user = await invitedUser();
    const res = await call(t.app, admin, 'POST', `/api/users/${user.id}/actions/accept_invitation`, {
      password: 'admin-chosen-password',
    });
    expect(res.statusCode).toBe(404);
    expect((await postLogin(t.app, 'admin', user.email, 'admin-chosen-password')).statusCode).toBe(401);
  });
});

describe('upgrading: invitations already e-mailed keep working', slow, () => {
  it('open staff and user invitations move onto links with their token; their queued e-mails follow them', async () => {
    const { db, close } = await openTestDb();
    const at = migrations.findIndex((m) => m.id === '045_invitations_as_links');
    const later = migrations.splice(at);
    try {
      await migrate(db);
      const one = async (sql: string, params: unknown[] = []) => (await db.query<any>(sql, params))[0];
      const m = await one(`insert into merchants (company_name) values ('Upgrade Agency') returning id`);
      const admin = await one(
        `insert into users (merchant_id, kind, name, email, password_hash, role) values ($1, 'admin', 'Ada', 'ada@up.example', 'x', 'admin') returning id`,
        [m.id],
      );
      const invitedUser = await one(
        `insert into users (merchant_id, kind, name, email, role) values ($1, 'admin', 'Una', 'una@up.example', 'consultant') returning id`,
        [m.id],
      );
      const cand = await one(
        `insert into candidates (merchant_id, first_name, last_name, email) values ($1, 'Sid', 'Staff', 'sid@up.example') returning id`,
        [m.id],
      );
      const { createHash } = await import('node:crypto');
      const sha = (s: string) => createHash('sha256').update(s).digest('hex');
      const userInvite = await one(
        `insert into user_invites (merchant_id, user_id, email, token_hash, expires_at, invited_by) values ($1, $2, 'una@up.example', $3, now() + interval '3 days', $4) returning id`,
        [m.id, invitedUser.id, sha('user-token'), admin.id],
      );
      const staffInvite = await one(
        `insert into staff_invites (merchant_id, candidate_id, email, token_hash, expires_at, invited_by) values ($1, $2, 'sid@up.example', $3, now() + interval '3 days', $4) returning id`,
        [m.id, cand.id, sha('staff-token'), admin.id],
      );
      // A used one moves nowhere; a queued e-mail of each kind waits for its link.
      await db.query(
        `insert into staff_invites (merchant_id, candidate_id, email, token_hash, expires_at, used_at) values ($1, $2, 'sid@up.example', $3, now() + interval '3 days', now())`,
        [m.id, cand.id, sha('used-token')],
      );
      for (const [kind, ref] of [
        ['user.invite', userInvite.id],
        ['staff.invite', staffInvite.id],
      ])
        await db.query(
          `insert into email_outbox (merchant_id, recipient, subject, text, html, event, secret_kind, secret_ref) values ($1, 'x@up.example', 's', 't', 'h', $2, $2, $3)`,
          [m.id, kind, ref],
        );
      await db.query(
        `insert into audit_log (merchant_id, resource, record_id, subject_resource, subject_id, event, changes, user_name, login_type)
         values ($1, 'users', $2, 'users', $2, 'create', '{"password_hash": {"from": null, "to": "scrypt$1$2$3$salt$key"}, "name": {"from": null, "to": "Ada"}}', 'Ada', 'admin')`,
        [m.id, admin.id],
      );

      migrations.push(...later.splice(0));
      await migrate(db);

      const links = await db.query<any>(
        `select resource, record_id, action, token_hash, recipient, used_at from capability_links where merchant_id = $1 order by resource`,
        [m.id],
      );
      const login = await one(`select id, kind, name, email, password_hash from users where candidate_id = $1`, [
        cand.id,
      ]);
      expect(login).toMatchObject({ kind: 'staff', name: 'Sid Staff', email: 'sid@up.example', password_hash: null });
      expect(links).toEqual([
        {
          resource: 'staff_logins',
          record_id: login.id,
          action: 'accept_invitation',
          token_hash: sha('staff-token'),
          recipient: 'sid@up.example',
          used_at: null,
        },
        {
          resource: 'users',
          record_id: invitedUser.id,
          action: 'accept_invitation',
          token_hash: sha('user-token'),
          recipient: 'una@up.example',
          used_at: null,
        },
      ]);
      const refs = await db.query<any>(
        `select o.secret_kind, l.resource from email_outbox o join capability_links l on l.id = o.secret_ref where o.merchant_id = $1 order by 1`,
        [m.id],
      );
      expect(refs).toEqual([
        { secret_kind: 'staff.invite', resource: 'staff_logins' },
        { secret_kind: 'user.invite', resource: 'users' },
      ]);
      // No password hash is left in the trail.
      const [entry] = await db.query<any>(`select changes from audit_log where merchant_id = $1`, [m.id]);
      expect(entry.changes).toEqual({ password_hash: { from: null, to: 'set' }, name: { from: null, to: 'Ada' } });
    } finally {
      if (later.length) migrations.push(...later.splice(0));
      await close();
    }
  });
});

/** A link to close one of agency A's shifts: a capability link that is no invitation. */
async function shiftCloseLink(): Promise<string> {
  const [site] = await t.db.query<any>(
    'select id, client_id from sites where merchant_id = $1 and deleted_at is null order by id limit 1',
    [merchantA],
  );
  const date = addDaysToDate(agencyToday('Europe/London'), -40 - ++n);
  const res = await call(t.app, admin, 'POST', '/api/shifts', {
    client_id: site.client_id,
    site_id: site.id,
    job_role_id: jobRole,
    start_at: zonedDateTimeToInstant(date, '08:00', 'Europe/London').toISOString(),
    end_at: zonedDateTimeToInstant(date, '16:00', 'Europe/London').toISOString(),
  });
  expect(res.statusCode, res.body).toBe(201);
  const ctx = await contextFor(t, merchantA);
  const { token } = await t.db.transaction((tx) =>
    mintLink({ ...ctx, db: tx }, t.app.engine.get('shifts')!, res.json().data.id, {
      action: 'close',
      purpose: 'Confirm the shift was worked',
      recipient: 'approver@client.example',
      deliveredVia: 'email',
    }),
  );
  return token;
}
