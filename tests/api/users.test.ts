import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { call, DEMO, loginAs, makeTestApp, postLogin, type TestApp } from './helpers';
import { deliverMail } from './mail';
import { SECRET_PLACEHOLDER } from '../../server/notifications/outbox';

// Issue 14, item 3: agency users and client users are invited by e-mail (a single-use link that sets their
// password), resent, deactivated and reactivated through the users resource, every change in the audit trail.
let t: TestApp;
let second: FastifyInstance;
let admin: string;
let consultant: string;
let merchantA: number;
let clientA: number;
let n = 0;

/** What the SMTP server was handed, by recipient: the worker puts the link in only as it sends. */
const delivered: { to: string; text: string; html: string }[] = [];
const sendDue = () =>
  deliverMail(t, {
    sendMail: async (m: any) => (
      delivered.push({ to: typeof m.to === 'string' ? m.to : m.to.address, text: m.text, html: m.html }),
      { messageId: `<${delivered.length}@test>` }
    ),
  });
async function linkMailedTo(email: string): Promise<string> {
  await sendDue();
  const mail = delivered.filter((m) => m.to === email).at(-1);
  expect(mail, `an e-mail to ${email}`).toBeDefined();
  return /\/invite\/([\w-]+)/.exec(mail!.text)![1];
}
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const email = () => `colleague.${++n}.${Date.now()}@users.example`;
const invite = (token: string, body: Record<string, unknown>) => call(t.app, token, 'POST', '/api/users', body);
const accept = (token: string, password: string) =>
  t.app.inject({ method: 'POST', url: `/api/user_invites/${token}`, payload: { password } });
const action = (token: string, id: number, name: string) =>
  call(t.app, token, 'POST', `/api/users/${id}/actions/${name}`, {});
const audit = (id: number) =>
  t.db.query<{ event: string; action: string | null; user_name: string; changes: any }>(
    `select event, action, user_name, changes from audit_log where resource = 'users' and record_id = $1 order by id`,
    [id],
  );

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  second = await t.extraApp();
  [admin, consultant] = await Promise.all([loginAs(t.app, 'admin'), loginAs(t.app, 'consultant')]);
  merchantA = (await t.db.query<any>(`select id from merchants where company_name = 'Brightway Staffing'`))[0].id;
  clientA = (await t.db.query<any>(`select id from clients where name = 'Meadowbank Care Home'`))[0].id;
});
afterAll(async () => {
  await t?.close();
});
// Each test sets and checks several passwords (Argon2id): on a busy machine that takes longer than the default.
const slow = { timeout: 120_000 };

