import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { call, loginAs, makeTestApp, postLogin, type TestApp } from './helpers';
import { invitationTokenSentTo, sendQueuedMail } from './invites';
import { SECRET_PLACEHOLDER } from '../../server/notifications/outbox';

// The third login type: an agency user invites a staff member by e-mail, the staff member sets a password
// through the single-use link and signs in with staff_login, shaped like the other two sign-ins.
let t: TestApp;
let admin: string;
let otherAdmin: string;
let merchantA: number;
let jobRole: number;
let n = 0;

async function newStaff(email = `person.${++n}@invite.example`) {
  const res = await call(t.app, admin, 'POST', '/api/candidates', { first_name: 'Priya', last_name: `Shah${++n}`, email, job_role_id: jobRole });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; email: string; first_name: string; last_name: string };
}
const invite = (token: string, id: number) => call(t.app, token, 'POST', `/api/candidates/${id}/staff_invite`, {});
/** The invitation link's token, from the e-mail as the product's sender sends it (the outbox never holds it). */
async function tokenMailedTo(email: string) {
  const [mail] = await t.db.query<{ event: string }>('select event from email_outbox where recipient = $1 order by id desc limit 1', [email]);
  expect(mail.event).toBe('staff.invite');
  return invitationTokenSentTo(t.db, email);
}
const accept = (token: string, password: string) => t.app.inject({ method: 'POST', url: `/api/staff_invites/${token}`, payload: { password } });

beforeAll(async () => {
  t = await makeTestApp({ candidates: 10 });
  [admin, otherAdmin] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'otherAdmin')]);
  merchantA = (await t.db.query<any>(`select id from merchants where company_name = 'Brightway Staffing'`))[0].id;
  jobRole = (await t.db.query<any>('select id from job_roles where merchant_id = $1 order by id limit 1', [merchantA]))[0].id;
});
afterAll(async () => {
  await t?.close();
});

describe('the staff invite', () => {
  it('e-mails a single-use link (only its hash is stored); the staff member sets a password and is signed in', async () => {
    const person = await newStaff();
    const res = await invite(admin, person.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: person.email, message: `An invitation was e-mailed to ${person.email}.` });
    const token = await tokenMailedTo(person.email);
    const [stored] = await t.db.query<any>('select token_hash from staff_invites where candidate_id = $1', [person.id]);
    expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

    const page = await t.app.inject({ method: 'GET', url: `/api/staff_invites/${token}` });
    expect(page.json()).toEqual({ name: `${person.first_name} ${person.last_name}`, email: person.email, agency: 'Brightway Staffing' });

    const short = await accept(token, 'short');
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({ password: 'Use at least 10 characters.' });

    const done = await accept(token, 'my-own-password');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ login_type: 'staff', merchant_id: merchantA, candidate_id: person.id, user: { email: person.email, role: 'staff' } });
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
    await t.db.query('update staff_invites set expires_at = now() - interval \'1 minute\' where candidate_id = $1', [person.id]);
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

  it('refuses a staff member without an e-mail address (422), and another agency\'s staff member (404)', async () => {
    // The staff form requires an e-mail address; records imported without one exist.
    const noEmail = await newStaff();
    await t.db.query('update candidates set email = null where id = $1', [noEmail.id]);
    const res = await invite(admin, noEmail.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: 'Add an e-mail address to this staff member before inviting them.' });
    const person = await newStaff();
    expect((await invite(otherAdmin, person.id)).statusCode).toBe(404);
    expect((await t.db.query('select 1 from staff_invites where candidate_id = $1', [person.id])).length).toBe(0);
  });
});

describe('staff_login', () => {
  it('signs in with the shape of the other sign-ins; GET answers the signed-in staff member', async () => {
    const res = await postLogin(t.app, 'staff', 'staff@demo.test', 'demo-staff');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['candidate_id', 'login_type', 'merchant_id', 'token', 'token_expiration', 'user']);
    expect(body).toMatchObject({ login_type: 'staff', merchant_id: merchantA, user: { email: 'staff@demo.test', role: 'staff' } });
    expect(Date.parse(body.token_expiration)).toBeGreaterThan(Date.now());
    const me = await call(t.app, body.token, 'GET', '/api/staff_login');
    expect(me.json()).toEqual({ login_type: 'staff', merchant_id: merchantA, candidate_id: body.candidate_id, user: body.user });
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
