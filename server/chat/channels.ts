import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index.js';
import { badInput, HttpError, notFound } from '../http.js';
import type { AuthUser } from '../auth/sessions.js';
import { notify } from '../notifications/notify.js';
import type { ChatMessage, Conversation, SenderType } from '../../core/contracts/chat.js';
import { multiLineText } from '../engine/input.js';

// The chat's limits are part of its contract (core/contracts/chat.ts), where its calls' schemas use them.
import { MESSAGE_MAX, MESSAGES_PAGE, MESSAGES_PAGE_MAX } from '../../core/contracts/chat.js';
export { MESSAGE_MAX, MESSAGES_PAGE, MESSAGES_PAGE_MAX };

export const EMPTY_MESSAGE = 'Type a message to send.';
export const LONG_MESSAGE = `A message can be at most ${MESSAGE_MAX} characters.`;
const NO_CHANNEL = 'Channel not found.';

/**
 * Who is chatting: an agency user (every agency user shares the agency's side of each channel) or a staff
 * member (their own channel only).
 */
export interface ChatCaller {
  userId: number;
  name: string;
  merchantId: number;
  /** The staff member's own staff record; null for an agency user. */
  candidateId: number | null;
}

export const callerOf = (u: AuthUser): ChatCaller => ({
  userId: u.id,
  name: u.name,
  merchantId: u.merchant_id,
  candidateId: u.loginType === 'staff' ? u.candidate_id : null,
});

/** The side a caller writes as: staff write as the Candidate, agency users as the Merchant. */
export const sideOf = (c: { candidateId: number | null }): SenderType =>
  c.candidateId === null ? 'Merchant' : 'Candidate';

export interface MessageRow {
  id: number;
  sender_name: string;
  sender_type: SenderType;
  content: string;
  created_at: string;
}

export const MESSAGE_COLUMNS = 'm.id, m.sender_name, m.sender_type, m.content, m.created_at';

export const messageFor = (row: MessageRow, reader: { candidateId: number | null }): ChatMessage => ({
  id: row.id,
  sender: row.sender_name,
  sender_type: row.sender_type,
  content: row.content,
  created_at: row.created_at,
  mine: row.sender_type === sideOf(reader),
});

export interface Channel {
  id: number;
  merchant_id: number;
  candidate_id: number;
  channel_sid: string;
  staff_name: string;
}

/** An unguessable channel id (Twilio-like: "CH" and 32 hex digits). */
export const newChannelSid = () => `CH${randomBytes(16).toString('hex')}`;

export interface CreateChannelInput {
  sender_id: number;
  sender_type: string;
  receiver_id: number;
  receiver_type: string;
}

/**
 * The channel between a staff member (the sender) and their agency (the receiver): made on first use, the same
 * one every time after. Agency users open one with any staff member of their own agency; a staff member only
 * their own. Anything else is not found (404), so other agencies' staff cannot be probed.
 */
export async function openChannel(db: Queryable, caller: ChatCaller, input: CreateChannelInput): Promise<string> {
  const errors: Record<string, string> = {};
  if (input.sender_type !== 'Candidate') errors.sender_type = 'Must be "Candidate".';
  if (input.receiver_type !== 'Merchant') errors.receiver_type = 'Must be "Merchant".';
  if (Object.keys(errors).length) throw badInput(errors);
  if (input.receiver_id !== caller.merchantId) throw notFound('Agency');
  if (caller.candidateId !== null && input.sender_id !== caller.candidateId) throw notFound('Staff member');
  const [candidate] = await db.query(
    'select id from candidates where merchant_id = $1 and id = $2 and deleted_at is null',
    [caller.merchantId, input.sender_id],
  );
  if (!candidate) throw notFound('Staff member');
  // One statement, safe under concurrency: the no-op update makes an existing row answer too.
  const [row] = await db.query<{ channel_sid: string }>(
    `insert into chat_channels (merchant_id, candidate_id, channel_sid) values ($1, $2, $3)
     on conflict (merchant_id, candidate_id) do update set merchant_id = excluded.merchant_id
     returning channel_sid`,
    [caller.merchantId, input.sender_id, newChannelSid()],
  );
  return row.channel_sid;
}

/** The caller's channel with this sid, or 404: another agency's, or (for a staff member) someone else's. */
export async function channelOf(db: Queryable, caller: ChatCaller, sid: string, lock = false): Promise<Channel> {
  const [channel] = await db.query<Channel>(
    `select c.id, c.merchant_id, c.candidate_id, c.channel_sid, ca.first_name || ' ' || ca.last_name as staff_name
       from chat_channels c join candidates ca on ca.merchant_id = c.merchant_id and ca.id = c.candidate_id
      where c.channel_sid = $1 and c.merchant_id = $2 and ($3::int is null or c.candidate_id = $3)
      ${lock ? 'for update of c' : ''}`,
    [sid, caller.merchantId, caller.candidateId],
  );
  if (!channel) throw new HttpError(404, NO_CHANNEL);
  return channel;
}

/**
 * The message as stored: trimmed, in NFC; empty, whitespace-only, over-long or hidden-character text is refused (422).
 */
export function messageText(raw: unknown): string {
  const checked = multiLineText(raw);
  if (checked.error && typeof raw === 'string') throw badInput({ message: checked.error }, checked.error);
  const text = checked.text ?? '';
  if (!text) throw badInput({ message: EMPTY_MESSAGE }, EMPTY_MESSAGE);
  if (text.length > MESSAGE_MAX) throw badInput({ message: LONG_MESSAGE }, LONG_MESSAGE);
  return text;
}