describe('inviting an agency user', slow, () => {
  it('e-mails a single-use link (only its hash kept, never in the stored e-mail); it sets the password and the colleague signs in with the chosen role', async () => {
    const address = email();
    const res = await invite(admin, { name: 'Sam Colleague', email: address, role: 'consultant' });
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json().data;
    expect(user).toMatchObject({ name: 'Sam Colleague', email: address, role: 'consultant', status: 'invited' });
    expect(user.password_hash).toBeUndefined();
    // Not signed in before the link is followed.
    expect((await postLogin(t.app, 'admin', address, 'anything-at-all')).statusCode).toBe(401);

    const [queued] = await t.db.query<any>('select text, html, event from email_outbox where recipient = $1', [
      address,
    ]);
    expect(queued.event).toBe('user.invite');
    expect(queued.text).toContain(`/invite/${SECRET_PLACEHOLDER}`);
    const token = await linkMailedTo(address);
    // The stored copy still has the placeholder; only the token's hash is kept.
    const [after] = await t.db.query<any>('select text, html, status from email_outbox where recipient = $1', [
      address,
    ]);
    expect(after.status).toBe('sent');
    expect(after.text + after.html).not.toContain(token);
    const [stored] = await t.db.query<any>(
      `select token_hash from capability_links where resource = 'users' and record_id = $1`,
      [user.id],
    );
    expect(stored).toEqual({ token_hash: sha256(token) });
    // Nor does any agency user read it through the API.
    const outbox = await call(t.app, admin, 'GET', `/api/email_outbox?recipient=${encodeURIComponent(address)}`);
    expect(outbox.body).not.toContain(token);

    const page = await t.app.inject({ method: 'GET', url: `/api/user_invites/${token}` });
    expect(page.json()).toEqual({
      name: 'Sam Colleague',
      email: address,
      agency: 'Brightway Staffing',
      login_type: 'admin',
      client_name: null,
    });
    const short = await accept(token, 'short');
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({ password: 'Use at least 10 characters.' });
    const done = await accept(token, 'colleague-password');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ email: address, login_type: 'admin' });

    const signedIn = await postLogin(t.app, 'admin', address, 'colleague-password');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({
      login_type: 'admin',
      merchant_id: merchantA,
      user: { email: address, role: 'consultant' },
    });
    expect((await call(t.app, admin, 'GET', `/api/users/${user.id}`)).json().data.status).toBe('active');

    // Single use: neither the page nor the form accepts it again.
    expect((await t.app.inject({ method: 'GET', url: `/api/user_invites/${token}` })).statusCode).toBe(404);
    const again = await accept(token, 'another-password');
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('This invitation link is not valid any more. Ask for a new one.');
    expect((await postLogin(t.app, 'admin', address, 'another-password')).statusCode).toBe(401);

    // The invitation (by the admin) and its use (through the link, which the entry names) are in the audit trail;
    // the password's hash is not.
    expect(await audit(user.id)).toEqual([
      expect.objectContaining({ event: 'create', action: null, user_name: 'Alex Morgan' }),
      expect.objectContaining({
        event: 'action',
        action: 'accept_invitation',
        user_name: `via link sent to ${address} by e-mail`,
        changes: { password_hash: { from: null, to: 'set' } },
      }),
    ]);
  });

  it('an expired link does not work; resend replaces the link (an unsent earlier e-mail is not sent at all)', async () => {
    const address = email();
    const user = (await invite(admin, { name: 'Expired Person', email: address, role: 'consultant' })).json().data;
    const first = await linkMailedTo(address);
    await t.db.query(
      `update capability_links set expires_at = now() - interval '1 minute' where resource = 'users' and record_id = $1`,
      [user.id],
    );
    expect((await accept(first, 'a-long-password')).statusCode).toBe(404);
    expect((await call(t.app, admin, 'GET', `/api/users/${user.id}`)).json().data.invited_until).toBeNull();

    const resent = await action(admin, user.id, 'resend');
    expect(resent.statusCode, resent.body).toBe(200);
    const second = await linkMailedTo(address);
    expect(second).not.toBe(first);
    // Resent twice before the worker ran: the first of the two e-mails is withdrawn, only the newest goes out.
    await action(admin, user.id, 'resend');
    await action(admin, user.id, 'resend');
    const before = delivered.length;
    const third = await linkMailedTo(address);
    expect(delivered.length - before).toBe(1);
    const [withdrawn] = await t.db.query<any>(
      `select status, last_error from email_outbox where recipient = $1 order by id desc offset 1 limit 1`,
      [address],
    );
    expect(withdrawn.status).toBe('failed');
    expect(withdrawn.last_error).toMatch(/replaced or withdrawn/);
    expect((await accept(second, 'a-long-password')).statusCode).toBe(404);
    expect((await accept(third, 'a-long-password')).statusCode).toBe(200);
    expect((await postLogin(t.app, 'admin', address, 'a-long-password')).statusCode).toBe(200);
    expect((await audit(user.id)).filter((e) => e.action === 'resend')).toHaveLength(3);
  });

  it('deactivating ends the user\u2019s sessions at once, in every process; they cannot sign in until reactivated', async () => {
    const address = email();
    const user = (await invite(admin, { name: 'Leaving Person', email: address, role: 'consultant' })).json().data;
    await accept(await linkMailedTo(address), 'leaving-password');
    const token = (await postLogin(t.app, 'admin', address, 'leaving-password')).json().token;
    const me = (app: FastifyInstance) =>
      app
        .inject({ method: 'GET', url: '/api/admin_login', headers: { authorization: `Bearer ${token}` } })
        .then((r) => r.statusCode);
    // Both apps look the session up and cache it.
    expect([await me(t.app), await me(second), await me(second)]).toEqual([200, 200, 200]);

    const off = await action(admin, user.id, 'deactivate');
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ status: 'inactive' });
    expect(await me(t.app)).toBe(401);
    await t.app.cluster.settle();
    expect(await soon(() => me(second), 401)).toBe(401);
    expect((await postLogin(t.app, 'admin', address, 'leaving-password')).statusCode).toBe(401);
    // Twice is refused in words; a resend waits for reactivation.
    expect((await action(admin, user.id, 'deactivate')).statusCode).toBe(409);
    expect((await action(admin, user.id, 'resend')).statusCode).toBe(409);

    expect((await action(admin, user.id, 'reactivate')).statusCode).toBe(200);
    expect((await postLogin(t.app, 'admin', address, 'leaving-password')).statusCode).toBe(200);
    expect((await audit(user.id)).map((e) => e.action).filter(Boolean)).toEqual([
      'accept_invitation',
      'deactivate',
      'reactivate',
    ]);
    // Nobody deactivates themselves.
    const [{ id: adminId }] = await t.db.query<any>('select id from users where email = $1', [DEMO.admin.email]);
    expect((await action(admin, adminId, 'deactivate')).statusCode).toBe(409);
  });

  it('deactivating withdraws an unused link', async () => {
    const address = email();
    const user = (await invite(admin, { name: 'Never Came', email: address, role: 'consultant' })).json().data;
    const token = await linkMailedTo(address);
    await action(admin, user.id, 'deactivate');
    expect((await accept(token, 'a-long-password')).statusCode).toBe(404);
  });
});

