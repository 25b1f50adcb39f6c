import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { call, loginAs, makeTestApp, postLogin, type TestApp, fixtureWrite } from './helpers';
import { invitationTokenSentTo, sendQueuedMail } from './invites';
import { SECRET_PLACEHOLDER, setPublicUrl } from '../../server/notifications/outbox';

// The third login type: an agency user invites a staff member by e-mail, the staff member sets a password
// through the single-use link and signs in with staff_login, shaped like the other two sign-ins.
let t: TestApp;
let admin: string;
let otherAdmin: string;
let merchantA: number;
let jobRole: number;
let n = 0;

async function newStaff(email = `person.${++n}@invite.example`) {
  const res = await call(t.app, admin, 'POST', '/api/candidates', {
    first_name: 'Priya',
    last_name: `Shah${++n}`,
    email,
    job_role_id: jobRole,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; email: string; first_name: string; last_name: string };
}
const invite = (token: string, id: number) => call(t.app, token, 'POST', `/api/candidates/${id}/staff_invite`, {});
/** The invitation link's token, from the e-mail as the product's sender sends it (the outbox never holds it). */
async function tokenMailedTo(email: string) {
  const [mail] = await t.db.query<{ event: string }>(
    'select event from email_outbox where recipient = $1 order by id desc limit 1',
    [email],
  );
  expect(mail.event).toBe('staff.invite');
  return invitationTokenSentTo(t, email);
}
const accept = (token: string, password: string) =>
  t.app.inject({ method: 'POST', url: `/api/staff_invites/${token}`, payload: { password } });

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  [admin, otherAdmin] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'otherAdmin')]);
  merchantA = (await t.db.query<any>(`select id from merchants where company_name = 'Brightway Staffing'`))[0].id;
  jobRole = (
    await t.db.query<any>('select id from job_roles where merchant_id = $1 order by id limit 1', [merchantA])
  )[0].id;
});
afterAll(async () => {
  await t?.close();
});

describe('the staff invite', () => {
  it('e-mails a single-use link (only its hash is stored); the staff member sets a password and is signed in', async () => {
    const person = await newStaff();
    const res = await invite(admin, person.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      email: person.email,
      message: `An invitation was e-mailed to ${person.email}.`,
    });
    const token = await tokenMailedTo(person.email);
    const [stored] = await t.db.query<any>(
      `select token_hash from capability_links where resource = 'staff_logins' and record_id in (select id from users where candidate_id = $1)`,
      [person.id],
    );
    expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

    const page = await t.app.inject({ method: 'GET', url: `/api/staff_invites/${token}` });
    expect(page.json()).toEqual({
      name: `${person.first_name} ${person.last_name}`,
      email: person.email,
      agency: 'Brightway Staffing',
    });

    const short = await accept(token, 'short');
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({ password: 'Use at least 10 characters.' });

    const done = await accept(token, 'my-own-password');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      login_type: 'staff',
      merchant_id: merchantA,
      candidate_id: person.id,
      agency_name: 'Brightway Staffing',
      user: { email: person.email, role: 'staff' },
    });
    expect((await call(t.app, done.json().token, 'GET', '/api/staff_login')).statusCode).toBe(200);

    // Used up: neither the page nor the password form accepts it again.
    expect((await t.app.inject({ method: 'GET', url: `/api/staff_invites/${token}` })).statusCode).toBe(404);
    const again = await accept(token, 'another-password');
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('This invitation link is not valid any more. Ask your agency for a new one.');
    // The password set through the link signs in.
    expect((await postLogin(t.app, 'staff', person.email, 'my-own-password')).statusCode).toBe(200);
  });

  it('an expired link and a replaced link do not work; a new one resets the password and ends other sessions', async () => {
    const person = await newStaff();
    await invite(admin, person.id);
    const first = await tokenMailedTo(person.email);
    await t.db.query(
      `update capability_links set expires_at = now() - interval '1 minute' where resource = 'staff_logins' and record_id in (select id from users where candidate_id = $1)`,
      [person.id],
    );
    expect((await accept(first, 'my-own-password')).statusCode).toBe(404);

    await invite(admin, person.id);
    const second = await tokenMailedTo(person.email);
    await invite(admin, person.id);
    const third = await tokenMailedTo(person.email);
    expect((await accept(second, 'my-own-password')).statusCode).toBe(404);
    const session = (await accept(third, 'my-own-password')).json().token;

    // A forgotten password: a new invitation changes it, and the old session ends.
    await invite(admin, person.id);
    expect((await accept(await tokenMailedTo(person.email), 'a-second-password')).statusCode).toBe(200);
    expect((await call(t.app, session, 'GET', '/api/staff_login')).statusCode).toBe(401);
    expect((await postLogin(t.app, 'staff', person.email, 'my-own-password')).statusCode).toBe(401);
    expect((await postLogin(t.app, 'staff', person.email, 'a-second-password')).statusCode).toBe(200);
    expect((await t.db.query('select 1 from users where candidate_id = $1', [person.id])).length).toBe(1);
  });

  it("refuses a staff member without an e-mail address (422), and another agency's staff member (404)", async () => {
    // The staff form requires an e-mail address; records imported without one exist.
    const noEmail = await newStaff();
    await fixtureWrite(t.db, 'update candidates set email = null where id = $1', [noEmail.id]);
    const res = await invite(admin, noEmail.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: 'Add an e-mail address to this staff member before inviting them.' });
    const person = await newStaff();
    expect((await invite(otherAdmin, person.id)).statusCode).toBe(404);
    expect(
      (
        await t.db.query(
          `select 1 from capability_links where resource = 'staff_logins' and record_id in (select id from users where candidate_id = $1)`,
          [person.id],
        )
      ).length,
    ).toBe(0);
  });
});

