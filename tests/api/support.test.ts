import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, call, loginAs, makeTestApp, type TestApp } from './helpers';

// Support requests: from agency users to their agency's administrators, with a screenshot, replies that move
// the status, the close / reopen actions, notifications, and a consultant's view limited to their own.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
const userIds: Record<string, number> = {};
let n = 0;
const uid = () => `${Date.now().toString(36)}${++n}`;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f6e5d40000000049454e44ae426082',
  'hex',
);

const uploadPng = async (token: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/files?kind=image',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'x-file-name': 'screen.png',
    },
    payload: PNG,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
};
async function ask(token: string, extra: Record<string, unknown> = {}) {
  const res = await call(t.app, token, 'POST', '/api/support_requests', {
    subject: `Help ${uid()}`,
    description: 'The schedule does not show last week.',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}
async function reply(token: string, requestId: number, body = 'Thanks, looking now.') {
  const res = await call(t.app, token, 'POST', '/api/support_replies', { support_request_id: requestId, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}
const statusOf = async (id: number) =>
  (await call(t.app, admin, 'GET', `/api/support_requests/${id}`)).json().data.status;
const notified = (userId: number, title: string) =>
  t.db.query<{ id: number; link: string }>('select id, link from notifications where user_id = $1 and title = $2', [
    userId,
    title,
  ]);

beforeAll(async () => {
  t = await makeTestApp({ candidates: 5 });
  [admin, consultant, client, otherAdmin] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
  ]);
  for (const email of ['admin@demo.test', 'consultant@demo.test', 'admin@other.test']) {
    userIds[email] = (await t.db.query<{ id: number }>('select id from users where email = $1', [email]))[0].id;
  }
});
afterAll(() => t?.close());

describe('a support request', () => {
  it('is stored with its screenshot and requester, open, and the administrators are notified', async () => {
    const screenshot = await uploadPng(consultant);
    const created = await ask(consultant, { screenshot });
    expect(created).toMatchObject({
      status: 'open',
      screenshot,
      requester_id: userIds['consultant@demo.test'],
      requester_name: 'Sam Patel',
    });
    const sent = await notified(userIds['admin@demo.test'], `Support request: ${created.subject}`);
    expect(sent).toHaveLength(1);
    expect(sent[0].link).toBe(`/support_requests/${created.id}/show`);
    // Not the requester, and not the other agency.
    expect(await notified(userIds['consultant@demo.test'], `Support request: ${created.subject}`)).toHaveLength(0);
    expect(await notified(userIds['admin@other.test'], `Support request: ${created.subject}`)).toHaveLength(0);
    // The screenshot is served to those who may see the request.
    expect((await call(t.app, admin, 'GET', `/api/files/${screenshot}`)).statusCode).toBe(200);
  });

  it('needs a subject and a description, and takes only an image as its screenshot', async () => {
    const empty = await call(t.app, consultant, 'POST', '/api/support_requests', { subject: ' ', description: '' });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors).sort()).toEqual(['description', 'subject']);
    const notAFile = await call(t.app, consultant, 'POST', '/api/support_requests', {
      subject: 'x',
      description: 'y',
      screenshot: 'data:image/png;base64,AAAA',
    });
    expect(notAFile.statusCode).toBe(422);
    expect(Object.keys(notAFile.json().errors)).toEqual(['screenshot']);
  });

  it('changes status only through replies and actions, never an edit', async () => {
    const created = await ask(consultant);
    expect(
      (await call(t.app, admin, 'PUT', `/api/support_requests/${created.id}`, { status: 'closed' })).statusCode,
    ).toBe(403);
    expect(await statusOf(created.id)).toBe('open');
  });
});