describe('look-alike e-mail addresses (issue 30.15)', slow, () => {
  it('a full-width or mixed-alphabet address is refused in words for a user and a staff member, and nothing is stored', async () => {
    const lookAlikes: [string, string][] = [
      [
        '\uff41\uff44\uff4d\uff49\uff4e@demo.test',
        'Type the address in ordinary characters: it holds full-width or other look-alike characters',
      ],
      [
        '\u0430dmin@demo.test',
        'Type the address in one alphabet: it mixes letters of different alphabets (such as Latin and Cyrillic)',
      ],
      [
        'admin@d\u0435mo.test',
        'Type the address in one alphabet: it mixes letters of different alphabets (such as Latin and Cyrillic)',
      ],
      [
        '\ufb01nance@demo.test',
        'Type the address in ordinary characters: it holds full-width or other look-alike characters',
      ],
    ];
    const [{ n: before }] = await t.db.query<{ n: number }>('select count(*)::int as n from users');
    for (const [email, words] of lookAlikes) {
      const res = await invite(admin, { name: 'Look Alike', email, role: 'consultant' });
      expect(res.statusCode, email).toBe(422);
      expect(res.json().errors.email, email).toBe(words);
      const staff = await call(t.app, admin, 'POST', '/api/candidates', {
        first_name: 'Look',
        last_name: 'Alike',
        email,
      });
      expect(staff.statusCode, email).toBe(422);
      expect(staff.json().errors.email, email).toBe(words);
    }
    const [{ n: after }] = await t.db.query<{ n: number }>('select count(*)::int as n from users');
    expect(after).toBe(before);
    // An address in one other alphabet throughout is someone's own, and is taken.
    const own = await invite(admin, {
      name: 'Ivan',
      email: `\u0438\u0432\u0430\u043d${++n}@demo.test`,
      role: 'consultant',
    });
    expect(own.statusCode, own.body).toBe(201);
  });

  it('signing in with the full-width form of an address finds the account it looks like (normalised: NFKC, case)', async () => {
    const wide = [...DEMO.consultant.email]
      .map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join('');
    expect(wide).not.toBe(DEMO.consultant.email);
    const res = await postLogin(t.app, 'admin', wide.toUpperCase(), DEMO.consultant.password);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.email).toBe(DEMO.consultant.email);
  });
});