describe('staff_login', () => {
  it('signs in with the shape of the other sign-ins; GET answers the signed-in staff member', async () => {
    const res = await postLogin(t.app, 'staff', 'staff@demo.test', 'demo-staff');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'agency_name',
      'agency_time_zone',
      'candidate_id',
      'login_type',
      'merchant_id',
      'token',
      'token_expiration',
      'user',
    ]);
    // The agency's name: the staff page's titles say whose page it is; its time zone, in which My shifts shows times.
    expect(body).toMatchObject({
      login_type: 'staff',
      merchant_id: merchantA,
      agency_name: 'Brightway Staffing',
      agency_time_zone: 'Europe/London',
      user: { email: 'staff@demo.test', role: 'staff' },
    });
    expect(Date.parse(body.token_expiration)).toBeGreaterThan(Date.now());
    const me = await call(t.app, body.token, 'GET', '/api/staff_login');
    expect(me.json()).toEqual({
      login_type: 'staff',
      merchant_id: merchantA,
      candidate_id: body.candidate_id,
      agency_name: 'Brightway Staffing',
      agency_time_zone: 'Europe/London',
      user: body.user,
    });
    // The panels are apart: a staff token is not an agency's, and a staff password does not open the agency panel.
    expect((await call(t.app, body.token, 'GET', '/api/admin_login')).statusCode).toBe(403);
    expect((await call(t.app, admin, 'GET', '/api/staff_login')).statusCode).toBe(403);
    expect((await postLogin(t.app, 'admin', 'staff@demo.test', 'demo-staff')).statusCode).toBe(401);
    expect((await postLogin(t.app, 'staff', 'admin@demo.test', 'demo-admin')).statusCode).toBe(401);
    // Signing out works for staff too.
    expect((await call(t.app, body.token, 'POST', '/api/logout')).statusCode).toBe(200);
    expect((await call(t.app, body.token, 'GET', '/api/staff_login')).statusCode).toBe(401);
  });

  it('a wrong password answers like the other sign-ins, and the sign-in throttle applies', async () => {
    const person = await newStaff();
    await invite(admin, person.id);
    await accept(await tokenMailedTo(person.email), 'the-right-password');
    const wrong = await postLogin(t.app, 'staff', person.email, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('The e-mail address or password is incorrect.');
    for (let i = 0; i < 4; i++) await postLogin(t.app, 'staff', person.email, 'not-the-password');
    const locked = await postLogin(t.app, 'staff', person.email, 'the-right-password');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it('a staff member whose staff record is deleted cannot sign in', async () => {
    const person = await newStaff();
    await invite(admin, person.id);
    await accept(await tokenMailedTo(person.email), 'the-right-password');
    expect((await call(t.app, admin, 'DELETE', `/api/candidates/${person.id}`)).statusCode).toBe(200);
    expect((await postLogin(t.app, 'staff', person.email, 'the-right-password')).statusCode).toBe(401);
  });
});

describe('invitation links are secrets of the staff member (issue 13, item 10)', () => {
  it('the stored e-mail and every screen of it show a placeholder; the link is made when the e-mail is sent, and only its hash is kept', async () => {
    const person = await newStaff();
    // With the product's public address the HTML carries the link too (a button).
    setPublicUrl('https://office.example');
    try {
      expect((await invite(admin, person.id)).statusCode).toBe(200);
    } finally {
      setPublicUrl(null);
    }
    const [stored] = await t.db.query<{ id: number; text: string; html: string }>(
      'select id, text, html from email_outbox where recipient = $1 order by id desc limit 1',
      [person.email],
    );
    expect(stored.text).toContain(`/staff-app/invite/${SECRET_PLACEHOLDER}`);
    expect(stored.html).toContain(`/staff-app/invite/${SECRET_PLACEHOLDER}`);
    // Nothing to accept yet: no token exists until the e-mail is sent.
    expect(
      (
        await t.db.query<any>(
          `select token_hash from capability_links where resource = 'staff_logins' and record_id in (select id from users where candidate_id = $1)`,
          [person.id],
        )
      )[0].token_hash,
    ).toBeNull();
    // A consultant reading the outbox sees no working link.
    const consultant = await loginAs(t.app, 'consultant');
    const shown = await call(t.app, consultant, 'GET', `/api/email_outbox/${stored.id}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.body).toContain(SECRET_PLACEHOLDER);
    expect((await accept(SECRET_PLACEHOLDER, 'consultant-chosen-password')).statusCode).toBe(404);

    const sent = (await sendQueuedMail(t)).find(
      (m) => (typeof m.to === 'string' ? m.to : m.to.address) === person.email,
    )!;
    const token = /\/staff-app\/invite\/([\w-]+)/.exec(sent.text)![1];
    expect(sent.html).toContain(`href="https://office.example/staff-app/invite/${token}"`);
    expect(sent.text + sent.html).not.toContain(SECRET_PLACEHOLDER);
    const [{ token_hash }] = await t.db.query<any>(
      `select token_hash from capability_links where resource = 'staff_logins' and record_id in (select id from users where candidate_id = $1)`,
      [person.id],
    );
    expect(token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    // The outbox still holds only the placeholder, after sending too.
    const after = await call(t.app, consultant, 'GET', `/api/email_outbox/${stored.id}`);
    expect(after.body).not.toContain(token);
    expect((await t.db.query<any>('select text, html from email_outbox where id = $1', [stored.id]))[0]).toEqual({
      text: stored.text,
      html: stored.html,
    });
    expect((await accept(token, 'my-own-password')).statusCode).toBe(200);
  });

  it('an e-mail whose invitation was replaced before it went out is not sent (its link could never work)', async () => {
    const person = await newStaff();
    await invite(admin, person.id);
    await invite(admin, person.id);
    const sent = (await sendQueuedMail(t)).filter(
      (m) => (typeof m.to === 'string' ? m.to : m.to.address) === person.email,
    );
    expect(sent).toHaveLength(1);
    const rows = await t.db.query<{ status: string; last_error: string | null }>(
      'select status, last_error from email_outbox where recipient = $1 order by id',
      [person.email],
    );
    expect(rows.map((r) => r.status)).toEqual(['failed', 'sent']);
    expect(rows[0].last_error).toMatch(/no longer valid/);
  });

  it('staff logins are per agency: another agency invites the same address without touching this one, and the password chooses the agency', async () => {
    const email = `two.agencies.${++n}@invite.example`;
    const mine = await newStaff(email);
    await invite(admin, mine.id);
    expect((await accept(await tokenMailedTo(email), 'password-at-agency-a')).statusCode).toBe(200);

    // Agency B has the same person on its books and invites them: its own login, nothing said about agency A's.
    const roleB = (
      await t.db.query<any>(
        `select id from job_roles where merchant_id = (select merchant_id from users where email = 'admin@other.test') order by id limit 1`,
      )
    )[0].id;
    const theirs = await call(t.app, otherAdmin, 'POST', '/api/candidates', {
      first_name: 'Priya',
      last_name: 'Elsewhere',
      email,
      job_role_id: roleB,
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const invited = await invite(otherAdmin, theirs.json().data.id);
    expect(invited.statusCode, invited.body).toBe(200);
    const atB = await accept(await tokenMailedTo(email), 'password-at-agency-b');
    expect(atB.statusCode, atB.body).toBe(200);
    expect(atB.json().merchant_id).not.toBe(merchantA);

    const a = await postLogin(t.app, 'staff', email, 'password-at-agency-a');
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toMatchObject({ merchant_id: merchantA, candidate_id: mine.id });
    const b = await postLogin(t.app, 'staff', email, 'password-at-agency-b');
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json()).toMatchObject({ merchant_id: atB.json().merchant_id, candidate_id: theirs.json().data.id });
    expect((await postLogin(t.app, 'staff', email, 'neither-password')).statusCode).toBe(401);
    // Agency A can still invite its staff member again (a forgotten password).
    expect((await invite(admin, mine.id)).statusCode).toBe(200);
  });
});

describe('the right to sign in (issue 13, item 8)', () => {
  async function signedInStaff() {
    const person = await newStaff();
    await invite(admin, person.id);
    await accept(await tokenMailedTo(person.email), 'the-right-password');
    const token = (await postLogin(t.app, 'staff', person.email, 'the-right-password')).json().token as string;
    expect((await call(t.app, token, 'GET', '/api/staff_login')).statusCode).toBe(200);
    return { person, token };
  }
  const act = (id: number, action: string, body: Record<string, unknown> = {}) =>
    call(t.app, admin, 'POST', `/api/candidates/${id}/actions/${action}`, body);

  it('rejecting a staff member ends their sessions and refuses their sign-in and a new invitation', async () => {
    const { person, token } = await signedInStaff();
    const res = await act(person.id, 'reject', { reason: 'Did not turn up to the interview' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(t.app, token, 'GET', '/api/staff_login')).statusCode).toBe(401);
    expect((await postLogin(t.app, 'staff', person.email, 'the-right-password')).statusCode).toBe(401);
    const again = await invite(admin, person.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/rejected/);
  });

  it('deactivating a staff member ends their sessions and refuses their sign-in until they are activated again', async () => {
    const { person, token } = await signedInStaff();
    // A pending staff member may sign in (they are joining); approved and activated, too.
    await fixtureWrite(t.db, `update candidates set status = 'approved', activated = true where id = $1`, [person.id]);
    expect((await call(t.app, token, 'GET', '/api/staff_login')).statusCode).toBe(200);
    const res = await act(person.id, 'deactivate');
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(t.app, token, 'GET', '/api/staff_login')).statusCode).toBe(401);
    expect((await postLogin(t.app, 'staff', person.email, 'the-right-password')).statusCode).toBe(401);
    await fixtureWrite(t.db, 'update candidates set activated = true where id = $1', [person.id]);
    expect((await postLogin(t.app, 'staff', person.email, 'the-right-password')).statusCode).toBe(200);
  });

  it('deleting a staff member ends their sessions at once', async () => {
    const { person, token } = await signedInStaff();
    expect((await call(t.app, admin, 'DELETE', `/api/candidates/${person.id}`)).statusCode).toBe(200);
    expect((await call(t.app, token, 'GET', '/api/staff_login')).statusCode).toBe(401);
    const send = await call(t.app, token, 'POST', '/api/chats/send_message_to_channel', {
      channel_sid: 'CH0',
      message: 'still here?',
    });
    expect(send.statusCode).toBe(401);
  });
});

describe('the audit trail (issue 13, item 3)', () => {
  it('an invitation and its acceptance are audited on the staff member; the acceptance names the link', async () => {
    const person = await newStaff();
    await invite(admin, person.id);
    await accept(await tokenMailedTo(person.email), 'the-right-password');
    // What the staff member's history lists: everything filed under them (their sign-in's entries too).
    const entries = await t.db.query<any>(
      `select resource, event, action, user_name, login_type, input, changes from audit_log
        where subject_resource = 'candidates' and subject_id = $1 and resource <> 'candidates' or (resource = 'candidates' and record_id = $1 and action is not null)
        order by id`,
      [person.id],
    );
    expect(entries).toEqual([
      // Their sign-in, made (without a password) by the agency user who invited them.
      expect.objectContaining({ resource: 'staff_logins', event: 'create', login_type: 'admin' }),
      {
        resource: 'candidates',
        event: 'action',
        action: 'staff_invite',
        user_name: expect.any(String),
        login_type: 'admin',
        input: { email: person.email, expires_at: expect.any(String) },
        changes: {},
      },
      {
        resource: 'staff_logins',
        event: 'action',
        action: 'accept_invitation',
        user_name: `via link sent to ${person.email} by e-mail`,
        login_type: 'link',
        input: {},
        changes: { password_hash: { from: null, to: 'set' } },
      },
    ]);
    // No password, hash or token in the trail.
    expect(JSON.stringify(entries)).not.toMatch(/the-right-password|token|scrypt|argon2/);
  });
});
