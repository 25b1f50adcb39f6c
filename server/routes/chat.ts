import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  callerOf,
  fetchMessages,
  channelOf,
  listConversations,
  markRead,
  MESSAGE_MAX,
  openChannel,
  sendMessage,
  unreadCount,
} from '../chat/channels.js';
import { ChatHub, STREAMS_PER_AGENCY, STREAMS_PER_SESSION, STREAMS_PER_USER, type LiveEvent } from '../chat/live.js';
import { HttpError, notFound } from '../http.js';
import { builtInRolesOf } from '../../core/resources/access.js';
import { route } from './route.js';
import {
  Channel,
  Conversations,
  ConversationsQuery,
  CreateChannel,
  Done,
  FetchMessagesQuery,
  MarkRead,
  Messages,
  SendMessage,
  Sent,
  Stream,
  StreamQuery,
  STREAM_SECONDS,
  UnreadCount,
} from '../../core/contracts/chat.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open chat streams of this process, fed by every process through the cluster bus. */
    chat: ChatHub;
  }
}

export { STREAM_SECONDS };
/** A comment line this often keeps proxies from closing a quiet stream, and re-checks the session. */
export const HEARTBEAT_MS = 20_000;

/**
 * Chat between the agency and its staff (spec section 7): the spec's three calls with their exact shapes, the
 * agency's conversation list, marking read, and a live stream. Agency users and staff members call them (each
 * within their own scope); client users are refused.
 */