describe('an invitation link is a secret of its recipient', slow, () => {
  it('its token is never stored in plaintext: in no outbox copy and no link row, before, while or after the e-mail is sent', async () => {
    const address = email();
    const user = (await invite(admin, { name: 'Secret Keeper', email: address, role: 'consultant' })).json().data;
    // Everything stored about this invitation and its e-mails, as text.
    const stored = async () =>
      (
        await t.db.query<{ stored: string }>(
          `select coalesce((select string_agg(row_to_json(o)::text, ' ') from email_outbox o where recipient = $1), '')
               || coalesce((select string_agg(row_to_json(i)::text, ' ') from capability_links i where resource = 'users' and record_id = $2), '') as stored`,
          [address, user.id],
        )
      )[0].stored;
    const snapshots = [await stored()];
    const sent: { to: string; text: string; html: string }[] = [];
    await deliverMail(t, {
      // As the e-mail is handed to SMTP, the token exists: what does the database hold at that moment?
      sendMail: async (m: any) => {
        snapshots.push(await stored());
        sent.push({ to: typeof m.to === 'string' ? m.to : m.to.address, text: m.text, html: m.html });
        return { messageId: `<secret-${sent.length}@test>` };
      },
    });
    const mail = sent.find((m) => m.to === address)!;
    const token = /\/invite\/([\w-]+)/.exec(mail.text)![1];
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(mail.text + mail.html).not.toContain(SECRET_PLACEHOLDER);
    snapshots.push(await stored());
    // The rows are there (their hash is the token's), the token itself in none of them.
    for (const snapshot of snapshots) {
      expect(snapshot).toContain(address);
      expect(snapshot).not.toContain(token);
    }
    expect(snapshots.at(-1)).toContain(sha256(token));
    expect((await accept(token, 'secret-keeper-password')).statusCode).toBe(200);
  });
});

describe('who may do what', slow, () => {
  it('a consultant invites consultants and client users, never admins, and changes no roles nor admins\u2019 accounts', async () => {
    const refused = await invite(consultant, { name: 'Would Be Admin', email: email(), role: 'admin' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ role: 'Only an admin can invite an admin.' });
    const ok = await invite(consultant, { name: 'New Consultant', email: email(), role: 'consultant' });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json().data.id;
    expect((await call(t.app, consultant, 'PUT', `/api/users/${id}`, { role: 'admin' })).statusCode).toBe(403);
    expect((await call(t.app, consultant, 'GET', `/api/users/${id}`)).json().data.role).toBe('consultant');
    const [{ id: adminId }] = await t.db.query<any>('select id from users where email = $1', [DEMO.admin.email]);
    for (const a of ['deactivate', 'resend']) {
      const res = await action(consultant, adminId, a);
      expect(res.statusCode, a).toBe(403);
      expect(res.json().message).toBe("Only an admin can change an admin's account.");
    }
    // The consultant may still manage a consultant.
    expect((await action(consultant, id, 'deactivate')).statusCode).toBe(200);
    expect((await action(consultant, id, 'reactivate')).statusCode).toBe(200);
  });

  it('an admin changes roles within a panel, never their own, never across panels', async () => {
    const user = (await invite(admin, { name: 'Promoted Person', email: email(), role: 'consultant' })).json().data;
    const up = await call(t.app, admin, 'PUT', `/api/users/${user.id}`, { role: 'admin', version: user.version });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data.role).toBe('admin');
    const across = await call(t.app, admin, 'PUT', `/api/users/${user.id}`, { role: 'manager' });
    expect(across.statusCode).toBe(422);
    expect(across.json().errors.role).toMatch(/agency role/);
    const [{ id: adminId }] = await t.db.query<any>('select id from users where email = $1', [DEMO.admin.email]);
    const own = await call(t.app, admin, 'PUT', `/api/users/${adminId}`, { role: 'consultant' });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors).toEqual({ role: 'You cannot change your own role.' });
    expect((await audit(user.id)).map((e) => e.event)).toEqual(['create', 'update']);
  });

  it('refuses a second sign-in with one e-mail address, and a panel without its client', async () => {
    const taken = await invite(admin, { name: 'Copy', email: DEMO.consultant.email.toUpperCase(), role: 'consultant' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ email: 'Someone already signs in with this e-mail address.' });
    const noClient = await invite(admin, { name: 'Nobody', email: email(), role: 'manager' });
    expect(noClient.json().errors).toEqual({ client_id: 'Choose the client whose panel they sign in to.' });
    const agencyWithClient = await invite(admin, {
      name: 'Nobody',
      email: email(),
      role: 'consultant',
      client_id: clientA,
    });
    expect(agencyWithClient.json().errors.client_id).toMatch(/belongs to no client/);
  });

  it('staff manage no users; staff sign-ins are not among them', async () => {
    const staff = await loginAs(t.app, 'staff');
    expect((await call(t.app, staff, 'GET', '/api/users')).statusCode).toBe(403);
    const [{ id: staffUser }] = await t.db.query<any>(`select id from users where kind = 'staff' order by id limit 1`);
    expect((await call(t.app, admin, 'GET', `/api/users/${staffUser}`)).statusCode).toBe(404);
    const list = (await call(t.app, admin, 'GET', '/api/users?per_page=100')).json().data as any[];
    expect(list.some((u) => u.kind === 'staff')).toBe(false);
    expect(list.every((u) => u.password_hash === undefined)).toBe(true);
  });
});

