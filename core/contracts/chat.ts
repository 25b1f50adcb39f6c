/** Chat between the agency and its staff (server/routes/chat.ts): the spec's three calls and the agency's list. */
import Type, { type Static } from 'typebox';
import { Id, Nullable, OneOf } from './common.js';

/** A message is at most this many characters (after trimming). */
export const MESSAGE_MAX = 2000;
/** fetch_messages answers the latest this many messages unless asked for fewer; `before` pages back. */
export const MESSAGES_PAGE = 50;
export const MESSAGES_PAGE_MAX = 100;
/** An open stream ends after this long (the screen reconnects at once, from the last message it has). */
export const STREAM_SECONDS = 60;

const Sid = Type.String({ minLength: 1, maxLength: 100 });
const SenderType = OneOf(['Candidate', 'Merchant']);

export const ChatMessage = Type.Object({
  id: Type.Integer(),
  /** The sender's name. */
  sender: Type.String(),
  sender_type: SenderType,
  content: Type.String(),
  created_at: Type.String(),
  /** Written by the caller's side (the agency's users share one side). */
  mine: Type.Boolean(),
});

export const CreateChannel = Type.Object({
  sender_id: Id,
  sender_type: Type.String({ maxLength: 20 }),
  receiver_id: Id,
  receiver_type: Type.String({ maxLength: 20 }),
});
export const Channel = Type.Object({ channel_sid: Type.String() });
export type Channel = Static<typeof Channel>;

// Over-long text is answered by the handler in the user's words (MESSAGE_MAX); this bound only stops abuse.
export const SendMessage = Type.Object({ channel_sid: Sid, message: Type.String({ maxLength: MESSAGE_MAX * 4 }) });
export const Sent = Type.Object({ success: Type.Boolean(), message: Type.String(), data: ChatMessage });
export type Sent = Static<typeof Sent>;

export const FetchMessagesQuery = Type.Object({
  channel_sid: Sid,
  before: Type.Optional(Id),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MESSAGES_PAGE_MAX, default: MESSAGES_PAGE })),
});
export const Messages = Type.Object({
  channel_sid: Type.String(),
  staff_name: Type.String(),
  messages: Type.Array(ChatMessage),
  has_more: Type.Boolean(),
});
export type Messages = Static<typeof Messages>;

export const MarkRead = Type.Object({ channel_sid: Sid, message_id: Type.Optional(Id) });
export const Done = Type.Object({ success: Type.Boolean() });

export const ConversationsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export const Conversation = Type.Object({
  channel_sid: Type.String(),
  candidate_id: Type.Integer(),
  staff_name: Type.String(),
  profile_photo: Nullable(Type.String()),
  last_message: Nullable(Type.String()),
  last_sender_type: Nullable(SenderType),
  last_message_at: Nullable(Type.String()),
  unread_count: Type.Integer(),
});
export const Conversations = Type.Object({
  data: Type.Array(Conversation),
  total: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
});
export type Conversations = Static<typeof Conversations>;

export const UnreadCount = Type.Object({ count: Type.Integer() });
export type UnreadCount = Static<typeof UnreadCount>;

export const StreamQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  wait: Type.Integer({ minimum: 0, maximum: 300, default: STREAM_SECONDS }),
});
/** Server-Sent Events (ready, message, resync), each a JSON line; documented only (the stream is written raw). */
export const Stream = Type.String({
  description: 'text/event-stream: events ready, message ({ type, message }), resync',
});

export type ChatMessage = Static<typeof ChatMessage>;
export type Conversation = Static<typeof Conversation>;
export type SenderType = Static<typeof SenderType>;
