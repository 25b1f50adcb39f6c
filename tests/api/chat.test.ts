import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { call, loginAs, makeTestApp, type TestApp, fixtureWrite } from './helpers';
import { readEvents } from '../../src/resources/communication/chat/eventStream';

// The chat calls of spec section 7 with their exact shapes, their scope (another agency; a staff member and
// someone else's channel), unread counts, and the live stream across two server processes on one database.
let t: TestApp;
let admin: string;
let consultant: string;
let client: string;
let otherAdmin: string;
let staff: string;
let merchantA: number;
let merchantB: number;
/** The demo staff member's own staff record (staff@demo.test). */
let staffCandidate: number;
/** Another staff member of agency A, and one of agency B. */
let colleague: number;
let candidateB: number;

const staffLogin = async (app: FastifyInstance, email = 'staff@demo.test', password = 'demo-staff') => {
  const res = await app.inject({ method: 'POST', url: '/api/staff_login', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
};
const openChannel = async (token: string, senderId: number, receiverId = merchantA) =>
  call(t.app, token, 'POST', '/api/chats/create_channel', {
    sender_id: senderId,
    sender_type: 'Candidate',
    receiver_id: receiverId,
    receiver_type: 'Merchant',
  });
const send = (token: string, channel_sid: string, message: string) =>
  call(t.app, token, 'POST', '/api/chats/send_message_to_channel', { channel_sid, message });
const fetchMessages = (token: string, sid: string, query = '') =>
  call(t.app, token, 'GET', `/api/chats/fetch_messages?channel_sid=${encodeURIComponent(sid)}${query}`);

beforeAll(async () => {
  t = await makeTestApp({ candidates: 40 });
  [admin, consultant, client, otherAdmin, staff] = await Promise.all([
    loginAs(t.app, 'admin'),
    loginAs(t.app, 'consultant'),
    loginAs(t.app, 'client'),
    loginAs(t.app, 'otherAdmin'),
    staffLogin(t.app),
  ]);
  const one = async (sql: string, params: unknown[] = []) => (await t.db.query<any>(sql, params))[0];
  merchantA = (await one(`select id from merchants where company_name = 'Brightway Staffing'`)).id;
  merchantB = (await one(`select id from merchants where company_name = 'Northern Care Recruitment'`)).id;
  staffCandidate = (await one(`select candidate_id from users where email = 'staff@demo.test'`)).candidate_id;
  colleague = (
    await one(
      'select id from candidates where merchant_id = $1 and id <> $2 and deleted_at is null order by id limit 1',
      [merchantA, staffCandidate],
    )
  ).id;
  candidateB = (
    await one('select id from candidates where merchant_id = $1 and deleted_at is null order by id limit 1', [
      merchantB,
    ])
  ).id;
});
afterAll(async () => {
  await t?.close();
});

describe('the spec calls, with their exact shapes', () => {
  it('create_channel answers { channel_sid }, the same channel every time for the same pair', async () => {
    const first = await openChannel(admin, colleague);
    expect(first.statusCode, first.body).toBe(200);
    expect(Object.keys(first.json())).toEqual(['channel_sid']);
    const sid = first.json().channel_sid;
    expect(sid).toMatch(/^CH[0-9a-f]{32}$/);
    // Another agency user, and again: the same channel.
    expect((await openChannel(consultant, colleague)).json()).toEqual({ channel_sid: sid });
    expect((await openChannel(admin, colleague)).json()).toEqual({ channel_sid: sid });
    // A staff member opening their own channel gets the one the agency sees.
    const own = (await openChannel(staff, staffCandidate)).json().channel_sid;
    expect((await openChannel(admin, staffCandidate)).json().channel_sid).toBe(own);
    expect(own).not.toBe(sid);
  });

  it('send_message_to_channel answers { message, success } and fetch_messages { messages: [{ sender, content, ... }] }', async () => {
    const sid = (await openChannel(admin, colleague)).json().channel_sid;
    const sent = await send(admin, sid, '  Can you work Friday night?  ');
    expect(sent.statusCode, sent.body).toBe(200);
    const body = sent.json();
    expect(body.success).toBe(true);
    expect(typeof body.message).toBe('string');
    expect(body.data).toMatchObject({
      sender: 'Alex Morgan',
      sender_type: 'Merchant',
      content: 'Can you work Friday night?',
      mine: true,
    });

    const got = await fetchMessages(admin, sid);
    expect(got.statusCode, got.body).toBe(200);
    const { messages } = got.json();
    expect(Array.isArray(messages)).toBe(true);
    const last = messages[messages.length - 1];
    expect(last).toEqual({
      id: body.data.id,
      sender: 'Alex Morgan',
      sender_type: 'Merchant',
      content: 'Can you work Friday night?',
      created_at: expect.any(String),
      mine: true,
    });
  });

  it('a message that is empty or only whitespace is refused with a message and never stored', async () => {
    const sid = (await openChannel(admin, colleague)).json().channel_sid;
    const before = (await fetchMessages(admin, sid)).json().messages.length;
    for (const message of ['', '   ', '\n\t ']) {
      const res = await send(admin, sid, message);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('Type a message to send.');
      expect(res.json().errors).toEqual({ message: 'Type a message to send.' });
    }
    const long = await send(admin, sid, 'x'.repeat(2001));
    expect(long.statusCode).toBe(422);
    expect(long.json().message).toBe('A message can be at most 2000 characters.');
    expect((await send(admin, sid, 'x'.repeat(2000))).statusCode).toBe(200);
    expect((await fetchMessages(admin, sid)).json().messages.length).toBe(before + 1);
  });

  it('create_channel refuses other sender and receiver types (422) and asks for every field', async () => {
    const wrongType = await call(t.app, admin, 'POST', '/api/chats/create_channel', {
      sender_id: colleague,
      sender_type: 'Merchant',
      receiver_id: merchantA,
      receiver_type: 'Candidate',
    });
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().errors).toEqual({
      sender_type: 'Must be "Candidate".',
      receiver_type: 'Must be "Merchant".',
    });
    const missing = await call(t.app, admin, 'POST', '/api/chats/create_channel', {});
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual([
      'receiver_id',
      'receiver_type',
      'sender_id',
      'sender_type',
    ]);
  });

  it('fetch_messages pages back with `before`, oldest first within a page', async () => {
    const sid = (await openChannel(admin, colleague)).json().channel_sid;
    for (let i = 1; i <= 7; i++) expect((await send(admin, sid, `Paging ${i}`)).statusCode).toBe(200);
    const latest = (await fetchMessages(admin, sid, '&limit=3')).json();
    expect(latest.messages.map((m: any) => m.content)).toEqual(['Paging 5', 'Paging 6', 'Paging 7']);
    expect(latest.has_more).toBe(true);
    const older = (await fetchMessages(admin, sid, `&limit=3&before=${latest.messages[0].id}`)).json();
    expect(older.messages.map((m: any) => m.content)).toEqual(['Paging 2', 'Paging 3', 'Paging 4']);
  });
});

describe('channel scope', () => {
  it("another agency's staff member or agency is not found; its channel neither", async () => {
    expect((await openChannel(admin, candidateB)).statusCode).toBe(404);
    expect((await openChannel(admin, candidateB, merchantB)).statusCode).toBe(404);
    expect((await openChannel(otherAdmin, colleague)).statusCode).toBe(404);
    expect((await openChannel(otherAdmin, colleague, merchantA)).statusCode).toBe(404);

    const sid = (await openChannel(admin, colleague)).json().channel_sid;
    const sentBefore = (await fetchMessages(admin, sid)).json().messages.length;
    expect((await send(otherAdmin, sid, 'Hello from elsewhere')).statusCode).toBe(404);
    expect((await fetchMessages(otherAdmin, sid)).statusCode).toBe(404);
    expect((await call(t.app, otherAdmin, 'POST', '/api/chats/mark_read', { channel_sid: sid })).statusCode).toBe(404);
    expect((await fetchMessages(admin, sid)).json().messages.length).toBe(sentBefore);
    // Agency B's own channel is theirs alone.
    const sidB = (await openChannel(otherAdmin, candidateB, merchantB)).json().channel_sid;
    expect((await fetchMessages(admin, sidB)).statusCode).toBe(404);
    expect((await send(admin, sidB, 'Hi')).statusCode).toBe(404);
    // An unknown sid.
    expect((await fetchMessages(admin, 'CH0000')).json()).toEqual({ message: 'Channel not found.' });
  });

  it("a staff member reaches only their own channel: another staff member's is not found", async () => {
    const colleagueSid = (await openChannel(admin, colleague)).json().channel_sid;
    expect((await openChannel(staff, colleague)).statusCode).toBe(404);
    expect((await fetchMessages(staff, colleagueSid)).statusCode).toBe(404);
    expect((await send(staff, colleagueSid, 'Not mine')).statusCode).toBe(404);
    // The agency's conversation list and every other route are not theirs.
    expect((await call(t.app, staff, 'GET', '/api/chats/conversations')).statusCode).toBe(403);
    expect((await call(t.app, staff, 'GET', `/api/candidates/${staffCandidate}`)).statusCode).toBe(403);
    expect((await call(t.app, staff, 'GET', '/api/candidates')).statusCode).toBe(403);
    expect((await call(t.app, staff, 'PUT', '/api/me', {})).statusCode).toBe(403);
  });

  it('client users have no chat', async () => {
    for (const res of [
      await openChannel(client, colleague),
      await fetchMessages(client, 'CH0000'),
      await send(client, 'CH0000', 'Hi'),
      await call(t.app, client, 'GET', '/api/chats/conversations'),
      await call(t.app, client, 'GET', '/api/chats/stream?wait=0'),
    ])
      expect(res.statusCode).toBe(403);
  });
});

describe('conversations and unread counts', () => {
  it("lists the agency's conversations latest first, with staff names and unread counts that reading clears", async () => {
    const sid = (await openChannel(staff, staffCandidate)).json().channel_sid;
    await send(staff, sid, 'First from staff');
    await send(staff, sid, 'Second from staff');
    const list = (await call(t.app, admin, 'GET', '/api/chats/conversations?page=1&per_page=5')).json();
    expect(list.data.length).toBeLessThanOrEqual(5);
    expect(list.total).toBeGreaterThanOrEqual(list.data.length);
    const mine = list.data[0];
    // The latest message is the staff member's, so theirs is first.
    expect(mine).toMatchObject({
      channel_sid: sid,
      candidate_id: staffCandidate,
      last_message: 'Second from staff',
      last_sender_type: 'Candidate',
    });
    expect(mine.unread_count).toBeGreaterThanOrEqual(2);
    const times = list.data.map((c: any) => c.last_message_at ?? '');
    expect([...times].sort().reverse()).toEqual(times);

    // The staff member's own side: their messages are "mine", the agency's are not.
    const theirs = (await fetchMessages(staff, sid)).json().messages;
    expect(theirs[theirs.length - 1]).toMatchObject({
      content: 'Second from staff',
      sender_type: 'Candidate',
      mine: true,
    });

    // The agency reads the channel: nothing unread.
    const read = (await fetchMessages(consultant, sid)).json().messages;
    expect(read[read.length - 1].mine).toBe(false);
    const after = (await call(t.app, admin, 'GET', '/api/chats/conversations')).json();
    expect(after.data.find((c: any) => c.channel_sid === sid).unread_count).toBe(0);
    // A new message from the staff member is unread again; mark_read clears it.
    await send(staff, sid, 'Third from staff');
    expect((await call(t.app, admin, 'GET', '/api/chats/conversations')).json().data[0].unread_count).toBe(1);
    expect((await call(t.app, admin, 'POST', '/api/chats/mark_read', { channel_sid: sid })).statusCode).toBe(200);
    expect((await call(t.app, admin, 'GET', '/api/chats/conversations')).json().data[0].unread_count).toBe(0);
  });

  it("unread_count is the agency's unread messages from staff, the sum of its conversations' counts", async () => {
    const count = async (token: string) => {
      const res = await call(t.app, token, 'GET', '/api/chats/unread_count');
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['count']);
      return res.json().count as number;
    };
    const listed = async () =>
      (await call(t.app, admin, 'GET', '/api/chats/conversations?per_page=100'))
        .json()
        .data.reduce((n: number, c: any) => n + c.unread_count, 0);
    const sid = (await openChannel(staff, staffCandidate)).json().channel_sid;
    await fetchMessages(admin, sid);
    const before = await count(admin);
    expect(before).toBe(await listed());
    const otherBefore = await count(otherAdmin);

    await send(staff, sid, 'Unread one');
    await send(staff, sid, 'Unread two');
    // The agency's own messages are never unread for it.
    await send(admin, (await openChannel(admin, colleague)).json().channel_sid, 'From the agency');
    expect(await count(admin)).toBe(before + 2);
    // Every agency user shares the agency's side; another agency's count is its own.
    expect(await count(consultant)).toBe(before + 2);
    expect(await count(otherAdmin)).toBe(otherBefore);
    expect(await count(admin)).toBe(await listed());

    // Reading the conversation clears its part of the count.
    await fetchMessages(consultant, sid);
    expect(await count(admin)).toBe(before);
    // Client users and staff members have no badge.
    expect((await call(t.app, client, 'GET', '/api/chats/unread_count')).statusCode).toBe(403);
    expect((await call(t.app, staff, 'GET', '/api/chats/unread_count')).statusCode).toBe(403);
  });

  it("a message from staff shows in the chat's unread count, not in the bell (unless the agency turns a channel on)", async () => {
    const sid = (await openChannel(staff, staffCandidate)).json().channel_sid;
    await fetchMessages(admin, sid);
    const bell = async () => (await call(t.app, admin, 'GET', '/api/agency_notifications?page=1&per_page=10')).json();
    const unread = async () => (await call(t.app, admin, 'GET', '/api/chats/unread_count')).json().count as number;
    const [bellBefore, chatBefore] = [await bell(), await unread()];
    await send(staff, sid, 'Please call me back');
    expect(await unread()).toBe(chatBefore + 1);
    expect(await bell()).toMatchObject({ total_count: bellBefore.total_count, unread_count: bellBefore.unread_count });
    expect(
      await t.db.query(`select 1 from notifications where merchant_id = $1 and event = 'message.received'`, [
        merchantA,
      ]),
    ).toEqual([]);

    // An agency that wants them in the bell too switches the in-app channel on.
    expect(
      (
        await call(t.app, admin, 'PUT', '/api/notification_settings/message.received', {
          channels: ['alert'],
          recipients: ['agency_admins', 'consultants'],
        })
      ).statusCode,
    ).toBe(200);
    try {
      await send(staff, sid, 'And again');
      const [row] = await t.db.query<any>(
        `select body, link from notifications where merchant_id = $1 and event = 'message.received' order by id desc limit 1`,
        [merchantA],
      );
      expect(row).toEqual({ body: 'And again', link: `/chat?channel=${sid}` });
    } finally {
      await fixtureWrite(
        t.db,
        `delete from notification_settings where merchant_id = $1 and event = 'message.received'`,
        [merchantA],
      );
    }
  });

  it('the demo has conversations, some unread', async () => {
    const list = (await call(t.app, otherAdmin, 'GET', '/api/chats/conversations')).json();
    expect(list.data.every((c: any) => c.candidate_id === candidateB)).toBe(true);
    const [{ unread }] = await t.db.query<any>(
      `select count(*) filter (where exists (select 1 from chat_messages m where m.channel_id = c.id and m.id > c.agency_read_id and m.sender_type = 'Candidate'))::int as unread
         from chat_channels c where c.merchant_id = $1`,
      [merchantA],
    );
    expect(unread).toBeGreaterThanOrEqual(2);
  });
});