export async function chatRoutes(app: FastifyInstance) {
  app.decorate('chat', new ChatHub(app.db, app.cluster));
  // Open streams would hold the server open for up to their `wait`: closing (a restart, a test) ends them first,
  // and the screens reconnect to the next process.
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end();
  });
  // Agency users, and staff members for their own channel.
  const roles = builtInRolesOf('agency', 'staff');
  // The channel a call names is looked up (404 outside the caller's scope) before what else was sent is validated.
  const onChannel = (from: 'body' | 'query') => async (req: FastifyRequest) => {
    const sid = (req[from] as { channel_sid?: unknown } | undefined)?.channel_sid;
    if (typeof sid === 'string') await channelOf(app.db, callerOf(req.auth!), sid);
  };

  route(app, {
    method: 'POST',
    url: '/api/chats/create_channel',
    roles,
    // The agency and staff member named: another agency's (or, for staff, anyone but themselves) are not found,
    // whatever else was sent.
    record: async (req) => {
      const body = (req.body ?? {}) as { sender_id?: unknown; receiver_id?: unknown };
      const caller = callerOf(req.auth!);
      if (body.receiver_id !== undefined && String(body.receiver_id) !== String(caller.merchantId))
        throw notFound('Agency');
      const sender = Number(body.sender_id);
      if (!Number.isSafeInteger(sender) || sender < 1) return; // names nobody: the schema answers
      if (caller.candidateId !== null && sender !== caller.candidateId) throw notFound('Staff member');
      const [found] = await app.db.query(
        'select 1 from candidates where merchant_id = $1 and id = $2 and deleted_at is null',
        [caller.merchantId, sender],
      );
      if (!found) throw notFound('Staff member');
    },
    schema: {
      tags: ['chat'],
      summary: 'The channel between a staff member and their agency (made on first use)',
      body: CreateChannel,
      response: { 200: Channel },
    },
    handler: async ({ req }) => ({ channel_sid: await openChannel(app.db, callerOf(req.auth!), req.body) }),
  });

  route(app, {
    method: 'POST',
    url: '/api/chats/send_message_to_channel',
    roles,
    record: onChannel('body'),
    schema: {
      tags: ['chat'],
      summary: 'Send a message on a channel',
      description: `The message is trimmed; empty or only whitespace, or longer than ${MESSAGE_MAX} characters, it is refused (422).`,
      body: SendMessage,
      response: { 200: Sent },
    },
    handler: async ({ req }) => {
      const sent = await sendMessage(app.db, callerOf(req.auth!), req.body.channel_sid, req.body.message);
      await app.chat.publish(sent.event);
      return { success: true, message: 'Message sent.', data: sent.message };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/chats/fetch_messages',
    roles,
    record: onChannel('query'),
    schema: {
      tags: ['chat'],
      summary: "A channel's latest messages, oldest first; `before` (a message id) pages back",
      querystring: FetchMessagesQuery,
      response: { 200: Messages },
    },
    handler: async ({ req }) =>
      fetchMessages(app.db, callerOf(req.auth!), req.query.channel_sid, {
        before: req.query.before,
        limit: req.query.limit,
      }),
  });

  route(app, {
    method: 'POST',
    url: '/api/chats/mark_read',
    roles,
    record: onChannel('body'),
    schema: {
      tags: ['chat'],
      summary: "The caller's side has read the channel (up to message_id, or all of it)",
      body: MarkRead,
      response: { 200: Done },
    },
    handler: async ({ req }) => {
      const caller = callerOf(req.auth!);
      await markRead(app.db, caller, await channelOf(app.db, caller, req.body.channel_sid), req.body.message_id);
      return { success: true };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/chats/conversations',
    roles: builtInRolesOf('agency'),
    schema: {
      tags: ['chat'],
      summary: "The agency's conversations with staff, latest first, with unread counts",
      querystring: ConversationsQuery,
      response: { 200: Conversations },
    },
    handler: async ({ req }) => {
      const { page, per_page } = req.query;
      return { ...(await listConversations(app.db, req.auth!.merchant_id, page, per_page)), page, per_page };
    },
  });

  // Agency users only: a staff member's page is their one conversation, read as it is shown, so it has no badge.
  route(app, {
    method: 'GET',
    url: '/api/chats/unread_count',
    roles: builtInRolesOf('agency'),
    schema: {
      tags: ['chat'],
      summary: "The agency's unread messages from staff, over all conversations (the top bar's chat badge)",
      response: { 200: UnreadCount },
    },
    handler: async ({ ctx }) => ({ count: await unreadCount(ctx.db, ctx.principal.merchantId) }),
  });

  route(app, {
    method: 'GET',
    url: '/api/chats/stream',
    roles,
    schema: {
      tags: ['chat'],
      summary: 'New messages as they arrive (Server-Sent Events)',
      description:
        'An agency user hears every channel of the agency, a staff member their own. `after` (the last message id the screen has) first sends what was missed. ' +
        `The stream ends after \`wait\` seconds (${STREAM_SECONDS} by default); reconnect with \`after\`. Events: ready, message, resync (fetch again: messages may have been missed). ` +
        `It ends when its session ends. At most ${STREAMS_PER_SESSION} streams per session, ${STREAMS_PER_USER} per user and ${STREAMS_PER_AGENCY} per agency are open at once in a server process; more answer 429.`,
      querystring: StreamQuery,
      // Written to the raw response (hijacked): this documents the events.
      response: { 200: { description: 'The events', content: { 'text/event-stream': { schema: Stream } } } },
    },
    handler: async ({ req, reply }) => {
      const caller = callerOf(req.auth!);
      const listener = { merchantId: caller.merchantId, candidateId: caller.candidateId };
      // Counted and added with nothing awaited between, so parallel requests cannot all slip under the cap.
      const refused = app.chat.refusal(caller.merchantId, req.auth!.token_hash, req.auth!.id);
      if (refused) {
        reply.header('retry-after', '60');
        throw new HttpError(429, refused);
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // Proxies (nginx) must pass each event on at once.
        'x-accel-buffering': 'no',
      });
      let open = true;
      const write = (event: LiveEvent | { type: 'ready' }) => {
        if (!open) return;
        const idLine = event.type === 'message' ? `id: ${event.message.id}\n` : '';
        res.write(`${idLine}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      };
      // Live events heard while the backlog is read wait behind it, so the screen gets messages in order.
      let queued: LiveEvent[] | null = [];
      const { token_hash, id: userId, client_id } = req.auth!;
      // Ended at once when its session ends, in any process (the bus that ends sessions).
      const stop = app.chat.add({
        ...listener,
        deliver: (e) => (queued ? queued.push(e) : write(e)),
        session: { token_hash, id: userId, client_id, end: () => end() },
      });
      const end = () => {
        if (!open) return;
        open = false;
        openStreams.delete(end);
        stop();
        clearInterval(heartbeat);
        clearTimeout(timer);
        res.end();
      };
      const heartbeat = setInterval(async () => {
        // Sessions' ends are announced (above); while the bus is down announcements are missed, so this checks too.
        const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
        if (!token || !(await app.sessions.resolve(token))) return end();
        if (open) res.write(': still here\n\n');
      }, HEARTBEAT_MS);
      // wait=0 ends once the backlog is written (below); a zero timer could end the stream before it is read.
      const timer = req.query.wait > 0 ? setTimeout(end, req.query.wait * 1000) : undefined;
      req.raw.on('close', end);
      openStreams.add(end);
      try {
        const backlog = req.query.after !== undefined ? await app.chat.backlog(listener, req.query.after) : [];
        const seen = new Set(backlog.map((e) => (e.type === 'message' ? e.message.id : 0)));
        write({ type: 'ready' });
        backlog.forEach(write);
        for (const e of queued) if (e.type !== 'message' || !seen.has(e.message.id)) write(e);
        queued = null;
      } catch (e) {
        req.log.error({ err: e }, 'chat stream backlog failed');
        write({ type: 'resync' });
        queued = null;
      }
      if (req.query.wait === 0) end();
    },
  });
}