describe('a client manager\u2019s colleagues on "My account" (issue 35)', slow, () => {
  it('lists and invites colleagues of their own client only, with client roles; a viewer manages none', async () => {
    const manager = await loginAs(t.app, 'client');
    const [{ id: clientB }] = await t.db.query<any>(`select id from clients where name = 'Oakwood Lodge'`);
    const [{ id: otherClientUser }] = await t.db.query<any>(`select id from users where client_id = $1 limit 1`, [
      clientB,
    ]);
    const [{ id: consultantId }] = await t.db.query<any>(`select id from users where email = $1`, [
      DEMO.consultant.email,
    ]);
    const listed = (await call(t.app, manager, 'GET', '/api/users?per_page=100')).json().data as any[];
    expect(listed.map((u) => u.email)).toContain(DEMO.client.email);
    expect(listed.every((u) => u.client_id === clientA && u.kind === 'client')).toBe(true);
    expect((await call(t.app, manager, 'GET', `/api/users/${consultantId}`)).statusCode).toBe(404);
    expect((await call(t.app, manager, 'GET', `/api/users/${otherClientUser}`)).statusCode).toBe(404);
    expect((await action(manager, otherClientUser, 'deactivate')).statusCode).toBe(404);

    // Agency roles and another client are refused in words, and nothing is stored.
    const asConsultant = await invite(manager, { name: 'Not Agency', email: email(), role: 'consultant' });
    expect(asConsultant.statusCode).toBe(422);
    expect(asConsultant.json().errors).toEqual({ role: 'Choose Client manager or Client viewer.' });
    expect((await invite(manager, { name: 'Not Admin', email: email(), role: 'admin' })).json().errors.role).toBe(
      'Choose Client manager or Client viewer.',
    );
    const elsewhere = await invite(manager, { name: 'Elsewhere', email: email(), role: 'viewer', client_id: clientB });
    expect(elsewhere.statusCode).toBe(422);
    expect(Object.keys(elsewhere.json().errors)).toEqual(['client_id']);
    expect(await t.db.query(`select 1 from users where name in ('Not Agency', 'Not Admin', 'Elsewhere')`)).toEqual([]);

    // A viewer invited without naming the client: of the manager's own, told by e-mail, in the trail by the manager.
    const address = email();
    const made = await invite(manager, { name: 'Vera Viewer', email: address, role: 'viewer' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data).toMatchObject({ kind: 'client', client_id: clientA, role: 'viewer', status: 'invited' });
    const viewerId = made.json().data.id as number;
    expect((await audit(viewerId)).map((e) => [e.event, e.user_name])).toEqual([['create', 'Helen Carter']]);
    expect((await accept(await linkMailedTo(address), 'vera-password')).statusCode).toBe(200);
    const viewer = (await postLogin(t.app, 'client', address, 'vera-password')).json().token as string;
    expect((await call(t.app, viewer, 'GET', '/api/users')).statusCode).toBe(403);
    expect((await invite(viewer, { name: 'x', email: email(), role: 'viewer' })).statusCode).toBe(403);

    // Roles are changed by the agency's admins only.
    expect((await call(t.app, manager, 'PUT', `/api/users/${viewerId}`, { role: 'manager' })).statusCode).toBe(403);
  });

  it('removes a colleague: signed out at once and unable to sign in, until reactivated; never themselves', async () => {
    const manager = await loginAs(t.app, 'client');
    const address = email();
    const viewerId = (await invite(manager, { name: 'Rita Removed', email: address, role: 'viewer' })).json().data
      .id as number;
    await accept(await linkMailedTo(address), 'rita-password');
    const viewer = (await postLogin(t.app, 'client', address, 'rita-password')).json().token as string;
    expect((await call(t.app, viewer, 'GET', '/api/client_login')).statusCode).toBe(200);

    const removed = await action(manager, viewerId, 'deactivate');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.status).toBe('inactive');
    expect((await call(t.app, viewer, 'GET', '/api/client_login')).statusCode).toBe(401);
    expect((await postLogin(t.app, 'client', address, 'rita-password')).statusCode).toBe(401);
    expect((await action(manager, viewerId, 'reactivate')).json().data.status).toBe('active');
    expect((await postLogin(t.app, 'client', address, 'rita-password')).statusCode).toBe(200);

    const [{ id: me }] = await t.db.query<any>(`select id from users where email = $1`, [DEMO.client.email]);
    const self = await action(manager, me, 'deactivate');
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot deactivate yourself. Ask another manager, or the agency.');
  });
});