export interface SentMessage {
  message: ChatMessage;
  /** What the other processes are told (server/chat/live.ts). */
  event: { merchantId: number; candidateId: number; messageId: number };
}

/**
 * Stores a message on the caller's channel; the sender's side has read everything up to it. A message from a
 * staff member tells the agency (a 'message.received' notification), in the same transaction.
 */
export async function sendMessage(db: Db, caller: ChatCaller, sid: string, raw: unknown): Promise<SentMessage> {
  const text = messageText(raw);
  const side = sideOf(caller);
  return db.transaction(async (tx) => {
    // Locked: concurrent sends on one channel keep last_message_id the latest.
    const channel = await channelOf(tx, caller, sid, true);
    const [row] = await tx.query<MessageRow>(
      `insert into chat_messages as m (merchant_id, channel_id, sender_type, sender_user_id, sender_name, content)
       values ($1, $2, $3, $4, $5, $6) returning ${MESSAGE_COLUMNS}`,
      [caller.merchantId, channel.id, side, caller.userId, caller.name, text],
    );
    await tx.query(
      `update chat_channels set last_message_id = $2, last_message_at = $3, ${side === 'Merchant' ? 'agency_read_id' : 'staff_read_id'} = $2 where id = $1`,
      [channel.id, row.id, row.created_at],
    );
    if (side === 'Candidate') {
      await notify(tx, {
        merchantId: caller.merchantId,
        event: 'message.received',
        title: `New message from ${channel.staff_name}`,
        body: text.length > 140 ? `${text.slice(0, 139)}…` : text,
        link: `/chat?channel=${channel.channel_sid}`,
        audience: { agency: true },
        data: { staff_name: channel.staff_name, message: text },
      });
    }
    return {
      message: messageFor(row, caller),
      event: { merchantId: caller.merchantId, candidateId: channel.candidate_id, messageId: row.id },
    };
  });
}

/**
 * The latest messages of the caller's channel, oldest first (or those before the message `before`, to page
 * back). Reading the latest page marks the channel read for the caller's side.
 */
export async function fetchMessages(
  db: Queryable,
  caller: ChatCaller,
  sid: string,
  options: { before?: number; limit?: number } = {},
) {
  const channel = await channelOf(db, caller, sid);
  const limit = Math.min(options.limit ?? MESSAGES_PAGE, MESSAGES_PAGE_MAX);
  const rows = await db.query<MessageRow>(
    `select ${MESSAGE_COLUMNS} from chat_messages m
      where m.channel_id = $1 and ($2::int is null or m.id < $2) order by m.id desc limit $3`,
    [channel.id, options.before ?? null, limit + 1],
  );
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit).reverse();
  if (options.before === undefined && page.length) await markRead(db, caller, channel, page[page.length - 1].id);
  return {
    channel_sid: channel.channel_sid,
    staff_name: channel.staff_name,
    messages: page.map((r) => messageFor(r, caller)),
    has_more: hasMore,
  };
}

/** The caller's side has read the channel up to `upTo` (never backwards, never past its last message). */
export async function markRead(db: Queryable, caller: ChatCaller, channel: Channel, upTo?: number): Promise<void> {
  const column = sideOf(caller) === 'Merchant' ? 'agency_read_id' : 'staff_read_id';
  await db.query(
    `update chat_channels set ${column} = greatest(${column}, least(coalesce(last_message_id, 0), coalesce($2::int, last_message_id, 0)))
      where id = $1`,
    [channel.id, upTo ?? null],
  );
}

/**
 * The agency's conversations, latest first, a page at a time, with the messages from staff the agency has not
 * read: one statement (the unread count walks one channel's index range per row of the page).
 */
export async function listConversations(
  db: Queryable,
  merchantId: number,
  page: number,
  perPage: number,
): Promise<{ data: Conversation[]; total: number }> {
  const rows = await db.query<Conversation & { total: number }>(
    `select c.channel_sid, c.candidate_id, ca.first_name || ' ' || ca.last_name as staff_name, ca.profile_photo,
            m.content as last_message, m.sender_type as last_sender_type, c.last_message_at,
            (select count(*) from chat_messages u where u.channel_id = c.id and u.id > c.agency_read_id and u.sender_type = 'Candidate')::int as unread_count,
            count(*) over () as total
       from chat_channels c
       join candidates ca on ca.merchant_id = c.merchant_id and ca.id = c.candidate_id and ca.deleted_at is null
       left join chat_messages m on m.id = c.last_message_id
      where c.merchant_id = $1
      order by coalesce(c.last_message_at, c.created_at) desc, c.id desc
      limit $2 offset $3`,
    [merchantId, perPage, (page - 1) * perPage],
  );
  const total = rows[0]?.total ?? 0;
  return { data: rows.map(({ total: _t, ...r }) => r), total };
}

/**
 * The messages from staff the agency has not read, over all its conversations (the top bar's chat badge): the
 * sum of the conversation list's unread counts, so opening the screen can clear it. One statement: the channels
 * with something unread (last_message_id past agency_read_id), each walking its own index range of messages.
 */
export async function unreadCount(db: Queryable, merchantId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `select count(*)::int as count
       from chat_channels c
       join candidates ca on ca.merchant_id = c.merchant_id and ca.id = c.candidate_id and ca.deleted_at is null
       join chat_messages m on m.channel_id = c.id and m.id > c.agency_read_id and m.sender_type = 'Candidate'
      where c.merchant_id = $1 and c.last_message_id > c.agency_read_id`,
    [merchantId],
  );
  return row?.count ?? 0;
}