describe('replies', () => {
  it("an administrator's reply answers the request and notifies the requester; the requester's reopens it and notifies the administrators", async () => {
    const created = await ask(consultant);
    await reply(admin, created.id, 'Open the schedule and pick last week.');
    expect(await statusOf(created.id)).toBe('answered');
    expect(await notified(userIds['consultant@demo.test'], `Reply to “${created.subject}”`)).toHaveLength(1);

    await reply(consultant, created.id, 'It still does not show.');
    expect(await statusOf(created.id)).toBe('open');
    expect(await notified(userIds['admin@demo.test'], `Reply to “${created.subject}”`)).toHaveLength(1);

    const res = await call(t.app, consultant, 'GET', `/api/support_replies?support_request_id=${created.id}`);
    expect(res.json().data.map((r: { author_name: string; body: string }) => [r.author_name, r.body])).toEqual([
      ['Alex Morgan', 'Open the schedule and pick last week.'],
      ['Sam Patel', 'It still does not show.'],
    ]);
  });

  it("moves the request through its lifecycle's own transitions, audited with the reply, which no route offers", async () => {
    const created = await ask(consultant);
    const first = await reply(admin, created.id, 'Which week?');
    await reply(admin, created.id, 'And which site?');
    const second = await reply(consultant, created.id, 'Last week, Meadowbank.');
    const moves = (await auditTrail(t.app, admin, 'support_requests', created.id))
      .filter((e) => e.event === 'action')
      .reverse();
    // The second administrator reply leaves an answered request as it is: no entry.
    expect(moves.map((e) => [e.action, e.changes.status, e.input])).toEqual([
      ['answer', { from: 'open', to: 'answered' }, { reason: `Reply ${first.id}` }],
      ['follow_up', { from: 'answered', to: 'open' }, { reason: `Reply ${second.id}` }],
    ]);
    for (const action of ['answer', 'follow_up'])
      expect(
        (await call(t.app, admin, 'POST', `/api/support_requests/${created.id}/actions/${action}`, {})).statusCode,
      ).toBe(404);
  });

  it('a reply by the requester reopens a closed request', async () => {
    const created = await ask(consultant);
    await call(t.app, consultant, 'POST', `/api/support_requests/${created.id}/actions/close`, {});
    expect(await statusOf(created.id)).toBe('closed');
    await reply(consultant, created.id, 'Sorry, one more thing.');
    expect(await statusOf(created.id)).toBe('open');
  });

  it('are never edited or deleted', async () => {
    const created = await ask(consultant);
    const r = await reply(admin, created.id);
    expect((await call(t.app, admin, 'PUT', `/api/support_replies/${r.id}`, { body: 'changed' })).statusCode).toBe(403);
    expect((await call(t.app, admin, 'DELETE', `/api/support_replies/${r.id}`)).statusCode).toBe(403);
  });
});

describe('close and reopen', () => {
  it('close a request once, and reopen only a closed one (its lifecycle, 409 in words from another state)', async () => {
    const created = await ask(consultant);
    const early = await call(t.app, admin, 'POST', `/api/support_requests/${created.id}/actions/reopen`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('This support request is open: Reopen is only for a closed support request.');
    expect(
      (await call(t.app, admin, 'POST', `/api/support_requests/${created.id}/actions/close`, {})).json().data.status,
    ).toBe('closed');
    const again = await call(t.app, admin, 'POST', `/api/support_requests/${created.id}/actions/close`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'This support request is closed: Close is only for an open or answered support request.',
    );
    expect(
      (await call(t.app, consultant, 'POST', `/api/support_requests/${created.id}/actions/reopen`, {})).json().data
        .status,
    ).toBe('open');
  });
});

describe('who sees what', () => {
  it("a consultant sees only their own requests and their replies; an administrator sees all of the agency's", async () => {
    const mine = await ask(consultant);
    const theirs = await ask(admin);
    await reply(admin, theirs.id, 'A note to myself');
    const listed = async (token: string) =>
      (await call(t.app, token, 'GET', '/api/support_requests?per_page=100'))
        .json()
        .data.map((r: { id: number }) => r.id);
    expect(await listed(consultant)).toContain(mine.id);
    expect(await listed(consultant)).not.toContain(theirs.id);
    expect(await listed(admin)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(await listed(otherAdmin)).not.toContain(mine.id);

    expect((await call(t.app, consultant, 'GET', `/api/support_requests/${theirs.id}`)).statusCode).toBe(404);
    expect(
      (await call(t.app, consultant, 'POST', `/api/support_requests/${theirs.id}/actions/close`, {})).statusCode,
    ).toBe(404);
    expect(
      (await call(t.app, consultant, 'GET', `/api/support_replies?support_request_id=${theirs.id}`)).json().data,
    ).toEqual([]);
    // The engine's reference check applies the requests' own scope (no hook of the replies checks it).
    const intruding = await call(t.app, consultant, 'POST', '/api/support_replies', {
      support_request_id: theirs.id,
      body: 'Hello?',
    });
    expect(intruding.statusCode).toBe(422);
    expect(Object.keys(intruding.json().errors)).toEqual(['support_request_id']);
  });

  it('a client user has no support requests or replies', async () => {
    expect((await call(t.app, client, 'GET', '/api/support_requests')).statusCode).toBe(403);
    expect(
      (await call(t.app, client, 'POST', '/api/support_requests', { subject: 'x', description: 'y' })).statusCode,
    ).toBe(403);
    expect((await call(t.app, client, 'GET', '/api/support_replies')).statusCode).toBe(403);
  });

  it('the demo has support requests with replies', async () => {
    const res = await call(t.app, admin, 'GET', '/api/support_requests?q=availability');
    expect(res.json().data.length).toBeGreaterThan(0);
    const replies = await call(t.app, admin, 'GET', `/api/support_replies?support_request_id=${res.json().data[0].id}`);
    expect(replies.json().total_count).toBeGreaterThan(0);
  });
});
