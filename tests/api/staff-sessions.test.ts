import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { call, loginAs, makeTestApp, postLogin, type TestApp, fixtureWrite } from './helpers';
import { invitationTokenSentTo } from './invites';
import { readEvents } from '../../src/resources/communication/chat/eventStream';
import { HEARTBEAT_MS } from '../../server/routes/chat';
import { STREAMS_PER_AGENCY, STREAMS_PER_SESSION, STREAMS_PER_USER, streamLimits } from '../../server/chat/live';
import { SESSIONS_PER_USER, sessionLimits } from '../../server/auth/sessions';

// Issue 13, items 8, 9 and 12, across two app instances on one database (each with its own session cache and its
// own place on the bus, as two server processes): a staff member losing the right to sign in, and a sign-out,
// end sessions and open chat streams everywhere at once; chat streams are capped per session and per agency.
let t: TestApp;
let A: FastifyInstance;
let B: FastifyInstance;
let admin: string;
let otherAdmin: string;
let jobRole: number;
let n = 0;

const base = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  A = t.app;
  B = await t.extraApp();
  await A.listen({ port: 0, host: '127.0.0.1' });
  await B.listen({ port: 0, host: '127.0.0.1' });
  [admin, otherAdmin] = await Promise.all([loginAs(A, 'admin'), loginAs(A, 'otherAdmin')]);
  jobRole = (
    await t.db.query<any>(
      `select id from job_roles where merchant_id = (select merchant_id from users where email = 'admin@demo.test') order by id limit 1`,
    )
  )[0].id;
});
afterAll(async () => {
  // The streams' connections, ended or aborted, would otherwise hold each server open until its keep-alive timeout
  // (72 s); every request of the file has been answered by now.
  for (const app of [A, B]) app?.server.closeAllConnections();
  await t?.close();
});