describe('inviting a client user from the client profile', slow, () => {
  it('signs into the client panel of that client', async () => {
    const address = email();
    const res = await invite(admin, { name: 'Meadow Manager', email: address, role: 'manager', client_id: clientA });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ kind: 'client', client_id: clientA });
    const token = await linkMailedTo(address);
    expect((await t.app.inject({ method: 'GET', url: `/api/user_invites/${token}` })).json()).toMatchObject({
      login_type: 'client',
      client_name: 'Meadowbank Care Home',
    });
    expect((await accept(token, 'meadow-password')).json().login_type).toBe('client');
    const signedIn = await postLogin(t.app, 'client', address, 'meadow-password');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ login_type: 'client', client_id: clientA, user: { role: 'manager' } });
    // The client's users, as the profile lists them.
    const listed = (await call(t.app, admin, 'GET', `/api/users?client_id=${clientA}`)).json().data as any[];
    expect(listed.map((u) => u.email)).toContain(address);
  });
});

describe('the "Client?" hint on the agency sign-in', slow, () => {
  it('a client\u2019s e-mail and password on the agency panel say so; a wrong password or an unknown address does not', async () => {
    const hinted = await postLogin(t.app, 'admin', DEMO.client.email, DEMO.client.password);
    expect(hinted.statusCode).toBe(401);
    expect(hinted.json()).toEqual({
      message: 'Client? This e-mail address and password are for a client panel. Choose Client and sign in.',
      hint: 'client',
    });
    for (const [address, password] of [
      [DEMO.client.email, 'not-the-password'],
      ['nobody@users.example', DEMO.client.password],
    ]) {
      const res = await postLogin(t.app, 'admin', address, password);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'The e-mail address or password is incorrect.' });
    }
  });
});

/**
 * Another app hears of a change when the database hands it the notification: asks again until `expected` (at most 2 s).
 */
async function soon<T>(ask: () => Promise<T>, expected: T, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = await ask();
    if (seen === expected || Date.now() > deadline) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
}