/** Opens a stream over real HTTP and collects its events. */
async function openStream(base: string, token: string, query = '') {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/chats/stream${query}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: any[] = [];
  const waiters: Array<() => void> = [];
  readEvents<any>(res.body!, (e) => {
    events.push(e);
    waiters.splice(0).forEach((w) => w());
  }).catch(() => undefined /* aborted */);
  const waitFor = async (pred: (e: any) => boolean) => {
    while (!events.some(pred)) await new Promise<void>((r) => waiters.push(r));
    return events.find(pred);
  };
  return { events, waitFor, close: () => controller.abort() };
}

describe('the live stream', () => {
  it('delivers a message sent through one server process to streams on another, each within its scope', async () => {
    const second = await t.extraApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await second.listen({ port: 0, host: '127.0.0.1' });
    const base = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const colleagueSid = (await openChannel(admin, colleague)).json().channel_sid;
    const ownSid = (await openChannel(staff, staffCandidate)).json().channel_sid;

    const agencyStream = await openStream(base(second), admin);
    const staffStream = await openStream(base(second), staff);
    const otherAgency = await openStream(base(t.app), otherAdmin);
    await Promise.all([
      agencyStream.waitFor((e) => e.type === 'ready'),
      staffStream.waitFor((e) => e.type === 'ready'),
      otherAgency.waitFor((e) => e.type === 'ready'),
    ]);
    try {
      // Sent through the first process.
      const toColleague = (await send(admin, colleagueSid, 'Only for the colleague')).json().data;
      const fromStaff = (await send(staff, ownSid, 'Hello from the staff app')).json().data;
      const heard = await agencyStream.waitFor((e) => e.type === 'message' && e.message.id === fromStaff.id);
      expect(heard).toEqual({
        type: 'message',
        channel_sid: ownSid,
        candidate_id: staffCandidate,
        message: { ...fromStaff, mine: false },
      });
      await agencyStream.waitFor((e) => e.type === 'message' && e.message.id === toColleague.id);
      const own = await staffStream.waitFor((e) => e.type === 'message' && e.message.id === fromStaff.id);
      expect(own.message.mine).toBe(true);
      // The staff member never hears another's channel; the other agency hears nothing of agency A.
      expect(staffStream.events.some((e) => e.message?.id === toColleague.id)).toBe(false);
      expect(otherAgency.events.filter((e) => e.type === 'message')).toEqual([]);

      // Reconnecting with `after` first sends what was missed, in order.
      const missed = (await send(admin, ownSid, 'While you were away')).json().data;
      const again = await call(second, staff, 'GET', `/api/chats/stream?wait=0&after=${fromStaff.id}`);
      const replay = again.body
        .split('\n\n')
        .filter((b) => b.includes('event: message'))
        .map((b) => JSON.parse(b.split('data: ')[1]));
      expect(replay.map((e) => e.message.id)).toEqual([missed.id]);
      expect(again.body.startsWith('event: ready')).toBe(true);
    } finally {
      agencyStream.close();
      staffStream.close();
      otherAgency.close();
    }
  });
});