/** A new staff member of agency A, invited and signed in on A: their staff record and token. */
async function signedInStaff() {
  const email = `session.${++n}@staff.example`;
  const made = await call(A, admin, 'POST', '/api/candidates', {
    first_name: 'Sam',
    last_name: `Session${n}`,
    email,
    job_role_id: jobRole,
  });
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json().data.id as number;
  expect((await call(A, admin, 'POST', `/api/candidates/${id}/staff_invite`, {})).statusCode).toBe(200);
  const accepted = await A.inject({
    method: 'POST',
    url: `/api/staff_invites/${await invitationTokenSentTo(t, email)}`,
    payload: { password: 'a-staff-password' },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return { id, email, token: accepted.json().token as string };
}

const staffMe = (app: FastifyInstance, token: string) =>
  call(app, token, 'GET', '/api/staff_login').then((r) => r.statusCode);

/** Opens a chat stream over HTTP: its events, a wait for one, and whether (and when) the server ended it. */
async function openStream(app: FastifyInstance, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${base(app)}/api/chats/stream?wait=300`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (res.status !== 200) return { status: res.status, body: await res.json(), close: () => undefined } as const;
  const events: any[] = [];
  const waiters: Array<() => void> = [];
  let endedByServer = false;
  const ended = readEvents<any>(res.body!, (e) => {
    events.push(e);
    waiters.splice(0).forEach((w) => w());
  }).then(
    () => void (endedByServer = true),
    () => undefined /* aborted by the test */,
  );
  const waitFor = async (type: string) => {
    while (!events.some((e) => e.type === type)) await new Promise<void>((r) => waiters.push(r));
  };
  await waitFor('ready');
  /** Whether the server ends the stream within `ms` (well under a heartbeat, the old way a stream learnt of it). */
  const endsWithin = async (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
    return endedByServer;
  };
  return { status: 200, endsWithin, close: () => controller.abort() } as const;
}

/** Well under HEARTBEAT_MS: a stream that ends within it learnt of its session's end from the bus. */
const AT_ONCE_MS = 5000;

describe('a staff member losing the right to sign in (item 8)', () => {
  it('deleting them on A ends their session on B at once, though B had it cached', async () => {
    const { id, token } = await signedInStaff();
    expect([await staffMe(B, token), await staffMe(B, token)]).toEqual([200, 200]); // cached on B
    expect((await call(A, admin, 'DELETE', `/api/candidates/${id}`)).statusCode).toBe(200);
    // A's answer comes once every process has heard (the bus message is back): no wait needed.
    expect([await staffMe(A, token), await staffMe(B, token)]).toEqual([401, 401]);
    const send = await call(B, token, 'POST', '/api/chats/create_channel', {
      sender_id: id,
      sender_type: 'Candidate',
      receiver_id: 1,
      receiver_type: 'Merchant',
    });
    expect(send.statusCode).toBe(401);
  });

  it('rejecting or deactivating them on A ends their session on B at once, and sign-in refuses them', async () => {
    for (const [action, body] of [
      ['reject', { reason: 'Probe' }],
      ['deactivate', {}],
    ] as const) {
      const { id, email, token } = await signedInStaff();
      if (action === 'deactivate')
        await fixtureWrite(t.db, `update candidates set status = 'approved', activated = true where id = $1`, [id]);
      expect(await staffMe(B, token), action).toBe(200);
      const res = await call(A, admin, 'POST', `/api/candidates/${id}/actions/${action}`, body);
      expect(res.statusCode, res.body).toBe(200);
      expect([await staffMe(A, token), await staffMe(B, token)], action).toEqual([401, 401]);
      expect((await postLogin(B, 'staff', email, 'a-staff-password')).statusCode, action).toBe(401);
    }
  });
});

describe('open chat streams end with their session (item 9)', () => {
  it(`a sign-out on A ends the stream open on B at once (not at the next ${HEARTBEAT_MS / 1000} s heartbeat)`, async () => {
    const token = await loginAs(A, 'consultant');
    const stream = await openStream(B, token);
    expect(stream.status).toBe(200);
    try {
      expect((await call(A, token, 'POST', '/api/logout')).statusCode).toBe(200);
      expect(await stream.endsWithin!(AT_ONCE_MS)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('deleting a staff member on A ends their stream open on B at once; other streams stay open', async () => {
    const { id, token } = await signedInStaff();
    const theirs = await openStream(B, token);
    const agency = await openStream(B, admin);
    try {
      expect((await call(A, admin, 'DELETE', `/api/candidates/${id}`)).statusCode).toBe(200);
      expect(await theirs.endsWithin!(AT_ONCE_MS)).toBe(true);
      expect(await agency.endsWithin!(50)).toBe(false);
    } finally {
      theirs.close();
      agency.close();
    }
  });
});

describe('chat streams are capped (item 12)', () => {
  it(`at most ${STREAMS_PER_SESSION} per session: one more answers 429 in words, and closing one lets the next in`, async () => {
    const token = await loginAs(B, 'consultant');
    const open = [];
    try {
      for (let i = 0; i < STREAMS_PER_SESSION; i++) open.push(await openStream(B, token));
      expect(open.map((s) => s.status)).toEqual(Array(STREAMS_PER_SESSION).fill(200));
      const refused = await openStream(B, token);
      expect(refused.status).toBe(429);
      expect((refused as any).body.message).toBe(
        `This sign-in already has ${STREAMS_PER_SESSION} live chat connections open, the most it may. Close the chat in another tab or window, then reload this one.`,
      );
      // Another session of the same user is counted apart.
      const other = await openStream(B, await loginAs(B, 'consultant'));
      expect(other.status).toBe(200);
      other.close();
      open.shift()!.close();
      // The server hears the close when the connection ends: the next stream opens once it has.
      let next = await openStream(B, token);
      while (next.status === 429) next = await openStream(B, token);
      expect(next.status).toBe(200);
      open.push(next);
    } finally {
      open.forEach((s) => s.close());
    }
  });

  it(`at most ${STREAMS_PER_AGENCY} per agency in a process (lowered here to 3): one more answers 429; another agency, and another process, count apart`, async () => {
    const limits = { ...streamLimits };
    streamLimits.perAgency = 3;
    const open = [];
    try {
      const tokens = await Promise.all([
        loginAs(B, 'admin'),
        loginAs(B, 'consultant'),
        loginAs(B, 'admin'),
        loginAs(B, 'consultant'),
      ]);
      for (const token of tokens.slice(0, 3)) open.push(await openStream(B, token));
      expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
      const refused = await openStream(B, tokens[3]);
      expect(refused.status).toBe(429);
      expect((refused as any).body.message).toMatch(
        /^Your agency has too many live chat connections open right now \(at most 3\)\./,
      );
      const elsewhere = await openStream(B, otherAdmin);
      expect(elsewhere.status).toBe(200);
      open.push(elsewhere);
      // The other process counts its own (A holds none of agency A's streams).
      const onA = await openStream(A, tokens[3]);
      expect(onA.status).toBe(200);
      open.push(onA);
    } finally {
      Object.assign(streamLimits, limits);
      open.forEach((s) => s.close());
    }
  });

  it(`at most ${STREAMS_PER_USER} per user over all their sign-ins (lowered here to 3), well below the agency's: another user still gets one (issue 30.10)`, async () => {
    const limits = { ...streamLimits };
    streamLimits.perUser = 3;
    const open = [];
    try {
      const tokens = await Promise.all(Array.from({ length: 4 }, () => loginAs(B, 'consultant')));
      for (const token of tokens.slice(0, 3)) open.push(await openStream(B, token));
      expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
      const refused = await openStream(B, tokens[3]);
      expect(refused.status).toBe(429);
      expect((refused as any).body.message).toBe(
        'You already have 3 live chat connections open on your devices and tabs, the most one person may. Close the chat somewhere else, then reload this one.',
      );
      const someoneElse = await openStream(B, await loginAs(B, 'admin'));
      expect(someoneElse.status).toBe(200);
      open.push(someoneElse);
    } finally {
      Object.assign(streamLimits, limits);
      open.forEach((s) => s.close());
    }
    expect(STREAMS_PER_USER).toBeLessThanOrEqual(STREAMS_PER_AGENCY / 20);
  });
});

describe('live sessions per user are bounded (issue 30.10)', () => {
  it(`at most ${SESSIONS_PER_USER} (lowered here to 3): a new sign-in ends the oldest, in every process, its stream too`, async () => {
    const limits = { ...sessionLimits };
    sessionLimits.perUser = 3;
    try {
      const oldest = await loginAs(A, 'otherAdmin');
      const stream = await openStream(B, oldest);
      expect(stream.status).toBe(200);
      const kept = [await loginAs(A, 'otherAdmin'), await loginAs(A, 'otherAdmin')];
      expect((await call(B, oldest, 'GET', '/api/admin_login')).statusCode).toBe(200);
      // The fourth sign-in: the first ends, here and on B, and its open stream with it.
      const newest = await loginAs(A, 'otherAdmin');
      await B.cluster.settle();
      expect((await call(B, oldest, 'GET', '/api/admin_login')).statusCode).toBe(401);
      expect(await stream.endsWithin!(AT_ONCE_MS)).toBe(true);
      for (const token of [...kept, newest])
        expect((await call(B, token, 'GET', '/api/admin_login')).statusCode).toBe(200);
      const [{ n }] = await t.db.query<{ n: number }>(
        `select count(*)::int as n from sessions where user_id = (select id from users where email = 'admin@other.test')`,
      );
      expect(n).toBe(3);
    } finally {
      Object.assign(sessionLimits, limits);
    }
  });
});
